// G3 at the scheduler: each diagnostic the engine's frame can emit reaches the sink, named by the
// system whose work caused it, exactly as often as promised; and one a system causes frame after
// frame is said once, then with its count (src/ecsia/base/diagnostics.hpp). The table of every
// message and its test is in docs/GUARANTEES.md (G3).

#include <cstdint>
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

#include "support/frame_fixture.hpp"

using namespace ecsia;

namespace {

SystemDesc failing_main_thread_system(std::string name, std::function<void(World&)> body) {
    SystemDesc system;
    system.name = std::move(name);
    system.main_thread = [body = std::move(body)](World& world, float) { body(world); };
    return system;
}

}  // namespace

TEST_CASE("a batch without reserved handles is reported, named, once per batch", "[diagnostics][schedule]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        WorldOptions options;
        options.max_entities = 40;
        World world(options);
        test::CapturedDiagnostics said(world);
        builtin::register_builtin_components(world);
        builtin::spawn_movers(world, 32, 1);  // 2 batches of 16 rows, 8 free slots
        Scheduler scheduler(world, test::with_workers(workers));
        SystemDesc breeder;
        breeder.name = "Breeder";
        breeder.reads = {world.components().find("position")};
        breeder.spawns_per_batch = 6;  // the first batch gets 6, the second finds 2 free
        breeder.kernel = [](KernelContext&) {};
        scheduler.add_system(breeder);
        scheduler.update(0.016f);
        CHECK(said.count("system 'Breeder' batch 1 got no reserved handles (") == 1);
        CHECK(said.count("got no reserved handles") == 1);
        CHECK(said.count("its spawns are assigned at merge") == 1);
    }
}

TEST_CASE("what a system's commands cause at the merge names the system", "[diagnostics][schedule]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers, 32);
        World& world = fixture.world;
        const builtin::BuiltinIds& ids = fixture.ids;
        // Every batch: a record of an unknown kind, a record the world rejects, a despawn
        // twice (the second finds its target dead) and a spawn beyond its reservation.
        fixture.scheduler.add_system(fixture.kernel_system("Mess", [marked = ids.marked](KernelContext& ctx) {
            const Entity first = ctx.chunk.entities()[0];
            std::uint32_t* unknown = ctx.commands.append_encoded(2, 1);
            unknown[0] = 0x7F;  // no such op code
            unknown[1] = first.bits;
            const std::uint64_t wrong = 7;  // 8 bytes for a 4-byte component
            const ComponentValue v{marked, &wrong, sizeof wrong};
            ctx.commands.add(first, &v, 1);
            const Entity last = ctx.chunk.entities()[ctx.chunk.size() - 1];
            ctx.commands.despawn(last);
            ctx.commands.despawn(last);
            ctx.spawn(nullptr, 0);
        }));
        bool observed = false;
        world.observe(ObserverEvent::OnRemove, ids.position, [&](ObserverContext&) {
            if (!observed) {
                observed = true;
                throw std::runtime_error("observer broke");
            }
        });
        fixture.scheduler.update(0.016f);  // 2 batches
        test::CapturedDiagnostics& said = fixture.said;
        CHECK(said.count("system 'Mess': command skipped: a record with an unknown op code") == 2);
        CHECK(said.count("system 'Mess': command skipped: BadValue: 'marked' takes 4 bytes, got 8") == 2);
        CHECK(said.count("system 'Mess': 2 command record(s) skipped: their target entity was no longer alive") == 1);
        CHECK(said.count("system 'Mess': 2 spawn(s) exceeded their batch's reservation and got handles at merge time") == 1);
        CHECK(said.count("system 'Mess': an on-remove observer of 'position' threw for entity") == 1);
        CHECK(said.messages.size() == 7);
    }
}

TEST_CASE("what a main-thread system's changes set off names the system", "[diagnostics][schedule]") {
    test::FrameFixture fixture(0);
    World& world = fixture.world;
    const ComponentId marked = fixture.ids.marked;
    world.observe(ObserverEvent::OnAdd, marked, [](ObserverContext&) { throw std::runtime_error("no marks today"); });
    world.observe(ObserverEvent::OnChange, fixture.ids.position, [](ObserverContext&) { throw std::runtime_error("no moves"); });
    fixture.scheduler.add_system(failing_main_thread_system("Marker", [](World& w) {
        w.spawn(builtin::Marked{1});                                       // observed at once
        w.set(w.spawn(builtin::Position{0, 0}), builtin::Position{1, 1});  // observed at the flush
    }));
    fixture.scheduler.update(0.016f);
    CHECK(fixture.said.count("system 'Marker': an on-add observer of 'marked' threw for entity") == 1);
    CHECK(fixture.said.count("system 'Marker': an on-change observer of 'position' threw for entity") == 1);
    world.spawn(builtin::Marked{2});  // outside any system: no name
    CHECK(fixture.said.messages.back().rfind("an on-add observer of 'marked' threw for entity", 0) == 0);
}

