#include <catch2/catch.hpp>

#include "ecsia/schema/component_registry.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

TEST_CASE("component ids are dense and follow registration order", "[schema]") {
    ComponentRegistry registry;
    CHECK(registry.register_type<test::Velocity>() == 0);
    CHECK(registry.define("mass", {{"kg", FieldType::F32}}) == 1);
    CHECK(registry.register_type<test::Enemy>() == 2);
    CHECK(registry.register_type<test::Position>() == 3);
    CHECK(registry.size() == 4);
    for (ComponentId id = 0; id < registry.size(); ++id) CHECK(registry.desc(id).id == id);
}

TEST_CASE("registering a C++ type twice returns its first id", "[schema]") {
    ComponentRegistry registry;
    const ComponentId id = registry.register_type<test::Position>();
    registry.register_type<test::Velocity>();
    CHECK(registry.register_type<test::Position>() == id);
    CHECK(registry.find_type<test::Position>() == id);
    CHECK(registry.size() == 2);
}

TEST_CASE("components are found by name and by type", "[schema]") {
    ComponentRegistry registry;
    const ComponentId position = registry.register_type<test::Position>();
    const ComponentId mass = registry.define("mass", {{"kg", FieldType::F32}});
    CHECK(registry.id_of("position") == position);
    CHECK(registry.id_of("mass") == mass);
    CHECK(registry.find("mass") == mass);
    CHECK(registry.find("nothing") == kNoComponent);
    CHECK(registry.find_type<test::Velocity>() == kNoComponent);
    CHECK(registry.desc(mass).name == "mass");
}

TEST_CASE("a second component with a taken name is a DuplicateName and takes no id", "[schema]") {
    ComponentRegistry registry;
    registry.register_type<test::Position>();
    registry.define("mass", {{"kg", FieldType::F32}});
    CHECK(test::thrown_code([&] { registry.define("position", {{"x", FieldType::F32}}); }) == "DuplicateName");
    CHECK(test::thrown_code([&] { registry.define("mass", {}); }) == "DuplicateName");
    CHECK(registry.size() == 2);
    CHECK_THAT(test::thrown_message([&] { registry.define("mass", {}); }), Catch::Matchers::Contains("'mass'"));
    CHECK(registry.define("speed", {{"v", FieldType::F32}}) == 2);
}

TEST_CASE("a C++ type whose name is already defined at run time is a DuplicateName", "[schema]") {
    ComponentRegistry registry;
    registry.define("velocity", {{"dx", FieldType::F32}, {"dy", FieldType::F32}});
    CHECK(test::thrown_code([&] { registry.register_type<test::Velocity>(); }) == "DuplicateName");
    CHECK(registry.find_type<test::Velocity>() == kNoComponent);
    CHECK(registry.size() == 1);
}

TEST_CASE("a bad field list registers nothing", "[schema]") {
    ComponentRegistry registry;
    CHECK(test::thrown_code([&] { registry.define("bad", {{"x", FieldType::F32}, {"x", FieldType::F32}}); }) ==
          "BadDefinition");
    CHECK(test::thrown_code([&] { registry.define("bad", {{"", FieldType::F32}}); }) == "BadDefinition");
    CHECK(registry.size() == 0);
    CHECK(registry.find("bad") == kNoComponent);
    CHECK(registry.define("bad", {{"x", FieldType::F32}}) == 0);
}

TEST_CASE("an unknown component name or id is an UnknownComponent", "[schema]") {
    ComponentRegistry registry;
    registry.register_type<test::Position>();
    CHECK(test::thrown_code([&] { registry.id_of("Position"); }) == "UnknownComponent");
    CHECK(test::thrown_code([&] { registry.desc(1); }) == "UnknownComponent");
    CHECK(test::thrown_code([&] { registry.desc(kNoComponent); }) == "UnknownComponent");
    CHECK_THAT(test::thrown_message([&] { registry.id_of("ghost"); }), Catch::Matchers::Contains("'ghost'"));
}
