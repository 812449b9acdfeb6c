#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <cstdint>

#include "builtin/builtin_systems.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/base/monotonic_clock.hpp"
#include "ecsia/schedule/scheduler.hpp"

using namespace ecsia;

namespace {

// A fake source: every read advances 1 µs (relaxed: one thread reads it in this test).
std::atomic<std::int64_t> g_fake_ns{1'000'000};
std::int64_t fake_source() noexcept { return g_fake_ns.fetch_add(1'000, std::memory_order_relaxed); }

// Puts steady_clock back whatever the test does.
struct RestoreSource {
    ~RestoreSource() { install_monotonic_source(nullptr); }
};

}  // namespace

TEST_CASE("the default monotonic clock counts nanoseconds and never goes back", "[base]") {
    // Against std::chrono over a sleep: a clock in the wrong unit, a stuck clock or one that runs
    // backwards fails here (a loop of reads alone could not tell a constant clock from a good one).
    const std::int64_t first = monotonic_ns();
    const auto chrono_first = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::int64_t last = monotonic_ns();
    const auto chrono_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - chrono_first).count();
    const std::int64_t elapsed = last - first;
    CHECK(elapsed >= 20'000'000);
    CHECK(elapsed <= chrono_ns + 1'000'000);  // no faster than steady_clock (1 ms of slack)
    for (int i = 0; i < 1000; ++i) {
        const std::int64_t now = monotonic_ns();
        REQUIRE(now >= last);
        last = now;
    }
}

TEST_CASE("an installed clock source drives the scheduler's frame timing", "[base][schedule]") {
    const RestoreSource restore;
    World world;
    builtin::spawn_move_workload(world, 10);
    Scheduler scheduler(world, SchedulerOptions{});
    scheduler.add_system(builtin::make_builtin_system(world, "Move"));
    scheduler.add_system(builtin::make_builtin_system(world, "SumMoved"));
    install_monotonic_source(&fake_source);
    const std::int64_t first = monotonic_ns();
    CHECK(monotonic_ns() == first + 1'000);
    scheduler.update(1.0f / 60);
    // Two waves (SumMoved reads what Move writes); the serial executor reads the clock once at
    // the frame's start and once at each wave's end, and the fake clock advances 1 µs per read.
    const std::vector<WaveTiming>& waves = scheduler.last_frame_waves();
    REQUIRE(waves.size() == 2);
    CHECK(waves[0].begin_us == 0.0);
    CHECK(waves[0].end_us == 1.0);
    CHECK(waves[1].begin_us == 1.0);
    CHECK(waves[1].end_us == 2.0);
}
