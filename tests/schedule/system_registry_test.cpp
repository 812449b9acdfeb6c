#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/ecsia.hpp"

using namespace ecsia;

namespace {

struct Charge {
    float value;
};

}  // namespace

ECSIA_COMPONENT(Charge, "registry_test_charge", value)

// The factory's body has commas (a declaration list, a two-argument call, an initializer list) and
// the macro ends with `;`: both must need no extra parentheses.
ECSIA_REGISTER_SYSTEM("RegistryTestCharge", [](ecsia::World& world) {
    const ecsia::ComponentId charge = world.component<Charge>(), unused = charge;
    (void)unused;
    ecsia::SystemDesc system;
    system.name = "WhateverTheFactorySays";
    system.writes = {charge};
    system.kernel = [charge](ecsia::KernelContext& ctx) {
        auto* c = ctx.chunk.write<Charge>(charge);
        for (std::uint32_t i = 0, n = ctx.chunk.size(); i < n; ++i) c[i].value += std::max(ctx.dt, 0.5f);
    };
    return system;
});

TEST_CASE("the built-in systems are in the registry, and registered_systems lists every name sorted", "[schedule][registry]") {
    const std::vector<std::string> names = registered_systems();
    CHECK(std::is_sorted(names.begin(), names.end()));
    CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
    for (const std::string& builtin : builtin::builtin_system_names()) {
        INFO(builtin);
        CHECK(std::find(names.begin(), names.end(), builtin) != names.end());
    }
    CHECK(std::find(names.begin(), names.end(), "RegistryTestCharge") != names.end());
}

TEST_CASE("make_system gives the registered system, under the name it was asked for", "[schedule][registry]") {
    World world;
    const SystemDesc move = make_system(world, "Move");
    const SystemDesc direct = builtin::make_builtin_system(world, "Move");
    CHECK(move.name == "Move");
    CHECK(move.reads == direct.reads);
    CHECK(move.writes == direct.writes);
    CHECK(static_cast<bool>(move.kernel));

    const SystemDesc charge = make_system(world, "RegistryTestCharge");
    CHECK(charge.name == "RegistryTestCharge");
    CHECK(charge.writes == std::vector<ComponentId>{world.component<Charge>()});
}

TEST_CASE("a registered system runs like a hand-made one, on the serial executor and on workers", "[schedule][registry][threads]") {
    std::vector<std::string> hashes;
    for (std::uint32_t workers : {0u, 2u}) {
        World world;
        for (int i = 0; i < 1000; ++i) world.spawn(Charge{float(i)});
        SchedulerOptions options;
        options.workers = workers;
        Scheduler scheduler(world, options);
        scheduler.add_system(make_system(world, "RegistryTestCharge"));
        scheduler.update(0.25f);
        float sum = 0;
        world.each<const Charge>([&](Entity, const Charge& c) { sum += c.value; });
        CHECK(sum == Approx(999.0 * 1000 / 2 + 1000 * 0.5));
        hashes.push_back(std::to_string(state_hash(world)));
    }
    CHECK(hashes[0] == hashes[1]);
}

TEST_CASE("an unknown system name throws UnknownSystem naming it and the registered ones; the world is unchanged", "[schedule][registry]") {
    World world;
    const std::size_t components = world.components().size();
    const std::uint64_t before = state_hash(world);
    try {
        make_system(world, "Warp");
        FAIL("no error");
    } catch (const UnknownSystem& error) {
        CHECK(error.code() == ErrorCode::UnknownSystem);
        const std::string message = error.what();
        CHECK_THAT(message, Catch::Contains("'Warp'"));
        CHECK_THAT(message, Catch::Contains("Move"));
        CHECK_THAT(message, Catch::Contains("Heavy7"));
        CHECK_THAT(message, Catch::Contains("RegistryTestCharge"));
    }
    CHECK_THROWS_AS(make_system(world, ""), UnknownSystem);
    CHECK(world.components().size() == components);
    CHECK(state_hash(world) == before);
    CHECK(std::string(to_string(ErrorCode::UnknownSystem)) == "UnknownSystem");
}

TEST_CASE("a World of a program that registers no components starts with the built-in relations and the prefab tag only", "[world][registry]") {
    // ecsia_tests registers none (ECSIA_REGISTER_COMPONENT would give every test world its
    // components); tests/registration/ checks the registering side in programs of their own.
    CHECK(registered_components().empty());
    World world;
    REQUIRE(world.components().size() == 3);  // ChildOf and IsA's presence components, the Prefab tag
    CHECK(world.components().desc(World::kChildOf).name == "ChildOf");
    CHECK(world.components().desc(World::kIsA).name == "IsA");
    CHECK(world.components().desc(World::kChildOf).relation);
    CHECK(world.components().desc(World::kIsA).relation);
    CHECK(world.components().desc(World::kPrefab).name == "Prefab");
    CHECK(world.components().desc(World::kPrefab).is_tag());
    CHECK_FALSE(world.components().desc(World::kPrefab).relation);
}
