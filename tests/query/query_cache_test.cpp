#include <vector>

#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Enemy;
using test::Health;
using test::Position;
using test::Velocity;

TEST_CASE("a query made before its tables exist sees them once they appear", "[query]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    const ComponentId enemy = world.component<Enemy>();
    Query movers = world.query(test::query_terms({position, velocity}, {enemy}));
    CHECK(movers.count() == 0);

    const Entity a = world.spawn(Position{1, 1}, Velocity{1, 1});
    CHECK(movers.count() == 1);
    const Entity b = world.spawn(Position{2, 2});
    CHECK(movers.count() == 1);
    world.add(b, Velocity{2, 2});
    CHECK(movers.count() == 2);
    world.add(b, Health{1, true, 1});  // a new table that still matches
    CHECK(movers.count() == 2);
    world.add(a, Enemy{});  // a new table that does not
    CHECK(movers.count() == 1);
    CHECK(movers.entities() == std::vector<Entity>{b});
}

TEST_CASE("the cache lists matching tables in creation order and only those", "[query]") {
    World world;
    const ComponentId position = world.component<Position>();
    Query query = world.query(test::query_terms({position}));
    const Entity pv = world.spawn(Position{0, 0}, Velocity{0, 0});
    world.spawn(Velocity{0, 0});
    const Entity p = world.spawn(Position{0, 0});
    const std::vector<TableIndex> expected{world.locate(pv).table, world.locate(p).table};
    CHECK(query.cache().matched(world.tables()) == expected);
    // Asking again scans nothing new and changes nothing.
    CHECK(query.cache().matched(world.tables()) == expected);
}

TEST_CASE("a cached query skips tables that have become empty and picks them up when refilled", "[query]") {
    World world;
    const ComponentId position = world.component<Position>();
    Query query = world.query(test::query_terms({position}));
    const Entity e = world.spawn(Position{1, 1});
    CHECK(query.count() == 1);
    world.despawn(e);
    CHECK(query.count() == 0);
    int chunks = 0;
    query.for_each_chunk([&](Chunk&) { ++chunks; });
    CHECK(chunks == 0);
    world.spawn(Position{2, 2});
    CHECK(query.count() == 1);
}

TEST_CASE("a query cache matches tables by its required and excluded components", "[query]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    const ComponentId enemy = world.component<Enemy>();
    QueryDesc desc;
    desc.with = {position};
    desc.without = {enemy};
    desc.optional = {velocity};
    QueryCache cache(desc);
    TableGraph& graph = ecsia::detail::WorldAccess::tables(world);
    CHECK(cache.matches(graph.table(graph.find_or_create({position}))));
    CHECK(cache.matches(graph.table(graph.find_or_create({position, velocity}))));
    CHECK_FALSE(cache.matches(graph.table(graph.find_or_create({velocity}))));
    CHECK_FALSE(cache.matches(graph.table(graph.find_or_create({position, enemy}))));
    CHECK_FALSE(cache.matches(graph.table(0)));
}
