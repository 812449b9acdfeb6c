// The test module's own API (web/test/dist/ecsia_test_*, built by wasm/CMakeLists.txt): the
// entities of the reference workloads (DESIGN.md), the determinism scenario of the native tests,
// the built-in systems with settings (src/builtin/), and the test hook that pins where waves run.
// Tests, benchmarks and the demo load that module and use this; it is not part of the engine's
// API, and neither the engine's own module (the package's) nor a module of your own
// (ecsia_add_browser_module) has it.
//
//   import { builtinsOf, forcePlacement } from './builtins.js';
//   const builtins = builtinsOf(ecsia);   // ecsia = await loadEcsia({ module: TEST_MODULE })
//   builtins.spawnMovers(world, 1000, seed)               // position, velocity, age, energy, seen
//   builtins.spawnMovers(world, 1000, 1, { bare: true })  // the *move* workload: position, velocity
//   builtins.spawnHeavy(world, 1024, seed)                // 1024 in each of heavy0..heavy7
//   builtins.spawnHeavy(world, 8192, seed, { group: 3 })  // heavy3 only
//   builtins.addSystem(scheduler, 'Heavy0', { heavySteps: 256 })
//   const scenario = builtins.setupScenario(scheduler, 1) // movers, 7 systems, observers
//   scenario.observerLogHash()                            // equal runs, equal hash
//   forcePlacement(scheduler, 'pool')                     // every later wave on the pool
//
// Thread rule: the page's main thread, between frames (not while scheduler.update() runs).

import { describe, isPlainObject } from './internal/checks.js';
import { internalsOf } from './internal/engine.js';

function checkCount(op, what, value) {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new Error(`builtins.${op}: ${what} must be a whole number >= 0, got ${describe(value)}`);
  }
}

function checkSeed(op, seed) {
  if (!Number.isInteger(seed) || seed < 0 || seed > Number.MAX_SAFE_INTEGER) {
    throw new Error(`builtins.${op}: seed must be a whole number >= 0, got ${describe(seed)}`);
  }
}

// A Scenario's raw handle only looks at the log its world owns; free it with the wrapper.
const handles = new FinalizationRegistry((raw) => raw.delete());

