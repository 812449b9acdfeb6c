# Shared set-up for scripts/test and scripts/demo: install only what is missing.
# apt-get runs only when a tool is absent, so a second run installs nothing.

apt_install() {  # packages...
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing packages: $* (run as root, or install them yourself)" >&2
    return 1
  fi
  # Another apt run (unattended upgrades, a second checkout's set-up) holds dpkg's lock for a
  # while: wait for it rather than fail.
  local wait_for_lock=(-o DPkg::Lock::Timeout=900)
  if [ ! -f /tmp/.ecsia-apt-updated ]; then
    apt-get "${wait_for_lock[@]}" update -qq && touch /tmp/.ecsia-apt-updated
  fi
  DEBIAN_FRONTEND=noninteractive apt-get "${wait_for_lock[@]}" install -y -qq "$@" >/dev/null
}

ensure_native_tools() {
  local missing=()
  command -v cmake >/dev/null || missing+=(cmake)
  command -v g++ >/dev/null || missing+=(g++)
  [ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
  if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
}

ensure_web_tools() {
  local missing=()
  command -v cmake >/dev/null || missing+=(cmake)
  command -v emcc >/dev/null || missing+=(emscripten)
  [ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)  # the wasm Catch2 build copies it
  command -v chromium >/dev/null || missing+=(chromium)
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
  if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
  # Debian's emscripten needs node modules (acorn) from here for every optimised link.
  export NODE_PATH=/usr/share/nodejs
  if [ ! -d node_modules/@playwright/test ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund >/dev/null
  fi
}
