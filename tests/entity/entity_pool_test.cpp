#include <set>
#include <vector>

#include <catch2/catch.hpp>

#include "ecsia/entity/entity_pool.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

TEST_CASE("a fresh pool hands out indices 0, 1, 2 ... at generation 0", "[entity]") {
    EntityPool pool(HandleLayout(), 16);
    for (std::uint32_t i = 0; i < 5; ++i) {
        const Entity e = pool.create();
        CHECK(pool.layout().index(e) == i);
        CHECK(pool.layout().generation(e) == 0);
        CHECK(pool.is_alive(e));
    }
    CHECK(pool.alive_count() == 5);
    CHECK(pool.slot_count() == 5);
}

TEST_CASE("a despawned slot is reused with its generation bumped", "[entity]") {
    EntityPool pool(HandleLayout(), 16);
    const Entity a = pool.create();
    const Entity b = pool.create();
    pool.destroy(a);
    CHECK_FALSE(pool.is_alive(a));
    CHECK(pool.is_alive(b));
    const Entity c = pool.create();
    CHECK(pool.layout().index(c) == pool.layout().index(a));
    CHECK(pool.layout().generation(c) == pool.layout().generation(a) + 1);
    CHECK(c != a);
    CHECK(pool.is_alive(c));
    CHECK_FALSE(pool.is_alive(a));
    CHECK(pool.slot_count() == 2);
}

TEST_CASE("the free list reuses the most recently freed slot first", "[entity]") {
    EntityPool pool(HandleLayout(), 16);
    std::vector<Entity> e;
    for (int i = 0; i < 5; ++i) e.push_back(pool.create());
    pool.destroy(e[1]);
    pool.destroy(e[3]);
    pool.destroy(e[0]);
    std::vector<std::uint32_t> reused;
    for (int i = 0; i < 4; ++i) reused.push_back(pool.layout().index(pool.create()));
    CHECK(reused == std::vector<std::uint32_t>{0, 3, 1, 5});
}

TEST_CASE("is_alive refuses null, never-spawned, older and newer handles", "[entity]") {
    EntityPool pool(HandleLayout(), 16);
    const Entity a = pool.create();
    pool.destroy(a);
    const Entity a2 = pool.create();
    const HandleLayout& layout = pool.layout();
    CHECK(pool.is_alive(a2));
    CHECK_FALSE(pool.is_alive(kNullEntity));
    CHECK_FALSE(pool.is_alive(a));                                 // older generation
    CHECK_FALSE(pool.is_alive(layout.make(0, 2)));                  // a generation not reached yet
    CHECK_FALSE(pool.is_alive(layout.make(1, 0)));                  // a slot never created
    CHECK_FALSE(pool.is_alive(layout.make(layout.max_slots(), 0)));  // the all-ones index
    CHECK_FALSE(pool.is_alive(layout.pending(0)));
}

TEST_CASE("a slot whose generation is exhausted is retired and never handed out again", "[entity]") {
    // 30 index bits leave 2 generation bits: generations 0, 1, 2 are live, 3 marks pending handles.
    const HandleLayout layout(30);
    EntityPool pool(layout, 64);
    std::vector<Entity> lives;
    for (std::uint32_t g = 0; g <= layout.max_live_generation(); ++g) {
        const Entity e = pool.create();
        REQUIRE(layout.index(e) == 0);
        REQUIRE(layout.generation(e) == g);
        lives.push_back(e);
        pool.destroy(e);
    }
    CHECK(pool.retired_count() == 1);
    for (int i = 0; i < 40; ++i) {
        const Entity e = pool.create();
        CHECK(layout.index(e) != 0);
        if (i % 2 == 0) pool.destroy(e);
    }
    for (Entity old : lives) CHECK_FALSE(pool.is_alive(old));
    CHECK_FALSE(pool.is_alive(layout.make(0, 0)));
    CHECK(pool.alive_at(0).is_null());
}

TEST_CASE("a world reuses a slot until its generation runs out, then retires it", "[entity][world]") {
    WorldOptions options;
    options.index_bits = 30;
    options.max_entities = 8;
    World world(options);
    const HandleLayout& layout = world.entities().layout();
    std::vector<Entity> history;
    for (int i = 0; i < 3; ++i) {
        const Entity e = world.spawn(test::Position{float(i), 0});
        history.push_back(e);
        world.despawn(e);
    }
    CHECK(world.entities().retired_count() == 1);
    std::set<std::uint32_t> indices;
    for (int i = 0; i < 7; ++i) indices.insert(layout.index(world.spawn()));
    CHECK(indices.count(0) == 0);
    CHECK(indices.size() == 7);
    for (Entity old : history) {
        CHECK_FALSE(world.is_alive(old));
        CHECK(test::thrown_code([&] { (void)world.get<test::Position>(old); }) == "StaleEntity");
    }
}

TEST_CASE("retired slots count against max_entities", "[entity]") {
    const HandleLayout layout(31);  // one generation bit: every slot lives once
    EntityPool pool(layout, 3);
    for (int i = 0; i < 3; ++i) pool.destroy(pool.create());
    CHECK(pool.retired_count() == 3);
    CHECK(pool.alive_count() == 0);
    CHECK(test::thrown_code([&] { pool.create(); }) == "CapacityExceeded");
    CHECK(test::thrown_code([&] { pool.reserve(1); }) == "CapacityExceeded");
    CHECK(pool.slot_count() == 3);
}

TEST_CASE("a pool refuses a max_entities of zero or beyond what the layout can address", "[entity]") {
    CHECK(test::thrown_code([] { EntityPool pool(HandleLayout(4), 0); }) == "CapacityExceeded");
    CHECK(test::thrown_code([] { EntityPool pool(HandleLayout(4), 16); }) == "CapacityExceeded");
    CHECK(test::thrown_code([] { EntityPool pool(HandleLayout(4), 15); }) == "no error");
    CHECK(test::thrown_code([] {
              WorldOptions options;
              options.index_bits = 10;
              options.max_entities = 5000;
              World world(options);
          }) == "CapacityExceeded");
}

TEST_CASE("reserved handles are allocated but not alive until activated", "[entity]") {
    EntityPool pool(HandleLayout(), 16);
    const std::vector<Entity> handles = pool.reserve(3);
    REQUIRE(handles.size() == 3);
    CHECK(pool.allocated_count() == 3);
    CHECK(pool.alive_count() == 0);
    for (Entity e : handles) {
        CHECK(pool.is_reserved(e));
        CHECK_FALSE(pool.is_alive(e));
    }
    pool.activate(handles[1]);
    CHECK(pool.is_alive(handles[1]));
    CHECK_FALSE(pool.is_reserved(handles[1]));
    CHECK(pool.alive_count() == 1);
    CHECK(pool.alive_at(1) == handles[1]);
    CHECK(pool.alive_at(0).is_null());
}

TEST_CASE("returning a reserved handle without a bump gives back the same handle", "[entity]") {
    EntityPool pool(HandleLayout(), 16);
    const std::vector<Entity> handles = pool.reserve(2);
    pool.destroy(handles[1], /*bump_generation=*/false);
    CHECK(pool.allocated_count() == 1);
    CHECK(pool.create() == handles[1]);
    pool.destroy(handles[0], /*bump_generation=*/true);
    const Entity again = pool.create();
    CHECK(pool.layout().index(again) == 0);
    CHECK(pool.layout().generation(again) == 1);
}
