# The npm package's half of the web tests: scripts/pack writes build/npm/ecsia-wasm-<version>.tgz,
# then each consumer app in e2e/apps gets its bundler from its own lock file (npm ci, only when
# the lock changed), the tarball installed offline (--no-save: the lock files never name it) and
# its build run. e2e/package.spec.js then serves the apps and checks them in Chromium.
# The Vite app also serves a browser module of its own from public/boids/: examples/boids/dist,
# which scripts/lib/test_examples.sh build_examples_wasm builds first (scripts/lib/test_web.sh).
# Sourced by scripts/lib/test_web.sh; call prepare_package_apps from the repository root.

# The files ecsia_add_browser_module writes for a module named boids (loadEcsia({ module })).
BOIDS_MODULE_FILES="boids_threaded.mjs boids_threaded.wasm boids_threaded.worker.js boids_single.mjs boids_single.wasm"

prepare_package_apps() {
  # Every step is checked by hand: the caller runs this under `||`, where set -e does not apply.
  local tarball app
  local file
  for file in $BOIDS_MODULE_FILES; do
    [ -f "examples/boids/dist/$file" ] ||
      { echo "prepare_package_apps: examples/boids/dist/$file is missing (build it with scripts/lib/test_examples.sh build_examples_wasm)" >&2; return 1; }
  done
  tarball=$(scripts/pack | tail -n 1) || return 1
  [ -f "$tarball" ] || { echo "prepare_package_apps: scripts/pack printed no tarball" >&2; return 1; }
  for app in e2e/apps/*/; do
    app=${app%/}
    [ "$app" = e2e/apps/shared ] && continue
    echo "==> consumer app: $app"
    if [ ! -f "$app/node_modules/.package-lock.json" ] || [ "$app/package-lock.json" -nt "$app/node_modules/.package-lock.json" ]; then
      (cd "$app" && npm ci --no-audit --no-fund --loglevel=error) || { echo "prepare_package_apps: npm ci failed in $app" >&2; return 1; }
    fi
    (cd "$app" && npm install --no-save --offline --no-audit --no-fund --loglevel=error "$tarball") ||
      { echo "prepare_package_apps: installing $tarball into $app failed" >&2; return 1; }
    # The scenario every app runs, from its one source (the apps that import it: main.js does).
    if grep -qs "from './scenario.js'" "$app"/*.js "$app"/src/*.js; then
      local into=$app
      [ -d "$app/src" ] && into=$app/src
      cp e2e/apps/shared/scenario.js "$into/scenario.js" || return 1
    fi
    # The Vite app's own module: public/ is served and copied into the build as it is.
    if [ "$app" = e2e/apps/vite ]; then
      rm -rf "$app/public/boids" && mkdir -p "$app/public/boids" || return 1
      for file in $BOIDS_MODULE_FILES; do cp "examples/boids/dist/$file" "$app/public/boids/" || return 1; done
    fi
    if node -e 'process.exit(require(process.argv[1]).scripts?.build ? 0 : 1)' "$PWD/$app/package.json"; then
      # From an empty dist/: webpack leaves unchanged files untouched, and the spec checks that
      # each build is newer than its install.
      (cd "$app" && rm -rf dist && npm run --silent build) || { echo "prepare_package_apps: the build of $app failed" >&2; return 1; }
    fi
  done
}
