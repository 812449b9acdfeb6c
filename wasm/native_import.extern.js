// Appended after every threaded browser module's factory, outside it (--extern-post-js), so that
// Emscripten's minifier leaves it as written: an import() of a run-time URL that bundlers must not
// touch (their magic comments survive only here). wasm/worker_kernels.post.js calls it on the pool
// workers. A function declaration: hoisted over the module, so the factory can call it.
function ecsiaNativeImport(url) {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ url);
}