TEST_CASE("a diagnostic a system causes every frame is said once, then with its count", "[diagnostics][schedule]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers, 32);
        test::CapturedDiagnostics& said = fixture.said;
        fixture.scheduler.add_system(fixture.kernel_system("Broken", [](KernelContext& ctx) {
            throw std::runtime_error("broken in batch " + std::to_string(ctx.batch_id));
        }));
        fixture.scheduler.add_system(failing_main_thread_system("Grumpy", [](World&) { throw std::runtime_error("grumpy"); }));
        const int frames = 100;
        for (int f = 0; f < frames; ++f) fixture.scheduler.update(0.016f);
        // The first frame says every message (2 failed batches, 1 throw); the rest are counted.
        CHECK(said.messages == std::vector<std::string>{
                                   "main-thread system 'Grumpy' threw: grumpy; what it did before stands, and the frame goes on",
                                   "system 'Broken' failed in batch 0: broken in batch 0; its 0 command(s) were dropped",
                                   "system 'Broken' failed in batch 1: broken in batch 1; its 0 command(s) were dropped"});
        CHECK(fixture.world.diagnostics().repeats_counted() == 3 * (frames - 1));
        fixture.scheduler.dispose();  // the counts are said, nothing is lost
        CHECK(said.messages.size() == 5);
        CHECK(said.count("main-thread system 'Grumpy' threw: grumpy; what it did before stands, and the frame goes on "
                         "(repeated: 99 more like it in 99 later frame(s))") == 1);
        CHECK(said.count("system 'Broken' failed in batch 1: broken in batch 1; its 0 command(s) were dropped "
                         "(repeated: 198 more like it in 99 later frame(s))") == 1);
        CHECK(said.occurrences("main-thread system 'Grumpy' threw") == frames);
        CHECK(said.occurrences("system 'Broken' failed in batch") == 2 * frames);
    }
}

TEST_CASE("a repeat that goes on is counted at a bounded rate; one that stops is counted when it stops", "[diagnostics][schedule]") {
    test::FrameFixture fixture(0, 16);
    test::CapturedDiagnostics& said = fixture.said;
    int frame = 0;
    const int stops_at = static_cast<int>(Diagnostics::kRepeatSummaryFrames) + 50;
    fixture.scheduler.add_system(failing_main_thread_system("Moody", [&](World&) {
        if (frame < stops_at) throw std::runtime_error("moody");
    }));
    for (frame = 0; frame < stops_at + 5; ++frame) fixture.scheduler.update(0.016f);
    const std::string counted = std::to_string(Diagnostics::kRepeatSummaryFrames);
    CHECK(said.messages == std::vector<std::string>{
                               "main-thread system 'Moody' threw: moody; what it did before stands, and the frame goes on",
                               "main-thread system 'Moody' threw: moody; what it did before stands, and the frame goes on "
                               "(repeated: " + counted + " more like it in " + counted + " later frame(s), still going on)",
                               "main-thread system 'Moody' threw: moody; what it did before stands, and the frame goes on "
                               "(repeated: 49 more like it in 49 later frame(s))"});
    CHECK(said.occurrences("system 'Moody' threw") == static_cast<std::size_t>(stops_at));
}

TEST_CASE("spawns beyond a batch's reservation that the merge refuses are not counted among those given handles",
          "[diagnostics][schedule]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers, 32);
        World& world = fixture.world;
        const std::uint32_t before = world.alive_count();
        fixture.scheduler.add_system(fixture.kernel_system("Spawny", [marked = fixture.ids.marked](KernelContext& ctx) {
            const std::uint64_t wrong = 7;  // 8 bytes for a 4-byte component: refused at the merge
            const ComponentValue bad{marked, &wrong, sizeof wrong};
            ctx.spawn(&bad, 1);
            ctx.spawn(nullptr, 0);
        }));
        fixture.scheduler.update(0.016f);  // 2 batches
        test::CapturedDiagnostics& said = fixture.said;
        CHECK(said.count("system 'Spawny': command skipped: BadValue: 'marked' takes 4 bytes, got 8") == 2);
        CHECK(said.count("system 'Spawny': 2 spawn(s) exceeded their batch's reservation and got handles at merge time") == 1);
        CHECK(world.alive_count() == before + 2);
    }
}
