// Types of web/builtins.js: the test module's own API (web/test/dist/ecsia_test: tests,
// benchmarks, the demo). Not part of the engine's API; neither the package's module nor a module
// of your own has it.
// Thread rule: the page's main thread, between frames.

import type { Ecsia } from './ecsia.js';
import type { Scheduler } from './scheduler.js';
import type { World } from './world.js';

/** Settings of the built-in C++ systems (any subset; the rest are the defaults). */
export interface BuiltinConfig {
  seed?: number;
  spawnsPerFrame?: number;
  spawnReservation?: number;
  maxAge?: number;
  heavySteps?: number;
}

/** The determinism scenario's observer event log (setupScenario). */
export interface Scenario {
  /** The event log, hashed (16 hex digits): equal runs, equal hash. Throws once its world is disposed. */
  observerLogHash(): string;
  /** How many observer events fired so far. */
  observerEvents(): number;
}

export interface Builtins {
  /** Spawns `count` movers (position, velocity, age, energy, seen); { bare: true }: position and velocity only. */
  spawnMovers(world: World, count: number, seed?: number, options?: { bare?: boolean }): void;
  /** Spawns `perGroup` entities in each heavy group heavy0..heavy7, or in `group` (0..7) only. */
  spawnHeavy(world: World, perGroup: number, seed?: number, options?: { group?: number }): void;
  /** Adds built-in system `name` with settings. */
  addSystem(scheduler: Scheduler, name: string, config?: BuiltinConfig): void;
  /** Adds a system that fails on purpose (fault tests): a trap, heap exhaustion, an undeclared write. */
  addFaultSystem(scheduler: Scheduler, name: 'FaultUndeclared' | 'FaultTrap' | 'FaultExhaust'): void;
  /** Sets up the native tests' determinism scenario on `scheduler` and its world. */
  setupScenario(scheduler: Scheduler, seed: number): Scenario;
}

/** The test module's API for an engine from loadEcsia(); throws for a module without the built-ins. */
export function builtinsOf(ecsia: Ecsia): Builtins;

/**
 * Pins where every later wave of `scheduler` runs ('' lets the executor decide again); results
 * never depend on it. Throws for a module without the test hooks.
 */
export function forcePlacement(scheduler: Scheduler, placement: 'inline' | 'pool' | 'shared' | ''): void;
