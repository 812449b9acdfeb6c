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
    // 1. Where it runs: pinned (tests), settled inline (no decision), or decided now.
    SettledWave* settled = nullptr;
    if (batches.empty()) {
        placement_ = WavePlacement::Inline;
    } else if (!forced_.empty()) {
        placement_ = forced_[forced_next_++ % forced_.size()];
    } else {
        settled = &settled_wave();
        if (settled->skip > 0) {
            --settled->skip;
            placement_ = WavePlacement::Inline;
            inline_.run(batches, runner);
            return placement_;
        }
        placement_ = choose();
    }
    // 2a. On the workers: always timed (the pool's overhead is only seen here).
    if (placement_ != WavePlacement::Inline) {
        if (settled != nullptr) *settled = SettledWave{};
        dispatch_ns_ = monotonic_ns();
        pool_.dispatch(batches, runner);
        return placement_;
    }
    // 2b. Inline: timed one decided wave in kInlineSampleInterval, and at a settled wave's
    // re-check. (A wave without batches is not counted: it would leave a real wave that follows
    // it every frame on the same residue, never timed.)
    const bool recheck = settled != nullptr && settled->interval > 0;
    const bool timed = !batches.empty() && (recheck || inline_waves_++ % kInlineSampleInterval == 0);
    inline_.run(batches, runner, timed);
    if (timed) {
        learn(false);
        if (settled != nullptr) settle(*settled);
    }
    return placement_;
}

void DecidingExecutor::run_coordinator_share() {
    if (placement_ == WavePlacement::Shared) pool_.help();
}

void DecidingExecutor::finish() {
    if (placement_ != WavePlacement::Inline) learn(true);
}

DecidingExecutor::SettledWave& DecidingExecutor::settled_wave() {
    const std::uint32_t first = batches_.front()->system;
    if (first >= settled_.size()) grow_settled(first + 1);
    SettledWave& entry = settled_[first];
    std::uint64_t rows = 0;
    for (const Batch* batch : batches_) rows += batch->cost_rows();
    const std::uint32_t last = batches_.back()->system;
    const auto count = static_cast<std::uint32_t>(batches_.size());
    if (entry.batches != count || entry.rows != rows || entry.last_system != last ||
        entry.best_overhead_ns != model_.best_overhead_ns()) {
        entry = SettledWave{last, count, rows, model_.best_overhead_ns(), 0, 0};
    }
    return entry;
}

// Once per new system: out of line, so the every-wave path above stays short.
[[gnu::noinline]] void DecidingExecutor::grow_settled(std::size_t size) { settled_.resize(size); }

void DecidingExecutor::settle(SettledWave& settled) const noexcept {
    if (!model_.settled_inline(shape())) {
        settled.skip = settled.interval = 0;
        return;
    }
    settled.interval = settled.interval == 0 ? kInlineSampleInterval : std::min(settled.interval * 2, kMaxSettledInterval);
    settled.skip = settled.interval;
}

WaveShape DecidingExecutor::shape() const noexcept {
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
    return shape;
}

WavePlacement DecidingExecutor::choose() noexcept { return model_.decide(shape()); }

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
