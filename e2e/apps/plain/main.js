// A page that uses the installed package through the import map in index.html: no build step.
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
