// The practical limit of the *move* workload: a plain loop over two arrays of {x, y} floats, no
// engine. Compiled twice into the browser benchmark module (bench/CMakeLists.txt): as
// bench_move_scalar without SIMD and as bench_move_simd with -msimd128, where clang vectorises it.
#include <cstdint>

#include <emscripten/emscripten.h>

#ifndef ECSIA_MOVE_LOOP_NAME
#error "define ECSIA_MOVE_LOOP_NAME (bench/CMakeLists.txt does)"
#endif

// Flat over the floats, as a programmer writing the loop by hand would (and the form clang
// vectorises for wasm: it does not vectorise the two-field, stride-2 form).
extern "C" EMSCRIPTEN_KEEPALIVE void ECSIA_MOVE_LOOP_NAME(float* __restrict position, const float* __restrict velocity,
                                                          std::uint32_t rows, float dt) {
    for (std::uint32_t i = 0, n = 2 * rows; i < n; ++i) position[i] += velocity[i] * dt;
}
