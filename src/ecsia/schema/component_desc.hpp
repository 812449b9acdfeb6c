#pragma once
// The schema layer: what a component is, independent of where it is stored. A descriptor lists the
// component's fields in order with their byte offsets, so C++ sees a plain struct and JS a strided
// typed-array view over the same bytes. Tags are components without fields (and without storage).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/schema/field_type.hpp"

namespace ecsia {

struct FieldDesc {
    std::string name;
    FieldType type;
    std::uint32_t offset;  // bytes from the start of the element
};

// What a run-time definition gives: names and types; offsets are computed (C struct rules).
struct FieldSpec {
    std::string name;
    FieldType type;
};

struct ComponentDesc {
    ComponentId id = kNoComponent;
    std::string name;
    std::uint32_t size = 0;       // element stride in a column; 0 for tags
    std::uint32_t alignment = 1;
    std::vector<FieldDesc> fields;
    // A relation's presence component (relation/relation.hpp): in archetypes, but never added,
    // removed, read or written as a component; pairs go through the world's pair calls.
    bool relation = false;

    bool is_tag() const noexcept { return size == 0; }
    // nullptr when there is no such field.
    const FieldDesc* find_field(std::string_view field_name) const noexcept;
};

// Lays out fields as a C compiler would: each at its natural alignment, size rounded up to the
// largest alignment. Throws BadDefinition for an empty or duplicate field name.
ComponentDesc layout_component(std::string name, const std::vector<FieldSpec>& fields);

// An element's default value: zero bytes, but the null handle (all ones) in every entity field,
// so that a default handle names no entity. A column's new rows and a pair added without data
// start as this.
std::vector<std::byte> default_element(const ComponentDesc& desc);

// The fields for a message, in order: "{ x: 'f32', y: 'f32' }" ("{}" for none).
std::string fields_text(const ComponentDesc& desc);

}  // namespace ecsia
