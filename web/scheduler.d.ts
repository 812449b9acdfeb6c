// Types of web/scheduler.js: the Scheduler and the systems it runs. See web/ecsia.d.ts.
// Thread rule: the page's main thread.

import type { Extract, ExtractSpec } from './extract.js';
import type { Chunk, PairTerm, QuerySpec } from './query.js';
import type { World } from './world.js';

export interface SchedulerOptions {
  /** Registered C++ system names to add, in order (e.g. ['Move', 'Bounce']); see Scheduler.addSystem. */
  systems?: readonly string[];
  /** Worker threads (default: the engine's; 0 = the serial executor; capped at the engine's). */
  workers?: number;
  /** Most rows per batch, 1 to 4294967295 (default 16384). */
  batchRows?: number;
  /** A wave's deadline in ms (default 30000). */
  waveDeadlineMs?: number;
  /** How long update() polls a just-dispatched wave before it awaits Atomics.waitAsync, 0..1000 µs (default 20). */
  fencePollUs?: number;
  /** Each frame and wave a performance.measure (Scheduler.userTiming); default false. */
  userTiming?: boolean;
}

/**
 * A JS system: runs on the main thread in the serial slot of its wave, with the world's full API.
 * (A JS kernel run in row batches, on the workers: KernelSystemSpec.)
 */
export interface SystemSpec {
  /** Unique among the scheduler's systems. */
  name: string;
  /** Components it reads and writes: they place it in the plan. */
  reads?: readonly string[];
  writes?: readonly string[];
  /** System names this one runs before / after. */
  before?: readonly string[];
  after?: readonly string[];
  /**
   * Rows the system works on: run() gets this query's chunks, changed/added relative to the
   * system's previous run (kept in the world: `world.restore()` rewinds it with everything else).
   * Writes through views of components in `writes` are change-tracked: views of these chunks and
   * of any chunks the system fetches from other queries while it runs (with or without a `query`
   * of its own).
   * The query's components count as reads in the plan unless listed in `writes`.
   */
  query?: QuerySpec;
  /**
   * With a query, an exclusive relation (e.g. 'ChildOf'): run() is called once per depth level,
   * in depth order (depth 0: rows without a target), with that level's chunks (chunk.depth); rows
   * a call adds or re-parents are placed by the levels still to come, up to as many levels as the
   * forest had when the system's run began.
   */
  cascade?: string;
  /**
   * With cascade: components whose parent values run() reads as chunk.parent[name] (a view shaped
   * like chunk.columns[name], a copy: writing it changes nothing, valid during that call only), as
   * the earlier levels' calls left them. Planned like reads.
   */
  parentReads?: readonly string[];
  /** Topics (world.defineTopic) it publishes with world.publish while it runs. */
  publishes?: readonly string[];
  /**
   * Topics whose messages run() gets in `messages`. The plan runs it after the systems that
   * publish them (unless before/after says otherwise: then it sees their messages next frame).
   */
  consumes?: readonly string[];
  /**
   * The body; `chunks` is the query's chunks (an empty list without a query); `messages` holds,
   * per consumed topic, the messages published since its previous run. An exception it throws
   * becomes a diagnostic naming the system; the frame goes on (with a cascade, its later levels
   * still run). Its messages count as seen either way.
   */
  run(world: World, dt: number, chunks: Chunk[], messages: MessagesByTopic): void;
}

/**
 * The messages of one topic a consumer sees in one run: those published since its previous run,
 * in publication order (the page's in call order, then each wave's: main-thread systems, then
 * kernel batches in batch order, each batch's in call order). Views over the engine's memory,
 * valid during the call only (and, in a main-thread system, until it publishes).
 */
export interface Messages extends Iterable<Record<string, number | boolean | null>> {
  /** The topic's name. */
  readonly topic: string;
  /** How many messages. */
  readonly count: number;
  /** A typed array per field, `count` long: fields.damage[i] is message i's damage (bool: Uint8Array, entity: Uint32Array). */
  readonly fields: Readonly<Record<string, Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array>>;
}

/** A consumer's messages, by topic name (only the topics it consumes). */
export type MessagesByTopic = Readonly<Record<string, Messages>>;

