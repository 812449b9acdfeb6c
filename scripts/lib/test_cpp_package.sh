# The engine as a C++ package: installs build/plain (cmake --install), then builds and runs the
# consumer of tests/package/ against it with find_package(ecsia), and again with
# add_subdirectory(<this tree>). Both builds also compile the C++ examples exactly as printed
# (every ```cpp block of README.md and docs/GUIDE.md) and run each, which must exit 0. Sourced by
# scripts/test after the plain native build; run_cpp_package_tests fails loudly on any step.

# Writes the n-th ```cpp block of README.md then docs/GUIDE.md, verbatim, to DIR/readme_example_<n>.cpp.new (n from 1);
# prints how many there are.
write_readme_cpp_examples() {
  awk -v dir="$1" '
    /^```cpp$/ { n++; inside = 1; file = dir "/readme_example_" n ".cpp.new"; printf "" > file; next }
    inside && /^```$/ { inside = 0; close(file); next }
    inside { print > file }
    END { print n + 0 }' README.md docs/GUIDE.md
}

run_cpp_package_tests() {
  local jobs prefix count examples example mode n build_type unity
  jobs=$(nproc)
  prefix=$PWD/build/package/prefix
  rm -rf "$prefix"
  mkdir -p build/package
  echo "==> package: cmake --install build/plain --prefix build/package/prefix"
  cmake --install build/plain --prefix "$prefix" >/dev/null
  [ -f "$prefix/include/ecsia/ecsia.hpp" ] && [ -f "$prefix/lib/cmake/ecsia/ecsiaConfig.cmake" ] ||
    { echo "the install lacks include/ecsia/ecsia.hpp or lib/cmake/ecsia/ecsiaConfig.cmake" >&2; return 1; }
  count=$(write_readme_cpp_examples "$PWD/build/package")
  [ "$count" -gt 0 ] || { echo "README.md and docs/GUIDE.md have no \`\`\`cpp block" >&2; return 1; }
  examples=()
  for n in $(seq 1 "$count"); do
    example=$PWD/build/package/readme_example_$n.cpp
    # Rewritten only when it changed, so a second run rebuilds nothing.
    cmp -s "$example.new" "$example" || mv "$example.new" "$example"
    rm -f "$example.new"
    examples+=("$example")
  done
  for mode in package subdirectory; do
    echo "==> package: a consumer project with $([ $mode = package ] && echo 'find_package(ecsia), Release, unity build' || echo 'add_subdirectory(ecsia), Debug, no unity build')"
    # The two modes cover two corners of the configurations users have: the installed package
    # Release with a unity build; the engine as a subdirectory Debug without one (CMake's
    # defaults), where every engine source compiles on its own and with assertions on.
    build_type=Release unity=ON
    [ "$mode" = subdirectory ] && build_type=Debug unity=OFF
    cmake -S tests/package -B "build/package/$mode" -DCMAKE_BUILD_TYPE=$build_type -DCMAKE_UNITY_BUILD=$unity -DECSIA_CONSUMER_MODE=$mode \
      -DCMAKE_PREFIX_PATH="$prefix" -DECSIA_SOURCE_DIR="$PWD" -DECSIA_README_EXAMPLES="$(IFS=';'; echo "${examples[*]}")" >/dev/null
    cmake --build "build/package/$mode" -j "$jobs" >/dev/null
    "build/package/$mode/consumer"
    for n in $(seq 1 "$count"); do
      echo "==> package: README C++ example $n ($mode)"
      "build/package/$mode/readme_example_$n"
    done
  done
}
