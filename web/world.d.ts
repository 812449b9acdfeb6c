// Types of web/world.js: the World, component descriptions, observers and bulk calls. Query and
// Chunk: web/query.d.ts. See web/ecsia.d.ts.
// Thread rule: the page's main thread.

import type { Chunk, Query, QuerySpec } from './query.js';
import type { Scheduler, SchedulerOptions } from './scheduler.js';

export type { Chunk, ColumnView, Query, QuerySpec } from './query.js';

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

/** Values for spawnMany and addMany: per field, one number for every entity or an array-like of one number per entity. */
export type ManyValues = { readonly [field: string]: number | boolean | null | ArrayLike<number> | undefined };

/** What an observer watches: a component added (also at spawn), removed (also at despawn), changed. */
export type ObserverEvent = 'add' | 'remove' | 'change';

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
  /**
   * Spawns `count` entities in one call; per field a number (every entity) or an array-like of
   * `count` numbers (entity i gets element i); `true` gives a component default values. All or
   * nothing: values and capacity are checked before the first entity is made. The new handles,
   * in order.
   */
  spawnMany(count: number, components?: { readonly [component: string]: ManyValues | true | null | undefined }): Uint32Array;
  despawn(entity: Entity): void;
  /** Despawns every handle; all or nothing (each must be alive, none twice). */
  despawnMany(handles: ArrayLike<Entity>): void;
  isAlive(entity: Entity): boolean;
  /** Adds a component (or overwrites it whole): fields not given get default values. */
  add(entity: Entity, name: string, values?: ComponentValues | true | null): void;
  /**
   * Adds (or overwrites) one component on every entity of `handles` (none twice): entity i gets
   * field values as spawnMany takes them (one number for all, or element i of an array-like);
   * no values (or `true`) gives default values. All or nothing: handles, values and phase are
   * checked before the first entity changes; observers fire as for add(), in list order.
   */
  addMany(handles: ArrayLike<Entity>, name: string, values?: ManyValues | true | null): void;
  remove(entity: Entity, name: string): void;
  /** Removes one component from every entity of `handles` that has it (none twice); all or nothing. */
  removeMany(handles: ArrayLike<Entity>, name: string): void;
  has(entity: Entity, name: string): boolean;
  /** A copy of the component's values ({} for a tag). */
  get(entity: Entity, name: string): { [field: string]: number | boolean | null };
  /** Writes some or all fields; the others keep their values. The change is tracked. */
  set(entity: Entity, name: string, values: ComponentValues): void;
  /**
   * Marks a component changed (for `changed` queries and change observers) after writes through
   * views outside a system that declares it: one entity's component, or every row of a chunk.
   */
  markChanged(entityOrChunk: Entity | Chunk, name: string): void;
  /** Entities that have every component in `withNames` and none in `withoutNames`. */
  count(withNames?: readonly string[] | string, withoutNames?: readonly string[] | string): number;
  /** A cached query (see Query). */
  query(spec: QuerySpec): Query;
  /**
   * Zero-copy views over the columns of every table with all of `withNames` and none of
   * `withoutNames`: world.query({ with, without }).chunks(), cached per argument list.
   */
  chunks(withNames?: readonly string[] | string, withoutNames?: readonly string[] | string): Chunk[];
  /** Changes whenever views must be re-fetched because memory moved: a column moved, a table appeared, the heap grew. */
  readonly storageGeneration: number;
  /** Whether a chunk of this world still shows the world's data (see Chunk.stale). */
  isCurrent(chunk: Chunk): boolean;
  /**
   * Calls fn(entity) when `name` is added ('add', also at spawn), removed ('remove', also at
   * despawn; values still readable) or changed ('change': a tracked write, at the next flush).
   * Same points and order as the engine's C++ observers (the order of the changes, then of
   * registration), for every worker count and both builds. fn must not make structural changes;
   * a throwing fn becomes a diagnostic naming it. Returns a function that unsubscribes.
   */
  observe(event: ObserverEvent, name: string, fn: (entity: Entity) => void): () => void;
  /** The 64-bit state hash as 16 hex digits: equal state, equal hash, in every build. */
  stateHash(): string;
  /**
   * The world's whole state as bytes (docs/SNAPSHOT.md): entities with their generations and the
   * free list, component values, change ticks, the schedulers' cursors. Restore it and run the
   * same systems, and every later frame hashes exactly as the original did. Between frames only.
   * With `into`: written at its start when it is large enough (into.subarray(0, size) is
   * returned), otherwise into a new Uint8Array; reuse saves the cost of a fresh allocation.
   */
  snapshot(into?: Uint8Array): Uint8Array;
  /**
   * Replaces the world's state with a snapshot's (this world's, or one of any world with the same
   * components and maxEntities). Throws an EcsiaError with code 'BadSnapshot' or
   * 'SnapshotMismatch' and leaves the world unchanged when it cannot. The values are read into
   * spare memory and swapped in once all is valid: the first restore of a table allocates as much
   * as its columns hold, which later restores reuse (until the world is disposed).
   */
  restore(bytes: Uint8Array | ArrayBuffer): void;
  /** A scheduler over this world. Disposing the world disposes it too (its calls then throw). */
  createScheduler(options?: SchedulerOptions): Scheduler;
  /** Frees the world, its queries and schedulers. Any later call throws; a second dispose does nothing. Not inside a system or observer. */
  dispose(): void;
}
