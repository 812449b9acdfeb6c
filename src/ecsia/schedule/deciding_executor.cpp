#include "ecsia/schedule/deciding_executor.hpp"

#include <algorithm>

#include "ecsia/base/monotonic_clock.hpp"

namespace ecsia {

namespace {
PoolExecutorOptions workers_alone(PoolExecutorOptions options) {
    options.coordinator_helps = false;
    return options;
}
}  // namespace

DecidingExecutor::DecidingExecutor(const PoolExecutorOptions& options) : pool_(workers_alone(options)) {
    runner_ns_.reserve(pool_.workers() + 1);  // learn() then never allocates
}

WavePlacement DecidingExecutor::start(std::span<Batch* const> batches, BatchRunner& runner) {
    batches_ = batches;
    if (batches.empty()) {
        placement_ = WavePlacement::Inline;
    } else if (!forced_.empty()) {
        placement_ = forced_[forced_next_++ % forced_.size()];
    } else {
        placement_ = choose();
    }
    if (placement_ == WavePlacement::Inline) {
        inline_.run(batches, runner);
        learn(false);
        return placement_;
    }
    dispatch_ns_ = monotonic_ns();
    pool_.dispatch(batches, runner);
    return placement_;
}

void DecidingExecutor::run_coordinator_share() {
    if (placement_ == WavePlacement::Shared) pool_.help();
}

void DecidingExecutor::finish() {
    if (placement_ != WavePlacement::Inline) learn(true);
}

WavePlacement DecidingExecutor::choose() noexcept {
    WaveShape shape;
    shape.known = true;
    shape.batches = static_cast<std::uint32_t>(batches_.size());
    shape.workers = pool_.workers();
    shape.coordinator_budget_ns = pool_.coordinator_budget_ns();
    for (const Batch* batch : batches_) {
        const double per_row = model_.ns_per_row(batch->system);
        if (per_row < 0) {
            shape.known = false;
            break;
        }
        const double batch_ns = per_row * batch->cost_rows();
        shape.work_ns += batch_ns;
        shape.largest_batch_ns = std::max(shape.largest_batch_ns, batch_ns);
    }
    return model_.decide(shape);
}

void DecidingExecutor::learn(bool dispatched) {
    // Per system: its rows and their run time. A system's batches are consecutive in batch-id order.
    const std::int64_t seen_done_ns = dispatched ? monotonic_ns() : 0;
    std::size_t b = 0;
    while (b < batches_.size()) {
        const std::uint32_t system = batches_[b]->system;
        std::uint64_t rows = 0;
        std::int64_t ns = 0;
        for (; b < batches_.size() && batches_[b]->system == system; ++b) {
            rows += batches_[b]->cost_rows();
            ns += batches_[b]->ns;
        }
        model_.observe_system(system, rows, static_cast<double>(ns));
    }
    if (!dispatched) return;
    // The pool's overhead: the wave's wall time (dispatch to the coordinator seeing the fence)
    // beyond the busiest runner's own work.
    runner_ns_.assign(pool_.workers() + 1, 0.0);
    for (const Batch* batch : batches_) {
        const std::size_t slot = batch->runner == WorkerPool::kCoordinator ? pool_.workers() : batch->runner;
        runner_ns_[slot] += static_cast<double>(batch->ns);
    }
    const double busiest = *std::max_element(runner_ns_.begin(), runner_ns_.end());
    model_.observe_dispatch(static_cast<double>(seen_done_ns - dispatch_ns_) - busiest);
}

}  // namespace ecsia
