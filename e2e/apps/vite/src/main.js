// The app's entry: Vite resolves 'ecsia-wasm' from node_modules (vite.config.js has the settings).
import { loadEcsia } from 'ecsia-wasm';
import { runBoids } from './own_module.js';
import { runScenario } from './scenario.js';
// The app's kernel module (loadEcsia's kernels option): its JS kernels move the entities. The
// ?ecsia-kernels import (vite.config.js's plugin) gives its URL, bundled with what it imports.
import kernels from './kernels.js?ecsia-kernels';

// ?module: run the boids module of public/boids/ instead (loadEcsia's module option).
const ownModule = new URLSearchParams(location.search).has('module');
const out = document.getElementById('result');
(ownModule ? boidsResult() : runScenario(loadEcsia, { kernels })).then(
  (result) => {
    window.ecsiaApp = { done: true, ...result };
    out.textContent = JSON.stringify(result, null, 2);
  },
  (error) => {
    window.ecsiaApp = { done: true, error: error instanceof Error ? error.message : String(error) };
    out.textContent = `failed: ${window.ecsiaApp.error}`;
  },
);

async function boidsResult() {
  const { ecsia, world, scheduler } = await runBoids(10);
  const result = {
    systems: ecsia.systems, variant: ecsia.variant, workers: ecsia.workers, plan: scheduler.plan(),
    frames: scheduler.frames, boids: world.count(['position', 'velocity']), hash: world.stateHash(),
  };
  scheduler.dispose();
  world.dispose();
  return result;
}
