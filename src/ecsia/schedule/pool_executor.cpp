#include "ecsia/schedule/pool_executor.hpp"

#include <exception>

#include "ecsia/base/monotonic_clock.hpp"

namespace ecsia {

PoolExecutor::PoolExecutor(const PoolExecutorOptions& options)
    : options_(options), pool_(std::make_unique<WorkerPool>(options.workers)) {
    // On failure the pool is destroyed here, which joins its threads: only where blocking is allowed.
    if (options_.may_block) pool_->wait_ready(options_.startup_deadline);
}

WavePlacement PoolExecutor::start(std::span<Batch* const> batches, BatchRunner& runner) {
    dispatch(batches, runner);
    return options_.coordinator_helps ? WavePlacement::Shared : WavePlacement::Pool;
}

void PoolExecutor::run_coordinator_share() {
    if (options_.coordinator_helps) help();
}

void PoolExecutor::dispatch(std::span<Batch* const> batches, BatchRunner& runner) {
    batches_ = batches;
    runner_ = &runner;
    epoch_ = pool_->dispatch(static_cast<std::uint32_t>(batches.size()), &PoolExecutor::run_job, this);
}

double PoolExecutor::coordinator_budget_ns() const noexcept {
    return options_.may_block ? -1.0 : static_cast<double>(std::chrono::nanoseconds(options_.coordinator_slice).count());
}

void PoolExecutor::help() {
    if (options_.may_block) {
        while (pool_->help()) {
        }
        return;
    }
    const std::int64_t until = monotonic_ns() + std::chrono::nanoseconds(options_.coordinator_slice).count();
    while (monotonic_ns() < until && pool_->help()) {
    }
}

void PoolExecutor::run_job(void* self, std::uint32_t job, std::uint32_t worker) {
    // Everything it needs from the executor is read before the kernel runs; afterwards it touches
    // only the batch: a worker detached by stop(false) may return here after the frame was dropped.
    const auto* executor = static_cast<const PoolExecutor*>(self);
    Batch& batch = *executor->batches_[job];
    BatchRunner& runner = *executor->runner_;
    const std::int64_t start = monotonic_ns();
    try {
        runner.run_kernel(batch);
    } catch (const std::exception& error) {
        batch.fail(error.what());
    } catch (...) {
        batch.fail(kNonStandardException);
    }
    batch.ns = monotonic_ns() - start;
    batch.runner = worker;
}

}  // namespace ecsia
