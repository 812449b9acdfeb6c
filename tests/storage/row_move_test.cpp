#include <vector>

#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;
using test::Enemy;
using test::Health;
using test::Position;
using test::Target;
using test::Velocity;

namespace {

const Table& table_of(const World& world, Entity e) { return world.tables().table(world.locate(e).table); }

// A table that never held a row has never allocated column memory.
bool never_held_a_row(const Table& table) {
    for (const Column& column : table.columns()) {
        if (column.data() != nullptr) return false;
    }
    return table.size() == 0;
}

}  // namespace

TEST_CASE("entities with the same component set share a table whatever the order they got it in",
          "[storage][world]") {
    World world;
    const Entity a = world.spawn(Position{1, 1}, Velocity{1, 1});
    const Entity b = world.spawn(Velocity{2, 2}, Position{2, 2});
    const Entity c = world.spawn(Velocity{3, 3});
    world.add(c, Position{3, 3});
    const Entity d = world.spawn(Position{4, 4}, Velocity{4, 4}, Enemy{});
    world.remove<Enemy>(d);
    const Entity other = world.spawn(Position{5, 5});
    CHECK(world.locate(a).table == world.locate(b).table);
    CHECK(world.locate(a).table == world.locate(c).table);
    CHECK(world.locate(a).table == world.locate(d).table);
    CHECK(world.locate(other).table != world.locate(a).table);
    const std::vector<ComponentId> expected{world.component<Position>(), world.component<Velocity>()};
    CHECK(table_of(world, a).signature() == expected);
    CHECK(table_of(world, a).size() == 4);
}

TEST_CASE("an entity with no components lives in the empty table", "[storage][world]") {
    World world;
    const Entity e = world.spawn();
    CHECK(world.locate(e).table == 0);
    world.add(e, Position{1, 2});
    world.remove<Position>(e);
    CHECK(world.locate(e).table == 0);
}

TEST_CASE("adding several components in one change moves the row once", "[storage][world]") {
    World world;
    const Entity mover = world.spawn(Position{1, 2});
    const Entity stay = world.spawn(Position{3, 4});
    const ComponentId velocity = world.component<Velocity>();
    const ComponentId health = world.component<Health>();
    const TableIndex source = world.locate(mover).table;

    const Velocity v{5, 6};
    const Health h{7, true, 0.25};
    const ComponentValue adds[] = {{velocity, &v, sizeof v}, {health, &h, sizeof h}};
    world.change_components(mover, adds, {});

    const Table& target = table_of(world, mover);
    CHECK(target.signature() ==
          std::vector<ComponentId>{world.component<Position>(), velocity, health});
    CHECK(target.size() == 1);
    CHECK(world.get<Position>(mover).x == 1);
    CHECK(world.get<Velocity>(mover).dy == 6);
    CHECK(world.get<Health>(mover).regen == 0.25);
    // Any table passed on the way (the one-step edge) never received the row.
    for (TableIndex t = 0; t < world.tables().table_count(); ++t) {
        if (t == source || t == target.index()) continue;
        INFO("table " << t);
        CHECK(never_held_a_row(world.tables().table(t)));
    }
    // The entity left behind was swapped into the hole with its values intact.
    CHECK(world.locate(stay).table == source);
    CHECK(world.locate(stay).row == 0);
    CHECK(world.get<Position>(stay).x == 3);
    CHECK(world.get<Position>(stay).y == 4);
}

TEST_CASE("removing several components in one change moves the row once", "[storage][world]") {
    World world;
    const Entity e = world.spawn(Position{1, 2}, Velocity{3, 4}, Health{5, true, 6});
    world.spawn(Position{9, 9}, Velocity{9, 9}, Health{9, false, 9});
    const TableIndex source = world.locate(e).table;
    world.remove<Velocity, Health>(e);
    const Table& target = table_of(world, e);
    CHECK(target.signature() == std::vector<ComponentId>{world.component<Position>()});
    CHECK(world.get<Position>(e).y == 2);
    for (TableIndex t = 0; t < world.tables().table_count(); ++t) {
        if (t == source || t == target.index()) continue;
        INFO("table " << t);
        CHECK(never_held_a_row(world.tables().table(t)));
    }
}

