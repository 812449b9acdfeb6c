#pragma once
// DecidingExecutor: the threaded scheduler's executor. Per wave it chooses, from costs measured as
// frames run (placement.hpp's PlacementModel), between its two siblings: the wave runs inline on
// the coordinator (a SerialExecutor, timed) when a dispatch cannot pay for itself, on the workers
// (a PoolExecutor) with the coordinator claiming a bounded share when it can, or on the workers
// alone while a system's cost is unknown or a batch is too long for a coordinator that must stay
// live. It learns from every dispatched wave and from one inline wave in 8: each system's ns per
// row from its batches, and the pool's overhead: a dispatched wave's wall time beyond an even
// share of its measured work. The choice moves batches between threads, never changes them (G1).
//
// A small wave is often far from the flip (a 1,000-row Move: ~1 us of work against a round trip
// of several): deciding it and timing it every frame would be most of what a threaded inline
// frame costs beyond a serial one. Such a wave settles (PlacementModel::settled_inline): while
// its shape (first and last system, batches, rows) and the pool's best overhead stay as they
// were, it runs inline without a decision or a clock read; every `interval` such waves it is
// timed and decided again (a re-check that refreshes its systems' costs), and each re-check that
// confirms it doubles the interval, up to kMaxSettledInterval. A changed shape, or a lower best
// overhead (the pool ran faster), decides it at once. Skipping is exact: decide() would have
// kept the wave inline without counting a re-try, since neither its costs nor the overhead moved.
// Thread rule: coordinator thread only.

#include <cstdint>
#include <vector>

#include "ecsia/schedule/executor.hpp"
#include "ecsia/schedule/placement.hpp"
#include "ecsia/schedule/pool_executor.hpp"
#include "ecsia/schedule/serial_executor.hpp"

namespace ecsia {

namespace detail {
struct SchedulerTesting;
}  // namespace detail

class DecidingExecutor final : public Executor {
public:
    // Starts the pool (options.coordinator_helps is ignored: each wave decides). Throws WorkerFailure.
    explicit DecidingExecutor(const PoolExecutorOptions& options);

    std::uint32_t workers() const noexcept override { return pool_.workers(); }
    WavePlacement start(std::span<Batch* const> batches, BatchRunner& runner) override;
    void run_coordinator_share() override;
    bool done() const noexcept override { return pool_.done(); }
    bool wait_until(std::chrono::steady_clock::time_point deadline) override { return pool_.wait_until(deadline); }
    void finish() override;
    const std::int32_t* fence_word() const noexcept override { return pool_.fence_word(); }
    std::uint32_t epoch() const noexcept override { return pool_.epoch(); }
    bool idle() const noexcept override { return pool_.idle(); }
    WorkerStats worker_stats(std::uint32_t worker) const override { return pool_.worker_stats(worker); }
    void stop(bool join) noexcept override { pool_.stop(join); }

    const PlacementModel& model() const noexcept { return model_; }

    // Waves run inline since the last re-check of a settled wave (untimed, undecided), up to its
    // interval: the most a settled wave goes without a re-check.
    static constexpr std::uint32_t kMaxSettledInterval = 256;

private:
    friend struct detail::SchedulerTesting;  // force_placement: tests pin where waves run
    // A wave that settled inline, and when it is next decided. Kept per wave, by its first
    // batch's system (a system belongs to one wave of a plan).
    struct SettledWave {
        // The shape it settled at (batches == 0: none yet).
        std::uint32_t last_system = 0;
        std::uint32_t batches = 0;
        std::uint64_t rows = 0;
        double best_overhead_ns = -1;
        std::uint32_t skip = 0;      // waves left to run inline before the next re-check
        std::uint32_t interval = 0;  // 0: not settled
    };
    // The wave's entry; reset (not settled) when the wave's shape or the best overhead changed.
    SettledWave& settled_wave();
    void grow_settled(std::size_t size);
    void settle(SettledWave& settled) const noexcept;
    WaveShape shape() const noexcept;
    WavePlacement choose() noexcept;
    void learn(bool dispatched);

    PoolExecutor pool_;
    SerialExecutor inline_;
    PlacementModel model_;
    // Tests: placements the next waves take in turn, cycled (empty: decide).
    std::vector<WavePlacement> forced_;
    std::size_t forced_next_ = 0;
    std::uint32_t inline_waves_ = 0;  // decided waves run inline so far: one in kInlineSampleInterval is timed
    std::vector<SettledWave> settled_;  // by a wave's first system
    // The current wave.
    std::span<Batch* const> batches_;
    WavePlacement placement_ = WavePlacement::Inline;
    std::int64_t dispatch_ns_ = 0;    // monotonic_ns() when it was dispatched
};

}  // namespace ecsia
