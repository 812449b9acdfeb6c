#!/usr/bin/env bash
# Rejects an #include "ecsia/<layer>/..." that points up the layer order of docs/ARCHITECTURE.md,
# and any Emscripten include in the core. Run by scripts/test.
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A rank=([base]=0 [threads]=1 [entity]=1 [schema]=2 [storage]=3 [relation]=3 [topic]=3 [query]=4 [command]=4
                 [reactivity]=5 [world]=6 [schedule]=7 [snapshot]=7 [extract]=7)
status=0
while IFS= read -r file; do
  layer=$(echo "$file" | cut -d/ -f3)
  [ -n "${rank[$layer]:-}" ] || { [ "$layer" = "ecsia.hpp" ] && continue; echo "unknown layer folder: $file"; status=1; continue; }
  while IFS= read -r used; do
    if [ "${rank[$used]:-99}" -gt "${rank[$layer]}" ]; then
      echo "layer violation: $file ($layer) includes ecsia/$used/"
      status=1
    fi
  done < <(grep -oE '#include "ecsia/[a-z_]+/' "$file" | cut -d/ -f2 | sort -u)
done < <(find src/ecsia -name '*.hpp' -o -name '*.cpp' | sort)
if grep -rlE '#include <emscripten' src/ >/dev/null; then
  echo "the core must not include Emscripten headers:"; grep -rlE '#include <emscripten' src/
  status=1
fi
[ $status -eq 0 ] && echo "layers: ok"
exit $status
