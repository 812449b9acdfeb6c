// restore() has two ways to the same result: when the snapshot's entity bookkeeping (slots, free
// list, every table's rows) is the world's own, the commit keeps the pool, the locations and the
// rows in place (the rollback case, and the fast one); otherwise it validates and rebuilds them.
// A property test against the simple model "a fresh world restored from the same bytes": after
// random changes that may or may not touch the entity bookkeeping, restoring a snapshot of the
// world into it must give exactly what the fresh world holds, and both must go on alike. In half
// the trials both restores go through a SnapshotRestorer, twice, so that the second reads into
// the memory the first swapped out.

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "ecsia/ecsia.hpp"
#include "ecsia/world/world_access.hpp"
#include "support/rng.hpp"
#include "support/snapshot_checks.hpp"
#include "support/snapshot_layout.hpp"
#include "support/world_checks.hpp"
#include "support/world_dump.hpp"

using namespace ecsia;

namespace {

// Live handles of `world`, in slot order.
std::vector<Entity> live_handles(const World& world) {
    std::vector<Entity> out;
    for (std::uint32_t index = 0; index < world.entities().slot_count(); ++index) {
        const Entity e = world.entities().alive_at(index);
        if (!e.is_null()) out.push_back(e);
    }
    return out;
}

// One random change to the rich world. Value writes, change marks and tick advances leave the entity
// bookkeeping as it is; spawns, despawns, adds and removes change it.
void change(test::Rng& rng, World& world, bool structural) {
    const ComponentId pos = world.component_id("pos"), mixed = world.component_id("mixed");
    const ComponentId frozen = world.component_id("frozen");
    const std::vector<Entity> live = live_handles(world);
    const Entity some = live.empty() ? Entity{} : live[rng.below(live.size())];
    switch (structural ? 4 + rng.below(4) : rng.below(4)) {
        case 0:
            if (!some.is_null() && world.has(some, pos)) {
                const float p[2] = {float(rng.below(1000)), -1.5f};
                world.set_bytes(some, pos, 0, p, 8);
            }
            break;
        case 1:
            if (!some.is_null() && world.has(some, mixed)) world.mark_changed(some, mixed);
            break;
        case 2: ecsia::detail::WorldAccess::advance_tick(world); break;
        case 3:
            if (!some.is_null() && world.has(some, pos)) {
                const float y = float(rng.below(7));
                world.set_bytes(some, pos, 4, &y, 4);
            }
            break;
        case 4: {
            const float p[2] = {1, 2};
            world.spawn_with(std::vector<ComponentValue>{{pos, p, 8}});
            break;
        }
        case 5:
            if (!some.is_null()) world.despawn(some);
            break;
        case 6:
            if (!some.is_null() && !world.has(some, frozen)) world.add(some, ComponentValue{frozen, nullptr, 0});
            break;
        default:
            if (!some.is_null() && world.has(some, pos)) world.remove(some, pos);
            break;
    }
    world.flush();
}

// After both worlds hold the same state: the same later spawns and despawns give the same handles.
void go_on(World& world) {
    const ComponentId pos = world.component_id("pos");
    const float p[2] = {3, 4};
    for (int i = 0; i < 3; ++i) world.spawn_with(std::vector<ComponentValue>{{pos, p, 8}});
    const std::vector<Entity> live = live_handles(world);
    if (live.size() > 2) world.despawn(live[live.size() / 2]);
    world.spawn();
    world.flush();
}

// The entity bookkeeping a snapshot holds: the ENTS body and every table's row handles.
std::vector<std::byte> entity_books(const std::vector<std::byte>& bytes) {
    const test::SnapshotLayout layout = test::walk_snapshot(bytes);
    std::vector<std::byte> out(bytes.begin() + static_cast<std::ptrdiff_t>(layout.slot_count),
                               bytes.begin() + static_cast<std::ptrdiff_t>(layout.table_count - 12));
    for (const test::SnapshotLayout::Table& table : layout.tables) {
        for (const std::uint32_t handle : test::row_handles(bytes, table)) {
            for (int shift = 0; shift < 32; shift += 8) out.push_back(std::byte(handle >> shift));
        }
        out.push_back(std::byte{0xEE});  // table boundary
    }
    return out;
}

}  // namespace

