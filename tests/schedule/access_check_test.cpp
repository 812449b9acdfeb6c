// Declared access (ECSIA_ACCESS_CHECKS builds, which every test build is): a kernel that reads or
// writes a component its system did not declare fails its batch with a diagnostic naming the
// system and the component; its neighbours in the wave are untouched. Without the checks the
// plan's promise (no two systems in a wave write the same component) is only as good as the
// declarations, and a wrong one is a silent data race.

#include <catch2/catch.hpp>

#include "builtin/builtin_systems.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "support/captured_diagnostics.hpp"
#include "support/frame_fixture.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

#if ECSIA_ACCESS_CHECKS

TEST_CASE("a kernel writing a component it did not declare fails its batches, naming both", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers, 256, 3, 64);
        World& world = fixture.world;
        const builtin::BuiltinIds& ids = fixture.ids;
        Scheduler& scheduler = fixture.scheduler;
        // Move declares velocity read, position written. Sneaky declares energy only, but writes
        // position too: the plan puts them in one wave (no declared conflict).
        scheduler.add_system(builtin::make_builtin_system(world, "Move"));
        SystemDesc sneaky;
        sneaky.name = "Sneaky";
        sneaky.writes = {ids.energy};
        sneaky.query.with = {ids.energy, ids.position};
        sneaky.query_set = true;
        sneaky.kernel = [ids](KernelContext& ctx) {
            builtin::Energy* energy = ctx.chunk.write<builtin::Energy>(ids.energy);
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) energy[i].value += 1;
            builtin::Position* position = ctx.chunk.write<builtin::Position>(ids.position);
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) position[i].x = 0;
        };
        scheduler.add_system(sneaky);
        REQUIRE(scheduler.plan().waves.size() == 1);
        scheduler.update(0.016f);
        CHECK(fixture.said.count("system 'Sneaky' failed in batch") == 4);
        CHECK(fixture.said.count("UndeclaredAccess: system 'Sneaky' writes 'position', which it did not declare "
                         "(reads nothing; writes 'energy')") == 4);
        // No kernel got to write position: every x is Move's.
        world.each<const builtin::Position>([](Entity, const builtin::Position& p) { CHECK(p.x != 0); });
        CHECK(fixture.said.count("system 'Move' failed") == 0);
    }
}

TEST_CASE("a kernel reading a component it did not declare fails its batch", "[schedule]") {
    test::FrameFixture fixture(0, 10, 3, 64);
    fixture.scheduler.add_system(fixture.kernel_system("Peek", [velocity = fixture.ids.velocity](KernelContext& ctx) {
        (void)ctx.chunk.read<builtin::Velocity>(velocity);
    }));
    fixture.scheduler.update(0.016f);
    CHECK(fixture.said.count("system 'Peek' failed in batch 0: UndeclaredAccess: system 'Peek' reads 'velocity', which it "
                     "did not declare (reads 'position'; writes nothing)") == 1);
}

TEST_CASE("declared reads and writes pass the checks and give the unchecked result", "[schedule][threads]") {
    auto run = [](std::uint32_t workers) {
        World world;
        world.diagnostics().set_sink([](const std::string& m) { FAIL("unexpected diagnostic: " << m); });
        builtin::spawn_movers(world, 500, 4);
        Scheduler scheduler(world, test::with_workers(workers, 64));
        for (const char* name : {"Move", "Bounce", "Marker", "Pulse", "Drain"}) {
            scheduler.add_system(builtin::make_builtin_system(world, name));
        }
        for (int f = 0; f < 10; ++f) scheduler.update(0.016f);
        return state_hash(world);
    };
    const std::uint64_t serial = run(0);
    CHECK(run(2) == serial);
}

#else

TEST_CASE("access checks are compiled out of this build", "[schedule]") {
    // scripts/test builds every test configuration with ECSIA_ACCESS_CHECKS=ON; this build was
    // made without, so the checked cases above are not part of it.
    WARN("ECSIA_ACCESS_CHECKS is off in this build: declared-access tests are not compiled");
}

#endif
