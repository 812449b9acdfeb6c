// Query pair terms: (R, target) and (R, *) in with and without, through chunks, each, count and
// entities; a wildcard term matches tables, a specific target filters rows.

#include <catch2/catch.hpp>

#include <vector>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "relation/pair_data.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;

TEST_CASE("pair terms select subjects by relation and target", "[relation][query]") {
    World world;
    const RelationId likes = world.define_relation("Likes");
    const Entity root1 = world.spawn(test::Position{1, 0}), root2 = world.spawn(test::Position{2, 0});
    const Entity a = world.spawn(test::Position{3, 0}), b = world.spawn(test::Position{4, 0}), c = world.spawn(test::Position{5, 0});
    world.add_pair(a, World::kChildOf, root1);
    world.add_pair(b, World::kChildOf, root2);
    world.add_pair(c, World::kChildOf, root1);
    world.add_pair(a, likes, b);
    world.add_pair(c, likes, root2);
    const ComponentId pos = world.component<test::Position>();

    QueryDesc children_of_root1;
    children_of_root1.with = {pos};
    children_of_root1.pairs = {{World::kChildOf, root1}};
    CHECK(world.query(children_of_root1).entities() == std::vector<Entity>{a, c});
    CHECK(world.count(children_of_root1) == 2);

    QueryDesc any_parent;
    any_parent.pairs = {{World::kChildOf, kAnyTarget}};
    CHECK(test::sorted_bits(world.query(any_parent).entities()) == test::sorted_bits({a, b, c}));

    QueryDesc roots;
    roots.with = {pos};
    roots.without_pairs = {{World::kChildOf, kAnyTarget}};
    CHECK(test::sorted_bits(world.query(roots).entities()) == test::sorted_bits({root1, root2}));

    QueryDesc not_liking_b;
    not_liking_b.with = {pos};
    not_liking_b.without_pairs = {{likes, b}};
    CHECK(test::sorted_bits(world.query(not_liking_b).entities()) == test::sorted_bits({root1, root2, b, c}));

    // each() and chunk writes see the same rows.
    float sum = 0;
    world.query(children_of_root1).each<const test::Position>([&](Entity, const test::Position& p) { sum += p.x; });
    CHECK(sum == 8.0f);
    world.query(children_of_root1).for_each_chunk([&](Chunk& chunk) {
        test::Position* p = chunk.write<test::Position>(pos);
        for (std::uint32_t i = 0; i < chunk.size(); ++i) p[i].y = 7;
    });
    CHECK(world.get<test::Position>(a).y == 7);
    CHECK(world.get<test::Position>(b).y == 0);
    CHECK(world.get<test::Position>(c).y == 7);

    // A cached query follows later changes: a re-parent moves no row but changes the selection.
    Query cached = world.query(children_of_root1);
    world.add_pair(a, World::kChildOf, root2);
    CHECK(cached.entities() == std::vector<Entity>{c});
    world.despawn(root1);  // cascades to c
    CHECK(cached.entities().empty());
    CHECK_FALSE(world.is_alive(c));
}

TEST_CASE("pair terms combine with changed filters", "[relation][query]") {
    World world;
    const Entity parent = world.spawn();
    std::vector<Entity> kids;
    for (int i = 0; i < 6; ++i) {
        kids.push_back(world.spawn(test::Position{float(i), 0}));
        if (i % 2 == 0) world.add_pair(kids.back(), World::kChildOf, parent);
    }
    const ComponentId pos = world.component<test::Position>();
    const Tick since = world.tick();
    ecsia::detail::WorldAccess::advance_tick(world);
    world.set(kids[2], test::Position{9, 9});
    world.set(kids[3], test::Position{9, 9});
    QueryDesc desc;
    desc.changed = {pos};
    desc.pairs = {{World::kChildOf, parent}};
    CHECK(world.query(desc).entities(since) == std::vector<Entity>{kids[2]});
}

TEST_CASE("bad pair terms are refused when the query is made", "[relation][query][g5]") {
    World world;
    const Entity e = world.spawn(), dead = world.spawn();
    world.despawn(dead);
    QueryDesc component_as_relation;
    component_as_relation.pairs = {{world.component<test::Position>(), kAnyTarget}};
    CHECK(test::thrown_code([&] { (void)world.query(component_as_relation); }) == "BadValue");
    QueryDesc dead_target;
    dead_target.pairs = {{World::kChildOf, dead}};
    CHECK(test::thrown_code([&] { (void)world.query(dead_target); }) == "StaleEntity");
    QueryDesc unknown;
    unknown.without_pairs = {{12345, e}};
    CHECK(test::thrown_code([&] { (void)world.query(unknown); }) == "UnknownComponent");
}
