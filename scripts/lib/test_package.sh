# The npm package's half of the web tests: scripts/pack writes build/npm/ecsia-wasm-<version>.tgz,
# then each consumer app in e2e/apps gets its bundler from its own lock file (npm ci, only when
# the lock changed), the tarball installed offline (--no-save: the lock files never name it) and
# its build run. e2e/package.spec.js then serves the apps and checks them in Chromium.
# Sourced by scripts/lib/test_web.sh; call prepare_package_apps from the repository root.

prepare_package_apps() {
  local tarball app
  tarball=$(scripts/pack | tail -n 1)
  [ -f "$tarball" ] || { echo "prepare_package_apps: scripts/pack printed no tarball" >&2; return 1; }
  for app in e2e/apps/*/; do
    echo "==> consumer app: ${app%/}"
    (
      cd "$app"
      if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
        npm ci --no-audit --no-fund --loglevel=error
      fi
      npm install --no-save --offline --no-audit --no-fund --loglevel=error "$tarball"
      if node -e 'process.exit(require("./package.json").scripts?.build ? 0 : 1)'; then
        npm run --silent build
      fi
    ) || return 1
  done
}
