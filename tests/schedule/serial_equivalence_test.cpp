// G1: the threaded executor matches the serial one, byte for byte, for every worker count.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "builtin/scenario.hpp"
#include "ecsia/snapshot/state_hash.hpp"

using namespace ecsia;

namespace {

struct Run {
    std::vector<std::uint64_t> frame_hashes;
    std::vector<std::uint64_t> observer_log;
    std::size_t diagnostics = 0;
};

Run run_scenario(std::uint64_t seed, std::uint32_t workers, std::uint32_t frames, std::uint32_t batch_rows = 128) {
    Run run;
    World world(WorldOptions{1u << 16, 22});
    world.diagnostics().set_sink([&](const std::string&) { ++run.diagnostics; });
    SchedulerOptions options;
    options.workers = workers;
    options.batch_rows = batch_rows;
    Scheduler scheduler(world, options);
    builtin::setup_scenario(world, scheduler, seed, run.observer_log);
    for (std::uint32_t f = 0; f < frames; ++f) {
        scheduler.update(1.0f / 60);
        run.frame_hashes.push_back(state_hash(world));
    }
    return run;
}

}  // namespace

TEST_CASE("the scenario hashes identically for the serial executor and 1, 2, 4 and 8 workers",
          "[schedule][threads][determinism]") {
    for (std::uint64_t seed : {1ull, 7ull, 42ull}) {
        const Run serial = run_scenario(seed, 0, 100);
        REQUIRE(serial.observer_log.size() > 100);  // the scenario really exercises observers
        for (std::uint32_t workers : {1u, 2u, 4u, 8u}) {
            INFO("seed " << seed << ", workers " << workers);
            const Run threaded = run_scenario(seed, workers, 100);
            REQUIRE(threaded.frame_hashes == serial.frame_hashes);
            REQUIRE(threaded.observer_log == serial.observer_log);
        }
    }
}

TEST_CASE("the scenario changes the world every frame, structurally and in values", "[schedule][determinism]") {
    World world;
    world.diagnostics().set_sink([](const std::string&) {});
    Scheduler scheduler(world);
    std::vector<std::uint64_t> log;
    builtin::setup_scenario(world, scheduler, 3, log);
    std::uint64_t previous = state_hash(world);
    std::uint32_t previous_tables = world.tables().table_count();
    std::size_t previous_alive = world.alive_count();
    bool alive_changed = false;
    for (int f = 0; f < 120; ++f) {
        scheduler.update(1.0f / 60);
        const std::uint64_t now = state_hash(world);
        CHECK(now != previous);
        previous = now;
        alive_changed |= world.alive_count() != previous_alive;
        previous_alive = world.alive_count();
    }
    CHECK(alive_changed);
    CHECK(world.tables().table_count() > previous_tables);  // Marker created the marked table
}

TEST_CASE("batch size does not change the result of the scenario", "[schedule][determinism]") {
    const Run small = run_scenario(5, 0, 60, 16);
    const Run large = run_scenario(5, 0, 60, 4096);
    REQUIRE(small.frame_hashes == large.frame_hashes);
    REQUIRE(small.observer_log == large.observer_log);
}

TEST_CASE("the scenario's final hash is the recorded one", "[schedule][determinism]") {
    // The browser tests compare against this value: a change here must be deliberate.
    const Run run = run_scenario(1, 0, 200);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(run.frame_hashes.back()));
    CAPTURE(hex);
    CHECK(std::string(hex) == ECSIA_SCENARIO_HASH_SEED1_200);
}
