// The relations fixture pins the format's pair and prefab sections: a small world with a ChildOf
// forest (one subtree despawned), a relation with data, a tag relation, prefabs with names (one
// extending another) and their instances must snapshot to tests/fixtures/snapshot_relations.bin
// byte for byte, and restore from it. e2e/snapshot.spec.js builds the same world through the JS
// API (web/test/relations_fixture.js, the same steps in the same order) and compares its bytes
// with the same file in both browser builds.
// After an intended change to the format, regenerate the file with
//   ECSIA_WRITE_SNAPSHOT_FIXTURE=tests/fixtures build/plain/tests/ecsia_tests "[relations-fixture]"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ecsia/ecsia.hpp"

extern const unsigned char kRelationsFixture[];
extern const std::size_t kRelationsFixtureSize;

using namespace ecsia;

namespace {

struct RPos {
    float x, y;
};
struct RHp {
    std::int32_t hp;
};
struct Since {
    std::uint32_t since;
};

// The world of web/test/relations_fixture.js, step for step.
void build(World& world) {
    const ComponentId pos = world.define_component("rpos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
    const ComponentId hp = world.define_component("rhp", {{"hp", FieldType::I32}});
    const RelationId targets = world.define_relation("Targets", {{"since", FieldType::U32}});
    const RelationId likes = world.define_relation("Likes");
    std::vector<Entity> e;
    for (std::uint32_t i = 0; i < 12; ++i) {
        const RPos p{float(i), float(2 * i)};
        const ComponentValue value{pos, &p, sizeof p};
        e.push_back(world.spawn_with({&value, 1}));
    }
    for (std::uint32_t i = 1; i < 12; ++i) world.add_pair(e[i], World::kChildOf, e[(i - 1) / 2]);
    for (std::uint32_t i = 0; i < 12; i += 3) world.add_pair(e[i], targets, e[11 - i], Since{i * 10});
    world.add_pair(e[4], likes, e[7]);
    world.add_pair(e[4], likes, e[2]);
    world.despawn(e[5]);  // its subtree (11) goes too; pairs to them are removed
    const RHp thirty{30}, three_hundred{300}, seven{7};
    const ComponentValue orc_values[] = {{hp, &thirty, sizeof thirty}};
    const Entity orc = world.define_prefab("orc", orc_values);
    const ComponentValue boss_values[] = {{hp, &three_hundred, sizeof three_hundred}};
    const Entity boss = world.define_prefab("orcBoss", boss_values, orc);
    world.instantiate(orc);
    const ComponentValue override_values[] = {{hp, &seven, sizeof seven}};
    const Entity grunt = world.instantiate(boss, override_values);
    world.add_pair(grunt, World::kChildOf, e[0]);
}

}  // namespace

TEST_CASE("pairs and prefabs snapshot to the committed fixture byte for byte, and restore from it",
          "[snapshot][fixture][relations-fixture]") {
    World world{WorldOptions{1u << 16, 22}};  // createWorld({ maxEntities: 1 << 16 })
    build(world);
    const std::vector<std::byte> bytes = snapshot(world);
    if (const char* dir = std::getenv("ECSIA_WRITE_SNAPSHOT_FIXTURE")) {
        std::FILE* f = std::fopen((std::string(dir) + "/snapshot_relations.bin").c_str(), "wb");
        REQUIRE(f != nullptr);
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
        WARN("wrote " << dir << "/snapshot_relations.bin");
    }
    const std::vector<std::byte> fixture(reinterpret_cast<const std::byte*>(kRelationsFixture),
                                         reinterpret_cast<const std::byte*>(kRelationsFixture) + kRelationsFixtureSize);
    CHECK(bytes.size() == fixture.size());
    CHECK(bytes == fixture);

    World fresh{WorldOptions{1u << 16, 22}};
    fresh.define_component("rpos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
    fresh.define_component("rhp", {{"hp", FieldType::I32}});
    fresh.define_relation("Targets", {{"since", FieldType::U32}});
    fresh.define_relation("Likes");
    restore(fresh, fixture);
    CHECK(state_hash(fresh) == state_hash(world));
    CHECK(snapshot(fresh) == fixture);
    CHECK(fresh.prefab("orcBoss") == world.prefab("orcBoss"));
}
