// The wave phase: while workers run, structural changes must go through a command buffer; direct
// ones are rejected with WrongPhase and change nothing (G5). Value reads and writes stay allowed.

#include <catch2/catch.hpp>

#include <string>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;
using test::Health;
using test::Position;
using test::Velocity;

namespace {

struct Scene {
    World world;
    ComponentId position, velocity, health;
    Entity mover, other;

    Scene() {
        position = world.component<Position>();
        velocity = world.component<Velocity>();
        health = world.component<Health>();
        mover = world.spawn(Position{1, 2}, Velocity{3, 4});
        other = world.spawn(Position{5, 6});
    }
};

}  // namespace

TEST_CASE("a wave rejects direct structural changes and leaves the world unchanged", "[command]") {
    Scene s;
    World& world = s.world;
    world.set_phase(WorldPhase::Wave);
    const Position p{7, 8};
    const ComponentValue value{s.position, &p, sizeof p};

    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.spawn());
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.spawn(Position{7, 8}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.spawn_with({&value, 1}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.despawn(s.mover));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.add(s.other, Velocity{1, 1}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.add(s.other, ComponentValue{s.health}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.remove<Velocity>(s.mover));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.remove(s.mover, s.position));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.change_components(s.mover, {&value, 1}, {&s.velocity, 1}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.reserve(4));
    CommandBuffer buffer;
    buffer.despawn(s.mover);
    CommandBuffer* buffers[] = {&buffer};
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.apply(buffers));
    CHECK(world.is_alive(s.mover));
    CHECK(world.alive_count() == 2);
}

TEST_CASE("the wave phase error tells the caller to use a command buffer", "[command]") {
    Scene s;
    s.world.set_phase(WorldPhase::Wave);
    const std::string message = test::thrown_message([&] { s.world.despawn(s.other); });
    CHECK(message.find("command buffer") != std::string::npos);
    CHECK(message.find("despawn") != std::string::npos);
}

TEST_CASE("a wave still reads and writes the values of existing components", "[command]") {
    Scene s;
    World& world = s.world;
    world.set_phase(WorldPhase::Wave);
    CHECK(world.get<Position>(s.mover).x == 1);
    CHECK(world.has<Velocity>(s.mover));
    world.set(s.mover, Position{10, 20});
    world.get_mut<Velocity>(s.mover).dx = 30;
    world.set_field(s.other, s.position, "y", 60);
    const float x = 50;
    world.set_bytes(s.other, s.position, 0, &x, sizeof x);
    world.each<Position>([](Entity, Position& p) { p.y += 1; });
    CHECK(world.get<Position>(s.mover).x == 10);
    CHECK(world.get<Position>(s.mover).y == 21);
    CHECK(world.get<Velocity>(s.mover).dx == 30);
    CHECK(world.get<Position>(s.other).x == 50);
    CHECK(world.get_field(s.other, s.position, "y") == 61);
    CHECK(world.alive_count() == 2);
}

TEST_CASE("structural changes recorded during a wave apply once the phase is serial again", "[command]") {
    Scene s;
    World& world = s.world;
    EntityReservation reservation = world.reserve(1);
    world.set_phase(WorldPhase::Wave);
    CommandBuffer buffer;
    const Entity spawned = reservation.take();
    const Position p{9, 9};
    const ComponentValue value{s.position, &p, sizeof p};
    buffer.spawn(spawned, &value, 1);
    buffer.despawn(s.other);
    buffer.remove(s.mover, s.velocity);
    world.set_phase(WorldPhase::Serial);
    CommandBuffer* buffers[] = {&buffer};
    EntityReservation* reservations[] = {&reservation};
    const ApplyStats stats = world.apply(buffers, reservations);
    CHECK(stats.applied == 3);
    CHECK(world.is_alive(spawned));
    CHECK(world.get<Position>(spawned).x == 9);
    CHECK_FALSE(world.is_alive(s.other));
    CHECK_FALSE(world.has<Velocity>(s.mover));
}
