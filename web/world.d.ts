// Types of web/world.js: the World, component descriptions, observers and bulk calls. Query and
// Chunk: web/query.d.ts. See web/ecsia.d.ts.
// Thread rule: the page's main thread.

import type { Chunk, Query, QuerySpec } from './query.js';
import type { Scheduler, SchedulerOptions } from './scheduler.js';

export type { Chunk, ColumnView, PairTerm, Query, QuerySpec } from './query.js';

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

/** What despawning a pair's target does to its subjects: removes the pairs, or despawns the subjects too (recursively). */
export type OnDeleteTarget = 'remove' | 'delete';

/** A relation's options (defineRelation's third argument); every one optional. */
export interface RelationOptions {
  /** At most one target per subject: adding a pair with another target replaces the old pair. Default false. */
  exclusive?: boolean;
  /**
   * When a target is despawned: 'remove' (default) removes its pairs from the subjects; 'delete'
   * despawns the subjects too, recursively (a subtree goes with its root).
   */
  onDeleteTarget?: OnDeleteTarget;
  /** A pair on the subject itself, and any cycle through the relation, are refused. Default false. */
  acyclic?: boolean;
}

/**
 * What defineRelation() returns: the layout of one pair's data (as a component's: no fields for
 * a tag relation) and the options in force.
 */
export interface RelationInfo extends ComponentInfo {
  readonly exclusive: boolean;
  readonly onDeleteTarget: OnDeleteTarget;
  readonly acyclic: boolean;
}

/** A pair's target where any target may be meant: an entity, or '*' (any target). */
export type PairTarget = Entity | '*';

/** What an observer watches: a component added (also at spawn), removed (also at despawn), changed. */
export type ObserverEvent = 'add' | 'remove' | 'change';

/** world.inspect(): the world's entities, archetypes and memory. */
export interface WorldInspection {
  /** Entities alive (prefabs included). */
  entities: number;
  /** The most entities the world can hold (createWorld's maxEntities). */
  maxEntities: number;
  /** Each table of rows with the same components, with how many rows and bytes it holds. */
  archetypes: ArchetypeInfo[];
  memory: {
    /** The wasm memory, shared by the page and the workers. */
    heapBytes: number;
    /** Bytes the engine has allocated in it (tables, queues, the page's buffers). */
    allocatedBytes: number;
    /** What the archetypes' rows hold: their values and handles. */
    tableBytes: number;
  };
}

export interface ArchetypeInfo {
  /** Its components (tags too), in definition order. */
  components: string[];
  /** The relations its rows have pairs of (their targets are per row: world.pairsOf). */
  relations: string[];
  /** Whether its rows are prefabs (world.definePrefab). */
  prefab: boolean;
  rows: number;
  bytes: number;
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
  /**
   * Defines a topic: messages with these fields (at least one), which systems publish and consume
   * (SystemSpec.publishes / consumes). The same name and fields again return the description.
   */
  defineTopic(name: string, fields: { readonly [field: string]: FieldType }): ComponentInfo;
  /**
   * Publishes a message (fields not given get defaults), after every message published before it;
   * each consuming system sees it once, in its next run. Between frames, or from a main-thread
   * system that declares the topic in `publishes`; refused during a wave. Dropped at once when no
   * system consumes the topic.
   */
  publish(topic: string, values: { readonly [field: string]: number | boolean | null }): void;
  /** Spawns an entity with components by name: `{ position: { x: 0, y: 0 }, frozen: true }`. */
  spawn(components?: { readonly [component: string]: ComponentValues | true | null | undefined }): Entity;
  /**
   * Spawns `count` entities in one call; per field a number (every entity) or an array-like of
   * `count` numbers (entity i gets element i); `true` gives a component default values. All or
   * nothing: values and capacity are checked before the first entity is made. The new handles,
   * in order.
   */
  spawnMany(count: number, components?: { readonly [component: string]: ManyValues | true | null | undefined }): Uint32Array;
  /**
   * Defines a prefab (an entity with the hidden Prefab tag that queries skip unless asked with
   * `prefabs: true`): the components of `options.extends` (a prefab) with its values, then
   * `components` over them (fields not given keep the base's values), and the pair (IsA, base).
   * Returns its handle. Names are unique per world and survive a snapshot. Instances copy
   * values: changing a prefab later changes no existing instance.
   */
  definePrefab(name: string, components?: { readonly [component: string]: ComponentValues | true | null | undefined }, options?: { extends?: Entity }): Entity;
  /** The prefab named `name`; an error listing the defined prefabs when there is none. */
  prefab(name: string): Entity;
  /**
   * A new entity from `prefab`: its components and values, `overrides` over them (fields not
   * given keep the prefab's values; new components are added), and the pair (IsA, prefab).
   */
  instantiate(prefab: Entity, overrides?: { readonly [component: string]: ComponentValues | true | null | undefined }): Entity;
  /** `count` instances at once, values as spawnMany takes them; all or nothing. The new handles, in order. */
  instantiateMany(prefab: Entity, count: number, overrides?: { readonly [component: string]: ManyValues | true | null | undefined }): Uint32Array;
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

