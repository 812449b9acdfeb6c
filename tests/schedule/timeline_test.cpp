#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/base/monotonic_clock.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "support/scheduler_testing.hpp"

using namespace ecsia;

namespace {

constexpr std::uint32_t kRows = 50'000;  // 16 batches of Move

// A world of movers with two systems: Move on the workers, a main-thread system before it.
struct TimelineRig {
    World world;
    Scheduler scheduler;

    explicit TimelineRig(std::uint32_t workers) : scheduler(world, options(workers)) {
        builtin::spawn_move_workload(world, kRows);
        SystemDesc page;
        page.name = "Page";
        page.main_thread = [](World&, float) {};
        page.before = {"Move"};
        scheduler.add_system(page);
        scheduler.add_system(builtin::make_builtin_system(world, "Move"));
    }

    static SchedulerOptions options(std::uint32_t workers) {
        SchedulerOptions o;
        o.workers = workers;
        return o;
    }
};

// Every row of Move's query exactly once, in batch order, within its wave's time.
void check_frame(const Scheduler& scheduler, std::uint32_t workers) {
    const std::vector<WaveTiming>& waves = scheduler.last_frame_waves();
    const std::vector<BatchTiming>& batches = scheduler.last_frame_batches();
    REQUIRE(waves.size() == 2);
    REQUIRE(batches.size() == waves[1].batches);
    REQUIRE(batches.size() == 16);
    std::uint32_t next_row = 0;
    for (const BatchTiming& batch : batches) {
        INFO("batch at row " << batch.first_row);
        CHECK(batch.wave == 1);
        CHECK(scheduler.systems()[batch.system].name == "Move");
        CHECK(batch.first_row == next_row);
        next_row = batch.first_row + batch.rows;
        CHECK((batch.runner == BatchTiming::kCoordinator || batch.runner < workers));
        CHECK(batch.begin_us <= batch.end_us);
        CHECK(batch.begin_us >= waves[1].serial_end_us);
        CHECK(batch.end_us <= waves[1].end_us);
    }
    CHECK(next_row == kRows);
    for (const WaveTiming& wave : waves) {
        CHECK(wave.begin_us <= wave.serial_end_us);
        CHECK(wave.serial_end_us <= wave.end_us);
        CHECK(wave.end_us <= wave.merged_us);
    }
    CHECK(waves[0].merged_us <= waves[1].begin_us);
}

}  // namespace

TEST_CASE("the timeline is off by default: no batch is recorded and no slot timed", "[schedule][timeline]") {
    TimelineRig rig(0);
    CHECK_FALSE(rig.scheduler.records_timeline());
    rig.scheduler.update(1.0f / 60);
    CHECK(rig.scheduler.last_frame_batches().empty());
    for (const WaveTiming& wave : rig.scheduler.last_frame_waves()) {
        CHECK(wave.serial_end_us == 0);
        CHECK(wave.merged_us == 0);
    }
}

TEST_CASE("the timeline records every batch of a frame once, inside its wave, inline and on the workers",
          "[schedule][timeline][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        TimelineRig rig(workers);
        rig.scheduler.record_timeline(true);
        CHECK(rig.scheduler.records_timeline());
        for (WavePlacement placement : {WavePlacement::Inline, WavePlacement::Pool, WavePlacement::Shared}) {
            detail::SchedulerTesting::force_placement(rig.scheduler, placement);
            rig.scheduler.update(1.0f / 60);
            check_frame(rig.scheduler, workers);
            std::set<std::uint32_t> runners;
            for (const BatchTiming& batch : rig.scheduler.last_frame_batches()) runners.insert(batch.runner);
            if (workers == 0 || placement == WavePlacement::Inline) {
                CHECK(runners == std::set<std::uint32_t>{BatchTiming::kCoordinator});
            } else if (placement == WavePlacement::Pool) {
                CHECK(runners.count(BatchTiming::kCoordinator) == 0);
            }
        }
    }
}

TEST_CASE("turning the timeline off takes effect at the next frame, which records nothing", "[schedule][timeline]") {
    TimelineRig rig(0);
    rig.scheduler.record_timeline(true);
    rig.scheduler.update(1.0f / 60);
    CHECK(rig.scheduler.last_frame_batches().size() == 16);
    // Asked for mid-frame: the frame in progress keeps recording.
    rig.scheduler.begin_frame(1.0f / 60);
    rig.scheduler.record_timeline(false);
    while (rig.scheduler.step() != FrameStatus::Done) {
    }
    CHECK(rig.scheduler.last_frame_batches().size() == 16);
    rig.scheduler.update(1.0f / 60);
    CHECK(rig.scheduler.last_frame_batches().empty());
    CHECK(rig.scheduler.last_frame_waves()[1].merged_us == 0);
    CHECK_FALSE(rig.scheduler.last_frame_timed());
}

namespace {
std::int64_t frozen_clock_ns() noexcept { return 1'000'000; }
}  // namespace

TEST_CASE("whether the last frame was timed is said, not read from its times: a clock too coarse to move reads 0 throughout",
          "[schedule][timeline]") {
    install_monotonic_source(&frozen_clock_ns);
    {
        TimelineRig rig(0);
        CHECK_FALSE(rig.scheduler.last_frame_timed());
        rig.scheduler.record_timeline(true);
        CHECK_FALSE(rig.scheduler.last_frame_timed());  // takes effect at the next frame
        rig.scheduler.update(1.0f / 60);
        CHECK(rig.scheduler.last_frame_timed());
        CHECK(rig.scheduler.last_frame_batches().size() == 16);
        for (const WaveTiming& wave : rig.scheduler.last_frame_waves()) CHECK(wave.merged_us == 0);
        rig.scheduler.record_timeline(false);
        CHECK(rig.scheduler.last_frame_timed());  // still the last frame's
        rig.scheduler.update(1.0f / 60);
        CHECK_FALSE(rig.scheduler.last_frame_timed());
    }
    install_monotonic_source(nullptr);
}

namespace {
// A clock that runs 3 ms ahead on every thread but the test's, as a browser's workers' clocks may.
thread_local bool clock_is_coordinators = false;
std::int64_t skewed_clock_ns() noexcept {
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return clock_is_coordinators ? now : now + 3'000'000;
}
}  // namespace

TEST_CASE("workers' bars stay inside their wave when the workers' clocks are offset from the coordinator's",
          "[schedule][timeline][threads]") {
    clock_is_coordinators = true;
    install_monotonic_source(&skewed_clock_ns);
    {
        TimelineRig rig(2);  // its workers start after the clock is installed
        rig.scheduler.record_timeline(true);
        detail::SchedulerTesting::force_placement(rig.scheduler, WavePlacement::Pool);
        for (int frame = 0; frame < 5; ++frame) {
            INFO("frame " << frame);
            rig.scheduler.update(1.0f / 60);
            check_frame(rig.scheduler, 2);
        }
    }
    install_monotonic_source(nullptr);
}
