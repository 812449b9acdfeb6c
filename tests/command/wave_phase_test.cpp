// The wave phase: while workers run, structural changes must go through a command buffer; direct
// ones are rejected with WrongPhase and change nothing (G5). Value reads stay allowed; the world's
// value writes are refused too (a kernel writes through its chunk).

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <utility>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Health;
using test::Position;
using test::Velocity;

namespace {

struct WavePhaseScene {
    World world;
    ComponentId position, velocity, health;
    Entity mover, other;

    WavePhaseScene() {
        position = world.component<Position>();
        velocity = world.component<Velocity>();
        health = world.component<Health>();
        mover = world.spawn(Position{1, 2}, Velocity{3, 4});
        other = world.spawn(Position{5, 6});
    }
};

}  // namespace

TEST_CASE("a wave rejects direct structural changes and leaves the world unchanged", "[command]") {
    WavePhaseScene s;
    World& world = s.world;
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Wave);
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
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, ecsia::detail::WorldAccess::reserve(world, 4));
    CommandBuffer buffer;
    buffer.despawn(s.mover);
    CommandBuffer* buffers[] = {&buffer};
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, ecsia::detail::WorldAccess::apply(world, buffers));
    CHECK(world.is_alive(s.mover));
    CHECK(world.alive_count() == 2);
}

TEST_CASE("the wave phase error tells the caller to use a command buffer", "[command]") {
    WavePhaseScene s;
    ecsia::detail::WorldAccess::set_phase(s.world, WorldPhase::Wave);
    const std::string message = test::thrown_message([&] { s.world.despawn(s.other); });
    CHECK(message.find("command buffer") != std::string::npos);
    CHECK(message.find("despawn") != std::string::npos);
}

TEST_CASE("a wave still reads values, and every world write is refused naming the call", "[command]") {
    WavePhaseScene s;
    World& world = s.world;
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Wave);
    CHECK(world.get<Position>(s.mover).x == 1);
    CHECK(world.has<Velocity>(s.mover));
    // A kernel writes through its chunk; the world's own writes would race with other batches
    // (and queue change observers from a worker thread).
    const float x = 50;
    const std::pair<std::string, std::function<void()>> writes[] = {
        {"set", [&] { world.set(s.mover, Position{10, 20}); }},
        {"get_mut", [&] { world.get_mut<Velocity>(s.mover).dx = 30; }},
        {"set_field", [&] { world.set_field(s.other, s.position, "y", 60); }},
        {"set", [&] { world.set_bytes(s.other, s.position, 0, &x, sizeof x); }},
        {"for_each_chunk", [&] { world.each<Position>([](Entity, Position& p) { p.y += 1; }); }},
        {"observe", [&] { world.observe(ObserverEvent::OnAdd, s.position, [](ObserverContext&) {}); }},
        {"unobserve", [&] { world.unobserve(1); }},
        {"advance_tick", [&] { ecsia::detail::WorldAccess::advance_tick(world); }},
    };
    for (const auto& [call, write] : writes) {
        INFO(call);
        const std::string message = test::thrown_message(write);
        CHECK(message.rfind("WrongPhase: " + call + " during a wave", 0) == 0);
    }
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Serial);
    CHECK(world.get<Position>(s.mover).x == 1);
    CHECK(world.get<Position>(s.mover).y == 2);
    CHECK(world.get<Velocity>(s.mover).dx != 30);
    CHECK(world.get_field(s.other, s.position, "y") != 60);
    CHECK(world.get<Position>(s.other).x != 50);
}

TEST_CASE("structural changes recorded during a wave apply once the phase is serial again", "[command]") {
    WavePhaseScene s;
    World& world = s.world;
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 1);
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Wave);
    CommandBuffer buffer;
    const Entity spawned = reservation.take();
    const Position p{9, 9};
    const ComponentValue value{s.position, &p, sizeof p};
    buffer.spawn(spawned, &value, 1);
    buffer.despawn(s.other);
    buffer.remove(s.mover, s.velocity);
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Serial);
    CommandBuffer* buffers[] = {&buffer};
    EntityReservation* reservations[] = {&reservation};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers, reservations);
    CHECK(stats.applied == 3);
    CHECK(world.is_alive(spawned));
    CHECK(world.get<Position>(spawned).x == 9);
    CHECK_FALSE(world.is_alive(s.other));
    CHECK_FALSE(world.has<Velocity>(s.mover));
}
