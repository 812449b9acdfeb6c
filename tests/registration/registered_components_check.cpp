// ecsia_registration_tests: a program of its own, because ECSIA_REGISTER_COMPONENT gives EVERY
// World of a program its components (the main suite's worlds must start empty).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ecsia/ecsia.hpp"

namespace {

struct Zeta {
    float z;
};
struct Alpha {
    std::int32_t a, b;
};
struct Marker {};

}  // namespace

ECSIA_COMPONENT(Zeta, "zeta", z)
ECSIA_COMPONENT(Alpha, "alpha", a, b)
ECSIA_TAG(Marker, "marker")

// Registered out of name order, and one type twice (as a header included by two sources would).
ECSIA_REGISTER_COMPONENT(Zeta);
ECSIA_REGISTER_COMPONENT(Alpha);
ECSIA_REGISTER_COMPONENT(Marker);
ECSIA_REGISTER_COMPONENT(Zeta);

ECSIA_REGISTER_SYSTEM("ZetaGrow", [](ecsia::World& world) {
    ecsia::SystemDesc system;
    system.writes = {world.component<Zeta>()};
    system.kernel = [id = world.component<Zeta>()](ecsia::KernelContext& ctx) {
        auto* z = ctx.chunk.write<Zeta>(id);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) z[i].z *= 2;
    };
    return system;
});

TEST_CASE("every new World knows the registered components from construction, in name order", "[world][registry]") {
    CHECK(ecsia::registered_components() == std::vector<std::string>{"alpha", "marker", "zeta"});
    for (int round = 0; round < 2; ++round) {
        ecsia::World world;
        // After the built-in relations ChildOf and IsA and the Prefab tag (ids 0, 1 and 2).
        REQUIRE(world.components().size() == 6);
        CHECK(world.component_id("alpha") == 3);
        CHECK(world.component_id("marker") == 4);
        CHECK(world.component_id("zeta") == 5);
        // The C++ type maps to the same id: nothing registers twice.
        CHECK(world.component<Zeta>() == 5);
        CHECK(world.components().size() == 6);
        // Spawnable by name before any scheduler exists (what the JS API's spawn does).
        const ecsia::Entity e = world.spawn(Zeta{1.5f}, Marker{});
        CHECK(world.get<Zeta>(e).z == 1.5f);
        CHECK(world.has(e, world.component_id("marker")));
    }
}

TEST_CASE("a registered system over a registered component runs in a scheduler", "[schedule][registry]") {
    ecsia::World world;
    const ecsia::Entity e = world.spawn(Zeta{3});
    ecsia::Scheduler scheduler(world, {});
    scheduler.add_system(ecsia::make_system(world, "ZetaGrow"));
    scheduler.update(1.0f / 60);
    CHECK(world.get<Zeta>(e).z == 6);
    CHECK(ecsia::registered_systems() == std::vector<std::string>{"ZetaGrow"});
}
