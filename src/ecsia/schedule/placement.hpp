#pragma once
// Where a wave's batches run, and the cost model that decides it. The batches themselves (ids,
// boundaries, reservations) and their merge order are fixed before this choice is made, so the
// choice changes timing only, never results (G1).
//
// The model keeps, from measurements taken as frames run:
//   - per system, an EWMA of the nanoseconds one row costs (from the batches' own timing; a
//     system without a query counts one "row" per batch);
//   - for the pool, an EWMA of what a dispatch adds to an even share of the wave's work over its
//     runners: waking the workers, their arrival at the fence, the coordinator seeing it (in the
//     browser that includes the Atomics.waitAsync continuation, which is a real cost to the page),
//     and any share that did not happen (a worker without a core on a loaded or oversubscribed
//     machine, uneven batches).
// A wave whose predicted pool time (overhead + work shared over the workers and the coordinator)
// does not beat running it inline stays on the coordinator. Unknown costs are measured by
// dispatching to the workers alone (a new kernel runs first where the wave deadline applies); a wave kept inline re-tries the pool now and then (with growing intervals)
// when the pool could win were its overhead at the best value seen, so a stale estimate heals.
// Thread rule: coordinator thread only.

#include <cstdint>
#include <vector>

#include "ecsia/schedule/wave_placement.hpp"

namespace ecsia {

// What the decision needs to know about the wave about to run.
struct WaveShape {
    double work_ns = 0;         // predicted sum of every batch's run time (valid if known)
    bool known = false;         // every system of the wave has a per-row cost
    std::uint32_t batches = 0;  // batches in the wave
    std::uint32_t workers = 0;  // pool size (0 = no pool)
    // The most the coordinator may spend running batches in one go; < 0 = no bound (it may block
    // anyway). In the browser the page's main thread must stay live (G2): a wave predicted longer
    // than this is never run inline, and a shared wave's coordinator stops claiming batches here.
    double coordinator_budget_ns = -1;
    // Predicted run time of the wave's longest batch: a coordinator with a budget never claims a
    // batch that alone would overrun it (the wave then goes to the workers alone).
    double largest_batch_ns = 0;
};

class PlacementModel {
public:
    // Systems are numbered from 0 in the order they were added; the table grows as they are seen.
    void resize(std::size_t systems) { per_row_ns_.resize(systems, -1.0); }
    // <0 until the system has run once.
    double ns_per_row(std::uint32_t system) const noexcept {
        return system < per_row_ns_.size() ? per_row_ns_[system] : -1.0;
    }
    double dispatch_overhead_ns() const noexcept { return overhead_ns_; }
    // The lowest overhead sample seen (<0 until the pool has run a wave): it only ever falls.
    double best_overhead_ns() const noexcept { return best_overhead_ns_; }

    void observe_system(std::uint32_t system, std::uint64_t rows, double ns);
    void observe_dispatch(double overhead_ns) noexcept;
    // A wave that ran on the pool (`placement` Pool or Shared) with `wave.work_ns` of measured
    // batch time took `wall_ns`: its overhead sample is the wall time beyond an even share of that
    // work over its runners (the prediction at no overhead), so a share that did not happen (a
    // worker without a core, the coordinator running nearly every batch) counts as overhead.
    void observe_dispatched_wave(const WaveShape& wave, WavePlacement placement, double wall_ns) noexcept;

    // Predicted wall time of the wave in each placement.
    double predict_inline(const WaveShape& wave) const noexcept { return wave.work_ns; }
    double predict_shared(const WaveShape& wave, double overhead_ns) const noexcept;
    // On the workers alone (the coordinator waits).
    double predict_pool(const WaveShape& wave, double overhead_ns) const noexcept;

    // The choice for the next wave. Counts its own re-tries, so call it once per wave.
    WavePlacement decide(const WaveShape& wave) noexcept;

    // Inline by a wide margin: the pool, even at the best overhead it has shown, is predicted at
    // least twice as slow as running the wave inline (and the wave fits a bounded coordinator's
    // budget). decide() then returns Inline without counting a re-try, and keeps doing so until
    // the wave's shape, its systems' per-row costs or the best overhead change, so an executor
    // may skip deciding such a wave again (DecidingExecutor's settled waves).
    bool settled_inline(const WaveShape& wave) const noexcept;

private:
    std::vector<double> per_row_ns_;  // by system
    double overhead_ns_ = -1;         // <0 until the pool has run a wave
    double best_overhead_ns_ = -1;    // lowest sample seen: what a re-try hopes for
    std::uint32_t inline_since_probe_ = 0;
    std::uint32_t probe_interval_ = 16;
};

}  // namespace ecsia
