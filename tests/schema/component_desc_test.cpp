#include <cstddef>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ecsia/schema/component_registry.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

namespace {

void require_same_layout(const ComponentDesc& a, const ComponentDesc& b) {
    CHECK(a.name == b.name);
    CHECK(a.size == b.size);
    CHECK(a.alignment == b.alignment);
    REQUIRE(a.fields.size() == b.fields.size());
    for (std::size_t i = 0; i < a.fields.size(); ++i) {
        INFO("field " << i);
        CHECK(a.fields[i].name == b.fields[i].name);
        CHECK(a.fields[i].type == b.fields[i].type);
        CHECK(a.fields[i].offset == b.fields[i].offset);
    }
}

const std::vector<FieldSpec> kPaddedSpec = {{"a", FieldType::U8},     {"b", FieldType::F64}, {"c", FieldType::I16},
                                            {"d", FieldType::Bool},   {"e", FieldType::Entity}, {"f", FieldType::F32},
                                            {"g", FieldType::I8},     {"h", FieldType::U16}};

}  // namespace

TEST_CASE("the component macro records each member's type and offset as the compiler laid it out", "[schema]") {
    const ComponentDesc desc = ComponentTraits<test::Padded>::describe();
    CHECK(desc.name == "padded");
    CHECK(desc.size == sizeof(test::Padded));
    CHECK(desc.alignment == alignof(test::Padded));
    REQUIRE(desc.fields.size() == 8);
    CHECK(desc.fields[0].offset == offsetof(test::Padded, a));
    CHECK(desc.fields[1].offset == offsetof(test::Padded, b));
    CHECK(desc.fields[2].offset == offsetof(test::Padded, c));
    CHECK(desc.fields[3].offset == offsetof(test::Padded, d));
    CHECK(desc.fields[4].offset == offsetof(test::Padded, e));
    CHECK(desc.fields[5].offset == offsetof(test::Padded, f));
    CHECK(desc.fields[6].offset == offsetof(test::Padded, g));
    CHECK(desc.fields[7].offset == offsetof(test::Padded, h));
    CHECK(desc.fields[0].type == FieldType::U8);
    CHECK(desc.fields[1].type == FieldType::F64);
    CHECK(desc.fields[3].type == FieldType::Bool);
    CHECK(desc.fields[4].type == FieldType::Entity);
    CHECK(desc.fields[7].name == "h");
}

TEST_CASE("a run-time definition lays out fields by C struct rules", "[schema]") {
    const ComponentDesc desc = layout_component("padded", kPaddedSpec);
    std::vector<std::uint32_t> offsets;
    for (const FieldDesc& field : desc.fields) offsets.push_back(field.offset);
    CHECK(offsets == std::vector<std::uint32_t>{0, 8, 16, 18, 20, 24, 28, 30});
    CHECK(desc.size == 32);
    CHECK(desc.alignment == 8);

    const ComponentDesc trailing = layout_component("trailing", {{"big", FieldType::I32}, {"small", FieldType::U8}});
    CHECK(trailing.size == 8);  // padded up to the largest alignment
    CHECK(trailing.alignment == 4);
}

TEST_CASE("a C++ struct and a run-time definition with the same fields give the same descriptor", "[schema]") {
    ComponentRegistry from_type;
    ComponentRegistry from_definition;
    const ComponentId a = from_type.register_type<test::Padded>();
    const ComponentId b = from_definition.define("padded", kPaddedSpec);
    CHECK(a == b);
    require_same_layout(from_type.desc(a), from_definition.desc(b));

    const ComponentId h1 = from_type.register_type<test::Health>();
    const ComponentId h2 = from_definition.define(
        "health", {{"hp", FieldType::I32}, {"alive", FieldType::Bool}, {"regen", FieldType::F64}});
    require_same_layout(from_type.desc(h1), from_definition.desc(h2));

    const ComponentId t1 = from_type.register_type<test::Target>();
    const ComponentId t2 = from_definition.define("target", {{"who", FieldType::Entity}});
    require_same_layout(from_type.desc(t1), from_definition.desc(t2));
}

TEST_CASE("tags have size zero and no fields, whichever way they are defined", "[schema]") {
    ComponentRegistry registry;
    const ComponentDesc typed = registry.desc(registry.register_type<test::Enemy>());
    const ComponentDesc defined = registry.desc(registry.define("sleeping", {}));
    for (const ComponentDesc* desc : {&typed, &defined}) {
        INFO(desc->name);
        CHECK(desc->size == 0);
        CHECK(desc->is_tag());
        CHECK(desc->fields.empty());
    }
    CHECK_FALSE(registry.desc(registry.register_type<test::Position>()).is_tag());
}

TEST_CASE("find_field finds fields by name and returns null for anything else", "[schema]") {
    const ComponentDesc desc = ComponentTraits<test::Health>::describe();
    REQUIRE(desc.find_field("regen") != nullptr);
    CHECK(desc.find_field("regen")->type == FieldType::F64);
    CHECK(desc.find_field("regen")->offset == offsetof(test::Health, regen));
    CHECK(desc.find_field("Regen") == nullptr);
    CHECK(desc.find_field("") == nullptr);
}

TEST_CASE("an empty or duplicate field name is a BadDefinition", "[schema]") {
    CHECK(test::thrown_code([] { layout_component("c", {{"", FieldType::F32}}); }) == "BadDefinition");
    CHECK(test::thrown_code([] { layout_component("c", {{"x", FieldType::F32}, {"x", FieldType::I8}}); }) ==
          "BadDefinition");
    CHECK(test::thrown_code([] { layout_component("", {{"x", FieldType::F32}}); }) == "BadDefinition");
    CHECK_THAT(test::thrown_message([] { layout_component("mover", {{"x", FieldType::F32}, {"x", FieldType::F32}}); }),
               Catch::Matchers::Contains("mover") && Catch::Matchers::Contains("'x'"));
}
