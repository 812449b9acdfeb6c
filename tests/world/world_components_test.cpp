#include <cstddef>
#include <cstring>

#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Enemy;
using test::Health;
using test::Position;
using test::Target;
using test::Velocity;

TEST_CASE("a spawned entity holds the values it was spawned with", "[world]") {
    World world;
    const Entity e = world.spawn(Position{1, 2}, Velocity{3, 4});
    REQUIRE(world.is_alive(e));
    CHECK(world.alive_count() == 1);
    CHECK(world.get<Position>(e).x == 1);
    CHECK(world.get<Position>(e).y == 2);
    CHECK(world.get<Velocity>(e).dx == 3);
    CHECK(world.get<Velocity>(e).dy == 4);
    CHECK(world.has<Position>(e));
    CHECK_FALSE(world.has<Health>(e));
}

TEST_CASE("add attaches a component with its value and remove detaches it", "[world]") {
    World world;
    const Entity e = world.spawn(Position{1, 2});
    world.add(e, Health{30, true, 1.5});
    CHECK(world.get<Health>(e).hp == 30);
    CHECK(world.get<Health>(e).alive);
    CHECK(world.get<Health>(e).regen == 1.5);
    world.remove<Position>(e);
    CHECK_FALSE(world.has<Position>(e));
    CHECK(world.get<Health>(e).hp == 30);
    CHECK(world.try_get<Position>(e) == nullptr);
    REQUIRE(world.try_get<Health>(e) != nullptr);
    CHECK(world.try_get<Health>(e)->regen == 1.5);
}

TEST_CASE("removing a component the entity lacks changes nothing", "[world]") {
    World world;
    world.component<Velocity>();
    const Entity e = world.spawn(Position{1, 2});
    const test::WorldFingerprint before = test::fingerprint(world);
    world.remove<Velocity>(e);
    CHECK(test::fingerprint(world) == before);
}

TEST_CASE("despawn removes the entity and leaves the others", "[world]") {
    World world;
    const Entity a = world.spawn(Position{1, 1});
    const Entity b = world.spawn(Position{2, 2});
    world.despawn(a);
    CHECK_FALSE(world.is_alive(a));
    CHECK(world.is_alive(b));
    CHECK(world.alive_count() == 1);
    CHECK(world.get<Position>(b).x == 2);
}

TEST_CASE("set replaces a whole component and set_field one field", "[world]") {
    World world;
    const Entity e = world.spawn(Health{1, false, 0});
    const ComponentId health = world.component<Health>();
    world.set(e, Health{5, true, 2.5});
    CHECK(world.get<Health>(e).hp == 5);
    world.set_field(e, health, "hp", -7);
    world.set_field(e, health, "alive", 0);
    world.set_field(e, health, "regen", 0.125);
    CHECK(world.get<Health>(e).hp == -7);
    CHECK_FALSE(world.get<Health>(e).alive);
    CHECK(world.get<Health>(e).regen == 0.125);
    CHECK(world.get_field(e, health, "hp") == -7);
    CHECK(world.get_field(e, health, "regen") == 0.125);
}

TEST_CASE("set_bytes writes part of a component at an offset", "[world]") {
    World world;
    const Entity e = world.spawn(Position{1, 2});
    const ComponentId position = world.component<Position>();
    const float y = 9;
    world.set_bytes(e, position, offsetof(Position, y), &y, sizeof y);
    CHECK(world.get<Position>(e).x == 1);
    CHECK(world.get<Position>(e).y == 9);
    const auto* bytes = reinterpret_cast<const Position*>(world.get_bytes(e, position));
    CHECK(bytes->y == 9);
}

TEST_CASE("get_mut gives a reference that writes into the world", "[world]") {
    World world;
    const Entity e = world.spawn(Velocity{1, 1});
    world.get_mut<Velocity>(e).dx = 8;
    CHECK(world.get<Velocity>(e).dx == 8);
}

TEST_CASE("entity fields hold handles and read back through get_field as their bits", "[world]") {
    World world;
    const Entity target = world.spawn();
    const Entity e = world.spawn(Target{target});
    const ComponentId id = world.component<Target>();
    CHECK(world.get<Target>(e).who == target);
    CHECK(world.get_field(e, id, "who") == double(target.bits));
    world.set_field(e, id, "who", 4294967295.0);
    CHECK(world.get<Target>(e).who.is_null());
}

