// Appended to every threaded browser module (--post-js, inside the factory): how the pool workers
// get the kernel module of loadEcsia({ kernels }), whatever served or bundled the engine.
//
// The workers are the ones Emscripten starts from the glue it was given: the package's own files,
// or what Vite, webpack or esbuild made of them (chunks that cannot be imported by URL). So the
// engine is never re-imported by URL on a worker. Instead, once every pool worker has loaded (the
// factory resolves only then), the page posts each one the URLs of the kernel runtime
// (web/internal/kernel_runtime.js, a module without imports: bundlers emit it as a file) and of
// the kernel module, with a MessagePort for the answer. The worker imports both natively
// (ecsiaNativeImport, wasm/native_import.extern.js, which no bundler rewrites), attaches a
// KernelRuntime to its own Module (wasm/js_kernel.cpp calls Module.ecsiaKernels) and answers.
// No pthread runs before that: loadEcsia waits for every answer before it resolves, and a worker
// that runs a thread no longer reads messages (it sits in the C++ wake loop).
if (ENVIRONMENT_IS_PTHREAD) {
  // worker.js's handler stays in charge of every message of Emscripten's own.
  var ecsiaEmscriptenOnMessage = self.onmessage;
  var ecsiaDescribeError = function (error) {
    return error instanceof Error ? error.name + ': ' + error.message : String(error);
  };
  self.onmessage = function (event) {
    var data = event.data;
    if (data === null || typeof data !== 'object' || data.cmd !== 'ecsiaKernels') return ecsiaEmscriptenOnMessage(event);
    var port = data.port;
    ecsiaNativeImport(data.runtime).then(function (runtime) {
      // A kernel module that loads on the page but not here (it touches document, say) is not
      // fatal: the worker reports it and every batch it runs fails with the reason.
      return ecsiaNativeImport(data.kernels).then(
        function (namespace) { return { runtime: runtime, namespace: namespace, loadError: null }; },
        function (error) { return { runtime: runtime, namespace: null, loadError: ecsiaDescribeError(error) }; });
    }).then(function (loaded) {
      // loadEcsia({ debug: true }): the debug check's second instance of the kernel module.
      if (!data.twin || loaded.namespace === null) return loaded;
      return ecsiaNativeImport(data.twin).then(
        function (twin) { loaded.twin = twin; return loaded; },
        function (error) { loaded.twinError = ecsiaDescribeError(error); return loaded; });
    }).then(function (loaded) {
      Module['ecsiaKernels'] = new loaded.runtime.KernelRuntime(loaded.namespace, Module, data.kernels, loaded.loadError, loaded.twin || null);
      port.postMessage({ loadError: loaded.loadError, twinError: loaded.twinError || null });
    }).catch(function (error) {  // the runtime did not load, or is not one (no KernelRuntime)
      port.postMessage({ runtimeError: ecsiaDescribeError(error) });
    });
  };
} else {
  /**
   * Gives every pool worker the kernel module (and, with `twinUrl`, the debug check's second
   * instance of it): resolves to one answer per worker, each { loadError: null | string,
   * twinError: null | string } or { runtimeError: string } (the runtime did not load there).
   */
  Module['ecsiaLoadWorkerKernels'] = function (runtimeUrl, kernelsUrl, twinUrl) {
    var workers = PThread.unusedWorkers.concat(PThread.runningWorkers);
    return Promise.all(workers.map(function (worker) {
      return new Promise(function (resolve) {
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) {
          channel.port1.close();
          if (event.data.runtimeError === undefined) worker.ecsiaKernels = true;
          resolve(event.data);
        };
        worker.postMessage({ cmd: 'ecsiaKernels', runtime: runtimeUrl, kernels: kernelsUrl, twin: twinUrl || null, port: channel.port2 }, [channel.port2]);
      });
    }));
  };
  /**
   * How many idle pool workers have the kernel module, after moving them to the end of
   * Emscripten's list of idle workers, where pthread_create takes the next one from. A worker
   * Emscripten starts later (its pool ran dry) never gets the module: its thread never returns to
   * the event loop, where the import would run.
   */
  Module['ecsiaKernelReadyWorkers'] = function () {
    var idle = PThread.unusedWorkers;
    var ready = idle.filter(function (worker) { return worker.ecsiaKernels === true; });
    var others = idle.filter(function (worker) { return worker.ecsiaKernels !== true; });
    idle.length = 0;
    Array.prototype.push.apply(idle, others.concat(ready));
    return ready.length;
  };
}
