#pragma once
// SerialExecutor: the reference semantics. Every batch of a wave runs on the coordinator, in
// batch-id order, before start() returns. The other executors must produce what this one does.
// Thread rule: coordinator thread only.

#include "ecsia/schedule/executor.hpp"

namespace ecsia {

class SerialExecutor final : public Executor {
public:
    // The serial scheduler's executor: nothing to decide, so it reads no clock.
    SerialExecutor() noexcept = default;

    std::uint32_t workers() const noexcept override { return 0; }
    WavePlacement start(std::span<Batch* const> batches, BatchRunner& runner) override;
    void run_coordinator_share() override {}
    bool done() const noexcept override { return true; }
    bool wait_until(std::chrono::steady_clock::time_point) override { return true; }
    void finish() override {}
    const std::int32_t* fence_word() const noexcept override { return nullptr; }
    std::uint32_t epoch() const noexcept override { return 0; }
    bool idle() const noexcept override { return true; }
    WorkerStats worker_stats(std::uint32_t) const override { return {}; }
    void stop(bool) noexcept override {}

    // The same run, without the virtual call: what DecidingExecutor does for an inline wave.
    // timed: record each system's run time on its last batch of the wave (Batch::ns, 0 on the
    // others), for the cost model; one clock read per system.
    void run(std::span<Batch* const> batches, BatchRunner& runner, bool timed = false) noexcept;

private:
    void run_kernels_from(std::span<Batch* const> batches, BatchRunner& runner, std::size_t& next);

    bool timed_ = false;                 // of the current run
    std::int64_t segment_start_ns_ = 0;  // timed: start of the current system's batches
};

}  // namespace ecsia
