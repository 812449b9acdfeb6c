#include "ecsia/schedule/serial_executor.hpp"

#include "ecsia/base/monotonic_clock.hpp"

namespace ecsia {

WavePlacement SerialExecutor::start(std::span<Batch* const> batches, BatchRunner& runner) {
    run(batches, runner);
    return WavePlacement::Inline;
}

void SerialExecutor::run(std::span<Batch* const> batches, BatchRunner& runner, bool timed) noexcept {
    // With wasm's JS-based exceptions every call made inside a try block is a round trip through
    // JS; one try around the whole run (resumed after a failing batch) keeps the kernel calls
    // direct. Same outcome as one try per batch: a failure marks its batch, the rest run.
    std::size_t next = 0;
    timed_ = timed;
    if (timed_) segment_start_ns_ = monotonic_ns();
    while (next < batches.size()) {
        try {
            run_kernels_from(batches, runner, next);
        } catch (const std::exception& error) {
            batches[next++]->fail(error.what());
        } catch (...) {
            batches[next++]->fail(kNonStandardException);
        }
    }
}

// Out of line and without a try of its own: see run().
[[gnu::noinline]] void SerialExecutor::run_kernels_from(std::span<Batch* const> batches, BatchRunner& runner,
                                                        std::size_t& next) {
    for (; next < batches.size(); ++next) {
        Batch& batch = *batches[next];
        runner.run_kernel(batch);
        if (runner.world_gone()) {
            next = batches.size();  // the rest had a world to run on; the scheduler disposes itself
            return;
        }
        // One clock read per system, not per batch: a wave kept inline is a short one.
        if (timed_ && (next + 1 == batches.size() || batches[next + 1]->system != batch.system)) {
            const std::int64_t now = monotonic_ns();
            batch.ns = now - segment_start_ns_;
            segment_start_ns_ = now;
        }
    }
}

}  // namespace ecsia
