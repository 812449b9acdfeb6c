#pragma once
// The field types a component may hold. Every type has a fixed size and natural alignment, so a
// component's layout is the same natively, in wasm, and in the JS typed-array views over it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "ecsia/entity/entity.hpp"

namespace ecsia {

enum class FieldType : std::uint8_t { F32, F64, I8, I16, I32, U8, U16, U32, Bool, Entity };

std::size_t field_size(FieldType type) noexcept;

// The type's name as components declare it: "f32", "f64", "i8", ... "bool", "entity" (constexpr:
// the browser boundary's list of names is checked against it when compiled).
constexpr std::string_view field_type_name(FieldType type) noexcept {
    switch (type) {
        case FieldType::F32: return "f32";
        case FieldType::F64: return "f64";
        case FieldType::I8: return "i8";
        case FieldType::I16: return "i16";
        case FieldType::I32: return "i32";
        case FieldType::U8: return "u8";
        case FieldType::U16: return "u16";
        case FieldType::U32: return "u32";
        case FieldType::Bool: return "bool";
        case FieldType::Entity: return "entity";
    }
    return "?";
}

// The type field_type_name names `name`; nullopt for anything else.
std::optional<FieldType> parse_field_type(std::string_view name) noexcept;

// Maps a C++ member type to its FieldType; unsupported member types fail to compile.
template <typename T>
constexpr FieldType field_type_of() {
    if constexpr (std::is_same_v<T, float>) return FieldType::F32;
    else if constexpr (std::is_same_v<T, double>) return FieldType::F64;
    else if constexpr (std::is_same_v<T, std::int8_t>) return FieldType::I8;
    else if constexpr (std::is_same_v<T, std::int16_t>) return FieldType::I16;
    else if constexpr (std::is_same_v<T, std::int32_t>) return FieldType::I32;
    else if constexpr (std::is_same_v<T, std::uint8_t>) return FieldType::U8;
    else if constexpr (std::is_same_v<T, std::uint16_t>) return FieldType::U16;
    else if constexpr (std::is_same_v<T, std::uint32_t>) return FieldType::U32;
    else if constexpr (std::is_same_v<T, bool>) return FieldType::Bool;
    else if constexpr (std::is_same_v<T, Entity>) return FieldType::Entity;
    else static_assert(sizeof(T) == 0, "component fields must be f32, f64, i8..i32, u8..u32, bool or Entity");
}

// Encodes `value` into the field's bytes. Throws BadValue (naming the field) if the value is not
// representable: a fraction in an integer field, out of range, or not 0/1 for bool.
void encode_field(FieldType type, double value, void* out, std::string_view field_name);
double decode_field(FieldType type, const void* in) noexcept;

}  // namespace ecsia
