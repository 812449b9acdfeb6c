// Spawns beyond a batch's reservation: recorded with a null handle, given a real one at merge time,
// and named inside their own buffer by pending handles, which the merge rewrites.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "support/captured_diagnostics.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "support/world_dump.hpp"
#include "ecsia/world/world_access.hpp"

namespace test {
// An entity field that is not the first field, so field writes at an offset are covered.
struct Link {
    float weight;
    ecsia::Entity to;
};
}  // namespace test

ECSIA_COMPONENT(test::Link, "link", weight, to)

using namespace ecsia;
using test::Link;
using test::Position;
using test::Target;
using test::Velocity;

namespace {

// Every test entity carries a distinct Position.x, which is how the test finds it again.
Entity find_by_x(World& world, float x) {
    Entity found = kNullEntity;
    world.each<const Position>([&](Entity e, const Position& p) {
        if (p.x == x) found = e;
    });
    return found;
}

ComponentValue value_of(ComponentId id, const void* bytes, std::size_t size) {
    return ComponentValue{id, bytes, static_cast<std::uint32_t>(size)};
}

}  // namespace

TEST_CASE("a buffer with more spawns than its reservation loses none of them", "[command]") {
    World world;
    test::CapturedDiagnostics said(world);
    const ComponentId position = world.component<Position>();
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 2);
    CommandBuffer buffer;
    std::vector<Entity> taken;
    for (int i = 0; i < 7; ++i) {
        const Entity handle = reservation.take();
        taken.push_back(handle);
        const Position p{static_cast<float>(i), 0};
        const ComponentValue v = value_of(position, &p, sizeof p);
        buffer.spawn(handle, &v, 1);
    }
    CommandBuffer* buffers[] = {&buffer};
    EntityReservation* reservations[] = {&reservation};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers, reservations);

    CHECK(std::count(taken.begin(), taken.end(), kNullEntity) == 5);
    CHECK(stats.overflow_spawns == 5);
    CHECK(stats.applied == 7);
    CHECK(world.alive_count() == 7);
    for (int i = 0; i < 7; ++i) {
        CAPTURE(i);
        const Entity e = find_by_x(world, static_cast<float>(i));
        CHECK(world.is_alive(e));
        if (i < 2) CHECK(e == reservation.handles()[i]);
    }
    CHECK(said.messages.size() == 1);
    CHECK(said.count("5 spawn(s) exceeded") == 1);
}

TEST_CASE("records naming a pending handle apply to that overflow spawn", "[command]") {
    World world;
    world.diagnostics().set_sink([](const std::string&) {});
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    const HandleLayout& layout = world.entities().layout();
    CommandBuffer buffer;
    for (int i = 0; i < 3; ++i) {
        const Position p{static_cast<float>(i), 0};
        const ComponentValue v = value_of(position, &p, sizeof p);
        buffer.spawn(kNullEntity, &v, 1);
    }
    buffer.add(layout.pending(1), velocity, Velocity{5, 6});
    buffer.set(layout.pending(2), position, Position{2, 22});
    buffer.despawn(layout.pending(0));
    buffer.set(layout.pending(3), position, Position{3, 33});  // no fourth overflow spawn: a dead target
    CommandBuffer* buffers[] = {&buffer};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers);

    CHECK(stats.skipped_dead_target == 1);
    CHECK(world.alive_count() == 2);
    CHECK(find_by_x(world, 0).is_null());
    const Entity second = find_by_x(world, 1);
    const Entity third = find_by_x(world, 2);
    REQUIRE(world.is_alive(second));
    REQUIRE(world.is_alive(third));
    CHECK(world.get<Velocity>(second).dy == 6);
    CHECK(world.get<Position>(third).y == 22);
    CHECK_FALSE(world.has<Velocity>(third));
}

