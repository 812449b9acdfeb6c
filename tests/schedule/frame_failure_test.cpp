// Nothing wedges: whatever throws inside a frame ends only that work, with a diagnostic (or an
// error from update()) that says what happened; the next update() runs a complete frame, no work
// of a frame runs twice, and no reserved handle leaks. Each case at 0 (serial) and 2 workers.

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "ecsia/world/world.hpp"
#include "ecsia/world/world_access.hpp"
#include "support/captured_diagnostics.hpp"
#include "support/frame_fixture.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

namespace {

// Counts how often each system ran, per frame.
struct RunLog {
    std::map<std::string, int> runs;
    void ran(const std::string& name) { ++runs[name]; }
};

SystemDesc main_thread_system(std::string name, std::function<void(World&)> body) {
    SystemDesc system;
    system.name = std::move(name);
    system.main_thread = [body = std::move(body)](World& world, float) { body(world); };
    return system;
}

}  // namespace

TEST_CASE("a throwing main-thread system is reported, the frame goes on, and nothing runs twice", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers, 100, 3);
        World& world = fixture.world;
        test::CapturedDiagnostics& said = fixture.said;
        Scheduler& scheduler = fixture.scheduler;
        RunLog log;
        int frame = 0;
        scheduler.add_system(main_thread_system("Input", [&](World&) {
            log.ran("Input");
            if (frame % 2 == 0) throw std::runtime_error("input device gone");
        }));
        scheduler.add_system(main_thread_system("Typed", [&](World& w) {
            log.ran("Typed");
            if (frame == 1) w.get<builtin::Marked>(w.spawn());  // MissingComponent: an ecsia::Error
            if (frame == 3) throw 42;                            // not even a std::exception
        }));
        SystemDesc move = builtin::make_builtin_system(world, "Move");
        const Kernel inner = move.kernel;
        move.kernel = [&, inner](KernelContext& ctx) { inner(ctx); };
        scheduler.add_system(move);
        SystemDesc counter;
        counter.name = "Counter";
        counter.after = {"Input", "Typed"};
        counter.main_thread = [&](World&, float) { log.ran("Counter"); };
        scheduler.add_system(counter);
        for (frame = 0; frame < 5; ++frame) REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(scheduler.frames() == 5);
        CHECK(log.runs["Input"] == 5);
        CHECK(log.runs["Typed"] == 5);
        CHECK(log.runs["Counter"] == 5);
        CHECK(said.count("main-thread system 'Input' threw: input device gone; what it did before stands, and the frame goes on") == 3);
        CHECK(said.count("main-thread system 'Typed' threw: MissingComponent:") == 1);
        CHECK(said.count("main-thread system 'Typed' threw a non-standard exception") == 1);
        CHECK(scheduler.state() == FrameState::Idle);
        CHECK(world.phase() == WorldPhase::Serial);
    }
}

TEST_CASE("a throwing observer during the merge leaks no reserved handle and says the entity was spawned", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers);
        World& world = fixture.world;
        test::CapturedDiagnostics& said = fixture.said;
        const builtin::BuiltinIds& ids = fixture.ids;
        Scheduler& scheduler = fixture.scheduler;
        scheduler.add_system(fixture.breeder(8, [marked = ids.marked](KernelContext& ctx) {
            for (std::uint32_t i = 0; i < ctx.chunk.size() && i < 4; ++i) {
                const builtin::Marked m{1};
                const ComponentValue v{marked, &m, sizeof m};
                ctx.spawn(&v, 1);
            }
        }));
        int adds = 0;
        world.observe(ObserverEvent::OnAdd, ids.marked, [&](ObserverContext&) {
            ++adds;
            if (adds % 3 == 1) throw std::runtime_error("observer broke");
            if (adds % 3 == 2) throw Error(ErrorCode::BadValue, "observer refused");
        });
        for (int f = 0; f < 3; ++f) REQUIRE_NOTHROW(scheduler.update(0.016f));
        // 4 batches of 16 rows x 4 spawns per frame, every one of them alive.
        const std::uint32_t marked = world.count(QueryDesc{{ids.marked}, {}, {}, {}, {}});
        CHECK(marked == 3 * 4 * 4);
        CHECK(adds == static_cast<int>(marked));
        fixture.require_no_reserved_leak();
        CHECK(said.count("command skipped") == 0);  // nothing was skipped: the spawns happened
        CHECK(scheduler.state() == FrameState::Idle);
        scheduler.dispose();  // says the counts of the repeats of the later frames
        CHECK(said.occurrences("system 'Breeder': an on-add observer of 'marked' threw for entity") == 32);
        CHECK(said.occurrences("the change it observed stands") == 32);
    }
}

