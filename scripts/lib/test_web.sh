# The web half of scripts/test: the wasm builds, the Catch2 suite under node, then Playwright in
# headless Chromium (Debian's chromium; Playwright never downloads a browser here).
# Sourced by scripts/test, which calls run_web_tests from the repository root.
# Idempotent: tools are installed only when missing, build/wasm is reused.

run_web_tests() {
  ensure_web_tools
  # Debian's emscripten finds acorn here; without it every optimised link fails.
  export NODE_PATH=/usr/share/nodejs
  local jobs
  jobs=$(nproc)

  echo "==> wasm build: build/wasm (threaded + single browser modules into web/dist, Catch2 suite)"
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DECSIA_BUILD_BENCH=OFF >/dev/null
  cmake --build build/wasm -j "$jobs"
  echo "==> wasm tests: Catch2 under node"
  (cd build/wasm && ctest --output-on-failure)

  echo "==> browser tests: Playwright, headless Chromium ($(command -v chromium))"
  CHROMIUM_PATH=${CHROMIUM_PATH:-$(command -v chromium)} npx --no-install playwright test
}
