// A browser module of your own, built with ecsia_add_browser_module (here examples/boids of the
// ecsia repository): its five files are in public/boids/, which Vite serves, and copies into the
// build, as they are.
import { loadEcsia } from 'ecsia-wasm';

export async function runBoids(frames) {
  const ecsia = await loadEcsia({ module: new URL('/boids/boids', location.href) });
  console.log(ecsia.systems);  // the module's own C++ systems: ['BuildGrid', 'Flock', 'Integrate']
  const world = ecsia.createWorld({ maxEntities: 1024 });
  for (let i = 0; i < 1000; i += 1) {  // position and velocity: the module registered them
    world.spawn({ position: { x: (i * 37) % 1024, y: (i * 91) % 1024 }, velocity: { dx: (i % 13) - 6, dy: (i % 7) - 3 } });
  }
  const scheduler = world.createScheduler({ systems: ['BuildGrid', 'Flock', 'Integrate'] });
  for (let frame = 0; frame < frames; frame += 1) await scheduler.update(1 / 60);
  return { ecsia, world, scheduler };
}
