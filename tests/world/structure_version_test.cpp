// structure_version() rises with every row change (the JS layer's views go stale by it) and
// structural_allowed() says, without throwing, when spawn/despawn/add/remove would throw WrongPhase.
#include <vector>

#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Enemy;
using test::Position;
using test::Velocity;

TEST_CASE("structure_version rises on spawn, despawn, add, remove and applied commands, not on writes", "[world]") {
    World world;
    std::uint64_t last = world.structure_version();
    auto rose = [&] {
        const bool up = world.structure_version() > last;
        last = world.structure_version();
        return up;
    };
    const Entity a = world.spawn(Position{1, 2});
    CHECK(rose());
    const Entity b = world.spawn(Position{3, 4}, Velocity{1, 1});
    CHECK(rose());
    world.set(a, Position{5, 6});
    (void)world.get_mut<Position>(b);
    world.mark_changed(a, world.component<Position>());
    CHECK_FALSE(rose());
    world.add(a, Velocity{0, 0});
    CHECK(rose());
    world.remove<Velocity>(b);
    CHECK(rose());
    world.despawn(b);
    CHECK(rose());

    CommandBuffer buffer;
    buffer.despawn(a);
    CommandBuffer* buffers[] = {&buffer};
    ecsia::detail::WorldAccess::apply(world, buffers);
    CHECK(rose());
    CHECK(world.alive_count() == 0);
}

TEST_CASE("structural_allowed is false in a wave and inside an observer, exactly when spawn throws", "[world]") {
    World world;
    CHECK(world.structural_allowed());
    detail::WorldAccess::set_phase(world, WorldPhase::Wave);
    CHECK_FALSE(world.structural_allowed());
    CHECK_THROWS_AS(world.spawn(Position{}), Error);
    detail::WorldAccess::set_phase(world, WorldPhase::Serial);
    std::vector<bool> inside;
    world.observe(ObserverEvent::OnAdd, world.component<Enemy>(), [&](ObserverContext& ctx) {
        inside.push_back(ctx.world.structural_allowed());
    });
    world.spawn(Enemy{});
    CHECK(inside == std::vector<bool>{false});
    CHECK(world.structural_allowed());
}

TEST_CASE("mark_changed stamps the row at the current tick and queues change observers", "[world]") {
    World world;
    const ComponentId position = world.component<Position>();
    const Entity e = world.spawn(Position{1, 2});
    int changes = 0;
    world.observe(ObserverEvent::OnChange, position, [&](ObserverContext&) { ++changes; });
    ecsia::detail::WorldAccess::advance_tick(world);
    const Tick since = world.tick() - 1;
    world.mark_changed(e, position);
    QueryDesc desc;
    desc.changed = {position};
    CHECK(world.query(desc).count(since) == 1);
    CHECK(changes == 0);
    world.flush();
    CHECK(changes == 1);
}