TEST_CASE("a failing kernel that reserved handles returns them", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers);
        World& world = fixture.world;
        test::CapturedDiagnostics& said = fixture.said;
        Scheduler& scheduler = fixture.scheduler;
        scheduler.add_system(fixture.breeder(4, [](KernelContext& ctx) {
            for (int i = 0; i < 6; ++i) ctx.spawn(nullptr, 0);  // 4 reserved, 2 pending
            if (ctx.batch_id % 2 == 1) throw std::runtime_error("half the batches fail");
        }));
        const std::uint32_t before = world.alive_count();
        for (int f = 0; f < 4; ++f) REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(world.alive_count() == before + 4 * 2 * 6);  // 2 of 4 batches stand, each frame
        fixture.require_no_reserved_leak();
        CHECK(said.count("system 'Breeder' failed in batch 1: half the batches fail; its 6 command(s) were dropped") == 1);
        fixture.scheduler.dispose();  // the later frames' repeats were counted: their count is said now
        CHECK(said.occurrences("system 'Breeder' failed in batch") == 4 * 2);
    }
}

TEST_CASE("notes a kernel leaves become diagnostics after the wave, in batch-id order, also from a failed batch", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers);  // 64 movers in batches of 16: batches 0-3
        test::CapturedDiagnostics& said = fixture.said;
        Scheduler& scheduler = fixture.scheduler;
        scheduler.add_system(fixture.kernel_system("Noter", [](KernelContext& ctx) {
            // Batch 3 notes twice, batch 1 once and then fails; the others say nothing.
            if (ctx.batch_id == 3) {
                ctx.note("first of batch 3");
                ctx.note("second of batch 3");
            }
            if (ctx.batch_id == 1) {
                ctx.note("before the failure");
                throw std::runtime_error("batch 1 fails");
            }
        }));
        const std::vector<std::string> expected = {
            "system 'Noter' batch 1: before the failure",
            "system 'Noter' failed in batch 1: batch 1 fails; its 0 command(s) were dropped",
            "system 'Noter' batch 3: first of batch 3",
            "system 'Noter' batch 3: second of batch 3",
        };
        for (int f = 0; f < 2; ++f) {
            said.messages.clear();
            REQUIRE_NOTHROW(scheduler.update(0.016f));
            // The second frame's are repeats of the first's: counted, and said with their count
            // once flushed (a diagnostic repeated frame after frame is said once, then counted).
            if (f == 1) {
                CHECK(said.messages.empty());
                fixture.world.diagnostics().flush_repeats();
            }
            CHECK(said.messages.size() == expected.size());
            for (std::size_t i = 0; i < expected.size() && i < said.messages.size(); ++i) {
                CHECK(said.messages[i].rfind(expected[i], 0) == 0);  // each frame's notes, whoever ran the batches
            }
        }
    }
}

