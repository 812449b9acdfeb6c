// A record the world rejects is skipped with a diagnostic, and the records after it in the same
// buffer still apply: for folded runs (spawn/add/remove) and for single records (set, despawn)
// alike, at the start, in the middle and at the end of a buffer.
#include <catch2/catch.hpp>

#include "support/captured_diagnostics.hpp"
#include "support/test_components.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Health;
using test::Position;
using test::Velocity;

TEST_CASE("records after a rejected one in the same buffer still apply", "[command]") {
    World world;
    test::CapturedDiagnostics said(world);
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    const ComponentId health = world.component<Health>();
    const Entity a = world.spawn(Position{1, 1});
    const Entity b = world.spawn(Position{2, 2});
    const Entity c = world.spawn(Position{3, 3});

    const float bad = 9;
    const std::uint8_t three_bytes[3] = {1, 2, 3};
    const ComponentValue wrong_size{velocity, three_bytes, 3};
    CommandBuffer buffer;
    buffer.set(a, position, 100, &bad, sizeof bad);  // rejected single record, first in the buffer
    buffer.add(a, velocity, Velocity{1, 0});           // applies
    buffer.add(b, &wrong_size, 1);                     // rejected run, in the middle
    buffer.despawn(c);                                 // applies
    buffer.set(b, position, Position{7, 7});           // applies
    buffer.add(b, health, Health{5, true, 1});         // applies
    const float pair[2] = {9, 9};
    buffer.set(a, position, 4, pair, sizeof pair);     // rejected single record (12 > 8 bytes), last
    CommandBuffer* buffers[] = {&buffer};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers);

    CHECK(stats.applied == 4);
    CHECK(said.count("command skipped: BadValue") == 3);
    CHECK(world.has(a, velocity));
    CHECK_FALSE(world.is_alive(c));
    CHECK(world.get<Position>(b).x == 7);
    CHECK(world.has(b, health));
    CHECK_FALSE(world.has(b, velocity));
    CHECK(world.get<Position>(a).x == 1);
}
