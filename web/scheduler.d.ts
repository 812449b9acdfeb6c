// Types of web/scheduler.js: the Scheduler and the systems it runs. See web/ecsia.d.ts.
// Thread rule: the page's main thread.

import type { World } from './world.js';

export interface SchedulerOptions {
  /** Registered C++ system names to add, in order (e.g. ['Move', 'Bounce']); see Scheduler.addSystem. */
  systems?: readonly string[];
  /** Worker threads (default: the engine's; 0 = the serial executor; capped at the engine's). */
  workers?: number;
  /** Most rows per batch (default 16384). */
  batchRows?: number;
  /** A wave's deadline in ms (default 30000). */
  waveDeadlineMs?: number;
  /** How long update() polls a just-dispatched wave before it awaits Atomics.waitAsync, 0..1000 µs (default 20). */
  fencePollUs?: number;
}

/** A JS system: runs on the main thread in the serial slot of its wave, with the world's full API. */
export interface SystemSpec {
  /** Unique among the scheduler's systems. */
  name: string;
  /** Components it reads and writes: they place it in the plan. */
  reads?: readonly string[];
  writes?: readonly string[];
  /** System names this one runs before / after. */
  before?: readonly string[];
  after?: readonly string[];
  /** The body. An exception it throws becomes a diagnostic naming the system; the frame goes on. */
  run(world: World, dt: number): void;
}

export interface WaveTiming {
  wave: number;
  batches: number;
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
}

export interface Scheduler {
  /** Worker threads this scheduler runs waves on (0: the serial executor). */
  readonly workers: number;
  /** Frames completed. */
  readonly frames: number;
  readonly disposed: boolean;
  /**
   * addSystem('Name'): the C++ system registered under that name in the loaded module
   * (ECSIA_REGISTER_SYSTEM; the engine's own module has Move, Bounce, Attract, Heavy0..7, ...);
   * an unknown name throws, naming the registered ones. addSystem(spec): a JS system (SystemSpec).
   */
  addSystem(system: string | SystemSpec): void;
  /**
   * Runs one frame; the waves run on the workers while the page awaits the fence, never blocking.
   * A second update() while one runs is rejected.
   */
  update(dt: number): Promise<void>;
  /** The waves, as arrays of system names. */
  plan(): string[][];
  /** Why each system is in its wave, and which run on the main thread, as text. */
  explainPlan(): string;
  lastFrame(): FrameInfo;
  /** Stops the workers (also mid-frame, without blocking the page). A second call does nothing. */
  dispose(): void;
}