TEST_CASE("a rejected command is skipped with its reason and the next frame is whole", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers, 32);
        World& world = fixture.world;
        test::CapturedDiagnostics& said = fixture.said;
        const builtin::BuiltinIds& ids = fixture.ids;
        Scheduler& scheduler = fixture.scheduler;
        scheduler.add_system(fixture.kernel_system("Bad", [marked = ids.marked](KernelContext& ctx) {
            const std::uint64_t wrong = 7;  // 8 bytes for a 4-byte component
            const ComponentValue v{marked, &wrong, sizeof wrong};
            ctx.commands.add(ctx.chunk.entities()[0], &v, 1);
        }));
        scheduler.add_system(builtin::make_builtin_system(world, "Move"));
        for (int f = 0; f < 2; ++f) REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(scheduler.frames() == 2);
        scheduler.dispose();  // the second frame's repeats were counted: their count is said now
        CHECK(said.occurrences("system 'Bad': command skipped: BadValue: 'marked' takes 4 bytes, got 8") == 4);
        CHECK(world.count(QueryDesc{{ids.marked}, {}, {}, {}, {}}) == 0);
    }
}

namespace {
struct FailedMergeValue { std::int32_t v; };
struct FailedMergeNote { std::uint32_t a; };
}  // namespace
ECSIA_COMPONENT(FailedMergeValue, "failed_merge_value", v)
ECSIA_TOPIC(FailedMergeNote, "failed_merge_note", a)

TEST_CASE("a merge that throws ends the frame, and its kernels' messages are not seen again", "[schedule][threads][topic]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        World world;
        bool armed = false;
        // The user's sink throws at the merge's report of the rejected command: the merge throws.
        world.diagnostics().set_sink([&armed](const std::string& said) {
            if (armed && said.find("command skipped") != std::string::npos) throw std::runtime_error("the sink failed");
        });
        const ComponentId value = world.component<FailedMergeValue>();
        const TopicId topic = world.topic<FailedMergeNote>();
        const Entity target = world.spawn(FailedMergeValue{0});
        Scheduler scheduler(world, test::with_workers(workers));
        std::vector<std::uint32_t> seen;
        SystemDesc reader;
        reader.name = "Reader";
        reader.consumes = {topic};
        reader.reads = {value};
        reader.kernel = [&seen, topic, value, target](KernelContext& ctx) {
            for (const FailedMergeNote note : ctx.messages(topic).as<FailedMergeNote>()) seen.push_back(note.a);
            const std::int32_t x = 5;
            ctx.commands.set(target, value, 100, &x, sizeof x);  // a bad field mask: rejected at the merge
        };
        scheduler.add_system(reader);
        world.publish(topic, FailedMergeNote{7});
        armed = true;
        CHECK_THROWS_WITH(scheduler.update(0.016f), "the sink failed");
        armed = false;
        REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(seen == std::vector<std::uint32_t>{7});
        CHECK(scheduler.frames() == 1);
    }
}

TEST_CASE("dispose() from inside a main-thread system ends the frame there and leaves the world usable", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers, 200);
        World& world = fixture.world;
        Scheduler& scheduler = fixture.scheduler;
        RunLog log;
        scheduler.add_system(main_thread_system("Quit", [&](World&) {
            log.ran("Quit");
            scheduler.dispose();
            scheduler.dispose();
        }));
        scheduler.add_system(builtin::make_builtin_system(world, "Move"));
        SystemDesc later = main_thread_system("Later", [&](World&) { log.ran("Later"); });
        later.after = {"Move"};
        scheduler.add_system(later);
        REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(log.runs["Quit"] == 1);
        CHECK(log.runs["Later"] == 0);
        CHECK(scheduler.state() == FrameState::Disposed);
        CHECK(world.phase() == WorldPhase::Serial);
        CHECK(test::thrown_code([&] { scheduler.update(0.016f); }) == "Disposed");
        CHECK(test::thrown_code([&] { world.spawn(builtin::Position{1, 1}); }) == "no error");
        fixture.require_no_reserved_leak();
    }
}

