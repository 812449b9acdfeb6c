// Helpers for e2e/snapshot.spec.js: the determinism scenario with a snapshot in the middle, as the
// native tests run it (tests/support/snapshot_checks.hpp: maxEntities 65536, batch rows 128).
import { builtinsOf } from '../builtins.js';

/** A fresh world running the scenario (seed 1) on `workers` workers. */
export function scenarioWorld(ecsia, workers) {
  const world = ecsia.createWorld({ maxEntities: 1 << 16 });
  const scheduler = world.createScheduler({ workers, batchRows: 128 });
  builtinsOf(ecsia).setupScenario(scheduler, 1);
  return { world, scheduler };
}

/** Runs `frames` frames; the state hash after each. */
export async function runFrames({ world, scheduler }, frames) {
  const hashes = [];
  for (let f = 0; f < frames; f++) {
    await scheduler.update(1 / 60);
    hashes.push(world.stateHash());
  }
  return hashes;
}

export function dispose({ world, scheduler }) {
  scheduler.dispose();
  world.dispose();
}
