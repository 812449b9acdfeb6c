// The executors behind one interface (schedule/executor.hpp), tested without a scheduler: the
// serial reference, the pool, and the deciding one all run every batch of a wave exactly once and
// record the same outcome per batch, whichever thread ran it.

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ecsia/base/monotonic_clock.hpp"
#include "ecsia/schedule/deciding_executor.hpp"
#include "ecsia/schedule/pool_executor.hpp"
#include "ecsia/schedule/serial_executor.hpp"
#include "support/scheduler_testing.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

namespace {

// Each batch writes its own result slot and counts its runs; every fifth batch throws.
class CountingRunner final : public BatchRunner {
public:
    explicit CountingRunner(std::size_t batches) : runs(batches), results(batches, 0) {}
    void run_kernel(Batch& batch) override {
        // relaxed: read after the wave is done, which orders it (the fence's acquire).
        runs[batch.id].fetch_add(1, std::memory_order_relaxed);
        std::uint64_t value = batch.id + 1;
        for (std::uint32_t row = batch.row_begin; row < batch.row_end; ++row) value = value * 31 + row;
        results[batch.id] = value;
        if (batch.id % 5 == 3) throw std::runtime_error("batch " + std::to_string(batch.id) + " refused");
        if (batch.id % 5 == 4 && batch.system == 1) throw 7;
    }
    std::vector<std::atomic<int>> runs;
    std::vector<std::uint64_t> results;
};

struct ExecutorWave {
    std::vector<std::unique_ptr<Batch>> storage;
    std::vector<Batch*> batches;
    explicit ExecutorWave(std::uint32_t count) {
        for (std::uint32_t b = 0; b < count; ++b) {
            storage.push_back(std::make_unique<Batch>());
            storage.back()->reset(BatchBounds{b < count / 2 ? 0u : 1u, 0, b * 64, b * 64 + 64}, b);
            batches.push_back(storage.back().get());
        }
    }
};

// Runs one wave to its end through the interface, as the scheduler's frame does.
WavePlacement run_wave(Executor& executor, ExecutorWave& wave, BatchRunner& runner) {
    const WavePlacement placement = executor.start(wave.batches, runner);
    if (placement != WavePlacement::Inline) {
        executor.run_coordinator_share();
        REQUIRE(executor.wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(30)));
        REQUIRE(executor.done());
        executor.finish();
    }
    return placement;
}

}  // namespace

TEST_CASE("every executor runs each batch once and records the serial executor's outcome", "[schedule][threads][executor]") {
    constexpr std::uint32_t kBatches = 37;
    ExecutorWave reference_wave(kBatches);
    CountingRunner reference(kBatches);
    SerialExecutor serial;
    CHECK(run_wave(serial, reference_wave, reference) == WavePlacement::Inline);
    CHECK(serial.workers() == 0);
    CHECK(serial.fence_word() == nullptr);

    // One executor alive at a time: the wasm test build has a fixed pool of 16 threads.
    const std::vector<std::string> kinds{"pool", "pool, coordinator helping", "pool, bounded coordinator", "deciding"};
    auto make_executor = [](const std::string& kind, std::uint32_t workers) -> std::unique_ptr<Executor> {
        PoolExecutorOptions options;
        options.workers = workers;
        options.coordinator_helps = kind != "pool";
        if (kind == "pool, bounded coordinator") {
            options.may_block = false;  // a coordinator that must stay live: its share is bounded
            options.coordinator_slice = std::chrono::microseconds(1);
        }
        if (kind == "deciding") return std::make_unique<DecidingExecutor>(options);
        return std::make_unique<PoolExecutor>(options);
    };
    for (std::uint32_t workers : {1u, 2u, 4u}) {
        for (const std::string& name : kinds) {
            const std::unique_ptr<Executor> executor = make_executor(name, workers);
            for (int round = 0; round < 3; ++round) {  // the deciding one measures, then chooses
                INFO(name << ", workers " << workers << ", round " << round);
                ExecutorWave wave(kBatches);
                CountingRunner runner(kBatches);
                const WavePlacement placement = run_wave(*executor, wave, runner);
                if (name == "pool") CHECK(placement == WavePlacement::Pool);
                if (name == "pool, coordinator helping") CHECK(placement == WavePlacement::Shared);
                if (name == "deciding" && round == 0) CHECK(placement == WavePlacement::Pool);  // costs unknown
                REQUIRE(executor->workers() == workers);
                CHECK(executor->idle());
                for (std::uint32_t b = 0; b < kBatches; ++b) {
                    REQUIRE(runner.runs[b].load(std::memory_order_relaxed) == 1);
                    REQUIRE(runner.results[b] == reference.results[b]);
                    REQUIRE(wave.batches[b]->failed == reference_wave.batches[b]->failed);
                    REQUIRE(wave.batches[b]->error == reference_wave.batches[b]->error);
                    if (placement == WavePlacement::Pool) REQUIRE(wave.batches[b]->runner < workers);
                }
            }
            executor->stop(true);
            CHECK(executor->idle());
            if (name != "deciding") {  // (a deciding executor may still run a small wave inline)
                ExecutorWave late(1);
                CountingRunner runner(1);
                CHECK(test::thrown_code([&] { executor->start(late.batches, runner); }) == "Disposed");
            }
        }
    }
    CHECK(reference_wave.batches[3]->error == "batch 3 refused");
    CHECK(reference_wave.batches[24]->error == "a non-standard exception");
}

