#include "ecsia/schema/field_type.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "ecsia/base/error.hpp"

namespace ecsia {

std::size_t field_size(FieldType type) noexcept {
    switch (type) {
        case FieldType::F64: return 8;
        case FieldType::F32: case FieldType::I32: case FieldType::U32: case FieldType::Entity: return 4;
        case FieldType::I16: case FieldType::U16: return 2;
        case FieldType::I8: case FieldType::U8: case FieldType::Bool: return 1;
    }
    return 0;
}

std::optional<FieldType> parse_field_type(std::string_view name) noexcept {
    for (auto type : {FieldType::F32, FieldType::F64, FieldType::I8, FieldType::I16, FieldType::I32, FieldType::U8,
                      FieldType::U16, FieldType::U32, FieldType::Bool, FieldType::Entity}) {
        if (field_type_name(type) == name) return type;
    }
    return std::nullopt;
}

namespace {

template <typename T>
void store_integer(double value, double lo, double hi, void* out, std::string_view field_name, FieldType type) {
    if (!std::isfinite(value) || value != std::trunc(value) || value < lo || value > hi) {
        throw Error(ErrorCode::BadValue, "field '" + std::string(field_name) + "' of type " +
                                             std::string(field_type_name(type)) + " cannot hold " + std::to_string(value));
    }
    const T v = static_cast<T>(value);
    std::memcpy(out, &v, sizeof v);
}

template <typename T>
T load(const void* in) noexcept {
    T v;
    std::memcpy(&v, in, sizeof v);
    return v;
}

}  // namespace

void encode_field(FieldType type, double value, void* out, std::string_view field_name) {
    // NaN is never a value (G5): it would poison every sum and comparison downstream. Infinity
    // is a value of f32 and f64 (and out of range of every integer type, below).
    if (std::isnan(value)) {
        throw Error(ErrorCode::BadValue, "field '" + std::string(field_name) + "' of type " +
                                             std::string(field_type_name(type)) + " cannot hold NaN");
    }
    switch (type) {
        case FieldType::F32: {
            if (std::isfinite(value) && std::fabs(value) > 3.4028234663852886e38) {
                throw Error(ErrorCode::BadValue, "field '" + std::string(field_name) + "' of type f32 cannot hold " +
                                                     std::to_string(value));
            }
            const float v = static_cast<float>(value);
            std::memcpy(out, &v, sizeof v);
            return;
        }
        case FieldType::F64: std::memcpy(out, &value, sizeof value); return;
        case FieldType::I8: return store_integer<std::int8_t>(value, -128, 127, out, field_name, type);
        case FieldType::I16: return store_integer<std::int16_t>(value, -32768, 32767, out, field_name, type);
        case FieldType::I32: return store_integer<std::int32_t>(value, -2147483648.0, 2147483647.0, out, field_name, type);
        case FieldType::U8: return store_integer<std::uint8_t>(value, 0, 255, out, field_name, type);
        case FieldType::U16: return store_integer<std::uint16_t>(value, 0, 65535, out, field_name, type);
        case FieldType::U32: return store_integer<std::uint32_t>(value, 0, 4294967295.0, out, field_name, type);
        case FieldType::Entity: return store_integer<std::uint32_t>(value, 0, 4294967295.0, out, field_name, type);
        case FieldType::Bool: {
            if (value != 0.0 && value != 1.0) {
                throw Error(ErrorCode::BadValue, "field '" + std::string(field_name) + "' of type bool takes 0 or 1, got " +
                                                     std::to_string(value));
            }
            const bool v = value != 0.0;
            std::memcpy(out, &v, sizeof v);
            return;
        }
    }
}

double decode_field(FieldType type, const void* in) noexcept {
    switch (type) {
        case FieldType::F32: return load<float>(in);
        case FieldType::F64: return load<double>(in);
        case FieldType::I8: return load<std::int8_t>(in);
        case FieldType::I16: return load<std::int16_t>(in);
        case FieldType::I32: return load<std::int32_t>(in);
        case FieldType::U8: return load<std::uint8_t>(in);
        case FieldType::U16: return load<std::uint16_t>(in);
        case FieldType::U32: case FieldType::Entity: return load<std::uint32_t>(in);
        case FieldType::Bool: return load<std::uint8_t>(in) != 0 ? 1.0 : 0.0;
    }
    return 0;
}

}  // namespace ecsia