/** The scenario's observers' event log (setupScenario): equal runs fire equal sequences. */
class Scenario {
  #engine;
  #raw;
  constructor(engine, raw) {
    this.#engine = engine;
    this.#raw = raw;
    handles.register(this, raw);
  }
  /** The event log, hashed (16 hex digits). Throws once the scenario's world is disposed. */
  observerLogHash() { return this.#engine.call('scenario.observerLogHash', () => this.#raw.observerLogHash()); }
  /** How many observer events fired so far. */
  observerEvents() { return this.#engine.call('scenario.observerEvents', () => this.#raw.observerEvents()); }
}

class Builtins {
  #engine;
  constructor(engine) { this.#engine = engine; }

  // Calls the raw module's built-in API through the engine's stack-restoring call.
  #call(op, fn) {
    return this.#engine.call(`builtins.${op}`, () => fn(this.#engine.module));
  }

  /**
   * Spawns `count` moving entities of the built-in kind (position, velocity, age, energy, seen)
   * from `seed`. With { bare: true }: position and velocity only, the values of DESIGN.md's *move*
   * workload (seed unused).
   */
  spawnMovers(world, count, seed = 1, { bare = false } = {}) {
    checkCount('spawnMovers', 'count', count);
    checkSeed('spawnMovers', seed);
    const raw = internalsOf(world, 'world').raw('spawnMovers');
    if (bare) this.#call('spawnMovers', (m) => m.builtinSpawnMoveWorkload(raw, count));
    else this.#call('spawnMovers', (m) => m.builtinSpawnMovers(raw, count, seed));
  }

  /**
   * Spawns `perGroup` entities in each of the heavy workload's 8 groups (heavy0..heavy7), or with
   * { group: g } in group g (0..7) only: the one-system variant (addSystem(`Heavy${g}`)).
   */
  spawnHeavy(world, perGroup, seed = 1, { group } = {}) {
    checkCount('spawnHeavy', 'perGroup', perGroup);
    checkSeed('spawnHeavy', seed);
    if (group !== undefined && !(Number.isInteger(group) && group >= 0 && group <= 7)) {
      throw new Error(`builtins.spawnHeavy: group must be a whole number 0..7, got ${describe(group)}`);
    }
    const raw = internalsOf(world, 'world').raw('spawnHeavy');
    if (group === undefined) this.#call('spawnHeavy', (m) => m.builtinSpawnHeavy(raw, perGroup, seed));
    else this.#call('spawnHeavy', (m) => m.builtinSpawnHeavyGroup(raw, group, perGroup, seed));
  }

  /**
   * Adds built-in system `name` with settings { seed, spawnsPerFrame, spawnReservation, maxAge,
   * heavySteps } (any subset; the rest are the defaults scheduler.addSystem(name) uses).
   */
  addSystem(scheduler, name, config = {}) {
    if (typeof name !== 'string') throw new Error(`builtins.addSystem: a system name must be a string, got ${describe(name)}`);
    if (!isPlainObject(config)) {
      throw new Error(`builtins.addSystem('${name}'): config must be an object, got ${describe(config)}`);
    }
    const raw = internalsOf(scheduler, 'scheduler').raw('addSystem');
    this.#call('addSystem', (m) => m.builtinAddSystem(raw, name, config));
  }

  /**
   * Adds a system that fails on purpose (src/builtin/faults.hpp), for the fault tests:
   * 'FaultUndeclared' (writes a component it did not declare: refused by the debug modules),
   * 'FaultTrap' (its first batch traps on its worker), 'FaultExhaust' (its first batch allocates
   * until the heap is exhausted).
   */
  addFaultSystem(scheduler, name) {
    if (typeof name !== 'string') throw new Error(`builtins.addFaultSystem: a system name must be a string, got ${describe(name)}`);
    const raw = internalsOf(scheduler, 'scheduler').raw('addFaultSystem');
    this.#call('addFaultSystem', (m) => m.builtinAddFaultSystem(raw, name));
  }

  /**
   * Sets up the determinism scenario of the native tests (src/builtin/scenario.hpp) on `scheduler`
   * and its world: initial movers, the seven scenario systems and observers. Returns a Scenario
   * whose observerLogHash() the tests compare across builds and worker counts.
   */
  setupScenario(scheduler, seed) {
    checkSeed('setupScenario', seed);
    const raw = internalsOf(scheduler, 'scheduler').raw('setupScenario');
    const scenario = this.#call('setupScenario', (m) => m.builtinSetupScenario(raw, seed));
    return new Scenario(this.#engine, scenario);
  }
}

/**
 * The test module's built-ins API for an engine from loadEcsia(). Throws when the loaded module was not
 * built with the built-ins (a module of your own).
 */
export function builtinsOf(ecsia) {
  let engine;
  try {
    engine = internalsOf(ecsia, 'engine');
  } catch {
    throw new Error(`builtinsOf: takes the engine loadEcsia() returned, got ${describe(ecsia)}`);
  }
  if (typeof engine.module.builtinSetupScenario !== 'function') {
    throw new Error('builtinsOf: the loaded module has no built-ins (load the test module, web/test/dist/ecsia_test)');
  }
  return new Builtins(engine);
}

const PLACEMENTS = ['inline', 'pool', 'shared', ''];

/**
 * The test hook that pins where every later wave of `scheduler` runs: 'inline' (on the page's
 * thread), 'pool' (on the workers), 'shared' (both), or '' (the executor decides again). Results
 * never depend on it (G1); a check that needs batches on the workers uses it to get them. A
 * scheduler without workers always runs inline. Throws for a module without the test hooks.
 */
export function forcePlacement(scheduler, placement) {
  const internal = internalsOf(scheduler, 'scheduler');
  if (!PLACEMENTS.includes(placement)) {
    throw new Error(`forcePlacement: placement must be one of ${PLACEMENTS.map((p) => `'${p}'`).join(', ')}, got ${describe(placement)}`);
  }
  const { engine } = internal;
  if (typeof engine.module.testForcePlacement !== 'function') {
    throw new Error('forcePlacement: the loaded module has no test hooks (load the test module, web/test/dist/ecsia_test)');
  }
  const raw = internal.raw('forcePlacement');
  engine.call('forcePlacement', () => engine.module.testForcePlacement(raw, placement));
}