/** The rows of one batch a kernel sees: views of its declared components, made for this batch. */
export interface KernelChunk {
  /** Rows in the batch. */
  count: number;
  /** The rows' entity handles (a view: read it, never write it). */
  entities: Uint32Array;
  /**
   * Per declared component (reads and writes; tags have none): a typed-array view of the batch's
   * rows (a DataView for components of mixed field types), `undefined` for an optional component
   * the table lacks. Row i's field f: columns[c][i * strides[c] + offsets[c][f]] (bytes for a
   * DataView). Valid during the kernel call only.
   */
  columns: Record<string, Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array | DataView | undefined>;
  strides: Readonly<Record<string, number>>;
  offsets: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** A cascade system's level (0: rows without a parent); 0 for systems without cascade. */
  depth: number;
  /**
   * A cascade system's parentReads, below depth 0: per component, a view shaped like
   * columns[name] (same strides and offsets) of each row's parent's values, as this frame's
   * earlier levels left them (a parent lacking the component gives zeros). A copy made for the
   * batch: writing it changes nothing. Undefined at depth 0 and without parentReads.
   */
  parent: Record<string, Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array | DataView | undefined> | undefined;
  /**
   * Per component of the system's `lookups`: a view of the whole heap of its type (a DataView for
   * mixed field types), which lookup()'s indexes point into. Undefined without lookups.
   */
  readonly lookups: Readonly<Record<string, Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array | DataView>> | undefined;
  /**
   * Where `entity`'s value of `component` (one of the system's lookups) is: the index of its first
   * field in lookups[component] (a byte offset for a DataView; field f is at index +
   * offsets[component][f]), or -1 when the entity is not alive (despawned, stale, a pending
   * handle) or lacks the component. The values the waves before this one left. Allocates nothing;
   * an undeclared component throws (failing the batch).
   */
  lookup(component: string, entity: number): number;
  /**
   * lookup() of many entities at once (at most the batch's row count; e.g. an entity field's
   * column): their indexes (-1 where lookup() gives -1), valid until the next lookupAll() of this
   * batch. One call into the engine for all: about half what lookup() costs per entity at random
   * over 100,000 entities (docs/PERFORMANCE.md, hierarchy).
   */
  lookupAll(component: string, entities: ArrayLike<number>): Int32Array;
  /** `entity`'s target of an exclusive relation (e.g. 'ChildOf': its parent), or null when it has none or is not alive. */
  targetOf(entity: number, relation: string): number | null;
}

/** Structural changes a kernel records; they apply after the wave, in batch order. Valid during its call only. */
export interface KernelCommands {
  /**
   * Spawns an entity and returns its handle: a reserved one, or beyond `spawnsPerBatch` a pending
   * stand-in that later commands of the same batch (and entity fields of the batch's own rows)
   * may name; the merge gives it the real handle. Anywhere else it is refused, never taken for
   * another entity. 0xFFFFFFFF (null) once a batch spawned more than its wave has pending handles
   * for (a diagnostic says so); the entity is still spawned.
   */
  spawn(components?: Record<string, Record<string, number | boolean | null> | true>): number;
  despawn(entity: number): void;
  /** Adds (or overwrites) a whole component; fields not given get default values. */
  add(entity: number, component: string, values?: Record<string, number | boolean | null> | true): void;
  remove(entity: number, component: string): void;
  /** Writes the fields given; the others keep their values. */
  set(entity: number, component: string, values: Record<string, number | boolean | null>): void;
  /**
   * Adds the pair (relation, target) to `entity`, like world.addPair: `values` are the pair's data
   * (fields not given get defaults; left out, an existing pair keeps its data). Subject and target
   * may be handles spawn() returned earlier in the same batch. At the merge a pair whose subject
   * or target is dead by then is dropped; one the world refuses (a cycle of an acyclic relation
   * such as ChildOf) is skipped with a diagnostic.
   */
  addPair(entity: number, relation: string, target: number, values?: Record<string, number | boolean | null>): void;
  /** Removes the pair if present; target '*' removes every pair of the relation. */
  removePair(entity: number, relation: string, target: number | '*'): void;
  /**
   * Spawns an instance of `prefab` (a handle world.definePrefab returned), as spawn() does: its
   * components with the prefab's values, `overrides` over them (fields not given keep the
   * prefab's values), and the pair (IsA, prefab). Returns the handle as spawn() does.
   */
  instantiate(prefab: number, overrides?: Record<string, Record<string, number | boolean | null> | true>): number;
  /**
   * Publishes a message of a topic the system declares in `publishes` (fields not given get
   * defaults). It joins the topic at the merge, after the messages of the batches before this
   * one; an entity field may hold a handle spawn() returned.
   */
  publish(topic: string, values: Record<string, number | boolean | null>): void;
  /**
   * Publishes `count` messages at once, in order: per field a number (every message) or an
   * array-like of `count` numbers (message i gets element i); fields not given get defaults. All
   * or nothing. A Float32Array for an f32 field (checked for NaN in one pass) and a Uint32Array
   * for an entity or u32 field are copied whole: the fast way to publish many. Fastest (with
   * threads: written straight into the engine, an array per field) when every field of the topic
   * is given and is f32, u32 or entity, as a number or such a typed array: then it costs about a
   * copy of the values.
   */
  publishMany(topic: string, count: number, values: Record<string, number | ArrayLike<number>>): void;
}

