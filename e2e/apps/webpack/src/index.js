// The bundle's entry: webpack resolves 'ecsia-wasm' from node_modules (webpack.config.js).
import { loadEcsia } from 'ecsia-wasm';
import { runScenario } from './scenario.js';

// The app's kernel module (loadEcsia's kernels option): its JS kernels move the entities. The
// config's second build writes it beside main.js, where webpack's public path points.
const kernels = new URL('kernels.js', __webpack_public_path__);
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
