// The bundle's entry: webpack resolves 'ecsia-wasm' from node_modules (webpack.config.js).
import { loadEcsia } from 'ecsia-wasm';
import { runScenario } from './scenario.js';

// The app's kernel module (loadEcsia's kernels option): its JS kernels move the entities.
const kernels = new URL('./kernels.js', import.meta.url);
const out = document.getElementById('result');
runScenario(loadEcsia, { kernels }).then(
  (result) => {
    window.ecsiaApp = { done: true, ...result };
    out.textContent = JSON.stringify(result, null, 2);
  },
  (error) => {
    window.ecsiaApp = { done: true, error: error instanceof Error ? error.message : String(error) };
    out.textContent = `failed: ${window.ecsiaApp.error}`;
  },
);
