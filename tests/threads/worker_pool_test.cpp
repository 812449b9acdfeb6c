#include <catch2/catch.hpp>

#include "support/world_checks.hpp"

#include <atomic>
#include <vector>

#include "ecsia/base/error.hpp"
#include "ecsia/threads/worker_pool.hpp"

using namespace ecsia;

namespace {

struct Counting {
    std::vector<std::atomic<int>> runs;
    explicit Counting(std::size_t jobs) : runs(jobs) {}
};

struct Helping {
    std::vector<std::atomic<int>> runs;
    std::vector<std::uint32_t> ran_on;  // written by the job's runner only, read after the fence
    explicit Helping(std::size_t jobs) : runs(jobs), ran_on(jobs, 0) {}
};

void count_job(void* context, std::uint32_t job, std::uint32_t) {
    // relaxed: each slot is read after the fence, whose acquire orders it.
    static_cast<Counting*>(context)->runs[job].fetch_add(1, std::memory_order_relaxed);
}

void record_job(void* context, std::uint32_t job, std::uint32_t worker) {
    auto& helping = *static_cast<Helping*>(context);
    // relaxed: read after the fence (workers) or by the same thread (coordinator).
    helping.runs[job].fetch_add(1, std::memory_order_relaxed);
    helping.ran_on[job] = worker;
}

void nothing(void*, std::uint32_t, std::uint32_t) {}

}  // namespace

TEST_CASE("every worker reports ready before the deadline", "[threads]") {
    WorkerPool pool(4);
    REQUIRE_NOTHROW(pool.wait_ready(std::chrono::milliseconds(5000)));
    CHECK(pool.ready());
    CHECK(pool.size() == 4);
}

TEST_CASE("a dispatched wave runs every job exactly once", "[threads]") {
    WorkerPool pool(3);
    Counting counting(100);
    const std::uint32_t epoch = pool.dispatch(100, &count_job, &counting);
    REQUIRE(pool.fence().wait_until(epoch, std::chrono::steady_clock::now() + std::chrono::seconds(10)));
    for (auto& runs : counting.runs) CHECK(runs.load(std::memory_order_relaxed) == 1);
    std::uint64_t jobs = 0;
    for (std::uint32_t w = 0; w < pool.size(); ++w) jobs += pool.stats(w).jobs_run;
    CHECK(jobs == 100);
}

TEST_CASE("thousands of empty waves complete in order without a lost wake-up", "[threads]") {
    WorkerPool pool(2);
    for (int wave = 0; wave < 5000; ++wave) {
        const std::uint32_t epoch = pool.dispatch(wave % 3, &nothing, nullptr);
        REQUIRE(pool.fence().wait_until(epoch, std::chrono::steady_clock::now() + std::chrono::seconds(10)));
    }
}

TEST_CASE("the coordinator helping a wave shares its jobs with the workers, each job run once", "[threads]") {
    WorkerPool pool(2);
    pool.wait_ready(std::chrono::milliseconds(5000));
    for (int wave = 0; wave < 200; ++wave) {
        Helping helping(37);
        const std::uint32_t epoch = pool.dispatch(37, &record_job, &helping);
        std::uint32_t helped = 0;
        while (pool.help()) ++helped;
        REQUIRE_FALSE(pool.help());  // nothing is left once help() said so
        REQUIRE(pool.fence().wait_until(epoch, std::chrono::steady_clock::now() + std::chrono::seconds(10)));
        std::uint32_t on_coordinator = 0;
        for (std::size_t j = 0; j < helping.runs.size(); ++j) {
            REQUIRE(helping.runs[j].load(std::memory_order_relaxed) == 1);
            on_coordinator += helping.ran_on[j] == WorkerPool::kCoordinator;
        }
        REQUIRE(on_coordinator == helped);
    }
}

TEST_CASE("dispose joins every worker and is idempotent; dispatch afterwards is refused", "[threads]") {
    WorkerPool pool(2);
    pool.dispose();
    pool.dispose();
    CHECK(pool.disposed());
    CHECK(test::thrown_code([&] { pool.dispatch(1, &nothing, nullptr); }) == "Disposed");
}