TEST_CASE("a frame started inside an observer is refused before any system runs, and the next frame runs once",
          "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers, 200);
        World& world = fixture.world;
        Scheduler& scheduler = fixture.scheduler;
        RunLog log;
        scheduler.add_system(main_thread_system("Count", [&](World&) { log.ran("Count"); }));
        std::string code, message;
        world.observe(ObserverEvent::OnAdd, world.component<builtin::Position>(), [&](ObserverContext&) {
            code = test::thrown_code([&] { scheduler.update(0.016f); });
            message = test::thrown_message([&] { scheduler.update(0.016f); });
        });
        world.spawn(builtin::Position{1, 1});
        CHECK(code == "WrongPhase");
        CHECK(message.find("a frame cannot start inside an observer") != std::string::npos);
        CHECK(log.runs["Count"] == 0);
        CHECK(scheduler.frames() == 0);
        CHECK(scheduler.state() == FrameState::Idle);
        REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(log.runs["Count"] == 1);
        CHECK(scheduler.frames() == 1);
    }
}

TEST_CASE("dispose() from a serial kernel waits for the call to return", "[schedule]") {
    test::FrameFixture fixture(0);
    World& world = fixture.world;
    Scheduler& scheduler = fixture.scheduler;
    SystemDesc quitter = builtin::make_builtin_system(world, "Move");
    const Kernel inner = quitter.kernel;
    int batches = 0;
    quitter.kernel = [&, inner](KernelContext& ctx) {
        inner(ctx);
        ++batches;
        scheduler.dispose();
    };
    scheduler.add_system(quitter);
    REQUIRE_NOTHROW(scheduler.update(0.016f));
    CHECK(batches == 4);  // the wave's batches all ran, once each
    CHECK(scheduler.state() == FrameState::Disposed);
    CHECK(world.phase() == WorldPhase::Serial);
}

TEST_CASE("a scheduler whose world was destroyed refuses every call with Disposed", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        auto world = std::make_unique<World>();
        builtin::spawn_movers(*world, 64, 5);
        Scheduler scheduler(*world, test::with_workers(workers));
        scheduler.add_system(builtin::make_builtin_system(*world, "Move"));
        scheduler.update(0.016f);
        world.reset();
        CHECK(test::thrown_message([&] { scheduler.update(0.016f); }) == "Disposed: the scheduler's world was destroyed");
        CHECK(test::thrown_code([&] { scheduler.begin_frame(0.016f); }) == "Disposed");
        CHECK(test::thrown_code([&] { scheduler.plan(); }) == "Disposed");
        CHECK(test::thrown_code([&] { scheduler.add_system(SystemDesc{}); }) == "Disposed");
        CHECK(scheduler.state() == FrameState::Disposed);
    }
}

TEST_CASE("a world destroyed mid-frame stops its scheduler's workers first", "[schedule][threads]") {
    auto world = std::make_unique<World>();
    builtin::spawn_movers(*world, 256, 5);
    Scheduler scheduler(*world, test::with_workers(2));
    scheduler.add_system(builtin::make_builtin_system(*world, "Move"));
    scheduler.begin_frame(0.016f);
    (void)scheduler.step();  // possibly Waiting: a wave may be out on the pool
    world.reset();           // joins the workers before the columns go
    CHECK(scheduler.state() == FrameState::Disposed);
    CHECK(test::thrown_code([&] { scheduler.step(); }) == "Disposed");
}

TEST_CASE("worker_stats names the workers a scheduler has", "[schedule][threads]") {
    World world;
    Scheduler serial(world, test::with_workers(0));
    CHECK(test::thrown_message([&] { serial.worker_stats(0); }) ==
          "BadValue: worker_stats(0): this scheduler has 0 worker(s)");
    Scheduler pooled(world, test::with_workers(2));
    CHECK(test::thrown_code([&] { pooled.worker_stats(1); }) == "no error");
    CHECK(test::thrown_code([&] { pooled.worker_stats(2); }) == "BadValue");
}

TEST_CASE("a system with both a kernel and a main-thread function is refused", "[schedule]") {
    World world;
    Scheduler scheduler(world);
    SystemDesc both;
    both.name = "Both";
    both.kernel = [](KernelContext&) {};
    both.main_thread = [](World&, float) {};
    CHECK(test::thrown_message([&] { scheduler.add_system(both); }) ==
          "BadDefinition: system 'Both' has both a kernel and a main-thread function: give it one of them");
    CHECK(scheduler.systems().empty());
}