TEST_CASE("the deciding executor can be pinned to each placement and still runs every batch once", "[schedule][threads][executor]") {
    PoolExecutorOptions options;
    options.workers = 2;
    DecidingExecutor executor(options);
    for (WavePlacement pinned : {WavePlacement::Inline, WavePlacement::Pool, WavePlacement::Shared}) {
        INFO(placement_name(pinned));
        detail::SchedulerTesting::force_placement(executor, pinned);
        ExecutorWave wave(9);
        CountingRunner runner(9);
        CHECK(run_wave(executor, wave, runner) == pinned);
        for (std::uint32_t b = 0; b < 9; ++b) REQUIRE(runner.runs[b].load(std::memory_order_relaxed) == 1);
    }
    // Measured now: both inline and dispatched waves fed the model.
    CHECK(executor.model().ns_per_row(0) >= 0);
    CHECK(executor.model().ns_per_row(1) >= 0);
    CHECK(executor.model().dispatch_overhead_ns() >= 0);
    executor.stop(true);
}

TEST_CASE("a deciding executor times its inline waves even when each follows a wave without batches", "[schedule][threads][executor]") {
    PoolExecutorOptions options;
    options.workers = 1;
    DecidingExecutor executor(options);
    detail::SchedulerTesting::force_placement(executor, WavePlacement::Inline);
    ExecutorWave none(0);  // a wave of main-thread systems only
    for (int frame = 0; frame < 16; ++frame) {
        CountingRunner nothing(0);
        CHECK(executor.start(none.batches, nothing) == WavePlacement::Inline);
        ExecutorWave wave(9);
        CountingRunner runner(9);
        CHECK(executor.start(wave.batches, runner) == WavePlacement::Inline);
    }
    // Sampled, not skipped: the systems' per-row costs were learnt from inline runs.
    CHECK(executor.model().ns_per_row(0) >= 0);
    CHECK(executor.model().ns_per_row(1) >= 0);
    executor.stop(true);
}

namespace {

// A batch that lasts until the clock moves, so a timed run always reads more than 0 ns (even
// where the clock is coarse), and an untimed one leaves its batch's ns at 0.
class ClockTickRunner final : public BatchRunner {
public:
    void run_kernel(Batch&) override {
        const std::int64_t start = monotonic_ns();
        while (monotonic_ns() == start) {
        }
        ++runs;
    }
    int runs = 0;
};

// Runs `waves` one-batch waves of `rows` rows; returns which were timed inline (by index).
std::vector<int> timed_inline_waves(DecidingExecutor& executor, ClockTickRunner& runner, std::uint32_t rows, int waves,
                                    int first_index) {
    std::vector<int> timed;
    for (int w = 0; w < waves; ++w) {
        Batch batch;
        batch.reset(BatchBounds{0, 0, 0, rows}, 0);
        Batch* const list[] = {&batch};
        const int runs_before = runner.runs;
        const WavePlacement placement = executor.start(list, runner);
        REQUIRE(placement == WavePlacement::Inline);  // (the round trip never pays for one short batch)
        REQUIRE(runner.runs == runs_before + 1);
        if (batch.ns > 0) timed.push_back(first_index + w);
    }
    return timed;
}

std::vector<int> gaps(const std::vector<int>& indices) {
    std::vector<int> out;
    for (std::size_t i = 1; i < indices.size(); ++i) out.push_back(indices[i] - indices[i - 1]);
    return out;
}

}  // namespace

TEST_CASE("a deciding executor stops deciding and timing a wave that settled inline, re-checking it ever more rarely",
          "[schedule][threads][executor]") {
    PoolExecutorOptions options;
    options.workers = 1;
    DecidingExecutor executor(options);
    ClockTickRunner runner;
    {
        // First: costs unknown, so the wave goes to the worker to be measured. The coordinator
        // sees its end 500 ms late: the pool's overhead (and its best) reads ~500 ms, so only a
        // timed short batch preempted for half a second could bring the wave near the flip
        // (50 ms was within reach of a loaded 2-core machine's preemptions).
        Batch batch;
        batch.reset(BatchBounds{0, 0, 0, 100}, 0);
        Batch* const list[] = {&batch};
        REQUIRE(executor.start(list, runner) == WavePlacement::Pool);
        REQUIRE(executor.wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(30)));
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        executor.finish();
        REQUIRE(executor.model().best_overhead_ns() > 400e6);
    }
    // The first decided inline wave is timed (one in 8), finds the wave inline by a wide margin
    // and settles it: 8 waves run undecided and untimed, then one re-check, and each re-check
    // that confirms it doubles the interval, up to kMaxSettledInterval.
    const std::vector<int> timed = timed_inline_waves(executor, runner, 100, 1100, 0);
    REQUIRE(!timed.empty());
    CHECK(timed.front() == 0);
    constexpr int kMax = DecidingExecutor::kMaxSettledInterval;
    CHECK(gaps(timed) == std::vector<int>{9, 17, 33, 65, 129, kMax + 1, kMax + 1, kMax + 1});
    // Another row count is another shape: decided at once, timed at the next one in 8, settled
    // again from the shortest interval.
    const std::vector<int> grown = timed_inline_waves(executor, runner, 200, 40, 0);
    REQUIRE(grown.size() == 3);
    CHECK(grown.front() < 8);
    CHECK(gaps(grown) == std::vector<int>{9, 17});
    // And back: the entry is the new shape's now, so the old one starts over too.
    const std::vector<int> back = timed_inline_waves(executor, runner, 100, 40, 0);
    REQUIRE(back.size() == 3);
    CHECK(back.front() < 8);
    CHECK(gaps(back) == std::vector<int>{9, 17});
    CHECK(runner.runs == 1 + 1100 + 40 + 40);
    executor.stop(true);
}
