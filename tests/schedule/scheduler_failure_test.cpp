#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "ecsia/snapshot/snapshot.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "ecsia/threads/worker_pool.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

namespace {

struct Captured {
    std::vector<std::string> messages;
    void attach(World& world) {
        world.diagnostics().set_sink([this](const std::string& m) { messages.push_back(m); });
    }
    bool said(const std::string& part) const {
        for (const auto& m : messages) {
            if (m.find(part) != std::string::npos) return true;
        }
        return false;
    }
};

}  // namespace

TEST_CASE("a throwing kernel drops only its own batch's commands and names the system", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        World world;
        Captured diagnostics;
        diagnostics.attach(world);
        builtin::spawn_movers(world, 64, 1);
        const auto ids = builtin::register_builtin_components(world);
        Scheduler scheduler(world, test::with_workers(workers));
        SystemDesc flaky;
        flaky.name = "Flaky";
        flaky.writes = {ids.marked};
        flaky.query.with = {ids.position};
        flaky.query_set = true;
        flaky.kernel = [ids](KernelContext& ctx) {
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
                ctx.commands.add(ctx.chunk.entities()[i], ids.marked, builtin::Marked{1});
            }
            if (ctx.batch_id == 1) throw std::runtime_error("boom in batch one");
        };
        scheduler.add_system(flaky);
        scheduler.update(0.016f);
        INFO("workers " << workers);
        CHECK(diagnostics.said("system 'Flaky' failed in batch 1: boom in batch one"));
        CHECK(diagnostics.said("16 command(s) were dropped"));
        CHECK(world.count(QueryDesc{{ids.marked}, {}, {}, {}, {}}) == 48);  // the other three batches stand
        // The executor stays usable.
        REQUIRE_NOTHROW(scheduler.update(0.016f));
    }
}

TEST_CASE("a worker that stalls past the deadline becomes an error, not a hang", "[schedule][threads]") {
    World world;
    Captured diagnostics;
    diagnostics.attach(world);
    builtin::spawn_movers(world, 8, 1);
    const auto ids = builtin::register_builtin_components(world);
    SchedulerOptions options = test::with_workers(2);
    options.wave_deadline = std::chrono::milliseconds(50);
    Scheduler scheduler(world, options);
    // The kernel holds its batch until the test lets it go: no sleep decides the outcome.
    std::atomic<bool> stall{true};
    std::atomic<bool> entered{false};
    std::atomic<bool> left{false};
    SystemDesc slow;
    slow.name = "Slow";
    slow.writes = {ids.position};
    slow.kernel = [&](KernelContext&) {
        // release/acquire: the test thread reads these flags to know where the kernel is.
        entered.store(true, std::memory_order_release);
        while (stall.load(std::memory_order_acquire)) std::this_thread::yield();
        left.store(true, std::memory_order_release);
    };
    scheduler.add_system(slow);
    const auto start = std::chrono::steady_clock::now();
    CHECK(test::thrown_message([&] { scheduler.update(0.016f); }) ==
          "WorkerFailure: wave 0 did not finish within 50 ms; its results will be dropped once the stalled worker returns");
    // The deadline ended the wait while the kernel still ran (it cannot have left: it is held).
    CHECK(entered.load(std::memory_order_acquire));
    CHECK_FALSE(left.load(std::memory_order_acquire));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    CHECK(scheduler.state() == FrameState::Stalled);
    // While the stalled batch still runs, a new frame is refused rather than racing it.
    CHECK(test::thrown_message([&] { scheduler.update(0.016f); }) ==
          "WorkerFailure: a worker is still running a batch that missed its deadline");
    CHECK(world.phase() == WorldPhase::Wave);
    // Nor may the systems change under it: the running kernel is one of them.
    CHECK(test::thrown_message([&] { scheduler.remove_system("Slow"); }) ==
          "WorkerFailure: a worker is still running a batch that missed its deadline");
    SystemDesc other;
    other.name = "Other";
    other.main_thread = [](World&, float) {};
    CHECK(test::thrown_message([&] { scheduler.add_system(other); }) ==
          "WorkerFailure: a worker is still running a batch that missed its deadline");
    CHECK(scheduler.systems().size() == 1);
    stall.store(false, std::memory_order_release);
    // Once the worker is back, the next update drops the stalled wave and runs a whole frame.
    // Poll (the worker arrives at the fence a moment after the kernel returns), bounded.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    std::string outcome;
    do {
        outcome = test::thrown_message([&] { scheduler.update(0.016f); });
    } while (!outcome.empty() && std::chrono::steady_clock::now() < until);
    CHECK(outcome.empty());
    CHECK(scheduler.frames() == 1);
    CHECK(diagnostics.said("the results of 1 batch(es) of an unfinished wave were dropped"));
}