TEST_CASE("a pending handle used outside its own batch is refused, never another entity", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers, 32);  // two batches of 16
        World& world = fixture.world;
        test::CapturedDiagnostics& said = fixture.said;
        const builtin::BuiltinIds& ids = fixture.ids;
        Scheduler& scheduler = fixture.scheduler;
        // Batch 0 spawns (no reservation: every spawn is pending); its handle leaks to a global.
        // Batch 1 and the next frame use the leaked handle in their own commands; in their own
        // buffer, pending handles of the same ordinal name their own spawns.
        std::atomic<std::uint32_t> leaked{kNullEntity.bits};
        scheduler.add_system(fixture.kernel_system("Spawner", [&leaked, marked = ids.marked](KernelContext& ctx) {
            const builtin::Marked m{ctx.batch_id + 10 * static_cast<std::uint32_t>(ctx.frame)};
            const ComponentValue v{marked, &m, sizeof m};
            const Entity own = ctx.spawn(&v, 1);
            ctx.commands.set(own, marked, m);  // its own: fine
            if (ctx.batch_id == 0 && ctx.frame == 0) {
                // release: publishes the handle to the batch that reads it (another worker).
                leaked.store(own.bits, std::memory_order_release);
                return;
            }
            // acquire: pairs with the store above (which may not have happened yet at 2 workers).
            const Entity stranger{leaked.load(std::memory_order_acquire)};
            if (!stranger.is_null()) ctx.commands.set(stranger, marked, builtin::Marked{999});
        }));
        for (int f = 0; f < 3; ++f) REQUIRE_NOTHROW(scheduler.update(0.016f));
        std::vector<std::uint32_t> values;
        world.each<const builtin::Marked>([&](Entity, const builtin::Marked& m) { values.push_back(m.since_frame); });
        CHECK(values.size() == 6);  // 2 batches x 3 frames, each its own value
        for (std::uint32_t v : values) CHECK(v != 999);
        scheduler.dispose();  // repeats in later frames were counted: their count is said now
        const std::size_t refused = said.occurrences("was not spawned by this batch: a pending handle");
        CHECK(refused >= 4);  // frames 1 and 2 always; frame 0's batch 1 when it saw the handle in time
        CHECK(refused <= 5);
        fixture.require_no_reserved_leak();
    }
}

TEST_CASE("a pending handle is refused by every world call", "[schedule]") {
    test::FrameFixture fixture(0, 16);
    World& world = fixture.world;
    Scheduler& scheduler = fixture.scheduler;
    Entity pending;
    scheduler.add_system(fixture.kernel_system("Spawner", [&](KernelContext& ctx) { pending = ctx.spawn(nullptr, 0); }));
    scheduler.update(0.016f);
    REQUIRE(world.entities().layout().is_pending(pending));
    CHECK_FALSE(world.is_alive(pending));
    CHECK(test::thrown_code([&] { world.despawn(pending); }) == "StaleEntity");
    CHECK(test::thrown_code([&] { world.add(pending, builtin::Marked{1}); }) == "StaleEntity");
    CHECK(test::thrown_code([&] { world.get<builtin::Position>(pending); }) == "StaleEntity");
}

TEST_CASE("write logs naming rows that do not exist are refused before anything is stamped", "[world]") {
    World world;
    const ComponentId position = world.component<builtin::Position>();
    const Entity e = world.spawn(builtin::Position{1, 1});
    const TableIndex table = world.locate(e).table;
    for (const WrittenRange& bad : {WrittenRange{table, position, 0, 2}, WrittenRange{table + 5, position, 0, 1},
                                    WrittenRange{table, position + 9, 0, 1}, WrittenRange{table, position, 1, 2}}) {
        WriteLog log;
        log.record(bad.table, bad.component, bad.row_begin, bad.row_end);
        CHECK(test::thrown_code([&] { detail::WorldAccess::merge_write_log(world, log, world.tick()); }) == "BadValue");
    }
}

