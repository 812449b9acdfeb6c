// Values a call copies in may lie in the world's own storage: spawn(get<T>(e)) copies a row of
// the table the spawn grows, add_pair(a, r, t1, get_pair(a, r, t0)) another pair of the subject
// whose pair data grows. Growing moves that storage before the copy; each call must still copy
// the value as it was (the sanitizer build sees a read of freed memory otherwise). Each case runs
// long enough for its tables to grow several times.

#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "relation/pair_data.hpp"
#include "support/test_components.hpp"

using namespace ecsia;
using test::Position;
using test::Velocity;

namespace {
constexpr int kRounds = 300;  // past several doublings of a table's 16 first rows
}  // namespace

TEST_CASE("spawn, add and change_components copy a value that is a row of the table they grow", "[world][aliasing]") {
    World world;
    const ComponentId position = world.component<Position>();
    const Entity source = world.spawn(Position{1.5f, -2.5f});
    SECTION("spawn") {
        for (int i = 0; i < kRounds; ++i) {
            const Entity copy = world.spawn(world.get<Position>(source));
            REQUIRE(world.get<Position>(copy).x == 1.5f);
            REQUIRE(world.get<Position>(copy).y == -2.5f);
        }
    }
    SECTION("spawn_with, its bytes read with get_bytes") {
        for (int i = 0; i < kRounds; ++i) {
            const ComponentValue value{position, world.get_bytes(source, position), sizeof(Position)};
            const Entity copy = world.spawn_with({&value, 1});
            REQUIRE(world.get<Position>(copy).y == -2.5f);
        }
    }
    SECTION("add, the entity moving into the source's table") {
        for (int i = 0; i < kRounds; ++i) {
            const Entity copy = world.spawn();
            world.add(copy, world.get<Position>(source));
            REQUIRE(world.get<Position>(copy).x == 1.5f);
        }
    }
    SECTION("change_components, the entity moving into the source's table") {
        const ComponentId velocity = world.component<Velocity>();
        const Entity mover = world.spawn(Position{1.5f, -2.5f}, Velocity{});
        for (int i = 0; i < kRounds; ++i) {
            const Entity copy = world.spawn(Velocity{3, 4});
            const ComponentValue adds[] = {{position, world.get_bytes(mover, position), sizeof(Position)}};
            world.change_components(copy, adds, {});
            REQUIRE(world.get<Position>(copy).y == -2.5f);
            REQUIRE(world.get<Velocity>(copy).dx == 3);
        }
        (void)velocity;
    }
}

TEST_CASE("the bulk calls copy values that are rows of the tables they grow", "[world][aliasing]") {
    World world;
    const ComponentId position = world.component<Position>();
    const Entity source = world.spawn(Position{7, 8});
    SECTION("spawn_many, one value for every row") {
        for (int i = 0; i < kRounds / 10; ++i) {
            const ComponentRows rows[] = {{position, world.get_bytes(source, position), sizeof(Position), 0}};
            for (const Entity e : world.spawn_many(7, rows)) REQUIRE(world.get<Position>(e).x == 7);
        }
    }
    SECTION("spawn_many, a value per row read from consecutive rows of the table") {
        std::vector<Entity> first = world.spawn_many(16, std::vector<ComponentRows>{{position, world.get_bytes(source, position), sizeof(Position), 0}});
        for (std::size_t k = 0; k < first.size(); ++k) world.set(first[k], Position{float(k), float(-k)});
        // Rows of one table lie one after another: the first 16 spawned are rows 1 to 16.
        const ComponentRows rows[] = {{position, world.get_bytes(first[0], position), sizeof(Position), sizeof(Position)}};
        const std::vector<Entity> copies = world.spawn_many(16, rows);  // the table grows from 32 rows
        for (std::size_t k = 0; k < copies.size(); ++k) REQUIRE(world.get<Position>(copies[k]).x == float(k));
    }
    SECTION("add_many, the elements rows of the destination table") {
        const std::vector<Entity> donors = world.spawn_many(8, std::vector<ComponentRows>{{position, world.get_bytes(source, position), sizeof(Position), 0}});
        for (std::size_t k = 0; k < donors.size(); ++k) world.set(donors[k], Position{float(k + 10), 0});
        for (int i = 0; i < kRounds / 10; ++i) {
            const std::vector<Entity> bare = world.spawn_many(8);
            world.add_many(bare, position, world.get_bytes(donors[0], position));
            for (std::size_t k = 0; k < bare.size(); ++k) REQUIRE(world.get<Position>(bare[k]).x == float(k + 10));
        }
    }
}