TEST_CASE("dispose stops the workers mid-frame and is idempotent", "[schedule][threads]") {
    World world;
    Captured diagnostics;
    diagnostics.attach(world);
    builtin::spawn_movers(world, 256, 1);
    const auto ids = builtin::register_builtin_components(world);
    Scheduler scheduler(world, test::with_workers(2));
    SystemDesc slow;
    slow.name = "Slow";
    slow.writes = {ids.position};
    slow.kernel = [](KernelContext&) { std::this_thread::sleep_for(std::chrono::milliseconds(2)); };
    scheduler.add_system(slow);
    scheduler.begin_frame(0.016f);
    REQUIRE(scheduler.step() == FrameStatus::Waiting);
    scheduler.dispose();
    scheduler.dispose();
    CHECK(diagnostics.said("frame abandoned"));
    CHECK(world.phase() == WorldPhase::Serial);
    CHECK(test::thrown_message([&] { scheduler.update(0.016f); }) == "Disposed: the scheduler was disposed");
    REQUIRE_NOTHROW(world.spawn());  // the world stays usable
}

TEST_CASE("the resumable frame reaches the same state as the blocking one", "[schedule][threads]") {
    auto run = [](bool resumable) {
        World world;
        world.diagnostics().set_sink([](const std::string&) {});
        builtin::spawn_movers(world, 300, 9);
        Scheduler scheduler(world, test::with_workers(2));
        for (const char* name : {"Move", "Bounce", "Reaper"}) scheduler.add_system(builtin::make_builtin_system(world, name));
        for (int f = 0; f < 20; ++f) {
            if (!resumable) {
                scheduler.update(0.02f);
                continue;
            }
            scheduler.begin_frame(0.02f);
            while (scheduler.step() == FrameStatus::Waiting) {
                // What the browser does with Atomics.waitAsync: watch the fence word, never block.
                const auto* word = reinterpret_cast<const std::atomic<std::int32_t>*>(scheduler.fence_word());
                // acquire: the completed wave's writes must be visible before step() merges them.
                while (word->load(std::memory_order_acquire) != static_cast<std::int32_t>(scheduler.waiting_epoch())) {
                    std::this_thread::yield();
                }
            }
        }
        return state_hash(world);
    };
    CHECK(run(true) == run(false));
}

TEST_CASE("a second frame cannot start while one is running", "[schedule]") {
    World world;
    Scheduler scheduler(world);
    scheduler.begin_frame(0.016f);
    CHECK(test::thrown_message([&] { scheduler.begin_frame(0.016f); }) ==
          "WrongPhase: a frame is already running: finish it before starting another");
    CHECK(scheduler.step() == FrameStatus::Done);
}

TEST_CASE("a system with unknown components or no body is rejected", "[schedule]") {
    World world;
    Scheduler scheduler(world);
    SystemDesc bad;
    bad.name = "Bad";
    bad.reads = {999};
    bad.kernel = [](KernelContext&) {};
    CHECK(test::thrown_code([&] { scheduler.add_system(bad); }) == "UnknownComponent");
    SystemDesc empty;
    empty.name = "Empty";
    CHECK(test::thrown_message([&] { scheduler.add_system(empty); }) ==
          "BadDefinition: system 'Empty' has neither a kernel nor a main-thread function");
    SystemDesc selfish;
    selfish.name = "Selfish";
    selfish.main_thread = [](World&, float) {};
    selfish.after = {"Other", "Selfish"};
    CHECK(test::thrown_message([&] { scheduler.add_system(selfish); }) ==
          "BadDefinition: system 'Selfish' names itself in after: a system cannot run after itself");
    selfish.after.clear();
    selfish.before = {"Selfish"};
    CHECK(test::thrown_message([&] { scheduler.add_system(selfish); }) ==
          "BadDefinition: system 'Selfish' names itself in before: a system cannot run before itself");
    CHECK(scheduler.systems().empty());
}

TEST_CASE("a batch that spawns past its reservation loses nothing and stays deterministic", "[schedule][threads][determinism]") {
    auto run = [](std::uint32_t workers) {
        World world;
        world.diagnostics().set_sink([](const std::string&) {});
        const auto ids = builtin::register_builtin_components(world);
        builtin::spawn_movers(world, 40, 2);
        SchedulerOptions options = test::with_workers(workers);
        options.batch_rows = 8;
        Scheduler scheduler(world, options);
        SystemDesc breeder;
        breeder.name = "Breeder";
        breeder.reads = {ids.position};
        breeder.spawns_per_batch = 2;
        breeder.query.with = {ids.position};
        breeder.query.without = {ids.marked};
        breeder.query_set = true;
        breeder.kernel = [ids](KernelContext& ctx) {
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
                const builtin::Marked m{ctx.chunk.entities()[i].bits};
                const ComponentValue v{ids.marked, &m, sizeof m};
                const Entity child = ctx.spawn(&v, 1);
                // The child is referred to again by a later record of the same batch.
                const builtin::Position p{float(i), 1};
                ctx.commands.add(child, ids.position, p);
            }
        };
        scheduler.add_system(breeder);
        scheduler.update(0.016f);
        return std::pair{world.count(QueryDesc{{ids.marked, ids.position}, {}, {}, {}, {}}), state_hash(world)};
    };
    const auto serial = run(0);
    CHECK(serial.first == 40);  // 5 batches x 8 spawns, only 2 reserved each: 30 overflowed
    for (std::uint32_t workers : {1u, 3u}) CHECK(run(workers) == serial);
}

