#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "support/captured_diagnostics.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Enemy;
using test::Health;
using test::Position;
using test::Velocity;

namespace {

// Every accessor that takes a handle, each as (name, call).
std::vector<std::pair<std::string, std::function<void()>>> accessors(World& world, Entity e) {
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    return {
        {"get", [&world, e] { (void)world.get<Position>(e); }},
        {"get_mut", [&world, e] { (void)world.get_mut<Position>(e); }},
        {"try_get", [&world, e] { (void)world.try_get<Position>(e); }},
        {"get_bytes", [&world, e, position] { (void)world.get_bytes(e, position); }},
        {"set", [&world, e] { world.set(e, Position{5, 5}); }},
        {"set_bytes", [&world, e, position] {
             const float x = 3;
             world.set_bytes(e, position, 0, &x, sizeof x);
         }},
        {"set_field", [&world, e, position] { world.set_field(e, position, "x", 7); }},
        {"get_field", [&world, e, position] { (void)world.get_field(e, position, "x"); }},
        {"has<T>", [&world, e] { (void)world.has<Position>(e); }},
        {"has(id)", [&world, e, velocity] { (void)world.has(e, velocity); }},
        {"add<T>", [&world, e] { world.add(e, Velocity{1, 1}); }},
        {"add(value)", [&world, e, velocity] { world.add(e, ComponentValue{velocity}); }},
        {"remove<T>", [&world, e] { world.remove<Position>(e); }},
        {"remove(id)", [&world, e, position] { world.remove(e, position); }},
        {"change_components", [&world, e, position, velocity] {
             const ComponentValue adds[] = {{velocity}};
             const ComponentId removes[] = {position};
             world.change_components(e, adds, removes);
         }},
        {"locate", [&world, e] { (void)world.locate(e); }},
        {"despawn", [&world, e] { world.despawn(e); }},
    };
}

void require_every_accessor_refuses(World& world, Entity e) {
    CHECK_FALSE(world.is_alive(e));
    // Not a structured binding: clang 14 (em++) cannot capture those in the macro's lambda.
    for (auto& accessor : accessors(world, e)) {
        const auto& name = accessor.first;
        auto& call = accessor.second;
        INFO("accessor " << name << " with " << Catch::StringMaker<Entity>::convert(e));
        ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, call());
    }
}

}  // namespace

TEST_CASE("every accessor throws StaleEntity for a despawned handle", "[world][entity]") {
    World world;
    const Entity e = world.spawn(Position{1, 2});
    world.spawn(Position{3, 4}, Velocity{5, 6});
    world.despawn(e);
    require_every_accessor_refuses(world, e);
}

TEST_CASE("a stale handle never reaches the entity that reuses its slot", "[world][entity]") {
    World world;
    const Entity old = world.spawn(Position{1, 2}, Health{10, true, 0.5});
    world.despawn(old);
    const Entity reuse = world.spawn(Position{100, 200}, Health{99, false, 1.5});
    REQUIRE(world.entities().layout().index(reuse) == world.entities().layout().index(old));
    REQUIRE(world.is_alive(reuse));
    require_every_accessor_refuses(world, old);
    // The new occupant is untouched by all those attempts.
    CHECK(world.get<Position>(reuse).x == 100);
    CHECK(world.get<Position>(reuse).y == 200);
    CHECK(world.get<Health>(reuse).hp == 99);
    CHECK_FALSE(world.has<Velocity>(reuse));
}

TEST_CASE("the null handle and never-spawned handles are refused like stale ones", "[world][entity]") {
    World world;
    world.spawn(Position{1, 1});
    const HandleLayout& layout = world.entities().layout();
    require_every_accessor_refuses(world, kNullEntity);
    require_every_accessor_refuses(world, layout.make(5, 0));  // a slot that was never created
    require_every_accessor_refuses(world, layout.make(0, 1));  // a generation the slot has not reached
    require_every_accessor_refuses(world, layout.pending(0));
}

TEST_CASE("a reserved handle is refused until it is spawned", "[world][entity]") {
    World world;
    world.component<Position>();
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 1);
    require_every_accessor_refuses(world, reservation.handles()[0]);
}

TEST_CASE("every handle of a generation-exhausted slot stays stale after retirement", "[world][entity]") {
    WorldOptions options;
    options.index_bits = 30;
    options.max_entities = 16;
    World world(options);
    test::CapturedDiagnostics said(world);
    std::vector<Entity> old;
    for (int i = 0; i < 4; ++i) {
        old.push_back(world.spawn(Position{float(i), 0}));
        world.despawn(old.back());
    }
    REQUIRE(world.entities().retired_count() == 1);  // the 4th despawn of slot 0 retired it
    CHECK(said.messages == std::vector<std::string>{"entity slot 0 used all its generations and is retired; "
                                                    "max_entities is effectively 15 from now on"});
    for (int i = 0; i < 10; ++i) world.spawn(Position{50, 50});
    for (Entity e : old) require_every_accessor_refuses(world, e);
    CHECK(said.messages.size() == 1);
}

TEST_CASE("a stale handle's error names the handle", "[world][entity]") {
    World world;
    const Entity e = world.spawn(Position{1, 2});
    world.despawn(e);
    const std::string message = test::thrown_message([&] { (void)world.get<Position>(e); });
    CHECK_THAT(message, Catch::Matchers::Contains("index 0") && Catch::Matchers::Contains("generation 0"));
}

TEST_CASE("has and try_get refuse a stale handle even for a type the world never saw", "[world][entity]") {
    World world;
    const Entity e = world.spawn();
    world.despawn(e);
    CHECK(test::thrown_code([&] { (void)world.has<Velocity>(e); }) == "StaleEntity");
    CHECK(test::thrown_code([&] { (void)world.try_get<Velocity>(e); }) == "StaleEntity");
    const Entity alive = world.spawn();
    CHECK_FALSE(world.has<Velocity>(alive));
    CHECK(world.try_get<Velocity>(alive) == nullptr);
}
