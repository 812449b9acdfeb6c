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
