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

bool count_job(void* context, std::uint32_t job, std::uint32_t) {
    // relaxed: each slot is read after the fence, whose acquire orders it.
    static_cast<Counting*>(context)->runs[job].fetch_add(1, std::memory_order_relaxed);
    return job != 3;  // job 3 reports failure
}

bool nothing(void*, std::uint32_t, std::uint32_t) { return true; }

}  // namespace

TEST_CASE("every worker reports ready before the deadline", "[threads]") {
    WorkerPool pool(4);
    REQUIRE_NOTHROW(pool.wait_ready(std::chrono::milliseconds(5000)));
    CHECK(pool.ready());
    CHECK(pool.size() == 4);
}

TEST_CASE("a dispatched wave runs every job exactly once and the fence reports failures", "[threads]") {
    WorkerPool pool(3);
    Counting counting(100);
    const std::uint32_t epoch = pool.dispatch(100, &count_job, &counting);
    REQUIRE(pool.fence().wait_until(epoch, std::chrono::steady_clock::now() + std::chrono::seconds(10)));
    for (auto& runs : counting.runs) CHECK(runs.load(std::memory_order_relaxed) == 1);
    CHECK(pool.fence().failed());
    std::uint64_t jobs = 0;
    for (std::uint32_t w = 0; w < pool.size(); ++w) jobs += pool.stats(w).jobs_run;
    CHECK(jobs == 100);
}

TEST_CASE("thousands of empty waves complete in order without a lost wake-up", "[threads]") {
    WorkerPool pool(2);
    for (int wave = 0; wave < 5000; ++wave) {
        const std::uint32_t epoch = pool.dispatch(wave % 3, &nothing, nullptr);
        REQUIRE(pool.fence().wait_until(epoch, std::chrono::steady_clock::now() + std::chrono::seconds(10)));
        REQUIRE_FALSE(pool.fence().failed());
    }
}

TEST_CASE("dispose joins every worker and is idempotent; dispatch afterwards is refused", "[threads]") {
    WorkerPool pool(2);
    pool.dispose();
    pool.dispose();
    CHECK(pool.disposed());
    CHECK(test::thrown_code([&] { pool.dispatch(1, &nothing, nullptr); }) == "Disposed");
}
