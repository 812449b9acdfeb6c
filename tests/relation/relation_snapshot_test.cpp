// Pairs in snapshots (format 5's PAIR section): a round trip keeps every pair, its data and the
// orders; a restore replaces the world's pairs; damaged pair data is refused with the world
// unchanged (G5).

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "relation/pair_data.hpp"
#include "support/snapshot_layout.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

namespace {

struct PairWorld {
    World world;
    RelationId likes;
    std::vector<Entity> e;

    PairWorld() : likes(world.define_relation("Likes", {{"since", FieldType::U32}})) {
        for (int i = 0; i < 6; ++i) e.push_back(world.spawn());
    }
    // e1 and e2 children of e0, e3 a child of e1; e4 likes e5 and e0 with data; e5 likes itself.
    void fill() {
        world.add_pair(e[1], World::kChildOf, e[0]);
        world.add_pair(e[2], World::kChildOf, e[0]);
        world.add_pair(e[3], World::kChildOf, e[1]);
        world.add_pair(e[4], likes, e[5], test::Since{7});
        world.add_pair(e[4], likes, e[0], test::Since{9});
        world.add_pair(e[5], likes, e[5], test::Since{1});
    }
};

// Where the PAIR section's first relation's first subject entry lies in `bytes`.
struct PairOffsets {
    std::size_t relations, first_name, data_size, subjects, first_subject, first_targets, first_target;
};
PairOffsets pair_offsets(const std::vector<std::byte>& bytes) {
    PairOffsets at{};
    at.relations = test::walk_snapshot(bytes).pair_relations;
    at.first_name = at.relations + 4;
    at.data_size = at.first_name + 4 + test::read_u32(bytes, at.first_name);
    // The data's fields (version 9): per field a name, a type byte and an offset.
    std::size_t p = at.data_size + 4;
    const std::uint32_t fields = test::read_u32(bytes, p);
    p += 4;
    for (std::uint32_t f = 0; f < fields; ++f) p += 4 + test::read_u32(bytes, p) + 1 + 4;
    at.subjects = p;
    at.first_subject = at.subjects + 4;
    at.first_targets = at.first_subject + 4;
    at.first_target = at.first_targets + 4;
    return at;
}

}  // namespace

TEST_CASE("a snapshot carries pairs: restored into a fresh world, every pair, datum and order is back", "[relation][snapshot]") {
    PairWorld source;
    source.fill();
    const std::vector<std::byte> bytes = snapshot(source.world);
    PairWorld fresh;  // defines Likes and spawns entities of its own, which the restore replaces
    fresh.world.add_pair(fresh.e[2], fresh.likes, fresh.e[3]);
    restore(fresh.world, bytes);
    CHECK(state_hash(fresh.world) == state_hash(source.world));
    CHECK(snapshot(fresh.world) == bytes);
    const std::vector<Entity>& e = source.e;
    CHECK(fresh.world.subjects_of(World::kChildOf, e[0]) == std::vector<Entity>{e[1], e[2]});
    CHECK(fresh.world.target_of(e[3], World::kChildOf) == e[1]);
    CHECK(fresh.world.targets_of(e[4], fresh.likes) == std::vector<Entity>{e[0], e[5]});
    CHECK(fresh.world.get_pair<test::Since>(e[4], fresh.likes, e[5]).since == 7);
    CHECK_FALSE(fresh.world.has_pair(e[2], fresh.likes, kAnyTarget));  // the world's own pair is gone
    CHECK(fresh.world.relations().pair_count() == 6);
    // And the restored pairs behave: the cascade still reaches e3 through e1.
    fresh.world.despawn(e[0]);
    CHECK_FALSE(fresh.world.is_alive(e[3]));
    CHECK(fresh.world.is_alive(e[4]));
    CHECK(fresh.world.targets_of(e[4], fresh.likes) == std::vector<Entity>{e[5]});
}

TEST_CASE("restoring a snapshot without pairs drops the world's pairs and presence", "[relation][snapshot]") {
    PairWorld world;
    const std::vector<std::byte> before = snapshot(world.world);
    world.fill();
    restore(world.world, before);
    CHECK(world.world.relations().pair_count() == 0);
    CHECK_FALSE(world.world.has(world.e[1], World::kChildOf));
    CHECK(snapshot(world.world) == before);
}

