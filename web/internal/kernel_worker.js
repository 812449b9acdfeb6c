// What each pool worker of the threaded build imports instead of the engine module when
// loadEcsia({ kernels }) is used (the page sets Module.mainScriptUrlOrBlob to this file's URL with
// ?engine=<engine module URL>&kernels=<kernel module URL>). It imports the kernel module, then
// re-exports the engine's factory with a KernelRuntime attached to the worker's Module, so that
// batches run on this worker find the kernels (wasm/js_kernel.cpp calls Module.ecsiaKernels).
//
// The kernel module is imported inside try/catch: a plain failing import would leave worker.js's
// promise without a catch, the worker would never report 'loaded', and the engine's factory on
// the page would never resolve. A failure here is reported to the page's onDiagnostic and makes
// every batch this worker runs fail with the reason; the page imported the same module first, so
// this only happens for modules that load on the page but not in a worker.
// A file, not a Blob: pages with a strict Content-Security-Policy may forbid blob: workers' imports.
import { KernelRuntime } from './kernel_runtime.js';

const params = new URL(import.meta.url).searchParams;
const engineUrl = params.get('engine');
const kernelsUrl = params.get('kernels');

let namespace = null;
let loadError = null;
try {
  namespace = await import(/* webpackIgnore: true */ /* @vite-ignore */ kernelsUrl);
} catch (error) {
  loadError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  // On the page (loadEcsia imports this file once to check it loads) the import cannot fail here:
  // the page imported the same module just before.
  postMessage({ cmd: 'printErr', threadId: 0, text: `ecsia: the kernel module ${kernelsUrl} failed to load on a worker: ${loadError}; its batches there will fail` });
}

const engine = await import(/* webpackIgnore: true */ /* @vite-ignore */ engineUrl);

export default function createEngineWithKernels(moduleArg) {
  moduleArg.ecsiaKernels = new KernelRuntime(namespace, moduleArg, kernelsUrl, loadError);
  return engine.default(moduleArg);
}