TEST_CASE("a change that removes some components and adds others moves the row once", "[storage][world]") {
    World world;
    const Entity e = world.spawn(Position{1, 2}, Velocity{3, 4});
    const TableIndex source = world.locate(e).table;
    const ComponentId velocity = world.component<Velocity>();
    const ComponentId health = world.component<Health>();
    const ComponentId enemy = world.component<Enemy>();
    const Health h{8, true, 0.5};
    const ComponentValue adds[] = {{health, &h, sizeof h}, {enemy}};
    const ComponentId removes[] = {velocity};
    world.change_components(e, adds, removes);
    CHECK_FALSE(world.has<Velocity>(e));
    CHECK(world.has<Enemy>(e));
    CHECK(world.get<Health>(e).hp == 8);
    CHECK(world.get<Position>(e).x == 1);
    const TableIndex target = world.locate(e).table;
    for (TableIndex t = 0; t < world.tables().table_count(); ++t) {
        if (t == source || t == target) continue;
        INFO("table " << t);
        CHECK(never_held_a_row(world.tables().table(t)));
    }
}

TEST_CASE("moving a row out keeps every other entity's values and location", "[storage][world]") {
    World world;
    std::vector<Entity> crowd;
    for (int i = 0; i < 6; ++i) crowd.push_back(world.spawn(Position{float(i), float(10 * i)}, Health{i, true, i * 0.5}));
    world.add(crowd[1], Velocity{1, 1});  // from the middle
    world.remove<Health>(crowd[5]);       // the last row
    world.despawn(crowd[0]);              // the first row
    for (int i = 1; i < 6; ++i) {
        INFO("entity " << i);
        const Entity e = crowd[i];
        const EntityLocation at = world.locate(e);
        const Table& table = world.tables().table(at.table);
        REQUIRE(at.row < table.size());
        CHECK(table.entities()[at.row] == e);
        CHECK(world.get<Position>(e).x == float(i));
        CHECK(world.get<Position>(e).y == float(10 * i));
        if (i != 5) CHECK(world.get<Health>(e).regen == i * 0.5);
    }
    CHECK(table_of(world, crowd[2]).size() == 3);
}

TEST_CASE("default-valued components start zeroed with entity fields null", "[storage][world]") {
    World world;
    const ComponentId padded = world.component<test::Padded>();
    const ComponentId target = world.component<Target>();
    // Leave non-zero bytes in the rows a later spawn will reuse.
    const Entity dirty = world.spawn(test::Padded{1, 2, 3, true, Entity{7}, 4, 5, 6}, Target{Entity{9}});
    world.despawn(dirty);

    const ComponentValue defaults[] = {{padded}, {target}};
    const Entity e = world.spawn_with(defaults);
    const test::Padded& p = world.get<test::Padded>(e);
    CHECK(p.a == 0);
    CHECK(p.b == 0);
    CHECK(p.c == 0);
    CHECK_FALSE(p.d);
    CHECK(p.e.is_null());
    CHECK(p.f == 0);
    CHECK(p.g == 0);
    CHECK(p.h == 0);
    CHECK(world.get<Target>(e).who.is_null());
    CHECK(world.get_field(e, target, "who") == 4294967295.0);

    // The same through add, into a row another entity used before.
    const Entity holder = world.spawn(Position{1, 1}, Target{Entity{3}});
    world.despawn(holder);
    const Entity later = world.spawn(Position{2, 2});
    world.add(later, ComponentValue{target});
    CHECK(world.get<Target>(later).who.is_null());
}

TEST_CASE("a component removed and re-added in one change starts from the given value", "[storage][world]") {
    World world;
    const Entity e = world.spawn(Position{1, 2}, Velocity{3, 4});
    const ComponentId position = world.component<Position>();
    const ComponentValue readd[] = {{position}};
    const ComponentId removes[] = {position};
    world.change_components(e, readd, removes);
    CHECK(world.get<Position>(e).x == 0);
    CHECK(world.get<Position>(e).y == 0);
    CHECK(world.get<Velocity>(e).dx == 3);
}

TEST_CASE("adding a component an entity already has overwrites it in place", "[storage][world]") {
    World world;
    const Entity e = world.spawn(Position{1, 2});
    const EntityLocation before = world.locate(e);
    world.add(e, Position{5, 6});
    CHECK(world.locate(e).table == before.table);
    CHECK(world.locate(e).row == before.row);
    CHECK(world.get<Position>(e).x == 5);
}
