// The boids page: loads this example's own browser module (dist/boids_*, built by CMakeLists.txt),
// spawns a flock by component name, adds the three C++ systems by their registered names, and
// draws the boids straight from the position column. window.boidsExample is what the tests drive.
//
// In your own project, import loadEcsia from where you put the engine's web/ files (or the package).
import { loadEcsia } from '../../web/ecsia.js';

const MODULE = new URL('./dist/boids', import.meta.url);  // dist/boids_threaded.mjs, dist/boids_single.mjs
const DT = 1 / 60;

// The flock of src/boids.hpp's spawn_flock, value for value (xorshift32; multiples of 1/8 are
// exact in f32, so JS numbers and C++ floats agree).
function spawnFlock(world, count, seed) {
  let state = (seed >>> 0) || 1;
  const next = (n) => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state % n;
  };
  for (let i = 0; i < count; i += 1) {
    const x = next(8192) / 8;
    const y = next(8192) / 8;
    const dx = (next(641) - 320) / 8;
    const dy = (next(641) - 320) / 8;
    world.spawn({ position: { x, y }, velocity: { dx, dy } });
  }
}

function createFlock(ecsia, { boids, seed, workers }) {
  const world = ecsia.createWorld({ maxEntities: Math.max(boids, 1024) });
  spawnFlock(world, boids, seed);  // "position" and "velocity" exist from the start: the module registered them
  const scheduler = world.createScheduler({ systems: ['BuildGrid', 'Flock', 'Integrate'], workers });
  return { world, scheduler, dispose() { scheduler.dispose(); world.dispose(); } };
}

/** Loads the module, runs `frames` frames and returns the state hash: the tests compare it with the native program's. */
async function simulate({ threads = 'auto', workers, boids = 2000, frames = 60, seed = 7 } = {}) {
  const diagnostics = [];
  const ecsia = await loadEcsia({ module: MODULE, threads, onDiagnostic: (m) => diagnostics.push(m) });
  const flock = createFlock(ecsia, { boids, seed, workers: workers ?? ecsia.workers });
  for (let f = 0; f < frames; f += 1) await flock.scheduler.update(DT);
  const out = {
    hash: flock.world.stateHash(), variant: ecsia.variant, workers: flock.scheduler.workers,
    plan: flock.scheduler.plan(), systems: ecsia.systems, boids: flock.world.count(['position', 'velocity']), diagnostics,
  };
  flock.dispose();
  return out;
}

async function animate() {
  const canvas = document.getElementById('view');
  const status = document.getElementById('status');
  const context = canvas.getContext('2d');
  const ecsia = await loadEcsia({ module: MODULE });
  const flock = createFlock(ecsia, { boids: 3000, seed: 7, workers: ecsia.workers });
  status.textContent = `${ecsia.variant} build, ${flock.scheduler.workers} workers; systems: ${ecsia.systems.join(', ')}`;
  const scale = canvas.width / 1024;
  const frame = async () => {
    await flock.scheduler.update(DT);
    context.fillStyle = '#0b1020';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.fillStyle = '#9fd3ff';
    for (const chunk of flock.world.chunks(['position'])) {
      const p = chunk.columns.position;
      const stride = chunk.strides.position;
      for (let i = 0; i < chunk.count; i += 1) context.fillRect(p[i * stride] * scale, p[i * stride + 1] * scale, 2, 2);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

window.boidsExample = { simulate, ready: true };
if (!new URLSearchParams(location.search).has('test')) animate();
