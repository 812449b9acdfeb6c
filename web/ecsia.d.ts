// Types of the public JS API: the entry point web/ecsia.js. World, Query, Chunk: web/world.d.ts;
// Scheduler and system specs: web/scheduler.d.ts. These declarations are the JS reference (with
// docs/API.md); every public name is documented here, next to the code it describes.
//
// Thread rule for everything: the page's main thread (nothing here blocks it).

import type { World } from './world.js';

export type {
  ArchetypeInfo, ComponentInfo, ComponentValues, Entity, FieldInfo, FieldType, ManyValues, ObserverEvent, OnDeleteTarget, PairTarget,
  RelationInfo, RelationOptions, World, WorldInspection,
} from './world.js';
export type { Chunk, ColumnView, PairTerm, Query, QuerySpec } from './query.js';
export type {
  BatchTiming, FrameInfo, Kernel, KernelChunk, KernelCommands, KernelQuery, KernelSystemSpec, Messages, MessagesByTopic, PlannedSystem,
  Scheduler, SchedulerOptions, SystemSpec, WaveTiming,
} from './scheduler.js';
export type { Extract, ExtractedFrame, ExtractSpec } from './extract.js';

/** The null entity handle (all bits set): an `entity` field with no target reads as `null`. */
export declare const NULL_ENTITY: 0xffffffff;

/**
 * What `.code` an Error thrown by the engine carries (errors from the JS layer's own checks have
 * no code; every error's message names the operation and what was wrong, and nothing changed).
 */
export type ErrorCode =
  | 'CapacityExceeded'  // max_entities, a reservation, or a handle layout is full
  | 'StaleEntity'       // the handle is null, despawned, or from an older generation
  | 'MissingComponent'  // the entity does not have the component the operation needs
  | 'UnknownComponent'  // no component with that name is defined
  | 'UnknownField'      // the component has no field of that name
  | 'BadValue'          // a value does not fit its field type, or is otherwise out of range
  | 'BadDefinition'     // a component definition is malformed
  | 'DuplicateName'     // a component or system with that name already exists
  | 'WrongPhase'        // a structural change during a wave, outside a command buffer
  | 'BadPlan'           // cycles or unknown names in system ordering
  | 'WorkerFailure'     // the worker pool could not start or a wave missed its deadline
  | 'Disposed'          // the object was disposed
  | 'UnknownSystem'     // no C++ system is registered under that name (ECSIA_REGISTER_SYSTEM)
  | 'BadSnapshot'       // restore(): the bytes are not a valid snapshot (truncated, corrupt, another version)
  | 'SnapshotMismatch'  // restore(): a valid snapshot this world cannot take (a component missing or different)
  | 'UndeclaredAccess'  // a kernel touched a component its system did not declare (debug builds)
  | 'UnknownTopic'      // no topic of that name, or the system does not consume it
  | 'OutOfMemory'       // the wasm heap cannot grow any further
  | 'KernelTrap'        // scheduler.update(): wasm code trapped on the page's thread; that frame ended there, the next runs
  | 'InternalError';    // a bug: please report it

/** An Error from the engine: `code` says which kind (see ErrorCode). */
export interface EcsiaError extends Error {
  code?: ErrorCode;
}

export interface LoadOptions {
  /**
   * 'auto' (default): one worker per logical core except the page's own thread
   * (navigator.hardwareConcurrency - 1, at least 1, at most the build's pool), so workers never
   * share a core with the page; `ecsia.workers` says what it chose. A number asks for that many
   * (clamped to the pool, with a diagnostic); 0 loads the single-threaded build. Without cross-origin isolation the single build loads, with one
   * diagnostic saying why.
   */
  threads?: 'auto' | number;
  /**
   * Receives every warning (G3: nothing is silent). Default: console.warn. What a system's work
   * causes names the system ("system 'Name': ..."); one repeated in consecutive frames is said
   * once, then as "... (repeated: N more like it in M later frame(s))" when it stops, every 300
   * frames while it goes on, and when the scheduler is disposed.
   */
  onDiagnostic?: (message: string) => void;
  /**
   * The kernel module: an ES module whose exported functions are JS kernels
   * (scheduler.addSystem({ kernel })). A string is resolved against the page's address. Imported
   * on the page first, then on every worker; one that fails to load rejects, naming its URL.
   * Each thread has its own instance of it: a kernel's results must depend on its arguments
   * only, never on state kept between calls at module level (see `debug`).
   */
  kernels?: string | URL;
  /**
   * The URL prefix of a browser module of your own (CMake: ecsia_add_browser_module(<name> ...)):
   * `<prefix>_threaded.mjs` or `<prefix>_single.mjs` loads instead of the engine's own module. A
   * string is resolved against the page; a URL (e.g. new URL("./dist/mygame", import.meta.url)) is
   * taken as it is. Rejects naming every URL tried when the files are missing.
   */
  module?: string | URL;
  /**
   * true: load the module built with declared-access checks (ECSIA_ACCESS_CHECKS), where a
   * kernel that reads or writes a component its system did not declare fails its batch with a
   * diagnostic naming the system and the component. Slower kernels; for development. Default false. With `module`, loads that
   * module's debug variant (`<prefix>_threaded_debug.mjs`, built with VARIANTS threaded_debug single_debug).
   * With `kernels`, JS kernels are checked too: about one batch in two runs a second time on a
   * second instance of the kernel module, with the same inputs; a kernel whose column writes or
   * commands then differ (module-level state) is named in a diagnostic, once per system, and the
   * world keeps the first run's results.
   */
  debug?: boolean;
}

/** Loads the engine: the threaded wasm build where the page can run it, the single build otherwise. */
export declare function loadEcsia(options?: LoadOptions): Promise<Ecsia>;

export interface WorldOptions {
  /** Most entities alive at once, 1 to 4194303 (default 1048576). */
  maxEntities?: number;
}

/** A loaded engine (one wasm module). */
export interface Ecsia {
  /** Which build was loaded. */
  readonly variant: 'threaded' | 'single';
  /** Worker threads in use (what threads: 'auto' chose, or the number asked for); 0 in the single build. */
  readonly workers: number;
  /** The most workers this build can run (0 in the single build). */
  readonly maxWorkers: number;
  /**
   * The Web Workers loadEcsia started for the pool: as many as `workers` (the rest of the build's
   * pool is never started), 0 in the single build.
   */
  readonly startedWorkers: number;
  /** The kernel module's kernels (its exported functions' names, sorted); [] without one. */
  readonly kernels: readonly string[];
  /** The C++ systems the loaded module registered (ECSIA_REGISTER_SYSTEM), sorted: names for addSystem. */
  readonly systems: readonly string[];
  /** True for the debug module (loadEcsia({ debug: true })): kernels' declared access is checked. */
  readonly debug: boolean;
  /**
   * A new, empty world holding the components the loaded module registered
   * (ECSIA_REGISTER_COMPONENT): none in the engine's own module, so only what the page defines.
   */
  createWorld(options?: WorldOptions): World;
}
