// What a merge does with reserved handles its buffers did not spawn: untaken ones return untouched,
// so the next spawns reuse them in reserved order; taken ones return with a new generation,
// because the batch may have stored them somewhere (G4).

#include <catch2/catch.hpp>

#include <vector>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Position;

namespace {

// A world whose free list is not just fresh slots in order: some slots were freed out of order.
void churn(World& world) {
    std::vector<Entity> spawned;
    for (int i = 0; i < 8; ++i) spawned.push_back(world.spawn(Position{float(i), 0}));
    world.despawn(spawned[5]);
    world.despawn(spawned[1]);
    world.despawn(spawned[6]);
}

void spawn_reserved(World& world, CommandBuffer& buffer, Entity handle) {
    const ComponentId position = world.component<Position>();
    const Position value{100, 0};
    const ComponentValue v{position, &value, sizeof value};
    buffer.spawn(handle, &v, 1);
}

}  // namespace

TEST_CASE("reserved handles nobody took are reused by the next spawns in reserved order", "[command]") {
    World world;
    churn(world);
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 5);
    const std::vector<Entity> handles = reservation.handles();
    CommandBuffer buffer;
    spawn_reserved(world, buffer, reservation.take());
    CommandBuffer* buffers[] = {&buffer};
    EntityReservation* reservations[] = {&reservation};
    ecsia::detail::WorldAccess::apply(world, buffers, reservations);

    CHECK(world.is_alive(handles[0]));
    for (std::size_t i = 1; i < handles.size(); ++i) {
        CAPTURE(i);
        CHECK(world.spawn() == handles[i]);
    }
}

TEST_CASE("untaken handles of several reservations come back in the order they were reserved", "[command]") {
    World world;
    churn(world);
    EntityReservation first = ecsia::detail::WorldAccess::reserve(world, 3);
    EntityReservation second = ecsia::detail::WorldAccess::reserve(world, 2);
    std::vector<Entity> reserved = first.handles();
    reserved.insert(reserved.end(), second.handles().begin(), second.handles().end());
    EntityReservation* reservations[] = {&first, &second};
    ecsia::detail::WorldAccess::apply(world, {}, reservations);

    for (std::size_t i = 0; i < reserved.size(); ++i) {
        CAPTURE(i);
        CHECK(world.spawn() == reserved[i]);
    }
}

TEST_CASE("a merge in which nobody spawned leaves later spawns as if nothing was reserved", "[command]") {
    World reserving, plain;
    churn(reserving);
    churn(plain);
    EntityReservation a = ecsia::detail::WorldAccess::reserve(reserving, 2);
    EntityReservation b = ecsia::detail::WorldAccess::reserve(reserving, 4);
    EntityReservation c = ecsia::detail::WorldAccess::reserve(reserving, 1);
    EntityReservation* reservations[] = {&a, &b, &c};
    ecsia::detail::WorldAccess::apply(reserving, {}, reservations);

    for (int i = 0; i < 12; ++i) {
        CAPTURE(i);
        CHECK(reserving.spawn() == plain.spawn());
    }
    CHECK(state_hash(reserving) == state_hash(plain));
}

TEST_CASE("handles taken from a reservation but never spawned come back with a new generation", "[command]") {
    World world;
    churn(world);
    const HandleLayout& layout = world.entities().layout();
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 3);
    const Entity unspawned = reservation.take();
    const Entity spawned = reservation.take();
    const Entity untaken = reservation.handles()[2];
    CommandBuffer buffer;
    spawn_reserved(world, buffer, spawned);
    CommandBuffer* buffers[] = {&buffer};
    EntityReservation* reservations[] = {&reservation};
    ecsia::detail::WorldAccess::apply(world, buffers, reservations);

    CHECK(world.is_alive(spawned));
    CHECK_FALSE(world.is_alive(unspawned));
    CHECK_FALSE(world.entities().is_reserved(unspawned));
    // Untaken handles first, as they were; then the taken one, one generation on.
    CHECK(world.spawn() == untaken);
    const Entity reused = world.spawn();
    CHECK(reused == layout.make(layout.index(unspawned), layout.generation(unspawned) + 1));
    CHECK_FALSE(world.is_alive(unspawned));
}

TEST_CASE("taken but unspawned handles of several reservations come back after every untaken one", "[command]") {
    World world;
    churn(world);
    const HandleLayout& layout = world.entities().layout();
    auto bumped = [&](Entity e) { return layout.make(layout.index(e), layout.generation(e) + 1); };
    EntityReservation first = ecsia::detail::WorldAccess::reserve(world, 2);
    EntityReservation second = ecsia::detail::WorldAccess::reserve(world, 2);
    const Entity first_taken = first.take();
    const Entity second_taken = second.take();
    EntityReservation* reservations[] = {&first, &second};
    ecsia::detail::WorldAccess::apply(world, {}, reservations);

    CHECK(world.spawn() == first.handles()[1]);
    CHECK(world.spawn() == second.handles()[1]);
    CHECK(world.spawn() == bumped(first_taken));
    CHECK(world.spawn() == bumped(second_taken));
}