  // ---- relations: pairs (relation, target entity) on a subject entity. Relation names share the
  // components' names; ChildOf (exclusive, onDeleteTarget 'delete', acyclic) and IsA (exclusive, acyclic)
  // are built in. A relation named where a component belongs, or the reverse, is an error.

  /**
   * Defines a relation: `fields` as defineComponent takes them (none or {}: a tag relation, its
   * pairs carry no data) and its options. Defining a name again with the same fields and options
   * returns the existing description; anything else is an error.
   */
  defineRelation(name: string, fields?: { readonly [field: string]: FieldType }, options?: RelationOptions): RelationInfo;
  /**
   * Adds the pair (relation, target) to `subject` with data `values` (fields not given get
   * default values), or overwrites an existing pair's data whole, like add(). An exclusive
   * relation's other target is replaced. Refused, world unchanged: a dead or stale subject or
   * target, a pair that would make a cycle of an acyclic relation (ChildOf: an entity cannot be
   * its own ancestor), values that do not fit the fields.
   */
  addPair(subject: Entity, relation: string, target: Entity, values?: ComponentValues | true | null): void;
  /** Writes some or all fields of an existing pair's data; the others keep their values. */
  setPair(subject: Entity, relation: string, target: Entity, values: ComponentValues): void;
  /** A copy of the pair's data ({} for a tag relation's pair, like get() of a tag); an error when `subject` lacks the pair. */
  getPair(subject: Entity, relation: string, target: Entity): { [field: string]: number | boolean | null };
  /** Whether `subject` has the pair; target '*': any pair of the relation. A dead or stale subject or target is refused (StaleEntity), as by every pair call. */
  hasPair(subject: Entity, relation: string, target: PairTarget): boolean;
  /** Removes the pair if present (absent is fine); target '*': every pair of the relation on `subject`. */
  removePair(subject: Entity, relation: string, target: PairTarget): void;
  /** An exclusive relation's one target of `subject` (ChildOf: its parent), or null; an error for a non-exclusive relation. */
  targetOf(subject: Entity, relation: string): Entity | null;
  /**
   * Every target of `subject`'s pairs of the relation, in ascending entity index order (the low
   * index bits of the handle): a function of the pairs alone, never of the order they were
   * added, so the same after a snapshot round trip and in every build.
   */
  targetsOf(subject: Entity, relation: string): Entity[];
  /**
   * Every subject with the pair (relation, target), in ascending entity index order; target
   * '*': every subject with any pair of the relation, each once.
   */
  subjectsOf(relation: string, target: PairTarget): Entity[];

  /**
   * What the world holds now (what the devtools panel's World section shows). Archetypes with no
   * rows are left out.
   */
  inspect(): WorldInspection;
  /** The names of the entity's components (tags too), in definition order; StaleEntity when it is not alive. */
  componentsOf(entity: Entity): string[];
  /** The entity's pairs as [relation, target], by relation in definition order, then in ascending target index order (as targetsOf). */
  pairsOf(entity: Entity): Array<[relation: string, target: Entity]>;
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
  /**
   * With a relation's name: calls fn(subject, target) when one of its pairs is added ('add') or
   * removed ('remove': also when an exclusive pair is replaced, before the new one is added, and
   * when a despawn removes pairs; the pair's data still readable). Relations have no 'change'.
   */
  observe(event: 'add' | 'remove', relation: string, fn: (subject: Entity, target: Entity) => void): () => void;
  /** The 64-bit state hash as 16 hex digits: equal state, equal hash, in every build. WrongPhase while a wave runs on the workers. */
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
