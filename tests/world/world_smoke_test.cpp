#include <catch2/catch.hpp>

#include "support/test_components.hpp"

using namespace ecsia;
using test::Position;
using test::Velocity;

TEST_CASE("a spawned entity holds the values it was spawned with", "[world]") {
    World world;
    const Entity e = world.spawn(Position{1, 2}, Velocity{3, 4});
    REQUIRE(world.is_alive(e));
    CHECK(world.get<Position>(e).x == 1);
    CHECK(world.get<Velocity>(e).dy == 4);
    world.remove<Velocity>(e);
    CHECK_FALSE(world.has<Velocity>(e));
    CHECK(world.get<Position>(e).y == 2);
}

TEST_CASE("each visits every entity with the asked components", "[world][query]") {
    World world;
    world.spawn(Position{1, 0}, Velocity{1, 1});
    world.spawn(Position{2, 0});
    float sum = 0;
    world.each<const Position, Velocity>([&](Entity, const Position& p, Velocity& v) {
        sum += p.x;
        v.dx = 5;
    });
    CHECK(sum == 1);
}
