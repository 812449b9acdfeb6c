# examples/: built inside the engine's own build trees (ECSIA_BUILD_EXAMPLES=ON in the native-release
# and wasm presets), so they reuse the engine objects those trees compiled. Each example is also a
# project of its own (add_subdirectory of the engine): the browser module is built that way here
# as a new user builds it with CMake's defaults but for the build type: Debug (assertions on) and
# without a unity build, so every engine and binding source must compile on its own (the presets'
# unity builds hide a missing include). Its single variant replaces the preset's in
# examples/boids/dist, so e2e/examples.spec.js runs it: the browser's Debug, non-unity corner, as
# tests/package covers the native one (the presets cover Release with unity builds).
# Sourced by scripts/test and scripts/lib/test_web.sh; call from the repository root.

build_examples_native() {
  echo "==> examples: boids, native (build/plain/examples/boids, built with native-release)"
  [ -x build/plain/examples/boids/boids_native ] ||
    { echo "build/plain/examples/boids/boids_native is missing (ECSIA_BUILD_EXAMPLES in the native-release preset)" >&2; return 1; }
  echo "boids_native, 2000 boids, 60 frames, 2 workers: $(build/plain/examples/boids/boids_native --workers 2)"
  echo "==> examples: boids as a project of its own, configured (build/examples/boids-native)"
  cmake -S examples/boids -B build/examples/boids-native -DCMAKE_BUILD_TYPE=Release >/dev/null
}

build_examples_wasm() {
  echo "==> examples: boids, browser module (examples/boids/dist, built with the wasm-modules preset)"
  local file
  for file in boids_threaded.mjs boids_threaded.wasm boids_threaded.worker.js boids_single.mjs boids_single.wasm; do
    [ -f "examples/boids/dist/$file" ] || { echo "examples/boids/dist/$file is missing (the wasm-modules build preset)" >&2; return 1; }
  done
  echo "==> examples: boids as a project of its own under emcmake, Debug, no unity build (build/examples/boids-wasm-debug)"
  export NODE_PATH=/usr/share/nodejs
  emcmake cmake -S examples/boids -B build/examples/boids-wasm-debug -DCMAKE_BUILD_TYPE=Debug -DCMAKE_UNITY_BUILD=OFF >/dev/null
  # The single variant compiles every engine and binding source once; the threaded one only adds
  # -pthread to the same files, and would double this step's time.
  cmake --build build/examples/boids-wasm-debug -j "$(nproc)" --target boids_single
}
