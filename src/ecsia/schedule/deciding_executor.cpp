#include "ecsia/schedule/deciding_executor.hpp"

#include <algorithm>

#include "ecsia/base/monotonic_clock.hpp"

namespace ecsia {

namespace {
// Timing an inline wave costs a clock read per system, which is a tenth of a small frame natively
// and more in wasm (a read is a call into JS). One inline wave in this many is timed: enough for
// the per-row estimates to follow a cost that drifts; dispatched waves are always timed.
constexpr std::uint32_t kInlineSampleInterval = 8;

PoolExecutorOptions workers_alone(PoolExecutorOptions options) {
    options.coordinator_helps = false;
    return options;
}
}  // namespace

DecidingExecutor::DecidingExecutor(const PoolExecutorOptions& options) : pool_(workers_alone(options)) {}

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
        // (A wave without batches is not counted: it would leave a real wave that follows it
        // every frame on the same residue, never timed.)
        const bool timed = !batches.empty() && inline_waves_++ % kInlineSampleInterval == 0;
        inline_.run(batches, runner, timed);
        if (timed) learn(false);
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
    // The wave as it ran: its measured work, and its wall time from dispatch to the coordinator
    // seeing the fence.
    WaveShape ran;
    ran.known = true;
    ran.batches = static_cast<std::uint32_t>(batches_.size());
    ran.workers = pool_.workers();
    ran.coordinator_budget_ns = pool_.coordinator_budget_ns();
    for (const Batch* batch : batches_) ran.work_ns += static_cast<double>(batch->ns);
    model_.observe_dispatched_wave(ran, placement_, static_cast<double>(seen_done_ns - dispatch_ns_));
}

}  // namespace ecsia
