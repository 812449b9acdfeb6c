// A main-thread system with a query (SystemDesc::main_thread_chunks): its chunks are the rows its
// query selects, with `changed` against the system's own previous run, whoever made the changes
// (another main-thread system, a kernel, the page between frames), and its writes through those
// chunks are change-tracked like a kernel's. Checked against a model of which entities changed,
// and serial against threaded.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include <catch2/catch.hpp>

#include "ecsia/ecsia.hpp"
#include "support/rng.hpp"
#include "support/scheduler_testing.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;
using test::Counter;
using test::Enemy;
using test::Position;
using test::Velocity;

namespace {

constexpr std::uint32_t kWatchedEntities = 300;

// Per frame: which entities the changed<velocity> system Watch was given, and the state hash.
struct WatchFrame {
    std::vector<std::uint32_t> watched;  // handle bits, in the order the chunks gave them
    std::uint64_t hash = 0;
    bool operator==(const WatchFrame&) const = default;
};

// Poke (main thread, no query) sets the velocity of a few entities each frame; Drift (a kernel
// over the `enemy` rows) writes every enemy's velocity on even frames; the page sets a few
// between frames. Watch (main thread, changed<velocity>, after both) counts what it sees in
// `counter`, a declared write.
struct WatchGame {
    World world;
    Scheduler scheduler;
    std::vector<Entity> entities;
    std::vector<Entity> enemies;
    std::set<std::uint32_t> expected;  // the model: entities whose velocity changed since Watch ran
    WatchFrame current;
    test::Rng rng{7};
    ComponentId position, velocity, counter, enemy;

    WatchGame(std::uint32_t workers, std::optional<WavePlacement> placement) : scheduler(world, test::with_workers(workers, 32)) {
        position = world.component<Position>();
        velocity = world.component<Velocity>();
        counter = world.component<Counter>();
        enemy = world.component<Enemy>();
        for (std::uint32_t i = 0; i < kWatchedEntities; ++i) {
            const Entity e = world.spawn(Position{float(i), 0}, Velocity{1, 0}, Counter{0, 0});
            if (i % 3 == 0) {
                world.add<Enemy>(e);
                enemies.push_back(e);
            }
            entities.push_back(e);
            expected.insert(e.bits);  // spawned: changed since a run that never happened
        }

        SystemDesc poke;
        poke.name = "Poke";
        poke.writes = {velocity};
        poke.main_thread = [this](World& w, float) {
            for (int k = 0; k < 5; ++k) {
                const Entity e = entities[rng.below(kWatchedEntities)];
                w.set(e, Velocity{float(k), 1});
                expected.insert(e.bits);
            }
        };
        scheduler.add_system(poke);

        SystemDesc drift;
        drift.name = "Drift";
        drift.writes = {velocity};
        drift.query.with = {velocity, enemy};
        drift.query_set = true;
        drift.kernel = [this](KernelContext& ctx) {
            if (ctx.frame % 2 != 0) return;
            Velocity* v = ctx.chunk.write<Velocity>(velocity);
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) v[i].dx += 0.5f;
        };
        scheduler.add_system(drift);

        SystemDesc watch;
        watch.name = "Watch";
        watch.reads = {velocity};
        watch.writes = {counter};
        watch.after = {"Poke", "Drift"};
        watch.query.with = {counter};
        watch.query.changed = {velocity};
        watch.query_set = true;
        watch.main_thread_chunks = [this](World&, float, std::span<Chunk> chunks) {
            for (Chunk& chunk : chunks) {
                Counter* c = chunk.write<Counter>(counter);
                for (std::uint32_t i = 0; i < chunk.size(); ++i) {
                    current.watched.push_back(chunk.entities()[i].bits);
                    c[i].n += 1;
                }
            }
        };
        scheduler.add_system(watch);
        if (placement) detail::SchedulerTesting::force_placement(scheduler, placement);
    }

    WatchFrame frame() {
        current = WatchFrame{};
        // Drift runs on even frames (the world's frame count as it starts): every enemy changes.
        if (world.frames() % 2 == 0) {
            for (Entity e : enemies) expected.insert(e.bits);
        }
        const Tick before = world.tick();
        scheduler.update(1.0f / 60);
        // Watch was given exactly the entities changed since its previous run, each once.
        std::vector<std::uint32_t> seen = current.watched;
        std::sort(seen.begin(), seen.end());
        REQUIRE(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
        REQUIRE(std::set<std::uint32_t>(seen.begin(), seen.end()) == expected);
        expected.clear();
        // Its writes through the chunks were tracked: exactly its rows' counters changed this frame.
        QueryDesc counted;
        counted.with = {counter};
        counted.changed = {counter};
        REQUIRE(test::sorted_bits(world.query(counted).entities(before)) == seen);
        current.hash = state_hash(world);
        return current;
    }

    // The page writes between frames: newer than Watch's last run, so its next run sees them.
    void page_writes() {
        for (int k = 0; k < 3; ++k) {
            const Entity e = entities[rng.below(kWatchedEntities)];
            world.set(e, Velocity{-1, float(k)});
            expected.insert(e.bits);
        }
    }
};

}  // namespace

TEST_CASE("a main-thread system's changed query sees exactly the rows changed since its previous run",
          "[schedule][query]") {
    WatchGame game(0, std::nullopt);
    std::size_t watched_total = 0;
    for (int f = 0; f < 12; ++f) {
        INFO("frame " << f);
        if (f % 3 == 1) game.page_writes();
        watched_total += game.frame().watched.size();
    }
    CHECK(watched_total > kWatchedEntities);  // the first run sees every row, later runs some
}

TEST_CASE("a main-thread system's chunks and tracked writes are the same serial and threaded",
          "[schedule][query][threads][determinism]") {
    const auto run = [](std::uint32_t workers, std::optional<WavePlacement> placement) {
        WatchGame game(workers, placement);
        std::vector<WatchFrame> frames;
        for (int f = 0; f < 10; ++f) {
            if (f % 4 == 2) game.page_writes();
            frames.push_back(game.frame());
        }
        return frames;
    };
    const std::vector<WatchFrame> serial = run(0, std::nullopt);
    for (WavePlacement placement : {WavePlacement::Pool, WavePlacement::Shared, WavePlacement::Inline}) {
        INFO("2 workers, " << placement_name(placement));
        CHECK(run(2, placement) == serial);
    }
}

TEST_CASE("a system with more than one body is refused", "[schedule]") {
    World world;
    Scheduler scheduler(world);
    SystemDesc both;
    both.name = "Both";
    both.main_thread = [](World&, float) {};
    both.main_thread_chunks = [](World&, float, std::span<Chunk>) {};
    CHECK_THROWS_AS(scheduler.add_system(both), Error);
}