TEST_CASE("restore after value-only or structural changes gives what a fresh world restored from the same bytes holds",
          "[snapshot][property]") {
    test::Rng rng(0x9e57011ull);
    int kept_cases = 0, rebuilt_cases = 0;
    for (int trial = 0; trial < 300; ++trial) {
        INFO("trial " << trial);
        World world;
        test::fill_rich_world(world);
        world.flush();
        if (trial % 3 != 0) test::add_run_tables(world);  // rows as runs, which the changes below break up or not
        // A history first, so the free list and the tables are not the fresh ones.
        for (std::uint32_t n = rng.below(6); n > 0; --n) change(rng, world, rng.chance(60));
        const std::vector<std::byte> bytes = snapshot(world);
        // Then changes the restore must undo: value-only ones in half the trials.
        const bool structural = rng.chance(50);
        for (std::uint32_t n = 1 + rng.below(5); n > 0; --n) change(rng, world, structural && rng.chance(70));
        // Which of restore's two ways this trial takes: the world's own bookkeeping, or a rebuild.
        (entity_books(snapshot(world)) == entity_books(bytes) ? kept_cases : rebuilt_cases) += 1;

        const bool pulled = trial % 2 == 1;
        SnapshotRestorer restorer, fresh_restorer;
        const auto restore_into = [&](World& into, SnapshotRestorer& through) {
            if (!pulled) return restore(into, bytes);
            test::VectorSource source(bytes);
            through.restore(into, source);
            REQUIRE(source.copied == bytes.size());  // each byte once: it never fell back to reading them whole
        };
        restore_into(world, restorer);
        World fresh;
        test::define_rich_components(fresh);
        for (std::uint32_t c = 0; c < ecsia::detail::WorldAccess::cursors(world).size(); ++c) ecsia::detail::WorldAccess::cursors(fresh).slot(ecsia::detail::WorldAccess::cursors(world).name(c));
        restore_into(fresh, fresh_restorer);
        for (int round = 0; round < (pulled ? 2 : 1); ++round) {
            if (round == 1) {
                for (std::uint32_t n = 1 + rng.below(5); n > 0; --n) change(rng, world, structural && rng.chance(70));
                restore_into(world, restorer);
            }
            REQUIRE(snapshot(world) == bytes);
            REQUIRE(test::dump_entities(world) == test::dump_entities(fresh));  // reads every entity through its location
            REQUIRE(test::dump_ticks(world) == test::dump_ticks(fresh));
            REQUIRE(state_hash(world) == state_hash(fresh));
        }
        go_on(world);
        go_on(fresh);
        REQUIRE(snapshot(world) == snapshot(fresh));
        REQUIRE(test::dump_entities(world) == test::dump_entities(fresh));
    }
    CHECK(kept_cases > 50);
    CHECK(rebuilt_cases > 50);
}

TEST_CASE("a snapshot of the world's own rows with one row's handle damaged is refused, the world unchanged",
          "[snapshot][g5]") {
    // The rows and the pool match the world's except where damaged: the restore must not take the
    // path that trusts the world's own bookkeeping.
    World world;
    test::fill_rich_world(world);
    world.flush();
    test::add_run_tables(world);
    const std::vector<std::byte> valid = snapshot(world);
    const test::SnapshotLayout layout = test::walk_snapshot(valid);
    const std::vector<std::byte> before = snapshot(world);
    const std::uint64_t hash = state_hash(world);
    SnapshotRestorer restorer;
    int damaged = 0, damaged_runs = 0;
    for (const test::SnapshotLayout::Table& table : layout.tables) {
        if (table.rows < 2) continue;
        // Listed rows: two rows naming the same slot, and a handle past the slots. Rows stored as
        // runs: a run that starts one slot later (its last row names another table's slot or none),
        // and one that starts past the slots.
        const std::size_t first = table.runs ? table.first_run : table.first_entity;
        std::vector<std::byte> twice = valid;
        if (table.runs) {
            test::write_u32(twice, first, test::read_u32(valid, first) + 1);
        } else {
            test::write_u32(twice, first + 4, test::read_u32(twice, first));
        }
        std::vector<std::byte> past = valid;
        test::write_u32(past, first, 0x3FFFFFu);
        for (std::vector<std::byte>* bytes : {&twice, &past}) {
            test::reseal(*bytes);
            const std::string message = test::thrown_message([&] { restore(world, *bytes); });
            INFO("table at " << first << (table.runs ? " (runs)" : " (listed)") << ": " << message);
            CHECK(message.find("snapshot section TABL") != std::string::npos);
            CHECK(state_hash(world) == hash);
            CHECK(snapshot(world) == before);
            // A restorer reads these rows into its spare memory for the table, and must refuse them there.
            CHECK(test::thrown_message([&] { test::restore_pulled(restorer, world, *bytes); }) == message);
            CHECK(state_hash(world) == hash);
            CHECK(snapshot(world) == before);
            ++damaged;
            damaged_runs += table.runs;
        }
    }
    CHECK(damaged >= 4);
    CHECK(damaged_runs == 4);  // both tables of runs, both ways
}
