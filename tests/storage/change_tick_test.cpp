#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Health;
using test::Position;
using test::Velocity;

namespace {

const Column& column_of(const World& world, Entity e, ComponentId id) {
    return *world.tables().table(world.locate(e).table).column(id);
}
Tick added_tick(const World& world, Entity e, ComponentId id) {
    return column_of(world, e, id).added_ticks()[world.locate(e).row];
}
Tick changed_tick(const World& world, Entity e, ComponentId id) {
    return column_of(world, e, id).changed_ticks()[world.locate(e).row];
}

}  // namespace

TEST_CASE("a world starts at tick 1 and advance_tick counts up", "[storage][world]") {
    World world;
    CHECK(world.tick() == 1);
    CHECK(ecsia::detail::WorldAccess::advance_tick(world) == 2);
    CHECK(world.tick() == 2);
}

TEST_CASE("spawned components are added and changed at the spawn tick", "[storage][world]") {
    World world;
    ecsia::detail::WorldAccess::advance_tick(world);
    const Entity e = world.spawn(Position{1, 1}, Velocity{1, 1});
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    CHECK(added_tick(world, e, position) == 2);
    CHECK(changed_tick(world, e, position) == 2);
    CHECK(added_tick(world, e, velocity) == 2);
}

TEST_CASE("each kind of write stamps the changed tick of its row only", "[storage][world]") {
    World world;
    const ComponentId position = world.component<Position>();
    const Entity e = world.spawn(Position{1, 1});
    const Entity neighbour = world.spawn(Position{2, 2});
    REQUIRE(world.locate(e).table == world.locate(neighbour).table);

    ecsia::detail::WorldAccess::advance_tick(world);  // 2
    world.set(e, Position{5, 5});
    CHECK(changed_tick(world, e, position) == 2);
    CHECK(added_tick(world, e, position) == 1);

    ecsia::detail::WorldAccess::advance_tick(world);  // 3
    world.set_field(e, position, "x", 6);
    CHECK(changed_tick(world, e, position) == 3);

    ecsia::detail::WorldAccess::advance_tick(world);  // 4
    world.get_mut<Position>(e).y = 7;
    CHECK(changed_tick(world, e, position) == 4);

    ecsia::detail::WorldAccess::advance_tick(world);  // 5
    const float x = 8;
    world.set_bytes(e, position, 0, &x, sizeof x);
    CHECK(changed_tick(world, e, position) == 5);

    ecsia::detail::WorldAccess::advance_tick(world);  // 6
    world.add(e, Position{9, 9});  // overwrite of a component it has
    CHECK(changed_tick(world, e, position) == 6);
    CHECK(added_tick(world, e, position) == 1);

    CHECK(changed_tick(world, neighbour, position) == 1);
    CHECK(added_tick(world, neighbour, position) == 1);
    CHECK(column_of(world, e, position).max_changed_tick() == 6);
}

TEST_CASE("reads do not stamp changed ticks", "[storage][world]") {
    World world;
    const ComponentId position = world.component<Position>();
    const Entity e = world.spawn(Position{1, 1});
    ecsia::detail::WorldAccess::advance_tick(world);
    (void)world.get<Position>(e);
    (void)world.get_field(e, position, "x");
    (void)world.try_get<Position>(e);
    world.each<const Position>([](Entity, const Position&) {});
    CHECK(changed_tick(world, e, position) == 1);
}

TEST_CASE("moving a row keeps the ticks of the components it keeps", "[storage][world]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    const ComponentId health = world.component<Health>();
    const Entity e = world.spawn(Position{1, 1}, Health{1, true, 1});
    ecsia::detail::WorldAccess::advance_tick(world);  // 2
    world.set(e, Position{2, 2});
    ecsia::detail::WorldAccess::advance_tick(world);  // 3
    world.add(e, Velocity{3, 3});
    CHECK(added_tick(world, e, position) == 1);
    CHECK(changed_tick(world, e, position) == 2);
    CHECK(added_tick(world, e, velocity) == 3);
    CHECK(changed_tick(world, e, velocity) == 3);
    ecsia::detail::WorldAccess::advance_tick(world);  // 4
    world.remove<Health>(e);
    CHECK(added_tick(world, e, velocity) == 3);
    CHECK(changed_tick(world, e, position) == 2);
    CHECK_FALSE(world.has(e, health));
}

TEST_CASE("a component removed and re-added in one change counts as freshly added", "[storage][world]") {
    World world;
    const ComponentId position = world.component<Position>();
    const Entity e = world.spawn(Position{1, 1});
    ecsia::detail::WorldAccess::advance_tick(world);
    ecsia::detail::WorldAccess::advance_tick(world);  // 3
    const Position p{4, 4};
    const ComponentValue adds[] = {{position, &p, sizeof p}};
    const ComponentId removes[] = {position};
    world.change_components(e, adds, removes);
    CHECK(added_tick(world, e, position) == 3);
    CHECK(changed_tick(world, e, position) == 3);
    CHECK(world.get<Position>(e).x == 4);
}

TEST_CASE("ticks follow a row when swap-remove moves it", "[storage][world]") {
    World world;
    const ComponentId position = world.component<Position>();
    const Entity first = world.spawn(Position{1, 1});
    ecsia::detail::WorldAccess::advance_tick(world);  // 2
    const Entity last = world.spawn(Position{2, 2});
    ecsia::detail::WorldAccess::advance_tick(world);  // 3
    world.set(last, Position{3, 3});
    world.despawn(first);
    REQUIRE(world.locate(last).row == 0);
    CHECK(added_tick(world, last, position) == 2);
    CHECK(changed_tick(world, last, position) == 3);
}

TEST_CASE("chunk writes stamp the rows they cover at the current tick", "[storage][query]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    const Entity moving = world.spawn(Position{1, 1}, Velocity{1, 1});
    const Entity still = world.spawn(Position{1, 1});
    ecsia::detail::WorldAccess::advance_tick(world);  // 2
    Query query = world.query(test::query_terms({position, velocity}));
    query.for_each_chunk([&](Chunk& chunk) { chunk.write<Position>(position); });
    CHECK(changed_tick(world, moving, position) == 2);
    CHECK(changed_tick(world, moving, velocity) == 1);  // only read
    CHECK(changed_tick(world, still, position) == 1);   // not matched
}