TEST_CASE("prefab calls copy overrides and bases that are rows of the tables they grow", "[world][aliasing][prefab]") {
    World world;
    const ComponentId position = world.component<Position>();
    const Position p{3, 4};
    const ComponentValue values[] = {{position, &p, sizeof p}};
    const Entity prefab = world.define_prefab("thing", values);
    const Entity first = world.instantiate(prefab, Position{9, 9});
    SECTION("instantiate") {
        for (int i = 0; i < kRounds; ++i) REQUIRE(world.get<Position>(world.instantiate(prefab, world.get<Position>(first))).x == 9);
    }
    SECTION("instantiate_many") {
        for (int i = 0; i < kRounds / 10; ++i) {
            const ComponentRows rows[] = {{position, world.get_bytes(first, position), sizeof(Position), 0}};
            for (const Entity e : world.instantiate_many(prefab, 7, rows)) REQUIRE(world.get<Position>(e).y == 9);
        }
    }
    SECTION("define_prefab over a base of the same table: the base's values") {
        for (int i = 0; i < kRounds; ++i) {
            const Entity derived = world.define_prefab("derived " + std::to_string(i), {}, prefab);
            REQUIRE(world.get<Position>(derived).x == 3);
        }
    }
}

TEST_CASE("add_pair copies data that is another pair's, and set_pair and set_bytes a value that is their own",
          "[world][aliasing][relation]") {
    World world;
    const RelationId likes = world.define_relation("Likes", {{"since", FieldType::U32}});
    const RelationId follows = world.define_relation("Follows", {{"since", FieldType::U32}}, RelationOptions{.exclusive = true});
    const Entity subject = world.spawn();
    std::vector<Entity> targets;
    for (int i = 0; i < kRounds; ++i) targets.push_back(world.spawn());
    SECTION("a second target's data from the first's: the subject's data grows") {
        world.add_pair(subject, likes, targets[0], test::Since{42});
        for (int i = 1; i < kRounds; ++i) {
            world.add_pair(subject, likes, targets[i], world.get_pair(subject, likes, targets[0]), sizeof(test::Since));
            REQUIRE(world.get_pair<test::Since>(subject, likes, targets[i]).since == 42);
        }
    }
    SECTION("an exclusive relation's new target, its data the old pair's, which the retarget removes") {
        world.add_pair(subject, follows, targets[0], test::Since{42});
        for (int i = 1; i < kRounds; ++i) {
            world.add_pair(subject, follows, targets[i], world.get_pair(subject, follows, targets[i - 1]), sizeof(test::Since));
            REQUIRE(world.get_pair<test::Since>(subject, follows, targets[i]).since == 42);
            REQUIRE_FALSE(world.has_pair(subject, follows, targets[i - 1]));
        }
    }
    SECTION("set_pair and set_bytes from their own bytes, overlapping") {
        world.add_pair(subject, likes, targets[0], test::Since{5});
        world.set_pair(subject, likes, targets[0], world.get_pair(subject, likes, targets[0]), sizeof(test::Since));
        CHECK(world.get_pair<test::Since>(subject, likes, targets[0]).since == 5);
        const ComponentId position = world.component<Position>();
        const Entity e = world.spawn(Position{1, 2});
        world.set_bytes(e, position, 4, world.get_bytes(e, position), 4);  // y = x
        CHECK(world.get<Position>(e).y == 1);
    }
}