TEST_CASE("tags can be added, tested and removed", "[world]") {
    World world;
    const Entity e = world.spawn(Position{1, 1}, Enemy{});
    CHECK(world.has<Enemy>(e));
    const Entity f = world.spawn(Position{2, 2});
    world.add(f, Enemy{});
    CHECK(world.has<Enemy>(f));
    world.remove<Enemy>(e);
    CHECK_FALSE(world.has<Enemy>(e));
    CHECK(world.get<Position>(e).x == 1);
}

TEST_CASE("components defined at run time work by name through the field API", "[world]") {
    World world;
    const ComponentId mass = world.define_component("mass", {{"kg", FieldType::F32}, {"fixed", FieldType::Bool}});
    CHECK(world.component_id("mass") == mass);
    const float kg = 2.5f;
    const bool fixed = true;
    std::byte bytes[8] = {};
    std::memcpy(bytes, &kg, sizeof kg);
    std::memcpy(bytes + 4, &fixed, sizeof fixed);
    const ComponentValue value{mass, bytes, world.components().desc(mass).size};
    const Entity e = world.spawn_with({&value, 1});
    CHECK(world.has(e, mass));
    CHECK(world.get_field(e, mass, "kg") == 2.5);
    CHECK(world.get_field(e, mass, "fixed") == 1);
    world.set_field(e, mass, "kg", 4);
    CHECK(world.get_field(e, mass, "kg") == 4);
}

TEST_CASE("value reads are allowed during a wave, value writes are not", "[world]") {
    World world;
    const Entity e = world.spawn(Position{1, 1});
    const ComponentId position = world.component<Position>();
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Wave);
    CHECK(world.get<Position>(e).x == 1);
    CHECK(world.get_field(e, position, "y") == 1);
    CHECK(world.count(test::query_terms({position})) == 1);
    CHECK(test::thrown_code([&] { world.set(e, Position{2, 2}); }) == "WrongPhase");
    CHECK(test::thrown_code([&] { world.set_field(e, position, "y", 3); }) == "WrongPhase");
    CHECK(test::thrown_code([&] { world.get_mut<Position>(e).x = 4; }) == "WrongPhase");
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Serial);
    CHECK(world.get<Position>(e).x == 1);
    CHECK(world.get<Position>(e).y == 1);
}

TEST_CASE("change_in_place stamps the change and hands out the bytes only when nothing is left to flush", "[world]") {
    World world;
    const Entity e = world.spawn(Position{1, 2}, Enemy{});
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    const ComponentId enemy = world.component<Enemy>();
    const Tick tick = ecsia::detail::WorldAccess::advance_tick(world);
    std::byte* bytes = detail::WorldAccess::change_in_place(world, e, position);
    REQUIRE(bytes == world.find_bytes(e, position));
    const EntityLocation at = world.locate(e);
    CHECK(world.tables().table(at.table).column(position)->changed_tick(at.row) == tick);

    // Nothing for a tag, a missing component, an unknown id, a dead handle; nothing changes.
    const Entity dead = world.spawn(Position{0, 0});
    world.despawn(dead);
    const test::WorldFingerprint before = test::fingerprint(world);
    CHECK(detail::WorldAccess::change_in_place(world, e, enemy) == nullptr);
    CHECK(detail::WorldAccess::change_in_place(world, e, velocity) == nullptr);
    CHECK(detail::WorldAccess::change_in_place(world, e, ComponentId(999)) == nullptr);
    CHECK(detail::WorldAccess::change_in_place(world, dead, position) == nullptr);
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Wave);
    CHECK(detail::WorldAccess::change_in_place(world, e, position) == nullptr);
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Serial);
    CHECK(test::fingerprint(world) == before);

    // A change observer of the component: the caller must take set's path, which runs it.
    int changes = 0;
    world.observe(ObserverEvent::OnChange, position, [&](ObserverContext&) { changes += 1; });
    CHECK(detail::WorldAccess::change_in_place(world, e, position) == nullptr);
    const float x = 5;
    world.set_bytes(e, position, 0, &x, sizeof x);
    world.flush();
    CHECK(changes == 1);
}
