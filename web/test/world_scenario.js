// A seeded sequence of world operations (spawn, despawn, add, remove, set) through the JS API.
// Same seed and steps, same operations: the threaded and the single build must end with the same
// stateHash(). Values are exact in f32 (multiples of 1/8), so no rounding differs between builds.

import { rng } from './rng.js';

export function defineScenarioComponents(world) {
  world.defineComponent('health', { hp: 'i32', alive: 'bool', regen: 'f64' });
  world.defineComponent('target', { who: 'entity' });
  world.defineComponent('frozen', {});
}

/** Runs `steps` operations; returns { hash, alive, spawned, despawned }. */
export function runOperations(world, seed, steps) {
  defineScenarioComponents(world);
  const next = rng(seed);
  const value = () => (next(16_001) - 8_000) / 8;
  const live = [];
  let spawned = 0;
  let despawned = 0;
  for (let step = 0; step < steps; step += 1) {
    const op = live.length === 0 ? 0 : next(10);
    const at = live.length === 0 ? -1 : next(live.length);
    const e = live[at];
    if (op <= 2) {
      const components = { position: { x: value(), y: value() } };
      if (next(2)) components.velocity = { dx: value(), dy: value() };
      if (next(3) === 0) components.health = { hp: next(200) - 100, alive: next(2) === 1, regen: value() };
      if (next(4) === 0) components.frozen = true;
      if (live.length > 0 && next(4) === 0) components.target = { who: live[next(live.length)] };
      live.push(world.spawn(components));
      spawned += 1;
    } else if (op === 3) {
      world.despawn(e);
      live[at] = live[live.length - 1];
      live.pop();
      despawned += 1;
    } else if (op === 4) {
      world.add(e, 'health', { hp: next(1000), alive: true });
    } else if (op === 5) {
      world.remove(e, next(2) ? 'velocity' : 'frozen');
    } else if (op === 6) {
      if (world.has(e, 'velocity')) world.set(e, 'velocity', { dx: value() });
      else world.add(e, 'velocity', { dx: value(), dy: value() });
    } else if (op === 7) {
      world.set(e, 'position', { x: value(), y: value() });
    } else if (op === 8) {
      world.add(e, 'frozen');
    } else {
      world.add(e, 'target', { who: next(3) === 0 ? null : live[next(live.length)] });
    }
  }
  return { hash: world.stateHash(), alive: live.length, spawned, despawned };
}
