# The engine as a C++ package: installs build/plain (cmake --install), then builds and runs the
# consumer of tests/package/ against it with find_package(ecsia), and again with
# add_subdirectory(<this tree>). Both builds also compile the README's C++ example exactly as
# printed (the first ```cpp block of README.md) and run it. Sourced by scripts/test after the
# plain native build; run_cpp_package_tests fails loudly on any step.

# Prints the first ```cpp block of README.md, verbatim.
readme_cpp_example() {
  awk '/^```cpp$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' README.md
}

run_cpp_package_tests() {
  local jobs prefix example mode
  jobs=$(nproc)
  prefix=$PWD/build/package/prefix
  example=$PWD/build/package/readme_example.cpp
  rm -rf "$prefix"
  mkdir -p build/package
  echo "==> package: cmake --install build/plain --prefix build/package/prefix"
  cmake --install build/plain --prefix "$prefix" >/dev/null
  [ -f "$prefix/include/ecsia/ecsia.hpp" ] && [ -f "$prefix/lib/cmake/ecsia/ecsiaConfig.cmake" ] ||
    { echo "the install lacks include/ecsia/ecsia.hpp or lib/cmake/ecsia/ecsiaConfig.cmake" >&2; return 1; }
  readme_cpp_example > "$example.new"
  [ -s "$example.new" ] || { echo "README.md has no \`\`\`cpp block" >&2; return 1; }
  # Rewritten only when it changed, so a second run rebuilds nothing.
  cmp -s "$example.new" "$example" || mv "$example.new" "$example"
  rm -f "$example.new"
  for mode in package subdirectory; do
    echo "==> package: a consumer project with $([ $mode = package ] && echo 'find_package(ecsia)' || echo 'add_subdirectory(ecsia)')"
    cmake -S tests/package -B "build/package/$mode" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON -DECSIA_CONSUMER_MODE=$mode \
      -DCMAKE_PREFIX_PATH="$prefix" -DECSIA_SOURCE_DIR="$PWD" -DECSIA_README_EXAMPLE="$example" >/dev/null
    cmake --build "build/package/$mode" -j "$jobs" >/dev/null
    "build/package/$mode/consumer"
    "build/package/$mode/readme_example"
  done
}
