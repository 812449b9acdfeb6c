# examples/three, the three.js recipe, made ready for e2e/three.spec.js (which builds it with
# `vite build` and checks it in Chromium): three.js and Vite from the example's own lock file (npm
# ci, only when that lock changed), then the npm package as its users get it: the tarball
# scripts/pack wrote, installed offline with --no-save (the lock file never names it).
# Sourced by scripts/test; call prepare_three_example from the repository root. After
# prepare_package_apps (scripts/lib/test_package.sh) the tarball is fresh and is not packed again;
# on its own, this packs only when there is no tarball yet.

prepare_three_example() {
  # Every step is checked by hand: the caller runs this under `||`, where set -e does not apply.
  local app=examples/three version tarball
  version=$(node -p "require('./npm/package.json').version") || return 1
  tarball=$PWD/build/npm/ecsia-wasm-$version.tgz
  if [ ! -f "$tarball" ]; then
    scripts/pack >/dev/null || { echo "prepare_three_example: scripts/pack failed" >&2; return 1; }
  fi
  echo "==> three.js example: $app"
  if [ ! -f "$app/node_modules/.package-lock.json" ] || [ "$app/package-lock.json" -nt "$app/node_modules/.package-lock.json" ]; then
    (cd "$app" && npm ci --no-audit --no-fund --loglevel=error) || { echo "prepare_three_example: npm ci failed in $app" >&2; return 1; }
  fi
  (cd "$app" && npm install --no-save --offline --no-audit --no-fund --loglevel=error "$tarball") ||
    { echo "prepare_three_example: installing $tarball into $app failed" >&2; return 1; }
}
