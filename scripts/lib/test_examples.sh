# examples/: each is a separate CMake project a newcomer copies (its own CMakeLists.txt, which
# add_subdirectory()s this tree). Built here the way its README says; e2e/examples.spec.js then
# loads each page in Chromium and compares its state hash with the native program's.
# Sourced by scripts/test (native) and scripts/lib/test_web.sh (wasm).

build_examples_native() {
  echo "==> examples: boids, native (build/examples/boids-native)"
  cmake -S examples/boids -B build/examples/boids-native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/examples/boids-native -j "$(nproc)" >/dev/null
  echo "boids_native, 2000 boids, 60 frames, 2 workers: $(build/examples/boids-native/boids_native --workers 2)"
}

build_examples_wasm() {
  echo "==> examples: boids, browser module (examples/boids/dist via build/examples/boids-wasm)"
  export NODE_PATH=/usr/share/nodejs
  emcmake cmake -S examples/boids -B build/examples/boids-wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/examples/boids-wasm -j "$(nproc)" >/dev/null
}
