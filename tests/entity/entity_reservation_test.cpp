#include <algorithm>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;

TEST_CASE("a reservation of N hands out N distinct handles that are not alive", "[entity]") {
    World world;
    world.spawn();
    const std::uint64_t hash = state_hash(world);
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 5);
    REQUIRE(reservation.size() == 5);
    std::vector<Entity> handles = reservation.handles();
    for (Entity e : handles) {
        CHECK_FALSE(e.is_null());
        CHECK_FALSE(world.is_alive(e));
        CHECK(world.entities().is_reserved(e));
    }
    std::sort(handles.begin(), handles.end(), [](Entity a, Entity b) { return a.bits < b.bits; });
    CHECK(std::adjacent_find(handles.begin(), handles.end()) == handles.end());
    CHECK(world.alive_count() == 1);
    CHECK(state_hash(world) == hash);
}

TEST_CASE("take returns the reserved handles in order, then null", "[entity]") {
    World world;
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 3);
    const std::vector<Entity> handles = reservation.handles();
    CHECK(reservation.take() == handles[0]);
    CHECK(reservation.take() == handles[1]);
    CHECK(reservation.taken_count() == 2);
    CHECK(reservation.take() == handles[2]);
    CHECK(reservation.take().is_null());
    CHECK(reservation.take().is_null());
    CHECK(reservation.taken_count() == 3);
}

TEST_CASE("release_unused returns untaken handles so the next spawns reuse them in reservation order",
          "[entity]") {
    World world;
    const Entity before = world.spawn();  // index 0
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 4);
    const std::vector<Entity> handles = reservation.handles();
    const HandleLayout& layout = world.entities().layout();
    REQUIRE(layout.index(handles[0]) == 1);
    REQUIRE(layout.index(handles[3]) == 4);
    const Entity taken = reservation.take();
    CHECK(taken == handles[0]);

    ecsia::detail::WorldAccess::release_unused(world, reservation);
    CHECK(world.entities().is_reserved(taken));  // taken handles stay with whoever took them
    for (std::size_t i = 1; i < handles.size(); ++i) CHECK_FALSE(world.entities().is_reserved(handles[i]));

    // The untaken handles come back unchanged (never alive, so no generation bump) and in order.
    CHECK(world.spawn() == handles[1]);
    CHECK(world.spawn() == handles[2]);
    CHECK(world.spawn() == handles[3]);
    const Entity fresh = world.spawn();
    CHECK(layout.index(fresh) == 5);
    CHECK(world.is_alive(before));
}

TEST_CASE("release_unused twice returns each handle once", "[entity]") {
    World world;
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 2);
    ecsia::detail::WorldAccess::release_unused(world, reservation);
    ecsia::detail::WorldAccess::release_unused(world, reservation);
    CHECK(world.entities().allocated_count() == 0);
    const Entity a = world.spawn();
    const Entity b = world.spawn();
    const Entity c = world.spawn();
    CHECK(a == reservation.handles()[0]);
    CHECK(b == reservation.handles()[1]);
    CHECK(world.entities().layout().index(c) == 2);
}

TEST_CASE("reservations made in sequence and released in sequence give a deterministic spawn order", "[entity]") {
    auto run = [] {
        World world;
        for (int i = 0; i < 6; ++i) world.spawn();
        world.despawn(Entity{world.entities().layout().make(2, 0)});
        world.despawn(Entity{world.entities().layout().make(4, 0)});
        EntityReservation first = ecsia::detail::WorldAccess::reserve(world, 3);
        EntityReservation second = ecsia::detail::WorldAccess::reserve(world, 2);
        first.take();
        second.take();
        ecsia::detail::WorldAccess::release_unused(world, first);
        ecsia::detail::WorldAccess::release_unused(world, second);
        std::vector<std::uint32_t> spawned;
        for (int i = 0; i < 4; ++i) spawned.push_back(world.spawn().bits);
        return spawned;
    };
    const std::vector<std::uint32_t> once = run();
    CHECK(once == run());
    // first = {4', 2', 6}, second = {7, 8}; untaken: first {2', 6}, second {8}. The last released
    // block is reused first, each block in its reservation order.
    const HandleLayout layout;
    CHECK(once == std::vector<std::uint32_t>{layout.make(8, 0).bits, layout.make(2, 1).bits, layout.make(6, 0).bits,
                                             layout.make(9, 0).bits});
}

TEST_CASE("a reservation that does not fit throws CapacityExceeded and changes nothing", "[entity]") {
    WorldOptions options;
    options.max_entities = 10;
    World world(options);
    for (int i = 0; i < 6; ++i) world.spawn();
    EntityReservation held = ecsia::detail::WorldAccess::reserve(world, 2);
    const std::uint32_t allocated = world.entities().allocated_count();
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::CapacityExceeded, ecsia::detail::WorldAccess::reserve(world, 3));
    CHECK(world.entities().allocated_count() == allocated);
    CHECK_THAT(test::thrown_message([&] { ecsia::detail::WorldAccess::reserve(world, 3); }), Catch::Matchers::Contains("10"));
    // Exactly what is left still fits.
    EntityReservation rest = ecsia::detail::WorldAccess::reserve(world, 2);
    CHECK(rest.size() == 2);
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::CapacityExceeded, world.spawn());
}

TEST_CASE("reserved handles count against max_entities until released", "[entity]") {
    WorldOptions options;
    options.max_entities = 3;
    World world(options);
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 3);
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::CapacityExceeded, world.spawn());
    ecsia::detail::WorldAccess::release_unused(world, reservation);
    world.spawn();
    world.spawn();
    world.spawn();
    CHECK(world.alive_count() == 3);
}

TEST_CASE("concurrent takes hand out every reserved handle exactly once", "[entity][threads]") {
    World world;
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 4000);
    constexpr int kThreads = 4;
    std::vector<std::vector<Entity>> taken(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (Entity e = reservation.take(); !e.is_null(); e = reservation.take()) taken[t].push_back(e);
        });
    }
    for (std::thread& thread : threads) thread.join();
    std::vector<std::uint32_t> all;
    for (const auto& list : taken) {
        // Each thread sees its handles in reservation order.
        CHECK(std::is_sorted(list.begin(), list.end(), [](Entity a, Entity b) { return a.bits < b.bits; }));
        for (Entity e : list) all.push_back(e.bits);
    }
    std::sort(all.begin(), all.end());
    std::vector<std::uint32_t> expected;
    for (Entity e : reservation.handles()) expected.push_back(e.bits);
    std::sort(expected.begin(), expected.end());
    CHECK(all == expected);
    CHECK(reservation.taken_count() == 4000);
}