TEST_CASE("a second system with the same name is rejected and the first stays", "[schedule]") {
    World world;
    Scheduler scheduler(world);
    scheduler.add_system(builtin::make_builtin_system(world, "Move"));
    try {
        scheduler.add_system(builtin::make_builtin_system(world, "Move"));
        FAIL("expected DuplicateName");
    } catch (const Error& error) {
        CHECK(error.code() == ErrorCode::DuplicateName);
        CHECK(std::string(error.what()).find("'Move'") != std::string::npos);
    }
    CHECK(scheduler.systems().size() == 1);
}

TEST_CASE("a pool that misses its start-up deadline is reported and the serial executor takes over", "[schedule][threads]") {
    WorkerPool::set_start_hook([](std::uint32_t) { std::this_thread::sleep_for(std::chrono::milliseconds(300)); });
    World world;
    Captured diagnostics;
    diagnostics.attach(world);
    builtin::spawn_movers(world, 50, 4);
    SchedulerOptions options = test::with_workers(2);
    options.startup_deadline = std::chrono::milliseconds(20);
    Scheduler scheduler(world, options);
    WorkerPool::set_start_hook(nullptr);
    CHECK(scheduler.workers() == 0);
    CHECK(diagnostics.said("start-up timed out after 20 ms"));
    CHECK(diagnostics.said("running with the serial executor instead"));
    scheduler.add_system(builtin::make_builtin_system(world, "Move"));
    REQUIRE_NOTHROW(scheduler.update(0.016f));
    CHECK(scheduler.frames() == 1);
}

TEST_CASE("a system or an inline kernel that destroys the world ends the frame; the scheduler is disposed",
          "[schedule]") {
    // The world's destructor tells the scheduler, which touches nothing of it afterwards: not
    // the diagnostics its system was reporting to, not the wave's merge.
    const bool kernel = GENERATE(false, true);
    CAPTURE(kernel);
    auto world = std::make_unique<World>();
    world->spawn(test::Position{1, 2});
    world->spawn(test::Position{3, 4});
    // The serial executor, a kernel runs on this thread; a batch per row: the one after the
    // destroying batch must not start.
    SchedulerOptions options;
    options.batch_rows = 1;
    Scheduler scheduler(*world, options);
    int later = 0;
    SystemDesc destroyer;
    destroyer.name = "Destroyer";
    if (kernel) {
        destroyer.writes = {world->component<test::Position>()};
        destroyer.kernel = [&world, &later](KernelContext&) {
            if (world == nullptr) ++later;  // a batch that ran after the world went
            world.reset();
        };
    } else {
        destroyer.main_thread = [&world](World&, float) { world.reset(); };
    }
    scheduler.add_system(destroyer);
    SystemDesc after;
    after.name = "After";
    after.after = {"Destroyer"};
    after.main_thread = [&later](World&, float) { ++later; };
    scheduler.add_system(after);
    CHECK(test::thrown_code([&] { scheduler.update(0.016f); }) == "no error");
    CHECK(world == nullptr);
    CHECK(later == 0);
    CHECK(scheduler.state() == FrameState::Disposed);
    CHECK(test::thrown_code([&] { scheduler.update(0.016f); }) == "Disposed");
}

TEST_CASE("a second scheduler cannot run a frame inside the first one's, and the first keeps its guards", "[schedule]") {
    World world;
    world.spawn(test::Position{1, 2});
    Scheduler outer(world), inner(world);
    std::vector<std::string> codes;
    SystemDesc nesting;
    nesting.name = "Nesting";
    nesting.main_thread = [&](World& w, float) {
        codes.push_back(test::thrown_code([&] { inner.update(0.016f); }));
        codes.push_back(test::thrown_code([&] { (void)snapshot(w); }));  // still inside outer's frame
    };
    outer.add_system(nesting);
    outer.update(0.016f);
    CHECK(codes == std::vector<std::string>{"WrongPhase", "WrongPhase"});
    CHECK(inner.state() == FrameState::Idle);
    // One after the other, both run.
    CHECK(test::thrown_code([&] { inner.update(0.016f); }) == "no error");
    CHECK(test::thrown_code([&] { outer.update(0.016f); }) == "no error");
    CHECK(world.frames() == 3);
}

