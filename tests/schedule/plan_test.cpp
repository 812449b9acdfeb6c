#include <catch2/catch.hpp>

#include <random>

#include "ecsia/schedule/plan.hpp"
#include "ecsia/world/world.hpp"

using namespace ecsia;

namespace {

SystemDesc system(std::string name, std::vector<ComponentId> reads, std::vector<ComponentId> writes) {
    SystemDesc s;
    s.name = std::move(name);
    s.reads = std::move(reads);
    s.writes = std::move(writes);
    s.kernel = [](KernelContext&) {};
    return s;
}

struct Fixture {
    World world;
    ComponentId a = world.define_component("a", {{"v", FieldType::F32}});
    ComponentId b = world.define_component("b", {{"v", FieldType::F32}});
    ComponentId c = world.define_component("c", {{"v", FieldType::F32}});
};

}  // namespace

TEST_CASE("systems that only read the same component share a wave", "[schedule]") {
    Fixture f;
    const Plan plan = make_plan({system("R1", {f.a}, {}), system("R2", {f.a}, {})}, f.world.components());
    REQUIRE(plan.waves.size() == 1);
    CHECK(plan.waves[0].size() == 2);
}

TEST_CASE("a writer and a reader of one component run in registration order", "[schedule]") {
    Fixture f;
    const std::vector<SystemDesc> systems = {system("Read", {f.a}, {}), system("Write", {}, {f.a}), system("Other", {f.b}, {f.c})};
    const Plan plan = make_plan(systems, f.world.components());
    CHECK(plan.wave_of == std::vector<std::uint32_t>{0, 1, 0});
    CHECK(plan.reasons[1].follows == 0);
    CHECK(plan.reasons[1].why.find("'Write' writes 'a', which 'Read' reads") != std::string::npos);
    const std::string text = plan.explain(systems);
    CHECK(text.find("wave 1:\n  Write: after 'Read'") != std::string::npos);
}

TEST_CASE("before and after override registration order", "[schedule]") {
    Fixture f;
    std::vector<SystemDesc> systems = {system("First", {}, {f.a}), system("Second", {}, {f.a})};
    systems[1].before = {"First"};
    const Plan plan = make_plan(systems, f.world.components());
    CHECK(plan.wave_of == std::vector<std::uint32_t>{1, 0});
}

TEST_CASE("an ordering cycle is an error naming the systems in it", "[schedule]") {
    Fixture f;
    std::vector<SystemDesc> systems = {system("A", {}, {}), system("B", {}, {}), system("C", {}, {})};
    systems[0].after = {"B"};
    systems[1].after = {"A"};
    try {
        make_plan(systems, f.world.components());
        FAIL("expected BadPlan");
    } catch (const Error& error) {
        CHECK(error.code() == ErrorCode::BadPlan);
        const std::string message = error.what();
        CHECK(message.find("'A'") != std::string::npos);
        CHECK(message.find("'B'") != std::string::npos);
        CHECK(message.find("'C'") == std::string::npos);
    }
}

TEST_CASE("an unknown system name in before or after is an error naming both", "[schedule]") {
    Fixture f;
    std::vector<SystemDesc> systems = {system("A", {}, {})};
    systems[0].before = {"Ghost"};
    try {
        make_plan(systems, f.world.components());
        FAIL("expected BadPlan");
    } catch (const Error& error) {
        CHECK(error.code() == ErrorCode::BadPlan);
        CHECK(std::string(error.what()).find("'A'") != std::string::npos);
        CHECK(std::string(error.what()).find("'Ghost'") != std::string::npos);
    }
}

TEST_CASE("main-thread systems are pinned and the plan says why", "[schedule]") {
    Fixture f;
    SystemDesc js;
    js.name = "Input";
    js.writes = {f.a};
    js.main_thread = [](World&, float) {};
    const std::vector<SystemDesc> systems = {js, system("Move", {f.a}, {f.b})};
    const Plan plan = make_plan(systems, f.world.components());
    CHECK(plan.main_thread == std::vector<bool>{true, false});
    CHECK(plan.explain(systems).find("Input [main thread]") != std::string::npos);
    CHECK(plan.explain(systems).find("pinned to the main thread") != std::string::npos);
}

TEST_CASE("random plans never put conflicting systems in one wave and keep every ordering", "[schedule][model]") {
    std::mt19937 rng(1234);
    for (int round = 0; round < 300; ++round) {
        World world;
        std::vector<ComponentId> components;
        for (int i = 0; i < 6; ++i) components.push_back(world.define_component("c" + std::to_string(i), {{"v", FieldType::U32}}));
        const int count = 2 + static_cast<int>(rng() % 12);
        std::vector<SystemDesc> systems;
        for (int i = 0; i < count; ++i) {
            SystemDesc s = system("S" + std::to_string(i), {}, {});
            for (ComponentId c : components) {
                const unsigned roll = rng() % 6;
                if (roll == 0) s.reads.push_back(c);
                if (roll == 1) s.writes.push_back(c);
            }
            // Edges only from lower to higher index keep the graph acyclic; both spellings are used.
            for (int j = 0; j < i; ++j) {
                if (rng() % 8 == 0) s.after.push_back("S" + std::to_string(j));
                if (rng() % 10 == 0) systems[j].before.push_back(s.name);
            }
            systems.push_back(std::move(s));
        }
        const Plan plan = make_plan(systems, world.components());
        for (int i = 0; i < count; ++i) {
            for (int j = 0; j < count; ++j) {
                if (i == j) continue;
                if (plan.wave_of[i] == plan.wave_of[j]) {
                    INFO("round " << round << ": S" << i << " and S" << j);
                    CHECK(conflict_between(systems[i], systems[j], world.components()).empty());
                }
            }
            for (const std::string& later : systems[i].before) {
                CHECK(plan.wave_of[i] < plan.wave_of[std::stoi(later.substr(1))]);
            }
            for (const std::string& earlier : systems[i].after) {
                CHECK(plan.wave_of[std::stoi(earlier.substr(1))] < plan.wave_of[i]);
            }
        }
    }
}
