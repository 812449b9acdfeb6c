#pragma once
// PoolExecutor: a wave's batches on a WorkerPool. dispatch() hands the batches out as numbered
// jobs (workers claim them with one atomic counter) and arms the fence; the coordinator may claim
// batches from the same counter instead of idling (help), for a bounded time when it must stay
// live (the browser's main thread, G2). Which thread runs which batch depends on timing; each
// batch writes only its own outputs, so the results do not.
// Thread rule: coordinator thread only (the workers call back into run_job).

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>

#include "ecsia/schedule/executor.hpp"
#include "ecsia/threads/worker_pool.hpp"

namespace ecsia {

struct PoolExecutorOptions {
    std::uint32_t workers = 1;
    // true: the coordinator may block (start-up waits for the workers; stop joins them) and its
    // share of a wave is unbounded. false: the browser's main thread.
    bool may_block = true;
    std::chrono::milliseconds startup_deadline{10000};
    // may_block == false: the most the coordinator runs batches in one go.
    std::chrono::microseconds coordinator_slice{2000};
    // start() returns Shared and run_coordinator_share() helps; otherwise the workers alone (Pool).
    bool coordinator_helps = false;
};

class PoolExecutor final : public Executor {
public:
    // Starts the workers (and, with may_block, waits for them). Throws WorkerFailure.
    explicit PoolExecutor(const PoolExecutorOptions& options);

    std::uint32_t workers() const noexcept override { return pool_->size(); }
    WavePlacement start(std::span<Batch* const> batches, BatchRunner& runner) override;
    void run_coordinator_share() override;
    bool done() const noexcept override { return pool_->fence().done(epoch_); }
    bool wait_until(std::chrono::steady_clock::time_point deadline) override {
        return pool_->fence().wait_until(epoch_, deadline);
    }
    void finish() override {}
    const std::int32_t* fence_word() const noexcept override { return pool_->fence().done_epoch_address(); }
    std::uint32_t epoch() const noexcept override { return epoch_; }
    bool idle() const noexcept override { return pool_->idle(); }
    WorkerStats worker_stats(std::uint32_t worker) const override { return pool_->stats(worker); }
    void stop(bool join) noexcept override { pool_->dispose(join); }

    // The two halves of start() for DecidingExecutor (no virtual call, no placement of its own).
    void dispatch(std::span<Batch* const> batches, BatchRunner& runner);
    // Claims and runs batches of the dispatched wave until none is left or, for a coordinator that
    // must stay live, its slice is spent (checked before each claim: it overruns by one batch at most).
    void help();
    // The most the coordinator may spend on batches in one go, in ns; < 0: no bound.
    double coordinator_budget_ns() const noexcept;

private:
    static void run_job(void* self, std::uint32_t job, std::uint32_t worker);

    PoolExecutorOptions options_;
    std::unique_ptr<WorkerPool> pool_;
    // The dispatched wave: written before dispatch (which publishes them to the workers), read-only while it runs.
    std::span<Batch* const> batches_;
    BatchRunner* runner_ = nullptr;
    std::uint32_t epoch_ = 0;
};

}  // namespace ecsia
