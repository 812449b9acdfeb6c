#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;
using test::Position;
using test::Velocity;

TEST_CASE("the storage generation rises when a world creates a table", "[storage][world]") {
    World world;
    world.component<Position>();
    world.component<Velocity>();
    std::uint64_t generation = world.storage_generation();
    const std::uint32_t tables = world.tables().table_count();
    const Entity e = world.spawn(Position{1, 1});
    CHECK(world.tables().table_count() == tables + 1);
    CHECK(world.storage_generation() > generation);

    generation = world.storage_generation();
    world.add(e, Velocity{1, 1});
    CHECK(world.storage_generation() > generation);
}

TEST_CASE("the storage generation rises whenever a column reallocates", "[storage][world]") {
    World world;
    const ComponentId position = world.component<Position>();
    world.spawn(Position{0, 0});
    const Table& table = world.tables().table(world.locate(world.spawn(Position{0, 0})).table);
    int reallocations = 0;
    for (int i = 0; i < 300; ++i) {
        const std::byte* data = table.column(position)->data();
        const std::uint64_t generation = world.storage_generation();
        const std::uint32_t tables = world.tables().table_count();
        world.spawn(Position{float(i), 0});
        REQUIRE(world.tables().table_count() == tables);
        INFO("spawn " << i);
        if (table.column(position)->data() != data) {
            ++reallocations;
            CHECK(world.storage_generation() > generation);
        } else {
            CHECK(world.storage_generation() == generation);
        }
    }
    CHECK(reallocations >= 3);
}

TEST_CASE("value writes never change the storage generation", "[storage][world]") {
    World world;
    const Entity e = world.spawn(Position{1, 1}, Velocity{2, 2});
    const ComponentId position = world.component<Position>();
    const std::uint64_t generation = world.storage_generation();
    world.set(e, Position{3, 3});
    world.set_field(e, position, "y", 4);
    world.get_mut<Velocity>(e).dx = 9;
    world.add(e, Velocity{5, 5});  // already present: an overwrite, not a move
    Query query = world.query(test::query_terms({position}));
    query.for_each_chunk([&](Chunk& chunk) { chunk.write<Position>(position)[0].x = 8; });
    CHECK(world.storage_generation() == generation);
}
