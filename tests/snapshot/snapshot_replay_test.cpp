// Restore, then run the same systems: every later frame hashes exactly as the original run did,
// for the same world and for a fresh one, at every worker count, also across worker counts.

#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <vector>

#include "ecsia/ecsia.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "support/snapshot_checks.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

namespace {

struct Original {
    std::vector<std::byte> bytes;                // after frame `at`
    std::vector<std::uint64_t> later_hashes;     // after frames at+1 .. at+later
    std::vector<std::uint64_t> later_log;        // observer events of those frames
    std::uint64_t hash_at = 0;
};

Original record(std::uint32_t workers, std::uint32_t at, std::uint32_t later) {
    test::ScenarioRun run(workers);
    run.run(at);
    Original original;
    original.bytes = snapshot(run.world);
    original.hash_at = state_hash(run.world);
    const std::size_t log_at = run.observer_log.size();
    original.later_hashes = run.run(later);
    original.later_log.assign(run.observer_log.begin() + static_cast<std::ptrdiff_t>(log_at), run.observer_log.end());
    return original;
}

}  // namespace

TEST_CASE("restoring into the same world replays the following frames exactly", "[snapshot][threads][determinism]") {
    for (std::uint32_t workers : {0u, 1u, 2u, 4u}) {
        INFO("workers " << workers);
        test::ScenarioRun run(workers);
        run.run(30);
        const std::vector<std::byte> bytes = snapshot(run.world);
        const std::uint64_t hash_at = state_hash(run.world);
        const std::size_t log_at = run.observer_log.size();
        const std::vector<std::uint64_t> first = run.run(40);
        const std::vector<std::uint64_t> first_log(run.observer_log.begin() + static_cast<std::ptrdiff_t>(log_at), run.observer_log.end());
        REQUIRE(state_hash(run.world) != hash_at);

        restore(run.world, bytes);
        REQUIRE(state_hash(run.world) == hash_at);
        REQUIRE(snapshot(run.world) == bytes);  // everything, not only what the hash covers
        run.observer_log.clear();
        CHECK(run.run(40) == first);
        CHECK(run.observer_log == first_log);
    }
}

TEST_CASE("a fresh world with a fresh scheduler replays a snapshot taken at any worker count",
          "[snapshot][threads][determinism]") {
    const std::uint32_t counts[] = {0, 1, 2, 4, 8};
    for (std::uint32_t taken_at : {0u, 2u, 8u}) {
        const Original original = record(taken_at, 25, 35);
        for (std::uint32_t replayed_at : counts) {
            INFO("snapshot at " << taken_at << " workers, replay at " << replayed_at);
            test::ScenarioRun fresh(replayed_at, /*seed=*/1);
            restore(fresh.world, original.bytes);
            REQUIRE(state_hash(fresh.world) == original.hash_at);
            REQUIRE(snapshot(fresh.world) == original.bytes);
            fresh.observer_log.clear();
            CHECK(fresh.run(35) == original.later_hashes);
            CHECK(fresh.observer_log == original.later_log);
        }
    }
}

TEST_CASE("a restored world hands out the same handles as the original", "[snapshot][entity]") {
    World world(WorldOptions{4000, 12});
    const ComponentId health = world.define_component("health", {{"hp", FieldType::I32}});
    std::vector<Entity> spawned;
    for (int i = 0; i < 50; ++i) spawned.push_back(world.spawn());
    for (int i = 0; i < 50; i += 3) world.despawn(spawned[i]);  // a free list with an order
    for (int i = 0; i < 5; ++i) world.add(world.spawn(), ComponentValue{health, nullptr, 0});
    const std::vector<std::byte> bytes = snapshot(world);
    std::vector<Entity> after;
    for (int i = 0; i < 30; ++i) after.push_back(world.spawn());

    restore(world, bytes);
    for (int i = 0; i < 30; ++i) CHECK(world.spawn() == after[i]);

    World other(WorldOptions{4000, 12});
    other.define_component("health", {{"hp", FieldType::I32}});
    restore(other, bytes);
    for (int i = 0; i < 30; ++i) CHECK(other.spawn() == after[i]);
}

TEST_CASE("a fresh scheduler over a restored world resumes each system's changed filter and frame count",
          "[snapshot][schedule][threads]") {
    // Writer writes every row on frames that are multiples of 3; Counter (changed<value>) counts
    // the rows it is given. A scheduler that forgot Counter's last run would see every row on its
    // first frame; one that forgot the frame count would write on other frames.
    struct Setup {
        World world;
        ComponentId value = world.define_component("value", {{"v", FieldType::U32}});
        std::unique_ptr<Scheduler> scheduler;
        std::atomic<std::uint32_t> seen_rows{0};

        void start(std::uint32_t workers) {
            scheduler = std::make_unique<Scheduler>(world, SchedulerOptions{.workers = workers, .batch_rows = 64});
            SystemDesc writer;
            writer.name = "Writer";
            writer.writes = {value};
            writer.kernel = [this](KernelContext& ctx) {
                if (ctx.frame % 3 != 0) return;
                auto* v = ctx.chunk.write<std::uint32_t>(value);
                for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) v[i] += 1;
            };
            scheduler->add_system(writer);
            SystemDesc counter;
            counter.name = "Counter";
            counter.reads = {value};
            counter.after = {"Writer"};
            counter.query.with = {value};
            counter.query.changed = {value};
            counter.query_set = true;
            // relaxed: only the total matters, read after the frame's fence.
            counter.kernel = [this](KernelContext& ctx) { seen_rows.fetch_add(ctx.chunk.size(), std::memory_order_relaxed); };
            scheduler->add_system(counter);
        }
        std::vector<std::uint32_t> frames(int n) {
            std::vector<std::uint32_t> out;
            for (int f = 0; f < n; ++f) {
                seen_rows.store(0, std::memory_order_relaxed);
                scheduler->update(0.016f);
                out.push_back(seen_rows.load(std::memory_order_relaxed));
            }
            return out;
        }
    };
    Setup original;
    for (std::uint32_t i = 0; i < 1000; ++i) original.world.add(original.world.spawn(), ComponentValue{original.value, nullptr, 0});
    original.start(2);
    original.frames(7);
    const std::vector<std::byte> bytes = snapshot(original.world);
    const std::vector<std::uint32_t> expected = original.frames(8);
    REQUIRE(expected == std::vector<std::uint32_t>{0, 0, 1000, 0, 0, 1000, 0, 0});  // frames 7..14

    Setup fresh;
    fresh.start(0);
    restore(fresh.world, bytes);
    CHECK(fresh.frames(8) == expected);
    CHECK(state_hash(fresh.world) == state_hash(original.world));
}