TEST_CASE("entity fields naming a pending handle are rewritten to the real handle", "[command]") {
    World world;
    world.diagnostics().set_sink([](const std::string&) {});
    const ComponentId position = world.component<Position>();
    const ComponentId target = world.component<Target>();
    const ComponentId link = world.component<Link>();
    const HandleLayout& layout = world.entities().layout();
    const Entity outsider = world.spawn(Position{-1, 0});
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 1);
    const Entity reserved = reservation.take();

    CommandBuffer buffer;
    const Position p0{0, 0}, p1{1, 0}, p2{2, 0}, p3{3, 0};
    // pending(0): plain.
    const ComponentValue a[] = {value_of(position, &p0, sizeof p0)};
    buffer.spawn(kNullEntity, a, 1);
    // pending(1): its spawn payload names pending(0).
    const Target to_first{layout.pending(0)};
    const ComponentValue b[] = {value_of(position, &p1, sizeof p1), value_of(target, &to_first, sizeof to_first)};
    buffer.spawn(kNullEntity, b, 2);
    // The reserved spawn names pending(1) in its payload.
    const Target to_second{layout.pending(1)};
    const ComponentValue c[] = {value_of(position, &p2, sizeof p2), value_of(target, &to_second, sizeof to_second)};
    buffer.spawn(reserved, c, 2);
    // pending(2): names itself, in its own spawn payload.
    const Target to_self{layout.pending(2)};
    const ComponentValue d[] = {value_of(position, &p3, sizeof p3), value_of(target, &to_self, sizeof to_self)};
    buffer.spawn(kNullEntity, d, 2);
    // An add payload and a whole-component set naming pending handles, and a field write at an
    // offset inside Link; a handle that is not pending is left as it is.
    buffer.add(layout.pending(0), link, Link{0.5f, layout.pending(1)});
    buffer.add(outsider, target, Target{outsider});
    buffer.set(outsider, target, Target{layout.pending(0)});
    const Entity to_third = layout.pending(2);
    buffer.add(outsider, link, Link{0.25f, outsider});
    buffer.set(outsider, link, static_cast<std::uint32_t>(offsetof(Link, to)), &to_third.bits, 4);
    buffer.add(layout.pending(1), link, Link{0.75f, reserved});
    CommandBuffer* buffers[] = {&buffer};
    EntityReservation* reservations[] = {&reservation};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers, reservations);
    REQUIRE(stats.applied == 10);

    const Entity first = find_by_x(world, 0), second = find_by_x(world, 1), third = find_by_x(world, 3);
    CHECK_FALSE(layout.is_pending(first));
    CHECK(world.get<Target>(second).who == first);
    CHECK(world.get<Target>(reserved).who == second);
    CHECK(world.get<Target>(outsider).who == first);
    CHECK(world.get<Target>(third).who == third);
    CHECK(world.get<Link>(first).to == second);
    CHECK(world.get<Link>(first).weight == 0.5f);
    CHECK(world.get<Link>(outsider).to == third);
    CHECK(world.get<Link>(outsider).weight == 0.25f);
    CHECK(world.get<Link>(second).to == reserved);
}

TEST_CASE("pending handles are numbered within each buffer", "[command]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    world.diagnostics().set_sink([](const std::string&) {});
    const HandleLayout& layout = world.entities().layout();
    CommandBuffer buffers[3];
    for (int k = 0; k < 3; ++k) {
        const Position p{static_cast<float>(k), 0};
        const ComponentValue v = value_of(position, &p, sizeof p);
        buffers[k].spawn(kNullEntity, &v, 1);
        buffers[k].add(layout.pending(0), velocity, Velocity{static_cast<float>(10 * k), 0});
    }
    CommandBuffer* list[] = {&buffers[0], &buffers[1], &buffers[2]};
    ecsia::detail::WorldAccess::apply(world, list);
    for (int k = 0; k < 3; ++k) {
        CAPTURE(k);
        CHECK(world.get<Velocity>(find_by_x(world, static_cast<float>(k))).dx == static_cast<float>(10 * k));
    }
}