/**
 * A JS kernel: an exported function of the kernel module (loadEcsia({ kernels })). Its results
 * must depend on its arguments only: each thread has its own instance of the kernel module and
 * the executor chooses per wave where batches run, so state kept between calls at module level
 * (a counter, a cache, a Map of handles) makes results depend on placement. loadEcsia({ debug:
 * true }) checks batches for it and names the kernel.
 */
export type Kernel = (chunk: KernelChunk, dt: number, commands: KernelCommands, messages: MessagesByTopic) => void;

/** Extra query terms of a kernel system (component names). */
export interface KernelQuery {
  with?: readonly string[];
  without?: readonly string[];
  /** Not required; the view is `undefined` where a table lacks it. */
  optional?: readonly string[];
  /** Only rows whose component changed (or was added) since the system's last run. */
  changed?: readonly string[];
  added?: readonly string[];
  /** Pairs every selected row's entity has: [relation, target or '*'] (as QuerySpec.pairs). */
  pairs?: readonly PairTerm[];
  /** Pairs no selected row's entity has (as QuerySpec.withoutPairs). */
  withoutPairs?: readonly PairTerm[];
  /** Match prefab entities too (definePrefab); by default queries skip them. */
  prefabs?: boolean;
}

/**
 * A JS kernel system: runs in row batches like a C++ system (on the workers in the threaded
 * build, inline with the serial executor and in the single build).
 */
export interface KernelSystemSpec {
  name: string;
  /** Components it reads and writes: the kernel gets views of these only; writes are change-tracked. */
  reads?: readonly string[];
  writes?: readonly string[];
  before?: readonly string[];
  after?: readonly string[];
  /** The kernel's export name; one of ecsia.kernels. */
  kernel: string;
  /** Rows need reads + writes + query.with, minus query.optional. */
  query?: KernelQuery;
  /** Handles reserved per batch for commands.spawn (default 0); spawns beyond get handles at the merge, with a diagnostic. */
  spawnsPerBatch?: number;
  /**
   * An exclusive relation (e.g. 'ChildOf'): the rows run in depth order, level after level (depth
   * 0: rows without a target), each level's batches in parallel; a chunk holds rows of one level.
   */
  cascade?: string;
  /**
   * With cascade: components whose parent values the kernel reads as chunk.parent[name], as this
   * frame's earlier levels left them. Planned like reads.
   */
  parentReads?: readonly string[];
  /**
   * Components the kernel reads of any live entity through chunk.lookup (a target's position, a
   * parent's). Planned like reads; a system cannot look up a component it writes.
   */
  lookups?: readonly string[];
  /** Topics it publishes through commands.publish. */
  publishes?: readonly string[];
  /**
   * Topics whose messages the kernel gets as its 4th argument: every batch of the system gets the
   * same, those published since the system's previous run.
   */
  consumes?: readonly string[];
}

export interface WaveTiming {
  wave: number;
  batches: number;
  beginUs: number;
  endUs: number;
  /**
   * Where the wave's batches ran, chosen per wave from measured costs (results never depend on
   * it): 'inline' on the page's thread, 'pool' on the workers, 'shared' on the workers with the
   * page's thread taking a bounded share (at most ~2 ms in one go).
   */
  placement: 'inline' | 'pool' | 'shared';
  /** With `recordTimeline` on: when its serial slot (the main-thread systems) ended, µs since the frame began. */
  serialEndUs?: number;
  /** With `recordTimeline` on: when its merge ended. Its batches ran between serialEndUs and endUs. */
  mergedUs?: number;
}

/** One batch of the last frame (`recordTimeline` on): what ran, where, and when. */
export interface BatchTiming {
  wave: number;
  /** The system's name. */
  system: string;
  /** The first row of its table that it ran, and how many. */
  firstRow: number;
  rows: number;
  /** The thread: a worker's index, or -1 for the page's thread. */
  lane: number;
  /** µs since the frame began, as WaveTiming's. */
  beginUs: number;
  endUs: number;
}

