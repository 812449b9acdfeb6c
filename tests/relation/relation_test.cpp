// Pairs on the World: definition, the pair calls, exclusivity, despawn cleanup and cascade,
// refusals (G5), observers and state_hash. The model-based test is relation_model_test.cpp.

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "ecsia/snapshot/state_hash.hpp"
#include "support/rng.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "relation/pair_data.hpp"

using namespace ecsia;

namespace {

std::vector<Entity> pair_entities(std::initializer_list<Entity> entities) { return entities; }

}  // namespace

TEST_CASE("ChildOf and IsA are built in with fixed ids and options", "[relation]") {
    World world;
    CHECK(world.relation_id("ChildOf") == World::kChildOf);
    CHECK(world.relation_id("IsA") == World::kIsA);
    CHECK(world.relation_options(World::kChildOf).exclusive);
    CHECK(world.relation_options(World::kChildOf).on_delete_target == OnDeleteTarget::Delete);
    CHECK(world.relation_options(World::kIsA).exclusive);  // one prefab per instance
    CHECK(world.relation_options(World::kIsA).on_delete_target == OnDeleteTarget::Remove);
}

TEST_CASE("a relation with data: add (defaults or values), set, get, has, remove", "[relation]") {
    World world;
    const RelationId targets = world.define_relation("Targets", {{"since", FieldType::U32}});
    const Entity e = world.spawn(test::Position{1, 2});
    const Entity a = world.spawn(), b = world.spawn();

    world.add_pair(e, targets, b);
    CHECK(world.get_pair<test::Since>(e, targets, b).since == 0);
    world.add_pair(e, targets, a, test::Since{3});
    CHECK(world.get_pair<test::Since>(e, targets, a).since == 3);
    world.set_pair(e, targets, a, test::Since{4});
    CHECK(world.get_pair<test::Since>(e, targets, a).since == 4);
    world.add_pair(e, targets, a);  // existing pair, no values: keeps its data
    CHECK(world.get_pair<test::Since>(e, targets, a).since == 4);
    CHECK(world.has_pair(e, targets, a));
    CHECK(world.has_pair(e, targets, kAnyTarget));
    CHECK_FALSE(world.has_pair(a, targets, kAnyTarget));
    CHECK(world.targets_of(e, targets) == pair_entities({a, b}));  // ascending target index
    CHECK(world.subjects_of(targets, a) == pair_entities({e}));
    // The subject's row keeps its component values and sits in a table with the presence tag.
    CHECK(world.get<test::Position>(e).x == 1);
    CHECK(world.has(e, targets));

    world.remove_pair(e, targets, a);
    CHECK_FALSE(world.has_pair(e, targets, a));
    CHECK(world.has(e, targets));  // b is left
    world.remove_pair(e, targets, a);  // absent: nothing happens
    world.remove_pair(e, targets, kAnyTarget);
    CHECK(world.targets_of(e, targets).empty());
    CHECK_FALSE(world.has(e, targets));
    CHECK(world.get<test::Position>(e).y == 2);
}

TEST_CASE("an exclusive relation keeps one target: adding another replaces it, in place", "[relation]") {
    World world;
    const Entity child = world.spawn(test::Position{0, 0});
    const Entity p1 = world.spawn(), p2 = world.spawn();
    world.add_pair(child, World::kChildOf, p1);
    const EntityLocation before = world.locate(child);
    world.add_pair(child, World::kChildOf, p2);
    CHECK(world.target_of(child, World::kChildOf) == p2);
    CHECK(world.targets_of(child, World::kChildOf) == pair_entities({p2}));
    CHECK(world.subjects_of(World::kChildOf, p1).empty());
    CHECK(world.subjects_of(World::kChildOf, p2) == pair_entities({child}));
    CHECK(world.locate(child).table == before.table);  // a re-parent moves no row
    CHECK(world.target_of(p1, World::kChildOf) == kNullEntity);
    CHECK(world.target_of(child, World::kIsA) == kNullEntity);
    const RelationId likes = world.define_relation("Likes", {});  // not exclusive: no one target
    CHECK(test::thrown_code([&] { (void)world.target_of(child, likes); }) == "BadValue");
}

TEST_CASE("subjects_of with the wildcard target lists each subject once, ascending", "[relation]") {
    World world;
    const RelationId likes = world.define_relation("Likes");
    std::vector<Entity> e;
    for (int i = 0; i < 6; ++i) e.push_back(world.spawn());
    world.add_pair(e[4], likes, e[0]);
    world.add_pair(e[4], likes, e[1]);
    world.add_pair(e[2], likes, e[1]);
    world.add_pair(e[5], likes, e[5]);  // a non-acyclic relation may point at its subject
    CHECK(world.subjects_of(likes, kAnyTarget) == pair_entities({e[2], e[4], e[5]}));
    CHECK(world.subjects_of(likes, e[1]) == pair_entities({e[2], e[4]}));
}