TEST_CASE("overflow spawns get the same handles on every run", "[command]") {
    auto run = [] {
        World world;
        world.diagnostics().set_sink([](const std::string&) {});
        const ComponentId position = world.component<Position>();
        const ComponentId target = world.component<Target>();
        const HandleLayout& layout = world.entities().layout();
        std::vector<Entity> early;
        for (int i = 0; i < 6; ++i) early.push_back(world.spawn(Position{100.0f + i, 0}));
        world.despawn(early[4]);
        world.despawn(early[1]);
        EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 2);
        CommandBuffer buffer;
        for (int i = 0; i < 8; ++i) {
            // Despawns between spawns free slots that the later overflow spawns pick up.
            if (i == 3) buffer.despawn(early[0]);
            if (i == 5) buffer.despawn(early[3]);
            const Position p{static_cast<float>(i), 0};
            // pending(0) is the first overflow spawn (i == 2): named from there on, never before.
            const Target t{i < 2 ? kNullEntity : layout.pending(0)};
            const ComponentValue v[] = {value_of(position, &p, sizeof p), value_of(target, &t, sizeof t)};
            buffer.spawn(reservation.take(), v, 2);
        }
        CommandBuffer* buffers[] = {&buffer};
        EntityReservation* reservations[] = {&reservation};
        ecsia::detail::WorldAccess::apply(world, buffers, reservations);
        std::vector<Entity> handles;
        for (int i = 0; i < 8; ++i) handles.push_back(find_by_x(world, static_cast<float>(i)));
        return std::make_pair(handles, test::dump_entities(world));
    };
    const auto first = run();
    const auto second = run();
    CHECK(std::count(first.first.begin(), first.first.end(), kNullEntity) == 0);
    CHECK(first.first == second.first);
    CHECK(first.second == second.second);
}

TEST_CASE("a payload naming a pending handle that names no spawn of its buffer is refused, also without overflow spawns", "[command]") {
    // Self-numbered buffers (observers') and a kernel batch's buffer (named by its wave), each
    // with no overflow spawn of its own, or with one that the foreign handle is not.
    for (const bool kernel_batch : {false, true}) {
        for (const bool own_overflow : {false, true}) {
            INFO("kernel batch " << kernel_batch << ", own overflow spawn " << own_overflow);
            World world;
            test::CapturedDiagnostics said(world);
            const ComponentId position = world.component<Position>();
            const ComponentId target = world.component<Target>();
            const ComponentId link = world.component<Link>();
            const HandleLayout& layout = world.entities().layout();
            const Entity holder = world.spawn(Position{-1, 0}, Target{kNullEntity}, Link{0.5f, kNullEntity});
            const std::string before = test::dump_entities(world);
            CommandBuffer buffer;
            PendingNames names;  // self-numbered
            if (kernel_batch) {
                names = PendingNames::for_batch(7, 2, 0, layout);
                buffer.name_pending(names);
            }
            // A name this buffer never gave: the other batch's first, or the self-numbered third
            // (the buffer records at most two overflow spawns).
            const Entity foreign = kernel_batch ? PendingNames::for_batch(7, 2, 1, layout).name(0, layout) : layout.pending(2);
            if (own_overflow) {
                const Position p{5, 5};
                const ComponentValue v = value_of(position, &p, sizeof p);
                CHECK(buffer.name_next_overflow_spawn(layout) == names.name(0, layout));
                buffer.spawn(kNullEntity, &v, 1);
            }
            buffer.add(holder, target, Target{foreign});
            buffer.set(holder, target, Target{foreign});
            buffer.set(holder, link, static_cast<std::uint32_t>(offsetof(Link, to)), &foreign.bits, 4);
            const Position p{6, 6};
            const Target t{foreign};
            const ComponentValue spawn_values[] = {value_of(position, &p, sizeof p), value_of(target, &t, sizeof t)};
            buffer.spawn(kNullEntity, spawn_values, 2);
            CommandBuffer* buffers[] = {&buffer};
            const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers);
            CHECK(stats.applied == (own_overflow ? 1u : 0u));
            CHECK(said.count("command skipped: StaleEntity: pending handle") == 4);
            CHECK(world.get<Target>(holder).who == kNullEntity);
            CHECK(world.get<Link>(holder).to == kNullEntity);
            CHECK(find_by_x(world, 6).is_null());
            if (!own_overflow) CHECK(test::dump_entities(world) == before);
        }
    }
}
