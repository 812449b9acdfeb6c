// Types of web/world.js: the World, its chunks, component descriptions. See web/ecsia.d.ts.
// Thread rule: the page's main thread.

import type { Scheduler, SchedulerOptions } from './scheduler.js';

/** A 32-bit entity handle (index + generation bits): a number spawn() returned. */
export type Entity = number;

/** Field types of a component: numbers of those widths, `bool`, and `entity` (a handle or null). */
export type FieldType = 'f32' | 'f64' | 'i8' | 'i16' | 'i32' | 'u8' | 'u16' | 'u32' | 'bool' | 'entity';

/**
 * Values of one component by field name. Numbers for numeric fields (integers in range for the
 * integer types; NaN is rejected; Infinity is allowed in f32/f64); true/false (or 0/1) for
 * `bool`; a handle or null for `entity`.
 */
export type ComponentValues = { readonly [field: string]: number | boolean | null | undefined };

export interface FieldInfo {
  readonly name: string;
  readonly type: FieldType;
  /** Byte offset inside the component's element. */
  readonly offset: number;
}

/** What defineComponent() returns: a component's layout. */
export interface ComponentInfo {
  readonly id: number;
  readonly name: string;
  /** Bytes per element (0 for a tag). */
  readonly size: number;
  readonly alignment: number;
  /** A tag has no fields and no storage. */
  readonly tag: boolean;
  readonly fields: readonly FieldInfo[];
}

/** A view of one column: a typed array (every field the same type) or a DataView (mixed types). */
export type ColumnView =
  | Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array
  | DataView;

/**
 * One run of rows of one table. `columns[name]` is a zero-copy view over the component's column;
 * row i's field f is `columns[name][i * strides[name] + offsets[name][f]]` (for a DataView,
 * strides and offsets are in bytes). The views are valid while `stale` is false; re-fetch after.
 */
export interface Chunk {
  /** The world's storageGeneration when the chunk was made. */
  readonly generation: number;
  /** Rows in the chunk. */
  readonly count: number;
  /** The rows' entities, in row order. */
  readonly entities: Uint32Array;
  readonly columns: { readonly [component: string]: ColumnView };
  /** Elements (typed array) or bytes (DataView) per row. */
  readonly strides: { readonly [component: string]: number };
  /** Where each field sits inside a row, in the same unit as strides. */
  readonly offsets: { readonly [component: string]: { readonly [field: string]: number } };
  readonly world: World;
  /** True once the views may no longer show the world's data. */
  readonly stale: boolean;
}

/**
 * An ECS world. Every call validates all of its input before it changes anything: bad input
 * throws an Error naming the operation and the problem, and the world is unchanged.
 */
export interface World {
  /** True after dispose(); every other call then throws. */
  readonly disposed: boolean;
  /** Defines a component: { field: type }; {} defines a tag. */
  defineComponent(name: string, fields: { readonly [field: string]: FieldType }): ComponentInfo;
  /** Spawns an entity with components by name: `{ position: { x: 0, y: 0 }, frozen: true }`. */
  spawn(components?: { readonly [component: string]: ComponentValues | true | null | undefined }): Entity;
  despawn(entity: Entity): void;
  isAlive(entity: Entity): boolean;
  /** Adds a component (or overwrites it whole): fields not given get default values. */
  add(entity: Entity, name: string, values?: ComponentValues | true | null): void;
  remove(entity: Entity, name: string): void;
  has(entity: Entity, name: string): boolean;
  /** A copy of the component's values ({} for a tag). */
  get(entity: Entity, name: string): { [field: string]: number | boolean | null };
  /** Writes some or all fields; the others keep their values. */
  set(entity: Entity, name: string, values: ComponentValues): void;
  /** Entities that have every component in `withNames` and none in `withoutNames`. */
  count(withNames?: readonly string[] | string, withoutNames?: readonly string[] | string): number;
  /** Zero-copy views over the columns of every table with `withNames`. */
  chunks(withNames?: readonly string[] | string): Chunk[];
  /** Changes whenever views must be re-fetched: a column moved, a table appeared, the heap grew. */
  readonly storageGeneration: number;
  /** Whether a chunk of this world still shows the world's data. */
  isCurrent(chunk: Chunk): boolean;
  /** The 64-bit state hash as 16 hex digits: equal state, equal hash, in every build. */
  stateHash(): string;
  /** A scheduler over this world. Dispose it before the world. */
  createScheduler(options?: SchedulerOptions): Scheduler;
  /** Frees the world. Any later call throws; a second dispose does nothing. */
  dispose(): void;
}