TEST_CASE("despawning a target removes its Remove pairs from the subjects, which live on", "[relation]") {
    World world;
    const RelationId likes = world.define_relation("Likes", {{"since", FieldType::U32}});
    const Entity a = world.spawn(), b = world.spawn(), t = world.spawn();
    world.add_pair(a, likes, t, test::Since{1});
    world.add_pair(a, likes, b, test::Since{2});
    world.add_pair(b, likes, t, test::Since{3});
    world.despawn(t);
    CHECK(world.is_alive(a));
    CHECK(world.is_alive(b));
    CHECK(world.targets_of(a, likes) == pair_entities({b}));
    CHECK(world.get_pair<test::Since>(a, likes, b).since == 2);
    CHECK_FALSE(world.has_pair(b, likes, kAnyTarget));
    CHECK_FALSE(world.has(b, likes));
    CHECK(world.relations().pair_count() == 1);
    // The despawned subject's own pairs go too.
    world.despawn(a);
    CHECK(world.relations().pair_count() == 0);
    CHECK(world.subjects_of(likes, kAnyTarget).empty());
}

TEST_CASE("despawning a target of many subjects leaves the same world whether or not an observer sees each pair go",
          "[relation]") {
    // Observers see each pair go and change nothing. Random subjects with one or two targets,
    // some with data, some pairs the target's own; some subjects and other targets go first.
    const auto run = [](bool observed, std::uint64_t seed) {
        World world;
        const RelationId likes = world.define_relation("Likes", {{"since", FieldType::U32}});
        std::vector<Entity> removed;
        if (observed) {
            world.observe(ObserverEvent::OnRemove, likes, [&](ObserverContext& ctx) { removed.push_back(ctx.entity); });
        }
        test::Rng rng(seed);
        std::vector<Entity> all;
        for (int i = 0; i < 600; ++i) all.push_back(world.spawn(test::Position{float(i), 0}));
        const Entity target = all[rng.below(all.size())];
        for (const Entity e : all) {
            if (rng.chance(70)) world.add_pair(e, likes, target, test::Since{rng.below(100)});
            if (rng.chance(30)) world.add_pair(e, likes, all[rng.below(all.size())]);
        }
        for (int i = 0; i < 50; ++i) {  // some subjects and other targets go first
            const Entity e = all[rng.below(all.size())];
            if (e != target && world.is_alive(e)) world.despawn(e);
        }
        world.despawn(target);
        return std::make_pair(state_hash(world), world.relations().pair_count());
    };
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        INFO("seed " << seed);
        CHECK(run(false, seed) == run(true, seed));
    }
}

TEST_CASE("despawning a parent despawns its subtree (ChildOf: Delete), deepest first", "[relation]") {
    World world;
    const Entity root = world.spawn();
    const Entity c1 = world.spawn(), c2 = world.spawn(), g1 = world.spawn(), other = world.spawn();
    world.add_pair(c1, World::kChildOf, root);
    world.add_pair(c2, World::kChildOf, root);
    world.add_pair(g1, World::kChildOf, c2);
    world.add_pair(other, World::kIsA, g1);  // a Remove relation into the subtree
    std::vector<Entity> removed;
    world.observe(ObserverEvent::OnRemove, world.component<test::Position>(), [&](ObserverContext& ctx) { removed.push_back(ctx.entity); });
    world.add<test::Position>(root);
    world.add<test::Position>(c1);
    world.add<test::Position>(c2);
    world.add<test::Position>(g1);
    world.despawn(root);
    CHECK_FALSE(world.is_alive(root));
    CHECK_FALSE(world.is_alive(c1));
    CHECK_FALSE(world.is_alive(c2));
    CHECK_FALSE(world.is_alive(g1));
    CHECK(world.is_alive(other));
    CHECK_FALSE(world.has_pair(other, World::kIsA, kAnyTarget));
    CHECK(world.relations().pair_count() == 0);
    CHECK(removed == pair_entities({g1, c2, c1, root}));  // reverse of breadth-first discovery
}