TEST_CASE("damaged pair data is refused with a clear error and the world unchanged", "[relation][snapshot][g5]") {
    PairWorld source;
    source.fill();
    const std::vector<std::byte> valid = snapshot(source.world);
    const PairOffsets at = pair_offsets(valid);
    // The first relation in name order is ChildOf: subjects e1, e2, e3 (one target each).
    REQUIRE(test::read_u32(valid, at.relations) == 2);
    REQUIRE(test::read_u32(valid, at.first_subject) == source.e[1].bits);

    PairWorld target;
    target.fill();
    target.world.add_pair(target.e[3], target.likes, target.e[2]);
    auto refused = [&](const char* what, auto damage, const char* expected_text) {
        INFO(what);
        std::vector<std::byte> bytes = valid;
        damage(bytes);
        test::reseal(bytes);
        const test::WorldFingerprint before = test::fingerprint(target.world);
        const std::string message = test::thrown_message([&] { restore(target.world, bytes); });
        CHECK_THAT(message, Catch::Contains(expected_text));
        CHECK(test::fingerprint(target.world) == before);
        CHECK(target.world.has_pair(target.e[3], target.likes, target.e[2]));
    };
    const Entity dead = target.world.spawn();
    target.world.despawn(dead);
    refused("a dead subject", [&](auto& b) { test::write_u32(b, at.first_subject, source.e[1].bits + (1u << 22)); }, "is not alive");
    refused("a dead target", [&](auto& b) { test::write_u32(b, at.first_target, 0x00300000u); }, "is not alive");
    refused("a subject without presence", [&](auto& b) { test::write_u32(b, at.first_subject, source.e[4].bits); },
            "lacks the relation");
    refused("two targets of an exclusive relation", [&](auto& b) { test::write_u32(b, at.first_targets, 2); }, "");
    refused("a pair of an acyclic relation on itself", [&](auto& b) { test::write_u32(b, at.first_target, source.e[1].bits); },
            "paired with itself");
    // e1 ChildOf e3 while e3 is ChildOf e1.
    refused("a cycle", [&](auto& b) { test::write_u32(b, at.first_target, source.e[3].bits); }, "cycle");
    refused("a subject count that does not match the tables", [&](auto& b) { test::write_u32(b, at.subjects, 2); }, "");
    refused("data of another size", [&](auto& b) { test::write_u32(b, at.data_size, 4); }, "pair data");
    refused("an unknown relation", [&](auto& b) { std::memcpy(b.data() + at.first_name + 4, "Child", 5); /* unchanged */ 
                                                  b[at.first_name + 4] = std::byte{'X'}; }, "does not define");
    refused("a relation count past the bytes", [&](auto& b) { test::write_u32(b, at.relations, 1000); }, "");
}

TEST_CASE("pairs that break the restoring world's options for a relation are a SnapshotMismatch, the world unchanged",
          "[relation][snapshot][g5]") {
    // The snapshot holds pairs, not the relations' options: a world that defines a relation as
    // exclusive or acyclic where the snapshot's did not is another world, not damaged bytes.
    World source;
    const RelationId likes = source.define_relation("Likes");
    const RelationId follows = source.define_relation("Follows");
    std::vector<Entity> e;
    for (int i = 0; i < 3; ++i) e.push_back(source.spawn());
    source.add_pair(e[0], likes, e[1]);
    source.add_pair(e[0], likes, e[2]);
    source.add_pair(e[1], follows, e[2]);
    source.add_pair(e[2], follows, e[1]);
    source.add_pair(e[0], follows, e[0]);
    const std::vector<std::byte> bytes = snapshot(source);

    auto refused = [&](RelationOptions likes_options, RelationOptions follows_options, const char* words) {
        World target;
        target.define_relation("Likes", {}, likes_options);
        target.define_relation("Follows", {}, follows_options);
        const Entity kept = target.spawn();
        target.add_pair(kept, World::kChildOf, target.spawn());
        const test::WorldFingerprint before = test::fingerprint(target);
        INFO(words);
        CHECK(test::thrown_code([&] { restore(target, bytes); }) == std::string("SnapshotMismatch"));
        const std::string message = test::thrown_message([&] { restore(target, bytes); });
        CHECK_THAT(message, Catch::Contains(words) && Catch::Contains("with other options than the world that took the snapshot"));
        CHECK(test::fingerprint(target) == before);
    };
    refused(RelationOptions{.exclusive = true}, {}, "targets of exclusive relation 'Likes'");
    refused({}, RelationOptions{.acyclic = true}, "'Follows' is acyclic, but");
    // Without the pair on itself, the two-entity loop is the cycle found.
    source.remove_pair(e[0], follows, e[0]);
    const std::vector<std::byte> looped = snapshot(source);
    World target;
    target.define_relation("Likes");
    target.define_relation("Follows", {}, RelationOptions{.acyclic = true});
    CHECK(test::thrown_code([&] { restore(target, looped); }) == std::string("SnapshotMismatch"));
    CHECK_THAT(test::thrown_message([&] { restore(target, looped); }), Catch::Contains("pairs form a cycle"));
    // The same options as the source's: restored.
    World same;
    same.define_relation("Likes");
    same.define_relation("Follows");
    restore(same, looped);
    CHECK(state_hash(same) == state_hash(source));
}

