// The browser benchmark module's C entry points (web/bench/ calls them through Module._name):
// room for the move baselines' arrays, and the *churn* workload, timed inside wasm with the same code the
// native bench_churn runs.
#include <cstdint>
#include <cstdlib>
#include <memory>

#include <emscripten/emscripten.h>

#include "workloads/churn.hpp"

namespace {

std::unique_ptr<churn::Churn> g_churn;

}  // namespace

extern "C" {

// Room for the move baselines' two arrays of `rows` {x, y} pairs, [position..., velocity...]
// (the page fills them with the workload's values).
// Cache-line aligned, like the engine's columns.
EMSCRIPTEN_KEEPALIVE float* bench_move_arrays(std::uint32_t rows) {
    const std::size_t bytes = (sizeof(float) * 4 * std::size_t{rows} + 63) / 64 * 64;
    return static_cast<float*>(std::aligned_alloc(64, bytes));
}

EMSCRIPTEN_KEEPALIVE void bench_free(void* data) { std::free(data); }

// Starts a churn world of `population` entities (replacing the previous one).
EMSCRIPTEN_KEEPALIVE void bench_churn_start(std::uint32_t population) {
    g_churn = std::make_unique<churn::Churn>(population);
}

// Runs `frames` churn frames; out[0..4] = records applied, seconds in World::apply, seconds of
// the whole cycle (reserve + record + apply), records skipped, diagnostics so far.
EMSCRIPTEN_KEEPALIVE void bench_churn_frames(std::uint32_t frames, double* out) {
    g_churn->reset_totals();
    for (std::uint32_t f = 0; f < frames; ++f) g_churn->frame();
    out[0] = static_cast<double>(g_churn->applied());
    out[1] = g_churn->apply_time().wall;
    out[2] = g_churn->apply_time().wall + g_churn->record_time().wall;
    out[3] = static_cast<double>(g_churn->skipped());
    out[4] = static_cast<double>(g_churn->diagnostics());
}

}  // extern "C"