TEST_CASE("bad pair input is refused with a clear error and the world unchanged", "[relation][g5]") {
    World world;
    const RelationId likes = world.define_relation("Likes", {{"since", FieldType::U32}});
    const ComponentId pos = world.component<test::Position>();
    const Entity a = world.spawn(test::Position{1, 1}), b = world.spawn(), c = world.spawn();
    const Entity dead = world.spawn();
    world.despawn(dead);
    world.add_pair(b, World::kChildOf, a);
    world.add_pair(c, World::kChildOf, b);
    world.add_pair(a, likes, b, test::Since{7});

    ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, world.add_pair(a, likes, dead));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, world.add_pair(dead, likes, a));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, world.add_pair(a, likes, kNullEntity));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, (void)world.has_pair(dead, likes, a));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, (void)world.subjects_of(likes, dead));
    // A dead target is refused by every call that names one, as a dead subject is.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, (void)world.has_pair(a, likes, dead));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, world.remove_pair(a, likes, dead));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, (void)world.get_pair(a, likes, dead));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::StaleEntity, world.set_pair(a, likes, dead, test::Since{1}));
    CHECK_THAT(test::thrown_message([&] { (void)world.has_pair(a, likes, dead); }), Catch::Contains("the target"));
    CHECK_THAT(test::thrown_message([&] { world.add_pair(a, likes, dead); }), Catch::Contains("target"));
    // A component as a relation, and a relation as a component.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add_pair(a, pos, b));
    CHECK_THAT(test::thrown_message([&] { world.add_pair(a, pos, b); }), Catch::Contains("is a component, not a relation"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add(a, ComponentValue{likes, nullptr, 0}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.remove(a, likes));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, (void)world.get_bytes(a, likes));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, (void)world.spawn_with(std::vector<ComponentValue>{{World::kChildOf, nullptr, 0}}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add_many(std::vector<Entity>{a}, likes));
    CHECK_THAT(test::thrown_message([&] { world.add(a, ComponentValue{likes, nullptr, 0}); }),
               Catch::Contains("is a relation, not a component"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, (void)world.observe(ObserverEvent::OnChange, likes, [](ObserverContext&) {}));
    // Unknown relations.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, world.add_pair(a, 999, b));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, (void)world.relation_id("Loves"));
    CHECK_THAT(test::thrown_message([&] { (void)world.relation_id("Loves"); }), Catch::Contains("ChildOf, IsA, Likes"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, (void)world.relation_id("position"));
    // Self pairs and cycles of an acyclic relation.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add_pair(a, World::kChildOf, a));
    CHECK_THAT(test::thrown_message([&] { world.add_pair(a, World::kChildOf, a); }), Catch::Contains("cannot be ChildOf itself"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add_pair(a, World::kChildOf, c));  // c is a's grandchild
    CHECK_THAT(test::thrown_message([&] { world.add_pair(a, World::kChildOf, c); }), Catch::Contains("cycle"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add_pair(b, World::kChildOf, c));  // re-parent under own child
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add_pair(a, World::kIsA, a));
    // Data of the wrong size, and data on a tag relation.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add_pair(a, likes, c, "x", 1));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.set_pair(a, likes, b, "x", 1));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.set_pair(a, likes, b, nullptr, sizeof(test::Since)));
    CHECK_THAT(test::thrown_message([&] { world.set_pair(a, likes, b, nullptr, sizeof(test::Since)); }),
               Catch::Contains("no data"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, world.set_pair(a, likes, c, test::Since{1}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, (void)world.get_pair(a, likes, c));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, (void)world.get_pair(b, World::kChildOf, a));
    // Names: relations and components share one namespace.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::DuplicateName, (void)world.define_relation("position"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::DuplicateName, (void)world.define_component("Likes", {}));
    CHECK(world.get_pair<test::Since>(a, likes, b).since == 7);
}

TEST_CASE("pair observers fire per pair with its target, in the order of the changes", "[relation]") {
    World world;
    const RelationId likes = world.define_relation("Likes");
    const Entity s = world.spawn(), t1 = world.spawn(), t2 = world.spawn(), p = world.spawn(), q = world.spawn();
    std::vector<std::string> events;
    auto record = [&](const char* what) {
        return [&, what](ObserverContext& ctx) {
            events.push_back(std::string(what) + " " + world.components().desc(ctx.component).name + " " +
                             std::to_string(ctx.entity.bits) + "->" + std::to_string(ctx.target.bits));
        };
    };
    world.observe(ObserverEvent::OnAdd, likes, record("add"));
    world.observe(ObserverEvent::OnRemove, likes, record("remove"));
    world.observe(ObserverEvent::OnAdd, World::kChildOf, record("add"));
    world.observe(ObserverEvent::OnRemove, World::kChildOf, record("remove"));
    auto text = [](const char* what, const char* rel, Entity a, Entity b) {
        return std::string(what) + " " + rel + " " + std::to_string(a.bits) + "->" + std::to_string(b.bits);
    };
    world.add_pair(s, likes, t2);
    world.add_pair(s, likes, t1);
    world.add_pair(s, likes, t1);  // already there: no event
    world.add_pair(s, World::kChildOf, p);
    world.add_pair(s, World::kChildOf, q);  // retarget: remove then add
    world.remove_pair(s, likes, kAnyTarget);  // ascending target order
    world.add_pair(s, likes, t2);
    world.despawn(t2);
    CHECK(events == std::vector<std::string>{
                        text("add", "Likes", s, t2), text("add", "Likes", s, t1), text("add", "ChildOf", s, p),
                        text("remove", "ChildOf", s, p), text("add", "ChildOf", s, q), text("remove", "Likes", s, t1),
                        text("remove", "Likes", s, t2), text("add", "Likes", s, t2), text("remove", "Likes", s, t2)});
}

TEST_CASE("state_hash covers pairs, their targets and data; a world without pairs hashes as before", "[relation]") {
    auto build = [](std::uint32_t since, bool second_target) {
        World world;
        const RelationId likes = world.define_relation("Likes", {{"since", FieldType::U32}});
        const Entity a = world.spawn(), b = world.spawn(), c = world.spawn();
        world.add_pair(a, likes, second_target ? c : b, test::Since{since});
        return state_hash(world);
    };
    CHECK(build(1, false) == build(1, false));
    CHECK(build(1, false) != build(2, false));
    CHECK(build(1, false) != build(1, true));
    World plain, with_relation;
    (void)with_relation.define_relation("Likes");
    plain.spawn();
    with_relation.spawn();
    CHECK(state_hash(plain) == state_hash(with_relation));
}

TEST_CASE("a 100,000-node forest stays in the tables its components make; re-parenting moves no row", "[relation]") {
    // The storage choice of relation.hpp, held: pairs do not fragment archetypes by target.
    World world;
    test::Rng rng(41);
    std::vector<Entity> nodes;
    for (int i = 0; i < 1000; ++i) nodes.push_back(world.spawn(test::Position{0, 0}));
    for (int i = 1000; i < 100000; ++i) {
        const Entity node = world.spawn(test::Position{0, 0});
        world.add_pair(node, World::kChildOf, nodes[rng.below(nodes.size())]);
        nodes.push_back(node);
    }
    CHECK(world.tables().table_count() <= 3);  // empty, {position}, {position, ChildOf}
    const std::uint64_t structure = world.structure_version();
    std::size_t refused = 0;
    for (int i = 0; i < 10000; ++i) {
        const Entity child = nodes[1000 + rng.below(99000)];
        const Entity parent = nodes[rng.below(nodes.size())];
        if (test::thrown_code([&] { world.add_pair(child, World::kChildOf, parent); }) != "no error") ++refused;  // cycles
    }
    CHECK(world.structure_version() == structure);
    CHECK(world.relations().pair_count() == 99000);
    CHECK(refused < 10000);
}

TEST_CASE("a relation lists the subjects whose pairs changed, by version, and drops the list when it grows past its pairs",
          "[relation]") {
    World world;
    const RelationStore::Relation& childof = *world.relations().find(World::kChildOf);
    const Entity root = world.spawn(), a = world.spawn(), b = world.spawn();
    const std::uint64_t start = childof.version;
    world.add_pair(a, World::kChildOf, root);
    world.add_pair(b, World::kChildOf, a);
    world.add_pair(b, World::kChildOf, root);  // exclusive: a removal, then an addition
    world.remove_pair(a, World::kChildOf, root);
    std::vector<std::pair<std::uint64_t, Entity>> changes;
    for (const RelationStore::Relation::Change& c : childof.changes) changes.emplace_back(c.version - start, c.subject);
    CHECK(changes == std::vector<std::pair<std::uint64_t, Entity>>{{1, a}, {2, b}, {3, b}, {4, b}, {5, a}});
    CHECK(childof.changes_floor <= start);

    // More changes than max(1024, a quarter of the pairs): the older half goes, the floor rises.
    for (int i = 0; i < 600; ++i) {
        world.add_pair(a, World::kChildOf, root);
        world.remove_pair(a, World::kChildOf, root);
    }
    CHECK(childof.changes.size() <= 1024);
    CHECK(childof.changes.size() >= 512);
    CHECK(childof.changes_floor > start);
    CHECK(childof.changes.back().version == childof.version);
    for (std::size_t i = 1; i < childof.changes.size(); ++i) CHECK(childof.changes[i].version == childof.changes[i - 1].version + 1);
    CHECK(childof.changes.front().version == childof.changes_floor + 1);

    // A relation that is not exclusive keeps no list: no cache of its depths exists.
    const RelationId likes = world.define_relation("Likes", {});
    world.add_pair(a, likes, b);
    const RelationStore::Relation& likes_store = *world.relations().find(likes);
    CHECK(likes_store.changes.empty());
    CHECK(likes_store.changes_floor == likes_store.version);
}