TEST_CASE("a relation whose pair data has other fields of the same size is a SnapshotMismatch, the world unchanged",
          "[relation][snapshot][g5]") {
    World source;
    const RelationId likes = source.define_relation("Likes", {{"since", FieldType::U32}});
    const Entity a = source.spawn(), b = source.spawn();
    source.add_pair(a, likes, b, test::Since{7});
    const std::vector<std::byte> bytes = snapshot(source);
    auto refused = [&](const std::vector<FieldSpec>& fields, const char* theirs) {
        World target;
        target.define_relation("Likes", fields);
        target.add_pair(target.spawn(), World::kChildOf, target.spawn());
        const test::WorldFingerprint before = test::fingerprint(target);
        INFO(theirs);
        CHECK(test::thrown_code([&] { restore(target, bytes); }) == std::string("SnapshotMismatch"));
        CHECK_THAT(test::thrown_message([&] { restore(target, bytes); }),
                   Catch::Contains("relation 'Likes' has pair data defined differently here: the snapshot's is { since: u32 at 0 }") &&
                       Catch::Contains(theirs));
        CHECK(test::fingerprint(target) == before);
    };
    refused({{"since", FieldType::F32}}, "this world's is { since: f32 at 0 }");  // same size, other type
    refused({{"until", FieldType::U32}}, "this world's is { until: u32 at 0 }");  // same size, other name
    refused({{"since", FieldType::U16}}, "this world's is { since: u16 at 0 }");  // another size
    refused({}, "(a tag)");
    World same;
    same.define_relation("Likes", {{"since", FieldType::U32}});
    restore(same, bytes);
    CHECK(same.get_pair<test::Since>(a, same.relation_id("Likes"), b).since == 7);
}

TEST_CASE("a despawn's cascade does not depend on the order relations were defined in, so a restore replays it",
          "[relation][snapshot]") {
    // Relations are matched by name on restore, as components are: the receiving world may have
    // defined them in another order, and what a despawn does next must hash the same there.
    const RelationOptions deleting{false, OnDeleteTarget::Delete, false};
    const RelationOptions removing{false, OnDeleteTarget::Remove, false};
    auto define = [&](World& world, bool swapped) {
        const char* names[] = {"Owns", "Holds", "Sees"};
        if (swapped) std::swap(names[0], names[2]);
        for (const char* name : names) world.define_relation(name, {}, std::string_view(name) == "Sees" ? removing : deleting);
    };
    World original;
    define(original, false);
    const Entity root = original.spawn();
    std::vector<Entity> subjects;
    for (int i = 0; i < 6; ++i) subjects.push_back(original.spawn());
    const char* order[] = {"Holds", "Owns", "Sees"};
    for (int i = 0; i < 6; ++i) original.add_pair(subjects[i], original.relation_id(order[(i * 5) % 3]), root);
    original.add_pair(subjects[0], original.relation_id("Owns"), subjects[1]);
    original.add_pair(subjects[2], original.relation_id("Sees"), subjects[3]);
    const std::vector<std::byte> bytes = snapshot(original);
    World restored;
    define(restored, true);
    restore(restored, bytes);
    REQUIRE(state_hash(restored) == state_hash(original));
    for (World* world : {&original, &restored}) {
        world->despawn(root);
        for (int i = 0; i < 4; ++i) world->spawn();
    }
    CHECK(original.alive_count() == restored.alive_count());
    CHECK(state_hash(restored) == state_hash(original));
    CHECK(snapshot(restored) == snapshot(original));
}
