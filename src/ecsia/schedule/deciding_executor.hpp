#pragma once
// DecidingExecutor: the threaded scheduler's executor. Per wave it chooses, from costs measured as
// frames run (placement.hpp's PlacementModel), between its two siblings: the wave runs inline on
// the coordinator (a SerialExecutor, timed) when a dispatch cannot pay for itself, on the workers
// (a PoolExecutor) with the coordinator claiming a bounded share when it can, or on the workers
// alone while a system's cost is unknown or a batch is too long for a coordinator that must stay
// live. It learns after every wave: each system's ns per row from its batches, and the pool's
// overhead: a dispatched wave's wall time beyond an even share of its measured work. The choice moves batches between threads,
// never changes them (G1).
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

private:
    friend struct detail::SchedulerTesting;  // force_placement: tests pin where waves run
    WavePlacement choose() noexcept;
    void learn(bool dispatched);

    PoolExecutor pool_;
    SerialExecutor inline_;
    PlacementModel model_;
    // Tests: placements the next waves take in turn, cycled (empty: decide).
    std::vector<WavePlacement> forced_;
    std::size_t forced_next_ = 0;
    std::uint32_t inline_waves_ = 0;  // waves run inline so far: one in kInlineSampleInterval is timed
    // The current wave.
    std::span<Batch* const> batches_;
    WavePlacement placement_ = WavePlacement::Inline;
    std::int64_t dispatch_ns_ = 0;    // monotonic_ns() when it was dispatched
};

}  // namespace ecsia