/** The last frame's timing. */
export interface FrameInfo {
  waves: WaveTiming[];
  /** Per worker, busy nanoseconds since start. */
  busyNs: number[];
  /** Per worker, jobs run since start. */
  jobs: number[];
  /**
   * µs the page's thread spent inside the engine during the last update() (serial slots, the
   * batches it ran, merges). update()'s other time the page was free: waiting for the workers, or
   * doing its own work (drawing) before the continuation ran.
   */
  pageUs: number;
  /** With `recordTimeline` on: every batch, in wave then batch order (empty for a frame that began before it was set). */
  batches?: BatchTiming[];
}

/** One system of scheduler.describePlan(). */
export interface PlannedSystem {
  name: string;
  /** A C++ system (registered in the module), a JS system on the main thread, or a JS kernel. */
  kind: 'c++' | 'js' | 'js-kernel';
  /** A JS kernel's export of the kernel module; null for the others. */
  kernel: string | null;
  /** Where it runs: the page's thread (in its wave's serial slot) or in batches on the workers. */
  thread: 'main' | 'workers';
  reads: string[];
  writes: string[];
  parentReads: string[];
  lookups: string[];
  publishes: string[];
  consumes: string[];
  /** The relation its rows run in depth order of, or null. */
  cascade: string | null;
  /** The system that fixed its wave (it runs after it), or null in the first wave. */
  after: string | null;
  /** Why it is in its wave, e.g. "writes 'position', which 'Render' reads". */
  why: string;
}

/** Every call throws once the scheduler, or its world, was disposed. */
export interface Scheduler {
  /** Worker threads this scheduler runs waves on (0: the serial executor). */
  readonly workers: number;
  /**
   * Frames completed over this scheduler's world: by every scheduler of the world, and set by
   * `world.restore()` to the count when the snapshot was taken. Read inside a frame (a JS system),
   * it is the frames completed before this one. An extract's `frame` is the same number.
   */
  readonly frames: number;
  readonly disposed: boolean;
  /**
   * Whether frames record their timeline for `lastFrame()` (batches and each wave's serial slot
   * and merge). Off by default, when a frame does no extra work; applies from the next frame.
   */
  recordTimeline: boolean;
  /**
   * Whether each frame and each of its waves is a User Timing measure ("ecsia frame N", "ecsia
   * frame N wave W (placement)"), shown by the browser's Performance panel. Off by default, when
   * a frame does no extra work; attachDevtools() turns it on while attached (unless its option
   * userTiming is false), and the panel's "measures" button toggles it. The measures are made
   * outside update(), a few frames at a time (at most 250 ms after the frame, or once 64 frames
   * are queued), with the frames' own times. Turning this off, or disposing the scheduler, makes
   * what is queued. Only the newest frames' measures stay in the
   * performance timeline (at most 256); a PerformanceObserver sees every one.
   */
  userTiming: boolean;
  /**
   * addSystem('Name'): the C++ system registered under that name in the loaded module
   * (ECSIA_REGISTER_SYSTEM in a module of your own, `loadEcsia({ module })`; the package's module
   * registers none); an unknown name throws, naming the registered ones. addSystem(spec): a JS system (SystemSpec),
   * or a JS kernel system (KernelSystemSpec).
   */
  addSystem(system: string | SystemSpec | KernelSystemSpec): void;
  /**
   * Runs one frame; the waves run on the workers while the page awaits the fence, never blocking.
   * dt is a finite number >= 0. A second update() while one runs is rejected. Should the page's
   * thread ever wait for a lock during it, a diagnostic says so (threaded build).
   */
  update(dt: number): Promise<void>;
  /**
   * At the end of every frame, copy `components` of the rows that have them (and `with`, and no
   * `without`) into buffers the page owns, in wasm (a memcpy per component per table): the page
   * draws frame N from `extract.latest()` while the waves of frame N+1 run. The first copy is
   * taken now. Unknown names, tags in `components`, a name in both `without` and the others, and
   * unknown keys are errors; not while update() runs.
   */
  extract(spec: ExtractSpec): Extract;
  /**
   * Removes a system between frames (UnknownSystem for an unknown name); the plan is made again
   * at the next update(). Messages only it had left to read are dropped.
   */
  removeSystem(name: string): void;
  /** The waves, as arrays of system names. */
  plan(): string[][];
  /** The plan as data: per wave, its systems. */
  describePlan(): PlannedSystem[][];
  /** Why each system is in its wave, and which run on the main thread, as text. */
  explainPlan(): string;
  lastFrame(): FrameInfo;
  /** Stops the workers (also mid-frame, without blocking the page). A second call does nothing. */
  dispose(): void;
}
