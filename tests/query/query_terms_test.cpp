#include <algorithm>
#include <vector>

#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;
using test::Enemy;
using test::Health;
using test::Position;
using test::Velocity;

namespace {

struct Population {
    World world;
    ComponentId position = world.component<Position>();
    ComponentId velocity = world.component<Velocity>();
    ComponentId health = world.component<Health>();
    ComponentId enemy = world.component<Enemy>();
    Entity p = world.spawn(Position{1, 0});
    Entity pv = world.spawn(Position{2, 0}, Velocity{1, 1});
    Entity pve = world.spawn(Position{3, 0}, Velocity{1, 1}, Enemy{});
    Entity v = world.spawn(Velocity{4, 4});
    Entity h = world.spawn(Health{5, true, 0});
    Entity bare = world.spawn();

    std::vector<std::uint32_t> select(QueryDesc desc) { return test::sorted_bits(world.query(std::move(desc)).entities()); }
    std::vector<std::uint32_t> of(std::vector<Entity> entities) { return test::sorted_bits(std::move(entities)); }
};

}  // namespace

TEST_CASE("a with term selects the entities that have every listed component", "[query]") {
    Population w;
    CHECK(w.select(test::query_terms({w.position})) == w.of({w.p, w.pv, w.pve}));
    CHECK(w.select(test::query_terms({w.position, w.velocity})) == w.of({w.pv, w.pve}));
    CHECK(w.select(test::query_terms({w.enemy})) == w.of({w.pve}));
    CHECK(w.select(test::query_terms({w.health, w.position})).empty());
    CHECK(w.world.count(test::query_terms({w.velocity})) == 3);
}

TEST_CASE("a without term excludes the entities that have the listed component", "[query]") {
    Population w;
    CHECK(w.select(test::query_terms({w.position}, {w.enemy})) == w.of({w.p, w.pv}));
    CHECK(w.select(test::query_terms({w.velocity}, {w.position})) == w.of({w.v}));
    CHECK(w.select(test::query_terms({w.position}, {w.velocity, w.enemy})) == w.of({w.p}));
    CHECK(w.world.count(test::query_terms({}, {w.position})) == 3);  // v, h and bare
}

TEST_CASE("a query with no terms selects every live entity", "[query]") {
    Population w;
    CHECK(w.select(QueryDesc{}) == w.of({w.p, w.pv, w.pve, w.v, w.h, w.bare}));
    w.world.despawn(w.h);
    CHECK(w.world.count(QueryDesc{}) == 5);
}

TEST_CASE("an optional term neither requires nor excludes, and its column is there when present", "[query]") {
    Population w;
    QueryDesc desc;
    desc.with = {w.position};
    desc.optional = {w.velocity};
    CHECK(w.select(desc) == w.of({w.p, w.pv, w.pve}));
    Query query = w.world.query(desc);
    int with_velocity = 0;
    int without_velocity = 0;
    query.for_each_chunk([&](Chunk& chunk) {
        const Velocity* v = chunk.read<Velocity>(w.velocity);
        if (chunk.has(w.velocity)) {
            REQUIRE(v != nullptr);
            for (std::uint32_t i = 0; i < chunk.size(); ++i) CHECK(v[i].dx == 1);
            with_velocity += chunk.size();
        } else {
            CHECK(v == nullptr);
            CHECK(chunk.write<Velocity>(w.velocity) == nullptr);
            without_velocity += chunk.size();
        }
    });
    CHECK(with_velocity == 2);
    CHECK(without_velocity == 1);
}

TEST_CASE("a component both required and excluded selects nothing", "[query]") {
    Population w;
    CHECK(w.world.count(test::query_terms({w.position}, {w.position})) == 0);
}

TEST_CASE("tag terms select on the tag alone", "[query]") {
    Population w;
    w.world.add(w.p, Enemy{});
    CHECK(w.select(test::query_terms({w.enemy})) == w.of({w.p, w.pve}));
    w.world.remove<Enemy>(w.pve);
    CHECK(w.select(test::query_terms({w.enemy})) == w.of({w.p}));
}

TEST_CASE("count agrees with the entities a query iterates", "[query]") {
    Population w;
    for (int i = 0; i < 50; ++i) w.world.spawn(Position{float(i), 0}, Velocity{0, 0});
    Query query = w.world.query(test::query_terms({w.position}, {w.enemy}));
    CHECK(query.count() == 52);
    CHECK(query.entities().size() == 52);
}