TEST_CASE("bulk spawns are all or nothing", "[world]") {
    WorldOptions options;
    options.max_entities = 100;
    World world(options);
    builtin::spawn_movers(world, 55, 1);
    const auto before = test::fingerprint(world);
    CHECK(test::thrown_message([&] { builtin::spawn_movers(world, 1000, 1); }) ==
          "CapacityExceeded: spawn_movers of 1000 entities does not fit: 45 more fit under max_entities 100; nothing was spawned");
    CHECK(test::thrown_code([&] { builtin::spawn_heavy(world, 6, 1); }) == "CapacityExceeded");
    CHECK(test::fingerprint(world) == before);
    CHECK(world.alive_count() == 55);
    REQUIRE_NOTHROW(builtin::spawn_movers(world, 45, 1));
    CHECK(world.alive_count() == 100);
}

TEST_CASE("a kernel calling a world write during a wave fails its batch, naming the call", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::FrameFixture fixture(workers);
        World& world = fixture.world;
        test::CapturedDiagnostics& said = fixture.said;
        const builtin::BuiltinIds& ids = fixture.ids;
        Scheduler& scheduler = fixture.scheduler;
        int changes = 0;
        world.observe(ObserverEvent::OnChange, ids.energy, [&](ObserverContext&) { ++changes; });
        SystemDesc meddler;
        meddler.name = "Meddler";
        meddler.writes = {ids.energy};
        meddler.kernel = [&world](KernelContext& ctx) {
            world.set(ctx.chunk.entities()[0], builtin::Energy{42});  // not through the chunk
        };
        scheduler.add_system(meddler);
        REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(said.count("system 'Meddler' failed in batch") == 4);
        CHECK(said.count("WrongPhase: set during a wave") == 4);
        CHECK(changes == 0);
        world.each<const builtin::Energy>([](Entity, const builtin::Energy& e) { CHECK(e.value != 42); });
        REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(scheduler.frames() == 2);
    }
}

TEST_CASE("mark_changed checks its handle and component, and is refused during a wave", "[schedule][threads]") {
    World world;
    test::CapturedDiagnostics said(world);
    const auto ids = builtin::register_builtin_components(world);
    builtin::spawn_movers(world, 64, 5);
    const Entity bare = world.spawn(builtin::Marked{7});
    const Entity gone = world.spawn(builtin::Marked{8});
    world.despawn(gone);
    // Serial phase: bad arguments are errors, never a write into another entity's ticks.
    CHECK(test::thrown_code([&] { world.mark_changed(gone, ids.marked); }) == "StaleEntity");
    CHECK(test::thrown_code([&] { world.mark_changed(world.entities().layout().pending(3), ids.marked); }) == "StaleEntity");
    CHECK(test::thrown_code([&] { world.mark_changed(bare, ids.position); }) == "MissingComponent");
    CHECK_NOTHROW(world.mark_changed(bare, ids.marked));
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        said.messages.clear();
        int changes = 0;
        const ObserverId observer = world.observe(ObserverEvent::OnChange, ids.energy, [&](ObserverContext&) { ++changes; });
        Scheduler scheduler(world, test::with_workers(workers));
        SystemDesc meddler;
        meddler.name = "Meddler";
        meddler.reads = {ids.energy};
        meddler.kernel = [&world, ids](KernelContext& ctx) { world.mark_changed(ctx.chunk.entities()[0], ids.energy); };
        scheduler.add_system(meddler);
        REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(said.count("system 'Meddler' failed in batch") == 4);
        CHECK(said.count("WrongPhase: mark_changed during a wave") == 4);
        CHECK(changes == 0);
        REQUIRE_NOTHROW(scheduler.update(0.016f));
        CHECK(scheduler.frames() == 2);
        world.unobserve(observer);
    }
}
