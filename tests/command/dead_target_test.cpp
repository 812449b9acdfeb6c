// Records whose target is not alive when they apply: skipped, counted, reported once (G3), and
// never applied to whoever holds the slot now (G4).

#include <catch2/catch.hpp>

#include "support/captured_diagnostics.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Position;
using test::Velocity;

TEST_CASE("records whose target died earlier in the same flush are skipped and counted and reported once", "[command]") {
    World world;
    test::CapturedDiagnostics said(world);
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    const Entity doomed = world.spawn(Position{1, 2});
    const Entity survivor = world.spawn(Position{3, 4});
    const Entity stale = world.spawn(Position{5, 6});
    world.despawn(stale);

    CommandBuffer buffer;
    buffer.despawn(doomed);
    buffer.add(doomed, velocity, Velocity{1, 1});
    buffer.set(doomed, position, Position{9, 9});
    buffer.remove(doomed, position);  // this remove and the add after it form one foldable run
    buffer.add(doomed, velocity, Velocity{2, 2});
    buffer.despawn(doomed);
    buffer.set(stale, position, Position{7, 7});
    buffer.set(survivor, position, Position{8, 8});
    CommandBuffer* buffers[] = {&buffer};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers);

    CHECK(stats.skipped_dead_target == 6);
    CHECK(stats.applied == 2);
    REQUIRE(said.messages.size() == 1);
    CHECK(said.count("6 command record(s) skipped") == 1);
    CHECK_FALSE(world.is_alive(doomed));
    CHECK(world.alive_count() == 1);
    CHECK(world.get<Position>(survivor).x == 8);
}

TEST_CASE("a flush in which every target is alive reports nothing", "[command]") {
    World world;
    test::CapturedDiagnostics said(world);
    const ComponentId position = world.component<Position>();
    const Entity e = world.spawn(Position{1, 2});
    CommandBuffer buffer;
    buffer.set(e, position, Position{3, 4});
    CommandBuffer* buffers[] = {&buffer};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers);
    CHECK(stats.skipped_dead_target == 0);
    CHECK(said.messages.empty());
}

TEST_CASE("a record naming a despawned entity never reaches the entity that took over its slot", "[command]") {
    World world;
    world.diagnostics().set_sink([](const std::string&) {});
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    const Entity old = world.spawn(Position{1, 1});

    CommandBuffer buffer;
    buffer.despawn(old);
    const Position fresh{2, 2};
    const ComponentValue value{position, &fresh, sizeof fresh};
    buffer.spawn(kNullEntity, &value, 1);  // reuses the slot just freed
    buffer.set(old, position, Position{99, 99});
    buffer.add(old, velocity, Velocity{5, 5});
    CommandBuffer* buffers[] = {&buffer};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers);

    CHECK(stats.skipped_dead_target == 2);
    QueryDesc with_position;
    with_position.with = {position};
    const std::vector<Entity> living = world.query(with_position).entities();
    REQUIRE(living.size() == 1);
    const HandleLayout& layout = world.entities().layout();
    CHECK(layout.index(living[0]) == layout.index(old));
    CHECK(layout.generation(living[0]) != layout.generation(old));
    CHECK(world.get<Position>(living[0]).x == 2);
    CHECK_FALSE(world.has<Velocity>(living[0]));
}

TEST_CASE("a record naming a handle taken from a reservation but never spawned is skipped as dead", "[command]") {
    World world;
    world.diagnostics().set_sink([](const std::string&) {});
    const ComponentId velocity = world.component<Velocity>();
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 1);
    const Entity unspawned = reservation.take();
    CommandBuffer buffer;
    buffer.add(unspawned, velocity, Velocity{1, 1});
    buffer.despawn(unspawned);
    CommandBuffer* buffers[] = {&buffer};
    EntityReservation* reservations[] = {&reservation};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers, reservations);
    CHECK(stats.skipped_dead_target == 2);
    CHECK(world.alive_count() == 0);
}
