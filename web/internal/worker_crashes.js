// Internal to the JS layer: pool workers that crash (threaded build).
//
// A pool worker whose wasm traps (`unreachable`, an abort, a stack overflow) ends its Web Worker
// with an uncaught error. Emscripten 3.1.6's own handler for it (worker.onerror, set in its
// PThread.loadWasmModuleToWorker) logs "worker sent an error!" and rethrows the event on the
// page, where it surfaces as an uncaught error that says only "ErrorEvent", and nothing tells the
// scheduler: the wave that worker was running simply never finishes. This replaces that handler
// on every pool worker (those the module started and any it starts later) with one that handles
// the event, reports the crash as a diagnostic (G3), and keeps it, so that the update() whose
// wave then misses its deadline can say why (web/scheduler.js).
// Thread rule: the page's main thread.

/**
 * Watches the module's pool workers. Returns { crashes }: the crash messages so far, oldest
 * first (an empty array that stays empty in the single build, which has no pool).
 */
export function watchWorkerCrashes(module, diagnose) {
  const crashes = [];
  const pthreads = module.PThread;
  if (pthreads === undefined || !Array.isArray(pthreads.unusedWorkers)) return { crashes };
  const watch = (worker) => {
    worker.onerror = (event) => {
      event.preventDefault();  // handled here: not an uncaught error of the page
      const where = event.filename ? ` (${event.filename}:${event.lineno})` : '';
      const text = `${event.message || 'an uncaught error'}${where}`;
      crashes.push(text);
      diagnose(`ecsia: a worker thread crashed: ${text}; the wave it was running cannot finish, so that update() fails at the wave's deadline`);
    };
  };
  for (const worker of [...pthreads.unusedWorkers, ...pthreads.runningWorkers]) watch(worker);
  const load = pthreads.loadWasmModuleToWorker;
  if (typeof load === 'function') {
    pthreads.loadWasmModuleToWorker = function loadWatched(worker, ...rest) {
      const result = load.call(this, worker, ...rest);
      watch(worker);  // after Emscripten's own handlers are set
      return result;
    };
  }
  return { crashes };
}