namespace {

// A scheduler whose coordinator does not wait (the page's), over 64 rows in batches of 8, and a
// kernel that takes its column, sleeps, then writes: a wave that is out for a while.
struct SlowWave {
    std::unique_ptr<World> world = std::make_unique<World>();
    ComponentId position = world->component<test::Position>();
    std::unique_ptr<Scheduler> scheduler;
    std::vector<std::string> said;

    explicit SlowWave(std::chrono::milliseconds deadline = std::chrono::milliseconds(30000)) {
        world->diagnostics().set_sink([this](const std::string& m) { said.push_back(m); });
        for (int i = 0; i < 64; ++i) world->spawn(test::Position{0, 0});
        SchedulerOptions options;
        options.workers = 2;
        options.batch_rows = 8;
        options.wait_for_workers = false;
        options.coordinator_slice = std::chrono::microseconds(0);  // every batch on the workers
        options.wave_deadline = deadline;
        scheduler = std::make_unique<Scheduler>(*world, options);
        SystemDesc slow;
        slow.name = "Slow";
        slow.writes = {position};
        slow.kernel = [id = position](KernelContext& ctx) {
            test::Position* p = ctx.chunk.write<test::Position>(id);
            std::this_thread::sleep_for(std::chrono::milliseconds(40));
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) p[i].x += 1;
        };
        scheduler->add_system(slow);
    }
    // Begins a frame whose wave is out on the workers when this returns.
    void send_wave() {
        scheduler->begin_frame(0.016f);
        REQUIRE(scheduler->step() == FrameStatus::Waiting);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the workers are inside their batches
    }
};

}  // namespace

TEST_CASE("with a coordinator that does not wait, dispose() while a wave is out takes effect once the wave is back",
          "[schedule][threads]") {
    SlowWave s;
    s.send_wave();
    s.scheduler->dispose();
    // The batches still write into the world: it stays in its wave, and refuses writes.
    CHECK(s.world->phase() == WorldPhase::Wave);
    ECSIA_REQUIRE_REJECTED(*s.world, ErrorCode::WrongPhase, s.world->spawn(test::Position{7, 7}));
    int steps = 0;
    while (s.scheduler->step() == FrameStatus::Waiting) {
        ++steps;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    CHECK(steps > 0);
    CHECK(s.scheduler->state() == FrameState::Disposed);
    CHECK(s.world->phase() == WorldPhase::Serial);
    // Every batch wrote before the world was handed back; the column may now move (ASan: no
    // batch writes into its old block).
    for (int i = 0; i < 4096; ++i) s.world->spawn(test::Position{7, 7});
    std::uint32_t written = 0;
    s.world->each<const test::Position>([&](Entity, const test::Position& p) { written += p.x == 1 ? 1 : 0; });
    CHECK(written == 64);
    CHECK(std::count_if(s.said.begin(), s.said.end(), [](const std::string& m) {
              return m.find("frame abandoned: the scheduler was disposed") != std::string::npos;
          }) == 1);
    CHECK(test::thrown_code([&] { s.scheduler->update(0.016f); }) == "Disposed");
}

TEST_CASE("destroying the world or the scheduler while a wave is out waits for the wave first", "[schedule][threads]") {
    const bool world_first = GENERATE(true, false);
    CAPTURE(world_first);
    SlowWave s;
    s.send_wave();
    const auto before = std::chrono::steady_clock::now();
    if (world_first) {
        s.world.reset();  // under ASan: no batch touches the freed tables
        CHECK(s.scheduler->state() == FrameState::Disposed);
        CHECK(test::thrown_code([&] { (void)s.scheduler->step(); }) == "Disposed");
    } else {
        s.scheduler.reset();
        CHECK(s.world->phase() == WorldPhase::Serial);
        for (int i = 0; i < 4096; ++i) s.world->spawn(test::Position{7, 7});
    }
    CHECK(std::chrono::steady_clock::now() - before >= std::chrono::milliseconds(20));  // it waited for the batches
}

TEST_CASE("a dispose() waits for a wave only up to its deadline, then leaves its batches to the workers and says so",
          "[schedule][threads]") {
    SlowWave s(std::chrono::milliseconds(5));
    s.send_wave();
    s.scheduler->dispose();
    while (s.scheduler->step() == FrameStatus::Waiting) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    CHECK(s.scheduler->state() == FrameState::Disposed);
    CHECK(s.world->phase() == WorldPhase::Serial);
    CHECK(std::count_if(s.said.begin(), s.said.end(), [](const std::string& m) {
              return m.find("frame abandoned: the scheduler was disposed while ") != std::string::npos &&
                     m.find("batch(es) were running; their results and reserved handles are dropped") != std::string::npos;
          }) == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(120));  // the stalled batches end before the world does
}
