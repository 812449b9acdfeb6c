#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;
using test::Position;


TEST_CASE("spawning past max_entities throws CapacityExceeded and changes nothing", "[entity][world]") {
    WorldOptions options;
    options.max_entities = 4;
    World world(options);
    world.component<Position>();
    for (int i = 0; i < 4; ++i) world.spawn(Position{float(i), 1});
    REQUIRE(world.alive_count() == 4);

    ECSIA_REQUIRE_REJECTED(world, ErrorCode::CapacityExceeded, world.spawn());
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::CapacityExceeded, world.spawn(Position{9, 9}));
    // A component set no table has yet: the failed spawn must not create its table either.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::CapacityExceeded, world.spawn(Position{9, 9}, test::Velocity{1, 1}));
    CHECK(world.alive_count() == 4);
}

TEST_CASE("the CapacityExceeded message names the max_entities limit", "[entity][world]") {
    WorldOptions options;
    options.max_entities = 1234;
    World world(options);
    for (int i = 0; i < 1234; ++i) world.spawn();
    const std::string message = test::thrown_message([&] { world.spawn(); });
    CHECK_THAT(message, Catch::Matchers::Contains("1234"));
    CHECK_THAT(message, Catch::Matchers::Contains("max_entities"));
}

TEST_CASE("a despawn below max_entities makes room for exactly one more spawn", "[entity][world]") {
    WorldOptions options;
    options.max_entities = 3;
    World world(options);
    const Entity a = world.spawn();
    world.spawn();
    world.spawn();
    world.despawn(a);
    const Entity d = world.spawn();
    CHECK(world.entities().layout().index(d) == world.entities().layout().index(a));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::CapacityExceeded, world.spawn());
}
