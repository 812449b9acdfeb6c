# The web half of scripts/test: the type check of web/*.d.ts, the wasm builds, the Catch2 suite
# under node, then Playwright in headless Chromium (Debian's chromium; Playwright never downloads
# a browser here).
# Sourced by scripts/test, which calls run_web_tests from the repository root.
# Idempotent: tools are installed only when missing, build/wasm is reused.
# The npm package (scripts/pack) is installed into the consumer apps of e2e/apps on the way
# (scripts/lib/test_package.sh); e2e/package.spec.js checks them.
# The browser tests run even when the node run fails, so one report tells "the logic is wrong"
# (both fail) from "wasm is different" (only one does); the function fails if either did.

run_web_tests() {
  ensure_web_tools
  # Debian's emscripten finds acorn here; without it every optimised link fails.
  export NODE_PATH=/usr/share/nodejs
  local jobs status=0
  jobs=$(nproc)

  echo "==> TypeScript declarations: tsc --strict --noEmit on tests/types/usage.ts"
  npx --no-install tsc --strict --noEmit -p tests/types || status=1

  echo "==> wasm build: build/wasm (browser modules into web/dist, Catch2 suite for node)"
  # The wasm preset (CMakePresets.json) has ECSIA_BUILD_BENCH: the bench page's module
  # (web/bench/dist), smoke-tested by e2e/bench.spec.js.
  emcmake cmake --preset wasm >/dev/null
  rm -rf web/dist/bench  # where builds before 2026-12-07 wrote the bench module (web/dist: the engine's only)
  # The browser modules first: Playwright needs them even if a test source fails to compile.
  cmake --build --preset wasm-modules -j "$jobs"
  local suite_built=1
  cmake --build --preset wasm -j "$jobs" || { status=1; suite_built=0; }

  # The Catch2 suite under node runs mostly on one thread, so it runs beside the example's build
  # (a build folder of its own); its output is printed in one piece once it is over.
  local node_log=build/wasm/scripts_test_ctest.log node_tests=
  if [ "$suite_built" -eq 1 ]; then
    echo "==> wasm tests: Catch2 under node (beside the next step; printed when it ends)"
    ctest --preset wasm >"$node_log" 2>&1 &
    node_tests=$!
  else
    echo "==> wasm tests: skipped, the Catch2 suite did not build" >&2
  fi
  # examples/boids/dist: e2e/examples.spec.js loads it (scripts/lib/test_examples.sh).
  build_examples_wasm || status=1
  if [ -n "$node_tests" ]; then
    wait "$node_tests" || status=1
    echo "==> wasm tests: Catch2 under node (its output)"
    cat "$node_log"
  fi

  echo "==> npm package: scripts/pack, then the consumer apps of e2e/apps (e2e/package.spec.js)"
  prepare_package_apps || status=1
  prepare_three_example || status=1  # examples/three (scripts/lib/test_three.sh), for e2e/three.spec.js

  local chromium=${CHROMIUM_PATH:-$(command -v chromium || true)}
  if [ -z "$chromium" ] || [ ! -x "$chromium" ]; then
    echo "==> browser tests: FAILED, no Chromium (set CHROMIUM_PATH or install Debian's chromium)" >&2
    return 1
  fi
  local specs
  specs=$(ls e2e/*.spec.js 2>/dev/null | wc -l)
  if [ "$specs" -eq 0 ]; then
    echo "==> browser tests: FAILED, no e2e/*.spec.js found" >&2
    return 1
  fi
  # Two at a time, then the tests that time the page or load the machine to its limit alone
  # (playwright.config.js: projects `shared` and `alone`); each run reports even if the other failed.
  echo "==> browser tests: Playwright ($specs spec files), headless Chromium ($chromium), two at a time"
  ECSIA_E2E_RUN=shared CHROMIUM_PATH=$chromium npx --no-install playwright test --project shared --workers 2 || status=1
  echo "==> browser tests: Playwright, the tests that run alone"
  ECSIA_E2E_RUN=alone CHROMIUM_PATH=$chromium npx --no-install playwright test --project alone || status=1
  return "$status"
}
