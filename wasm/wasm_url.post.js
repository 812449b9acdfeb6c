// Appended to every browser module (--post-js, inside the factory). Emscripten keeps the URL it
// fetches the .wasm from in a local; the loader (web/ecsia.js) reads it from the module
// arguments to name the file when a server or bundler sent something else in its place.
Module['ecsiaWasmUrl'] = wasmBinaryFile;
