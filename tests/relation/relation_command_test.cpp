// Pair records in command buffers (what kernels and observers record): applied by the ordered
// merge like the World calls, with handles spawned earlier in the same buffer as subject or
// target, and drop-if-dead for both ends.

#include <catch2/catch.hpp>

#include <vector>

#include "ecsia/world/world_access.hpp"
#include "support/captured_diagnostics.hpp"
#include "support/world_checks.hpp"
#include "relation/pair_data.hpp"

using namespace ecsia;

namespace {

ApplyStats apply_pair_records(World& world, CommandBuffer& buffer) {
    CommandBuffer* list[] = {&buffer};
    return detail::WorldAccess::apply(world, list);
}

}  // namespace

TEST_CASE("pair records apply in order, with spawns of the same buffer as subject and target", "[relation][command]") {
    World world;
    const RelationId likes = world.define_relation("Likes", {{"since", FieldType::U32}});
    const Entity existing = world.spawn();
    const HandleLayout& layout = world.entities().layout();
    CommandBuffer buffer;
    buffer.spawn(kNullEntity, nullptr, 0);  // pending(0): a parent
    buffer.spawn(kNullEntity, nullptr, 0);  // pending(1): its child
    buffer.add_pair(layout.pending(1), World::kChildOf, layout.pending(0));
    const test::Since since{5};
    buffer.add_pair(layout.pending(0), likes, existing, &since, sizeof since);
    buffer.add_pair(existing, likes, layout.pending(1));
    const ApplyStats stats = apply_pair_records(world, buffer);
    CHECK(stats.applied == 5);
    const std::vector<Entity> parents = world.subjects_of(likes, existing);
    REQUIRE(parents.size() == 1);
    const Entity parent = parents[0];
    const std::vector<Entity> children = world.subjects_of(World::kChildOf, parent);
    REQUIRE(children.size() == 1);
    CHECK(world.get_pair<test::Since>(parent, likes, existing).since == 5);
    CHECK(world.targets_of(existing, likes) == children);

    CommandBuffer removal;
    removal.remove_pair(existing, likes, kNullEntity);  // null target: every target
    removal.remove_pair(children[0], World::kChildOf, parent);
    apply_pair_records(world, removal);
    CHECK_FALSE(world.has_pair(existing, likes, kAnyTarget));
    CHECK(world.target_of(children[0], World::kChildOf) == kNullEntity);
}

TEST_CASE("a pair's entity fields naming the buffer's spawns get their handles; naming none, the record is refused",
          "[relation][command]") {
    // As for a component's entity fields: a pending stand-in never reaches the world.
    World world;
    test::CapturedDiagnostics said(world);
    struct Link {
        Entity who;
        float weight;
    };
    const RelationId link = world.define_relation("Link", {{"who", FieldType::Entity}, {"weight", FieldType::F32}});
    const Entity existing = world.spawn();
    const HandleLayout& layout = world.entities().layout();
    CommandBuffer buffer;
    buffer.spawn(kNullEntity, nullptr, 0);  // pending(0)
    buffer.spawn(kNullEntity, nullptr, 0);  // pending(1)
    const Link to_spawn{layout.pending(1), 3};
    buffer.add_pair(layout.pending(0), link, layout.pending(1), &to_spawn, sizeof to_spawn);
    const Link to_nothing{layout.pending(7), 4};  // names no spawn of this buffer
    buffer.add_pair(existing, link, layout.pending(0), &to_nothing, sizeof to_nothing);
    const ApplyStats stats = apply_pair_records(world, buffer);
    CHECK(stats.applied == 3);
    const std::vector<Entity> subjects = world.subjects_of(link, kAnyTarget);
    REQUIRE(subjects.size() == 1);
    REQUIRE(world.targets_of(subjects[0], link).size() == 1);
    const Entity second = world.targets_of(subjects[0], link)[0];
    const Link made = world.get_pair<Link>(subjects[0], link, second);
    CHECK(made.who == second);
    CHECK(made.weight == 3);
    CHECK_FALSE(world.has_pair(existing, link, kAnyTarget));
    CHECK(said.count("was not spawned by this batch") == 1);
}

TEST_CASE("pair records to or from an entity dead by the merge are dropped and counted", "[relation][command]") {
    World world;
    const RelationId likes = world.define_relation("Likes");
    const Entity a = world.spawn(), b = world.spawn(), c = world.spawn();
    CommandBuffer buffer;
    buffer.despawn(b);
    buffer.add_pair(a, likes, b);  // target dead by then
    buffer.add_pair(b, likes, a);  // subject dead by then
    buffer.add_pair(a, likes, c);
    const ApplyStats stats = apply_pair_records(world, buffer);
    CHECK(stats.skipped_dead_target == 2);
    CHECK(world.targets_of(a, likes) == std::vector<Entity>{c});
    CHECK(world.relations().pair_count() == 1);
}

TEST_CASE("a pair record the world refuses is skipped with a diagnostic; the rest apply", "[relation][command]") {
    World world;
    test::CapturedDiagnostics diagnostics(world);
    const Entity a = world.spawn(), b = world.spawn();
    world.add_pair(b, World::kChildOf, a);
    CommandBuffer buffer;
    buffer.add_pair(a, World::kChildOf, b);  // a cycle
    buffer.add_pair(a, World::kChildOf, a);  // on itself
    buffer.add_pair(a, 4242, b);             // unknown relation
    buffer.add_pair(a, World::kIsA, b);
    apply_pair_records(world, buffer);
    CHECK(diagnostics.occurrences("command skipped") == 3);
    CHECK(world.target_of(a, World::kChildOf) == kNullEntity);
    CHECK(world.targets_of(a, World::kIsA) == std::vector<Entity>{b});
}

TEST_CASE("a pair added without data holds the fields' defaults: the null handle in entity fields, never entity 0",
          "[relation][command]") {
    // A zeroed entity field would name the first entity spawned, a live one.
    World world;
    struct Link {
        std::uint32_t weight;
        Entity who;
        float f;
    };
    const RelationId link = world.define_relation(
        "Link", {{"weight", FieldType::U32}, {"who", FieldType::Entity}, {"f", FieldType::F32}});
    const Entity first = world.spawn(), subject = world.spawn(), target = world.spawn();
    REQUIRE(world.entities().layout().index(first) == 0);
    auto check_defaults = [&](Entity s, Entity t) {
        const Link made = world.get_pair<Link>(s, link, t);
        CHECK(made.weight == 0);
        CHECK(made.who == kNullEntity);
        CHECK(made.f == 0.f);
    };
    world.add_pair(subject, link, target);
    check_defaults(subject, target);

    CommandBuffer buffer;
    buffer.add_pair(target, link, subject);
    buffer.spawn(kNullEntity, nullptr, 0);  // pending(0), as a subject and as a target
    const HandleLayout& layout = world.entities().layout();
    buffer.add_pair(layout.pending(0), link, first);
    buffer.add_pair(first, link, layout.pending(0));
    apply_pair_records(world, buffer);
    check_defaults(target, subject);
    const std::vector<Entity> spawned = world.subjects_of(link, first);
    REQUIRE(spawned.size() == 1);
    check_defaults(spawned[0], first);
    check_defaults(first, spawned[0]);
}
