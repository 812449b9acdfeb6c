#include "ecsia/schedule/placement.hpp"

#include <algorithm>

namespace ecsia {

namespace {
// Weight of a new sample: a cost that changes (more rows matched, a busier machine) is followed
// within a few frames, one noisy sample moves the estimate by a quarter of its error.
constexpr double kAlpha = 0.25;
// The pool must be predicted clearly faster: a wrong "pool" costs a whole round trip, a wrong
// "inline" only the share the workers would have taken.
constexpr double kMargin = 0.85;
constexpr std::uint32_t kMaxProbeInterval = 4096;
// settled_inline: how much slower than inline the pool must be predicted at its best. Above
// 1 / kMargin, so decide() neither picks the pool nor counts a re-try for such a wave; 2 leaves
// room for the per-row estimate to drift between an executor's re-checks.
constexpr double kSettledFactor = 2.0;

double ewma(double old, double sample) noexcept { return old < 0 ? sample : old + kAlpha * (sample - old); }
}  // namespace

void PlacementModel::observe_system(std::uint32_t system, std::uint64_t rows, double ns) {
    if (rows == 0 || ns < 0) return;
    if (system >= per_row_ns_.size()) resize(system + 1);
    per_row_ns_[system] = ewma(per_row_ns_[system], ns / static_cast<double>(rows));
}

void PlacementModel::observe_dispatch(double overhead_ns) noexcept {
    overhead_ns = std::max(0.0, overhead_ns);
    overhead_ns_ = ewma(overhead_ns_, overhead_ns);
    best_overhead_ns_ = best_overhead_ns_ < 0 ? overhead_ns : std::min(best_overhead_ns_, overhead_ns);
}

void PlacementModel::observe_dispatched_wave(const WaveShape& wave, WavePlacement placement, double wall_ns) noexcept {
    const double even = placement == WavePlacement::Shared ? predict_shared(wave, 0) : predict_pool(wave, 0);
    observe_dispatch(wall_ns - even);
}

double PlacementModel::predict_shared(const WaveShape& wave, double overhead_ns) const noexcept {
    const double workers = std::min<double>(wave.workers, wave.batches);
    const double runners = std::min<double>(wave.workers + 1.0, wave.batches);
    if (runners <= 0) return overhead_ns;
    const double each = wave.work_ns / runners;
    const double budget = wave.coordinator_budget_ns;
    if (budget < 0 || each <= budget || workers <= 0) return overhead_ns + each;
    // The coordinator stops at its budget; the workers take the rest.
    return overhead_ns + std::max(budget, (wave.work_ns - budget) / workers);
}

double PlacementModel::predict_pool(const WaveShape& wave, double overhead_ns) const noexcept {
    const double workers = std::min<double>(wave.workers, wave.batches);
    return workers <= 0 ? overhead_ns : overhead_ns + wave.work_ns / workers;
}

WavePlacement PlacementModel::decide(const WaveShape& wave) noexcept {
    if (wave.workers == 0 || wave.batches == 0) return WavePlacement::Inline;
    // Nothing measured yet: one dispatch measures both the rows' cost and the pool's. Workers
    // only: a kernel never seen to return must not run where no deadline can stop it (a kernel
    // that never returns holds a worker, and the wave's deadline ends the frame).
    if (!wave.known || overhead_ns_ < 0) return WavePlacement::Pool;
    const double inline_ns = predict_inline(wave);
    // A coordinator that must stay live (the page) never runs more than its budget in one go.
    const bool bounded = wave.coordinator_budget_ns >= 0;
    // One batch longer than the budget would stall the page by itself: the workers take them all.
    if (bounded && wave.largest_batch_ns > wave.coordinator_budget_ns) return WavePlacement::Pool;
    if (bounded && inline_ns > wave.coordinator_budget_ns) return WavePlacement::Shared;
    if (predict_shared(wave, overhead_ns_) < inline_ns * kMargin) {
        probe_interval_ = 16;
        inline_since_probe_ = 0;
        return WavePlacement::Shared;
    }
    // Kept inline. The overhead estimate only moves when the pool runs: re-try it now and then,
    // but only where the pool would win at the best overhead seen, and less often each time the
    // re-try confirms inline, so a wave the pool can never pay for is never dispatched again.
    if (best_overhead_ns_ >= 0 && predict_shared(wave, best_overhead_ns_) < inline_ns * kMargin &&
        ++inline_since_probe_ >= probe_interval_) {
        inline_since_probe_ = 0;
        probe_interval_ = std::min(probe_interval_ * 2, kMaxProbeInterval);
        return WavePlacement::Shared;
    }
    return WavePlacement::Inline;
}

bool PlacementModel::settled_inline(const WaveShape& wave) const noexcept {
    if (wave.workers == 0 || wave.batches == 0) return false;  // decided without a model: nothing to skip
    if (!wave.known || overhead_ns_ < 0) return false;         // still to be measured
    const double inline_ns = predict_inline(wave);
    if (wave.coordinator_budget_ns >= 0 && inline_ns > wave.coordinator_budget_ns) return false;
    // best <= the EWMA (an average of samples is never below their minimum) and predict_shared
    // grows with the overhead: both of decide()'s comparisons keep the wave inline.
    return predict_shared(wave, best_overhead_ns_) >= kSettledFactor * inline_ns;
}

}  // namespace ecsia
