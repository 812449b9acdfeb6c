#include <set>
#include <vector>

#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;
using test::Enemy;
using test::Health;
using test::Position;
using test::Velocity;

TEST_CASE("iteration goes by table creation order, then row order", "[query]") {
    World world;
    const ComponentId position = world.component<Position>();
    const Entity a = world.spawn(Position{1, 0}, Velocity{0, 0});  // table T1
    const Entity b = world.spawn(Position{2, 0});                  // table T2
    const Entity c = world.spawn(Position{3, 0}, Velocity{0, 0});  // T1
    const Entity d = world.spawn(Position{4, 0}, Enemy{});         // table T3
    const Entity e = world.spawn(Position{5, 0});                  // T2
    Query query = world.query(test::query_terms({position}));
    CHECK(query.entities() == std::vector<Entity>{a, c, b, e, d});

    world.despawn(a);  // c is swapped into row 0 of T1
    CHECK(query.entities() == std::vector<Entity>{c, b, e, d});
    world.add(b, Velocity{0, 0});  // b moves to the end of T1; e into row 0 of T2
    CHECK(query.entities() == std::vector<Entity>{c, b, e, d});
    world.remove<Velocity>(c);  // c to the end of T2; b into row 0 of T1
    CHECK(query.entities() == std::vector<Entity>{b, e, c, d});
}

TEST_CASE("the same operations give the same iteration order in two worlds", "[query]") {
    auto run = [] {
        World world;
        const ComponentId position = world.component<Position>();
        std::vector<Entity> spawned;
        for (int i = 0; i < 30; ++i) {
            spawned.push_back(world.spawn(Position{float(i), 0}));
            if (i % 3 == 0) world.add(spawned.back(), Velocity{0, 0});
            if (i % 5 == 0) world.add(spawned.back(), Enemy{});
            if (i % 7 == 3) world.despawn(spawned[i / 2]);
        }
        std::vector<std::uint32_t> order;
        for (Entity e : world.query(test::query_terms({position})).entities()) order.push_back(e.bits);
        return order;
    };
    CHECK(run() == run());
}

TEST_CASE("a chunk is a whole table with its column pointers and row count", "[query]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    for (int i = 0; i < 20; ++i) world.spawn(Position{float(i), 0}, Velocity{1, float(i)});
    for (int i = 0; i < 5; ++i) world.spawn(Position{float(i), 0});
    Query query = world.query(test::query_terms({position, velocity}));
    int chunks = 0;
    query.for_each_chunk([&](Chunk& chunk) {
        ++chunks;
        Table& table = chunk.table();
        CHECK(chunk.size() == 20);
        CHECK(chunk.size() == table.size());
        CHECK(chunk.row_begin() == 0);
        CHECK(chunk.entities() == table.entities());
        CHECK(chunk.read<Position>(position) == reinterpret_cast<const Position*>(table.column(position)->data()));
        CHECK(chunk.read<Velocity>(velocity) == reinterpret_cast<const Velocity*>(table.column(velocity)->data()));
        const Velocity* v = chunk.read<Velocity>(velocity);
        for (std::uint32_t i = 0; i < chunk.size(); ++i) {
            CHECK(v[i].dy == world.get<Velocity>(chunk.entities()[i]).dy);
        }
    });
    CHECK(chunks == 1);
}

TEST_CASE("writes through a chunk land in the entities' components", "[query]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    std::vector<Entity> movers;
    for (int i = 0; i < 10; ++i) movers.push_back(world.spawn(Position{float(i), 0}, Velocity{1, 2}));
    for (int i = 0; i < 10; ++i) movers.push_back(world.spawn(Position{float(i), 0}, Velocity{1, 2}, Enemy{}));
    const Entity still = world.spawn(Position{100, 100});
    const float dt = 0.5f;
    Query query = world.query(test::query_terms({position, velocity}));
    query.for_each_chunk([&](Chunk& chunk) {
        Position* p = chunk.write<Position>(position);
        const Velocity* v = chunk.read<Velocity>(velocity);
        for (std::uint32_t i = 0; i < chunk.size(); ++i) {
            p[i].x += v[i].dx * dt;
            p[i].y += v[i].dy * dt;
        }
    });
    for (int i = 0; i < 20; ++i) {
        INFO("mover " << i);
        CHECK(world.get<Position>(movers[i]).x == float(i % 10) + 0.5f);
        CHECK(world.get<Position>(movers[i]).y == 1.0f);
    }
    CHECK(world.get<Position>(still).x == 100);
}

TEST_CASE("World::each visits each entity with all the asked components, writing through references",
          "[query][world]") {
    World world;
    const Entity a = world.spawn(Position{1, 0}, Velocity{10, 0});
    const Entity b = world.spawn(Position{2, 0}, Velocity{20, 0}, Health{1, true, 0});
    world.spawn(Position{3, 0});
    world.spawn(Velocity{4, 0});
    std::set<std::uint32_t> seen;
    world.each<const Velocity, Position>([&](Entity e, const Velocity& v, Position& p) {
        CHECK(seen.insert(e.bits).second);
        p.y = v.dx;
    });
    CHECK(seen == std::set<std::uint32_t>{a.bits, b.bits});
    CHECK(world.get<Position>(a).y == 10);
    CHECK(world.get<Position>(b).y == 20);
}

TEST_CASE("Query::each gives typed access in iteration order", "[query]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId enemy = world.component<Enemy>();
    std::vector<Entity> expected;
    for (int i = 0; i < 5; ++i) {
        const Entity e = world.spawn(Position{float(i), 0});
        if (i % 2 == 0) world.add(e, Enemy{});
    }
    Query query = world.query(test::query_terms({position}, {enemy}));
    expected = query.entities();
    std::vector<Entity> visited;
    query.each<Position>([&](Entity e, Position& p) {
        visited.push_back(e);
        p.y = 42;
    });
    CHECK(visited == expected);
    CHECK(visited.size() == 2);
    for (Entity e : visited) CHECK(world.get<Position>(e).y == 42);
}

TEST_CASE("each refuses a component the query does not require", "[query]") {
    World world;
    const ComponentId position = world.component<Position>();
    world.component<Velocity>();
    world.spawn(Position{1, 1}, Velocity{1, 1});
    QueryDesc desc;
    desc.with = {position};
    desc.optional = {world.component<Velocity>()};
    Query query = world.query(desc);
    int calls = 0;
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, query.each<Velocity>([&](Entity, Velocity&) { ++calls; }));
    CHECK(calls == 0);
}
