// Types of web/scheduler.js: the Scheduler and the systems it runs. See web/ecsia.d.ts.
// Thread rule: the page's main thread.

import type { World } from './world.js';

/** Settings of the built-in C++ systems (any subset). */
export interface BuiltinConfig {
  seed?: number;
  spawnsPerFrame?: number;
  spawnReservation?: number;
  maxAge?: number;
  heavySteps?: number;
}

export interface SchedulerOptions {
  /** Built-in system names to add, in order (e.g. ['Move', 'Bounce']). */
  systems?: readonly string[];
  /** Worker threads (default: the engine's; 0 = the serial executor; capped at the engine's). */
  workers?: number;
  /** Settings of the built-in systems. */
  config?: BuiltinConfig;
  /** Most rows per batch (default 16384). */
  batchRows?: number;
  /** A wave's deadline in ms (default 30000). */
  waveDeadlineMs?: number;
  /** How long update() polls a just-dispatched wave before it awaits Atomics.waitAsync, 0..1000 µs (default 20). */
  fencePollUs?: number;
  /** Sets up the determinism scenario of the native tests (tests and demo). */
  scenarioSeed?: number;
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
  /** Adds a built-in C++ system by name. */
  addBuiltin(name: string, config?: BuiltinConfig): void;
  /** Adds a JS system (see SystemSpec). */
  addSystem(spec: SystemSpec): void;
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
  /** The scenario observers' event log, hashed (scenarioSeed only). */
  observerLogHash(): string;
  /** Spawns `count` moving entities of the built-in kind; { bare: true }: position and velocity only. */
  spawnMovers(count: number, seed?: number, options?: { bare?: boolean }): void;
  /** Spawns `perGroup` entities in each of the heavy workload's 8 groups, or in `group` only. */
  spawnHeavy(perGroup: number, seed?: number, options?: { group?: number }): void;
  /** Stops the workers (also mid-frame, without blocking the page). A second call does nothing. */
  dispose(): void;
}
