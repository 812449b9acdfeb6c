// The bulk changed stamp (a whole-table chunk write costs O(1)) must be invisible: `changed`
// filters and changed ticks give exactly what a per-row stamp would, through appends, swap-removes,
// row moves between tables, partial writes and out-of-order ticks.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "support/test_components.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Position;
using test::Velocity;

namespace {

Column position_column(ComponentRegistry& registry, std::uint32_t rows, Tick tick) {
    Column column(registry.desc(registry.register_type<Position>()));
    column.reserve(rows, 0);
    for (std::uint32_t row = 0; row < rows; ++row) column.init_row(row, tick);
    return column;
}

}  // namespace

TEST_CASE("a prefix range stamp reads back as a per-row stamp", "[storage][reactivity]") {
    ComponentRegistry registry;
    Column column = position_column(registry, 6, 1);
    column.mark_changed(4, 3);
    column.mark_changed_range(0, 4, 5);
    CHECK(column.changed_tick(0) == 5);
    CHECK(column.changed_tick(3) == 5);
    CHECK(column.changed_tick(4) == 3);
    CHECK(column.changed_tick(5) == 1);
    CHECK(column.max_changed_tick() == 5);
    column.mark_changed(2, 7);  // a later single-row write on top of the stamp
    CHECK(column.changed_tick(2) == 7);
    CHECK(column.changed_tick(1) == 5);
    const Tick* exact = column.changed_ticks();
    CHECK(std::vector<Tick>(exact, exact + 6) == std::vector<Tick>{5, 5, 7, 5, 3, 1});
}

TEST_CASE("a row swapped in from outside a range stamp keeps its own tick", "[storage][reactivity]") {
    ComponentRegistry registry;
    Column column = position_column(registry, 6, 1);
    column.mark_changed_range(0, 4, 5);
    column.move_last_into(1, 5);  // row 5 (tick 1) moves under the stamp
    CHECK(column.changed_tick(1) == 1);
    CHECK(column.changed_tick(0) == 5);
    CHECK(column.changed_tick(2) == 5);
    CHECK(column.changed_tick(3) == 5);
    column.move_last_into(4, 4);  // the last row leaves
    column.init_row(4, 2);        // a new row in the freed slot
    CHECK(column.changed_tick(4) == 2);
}

TEST_CASE("swap-removes inside a whole-table stamp never stamp rows appended later", "[storage][reactivity]") {
    ComponentRegistry registry;
    Column column = position_column(registry, 8, 1);
    column.mark_changed_range(0, 4, 6);  // the table has 4 rows at this point
    column.move_last_into(0, 3);          // now 3 rows, all still stamped
    CHECK(column.changed_tick(0) == 6);
    CHECK(column.changed_tick(2) == 6);
    Column source = position_column(registry, 1, 2);
    column.copy_row_from(3, source, 0);  // appended row: its tick comes from the source
    CHECK(column.changed_tick(3) == 2);
    CHECK(column.changed_tick(2) == 6);
}

TEST_CASE("row batches written at one tick, in order, read back as written", "[storage][reactivity]") {
    ComponentRegistry registry;
    Column column = position_column(registry, 12, 1);
    column.mark_changed(9, 3);
    column.mark_changed_range(0, 4, 5);
    column.mark_changed_range(4, 8, 5);   // continues the stamp at its tick
    column.mark_changed_range(8, 10, 6);  // a newer tick: must not raise rows 0..7
    column.mark_changed_range(10, 12, 5); // an older tick than row 8's: stamped row by row
    const Tick* exact = column.changed_ticks();
    CHECK(std::vector<Tick>(exact, exact + 12) == std::vector<Tick>{5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 5, 5});
}

TEST_CASE("a stamp with an older tick replaces the bulk stamp's tick", "[storage][reactivity]") {
    ComponentRegistry registry;
    Column column = position_column(registry, 4, 1);
    column.mark_changed_range(0, 4, 9);
    column.mark_changed_range(1, 3, 4);
    column.mark_changed(3, 2);
    const Tick* exact = column.changed_ticks();
    CHECK(std::vector<Tick>(exact, exact + 4) == std::vector<Tick>{9, 4, 4, 2});
}

TEST_CASE("changed filters agree with a per-row model through chunk writes and structural changes",
          "[query][reactivity][model]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    std::mt19937 rng(20240611);
    std::map<std::uint32_t, Tick> changed;  // entity bits -> position's changed tick
    std::vector<Entity> alive;

    QueryDesc movers_desc;
    movers_desc.with = {position, velocity};
    Query movers = world.query(movers_desc);
    QueryDesc everything;
    everything.with = {position};
    Query all_positions = world.query(everything);
    QueryDesc changed_desc;
    changed_desc.changed = {position};
    Query changed_positions = world.query(changed_desc);

    auto stamp_query = [&](Query& query, Tick since) {
        query.for_each_chunk(
            [&](Chunk& chunk) {
                chunk.write<Position>(position);
                for (std::uint32_t i = 0; i < chunk.size(); ++i) changed[chunk.entities()[i].bits] = world.tick();
            },
            since);
    };

    for (int step = 0; step < 3000; ++step) {
        const int op = static_cast<int>(rng() % 10);
        if (op == 0 || alive.size() < 4) {
            const Entity e = rng() % 2 ? world.spawn(Position{1, 2}) : world.spawn(Position{1, 2}, Velocity{3, 4});
            alive.push_back(e);
            changed[e.bits] = world.tick();
        } else if (op == 1) {
            const std::size_t at = rng() % alive.size();
            world.despawn(alive[at]);
            changed.erase(alive[at].bits);
            alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(at));
        } else if (op == 2) {
            const Entity e = alive[rng() % alive.size()];
            if (world.has<Velocity>(e)) {
                world.remove<Velocity>(e);  // row moves, position's tick travels with it
            } else {
                world.add(e, Velocity{1, 1});
            }
        } else if (op == 3) {
            const Entity e = alive[rng() % alive.size()];
            world.set(e, Position{5, 5});
            changed[e.bits] = world.tick();
        } else if (op == 4) {
            stamp_query(rng() % 2 ? movers : all_positions, 0);
        } else if (op == 5) {
            // A write limited to rows changed recently: partial ranges, not whole tables.
            stamp_query(changed_positions, world.tick() > 3 ? world.tick() - 3 : 0);
        } else {
            ecsia::detail::WorldAccess::advance_tick(world);
        }

        const Tick since = world.tick() > 2 ? world.tick() - 1 - rng() % 3 : 0;
        std::vector<Entity> expected;
        for (const Entity e : all_positions.entities()) {
            if (changed.at(e.bits) > since) expected.push_back(e);
        }
        const std::vector<Entity> got = changed_positions.entities(since);
        INFO("step " << step << ", since " << since);
        REQUIRE(got == expected);
        REQUIRE(changed_positions.count(since) == expected.size());
        for (const Entity e : alive) {
            const EntityLocation at = world.locate(e);
            REQUIRE(world.tables().table(at.table).column(position)->changed_tick(at.row) == changed.at(e.bits));
        }
    }
}
