#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <catch2/catch.hpp>

#include "ecsia/schema/field_type.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

namespace {

constexpr FieldType kAllTypes[] = {FieldType::F32, FieldType::F64, FieldType::I8,  FieldType::I16,  FieldType::I32,
                                   FieldType::U8,  FieldType::U16, FieldType::U32, FieldType::Bool, FieldType::Entity};

// Encodes into a buffer pre-filled with 0xAB, so a rejected encode can be seen to leave it alone.
std::string encode_code(FieldType type, double value, unsigned char (&out)[8]) {
    std::memset(out, 0xAB, sizeof out);
    return test::thrown_code([&] { encode_field(type, value, out, "f"); });
}

bool untouched(const unsigned char (&out)[8]) {
    for (unsigned char byte : out) {
        if (byte != 0xAB) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("every field type has its fixed size and name", "[schema]") {
    CHECK(field_size(FieldType::F32) == 4);
    CHECK(field_size(FieldType::F64) == 8);
    CHECK(field_size(FieldType::I8) == 1);
    CHECK(field_size(FieldType::I16) == 2);
    CHECK(field_size(FieldType::I32) == 4);
    CHECK(field_size(FieldType::U8) == 1);
    CHECK(field_size(FieldType::U16) == 2);
    CHECK(field_size(FieldType::U32) == 4);
    CHECK(field_size(FieldType::Bool) == 1);
    CHECK(field_size(FieldType::Entity) == 4);
    CHECK(field_type_name(FieldType::F32) == "f32");
    CHECK(field_type_name(FieldType::F64) == "f64");
    CHECK(field_type_name(FieldType::I8) == "i8");
    CHECK(field_type_name(FieldType::I16) == "i16");
    CHECK(field_type_name(FieldType::I32) == "i32");
    CHECK(field_type_name(FieldType::U8) == "u8");
    CHECK(field_type_name(FieldType::U16) == "u16");
    CHECK(field_type_name(FieldType::U32) == "u32");
    CHECK(field_type_name(FieldType::Bool) == "bool");
    CHECK(field_type_name(FieldType::Entity) == "entity");
}

TEST_CASE("parse_field_type reads back every type name and nothing else", "[schema]") {
    for (FieldType type : kAllTypes) {
        INFO(std::string(field_type_name(type)));
        REQUIRE(parse_field_type(field_type_name(type)).has_value());
        CHECK(*parse_field_type(field_type_name(type)) == type);
    }
    for (const char* bad : {"", "float", "F32", "f16", "i64", "u64", "int", "f32 ", "Entity", "boolean"}) {
        INFO("'" << bad << "'");
        CHECK_FALSE(parse_field_type(bad).has_value());
    }
}

TEST_CASE("C++ member types map to their field types", "[schema]") {
    STATIC_REQUIRE(field_type_of<float>() == FieldType::F32);
    STATIC_REQUIRE(field_type_of<double>() == FieldType::F64);
    STATIC_REQUIRE(field_type_of<std::int8_t>() == FieldType::I8);
    STATIC_REQUIRE(field_type_of<std::int16_t>() == FieldType::I16);
    STATIC_REQUIRE(field_type_of<std::int32_t>() == FieldType::I32);
    STATIC_REQUIRE(field_type_of<std::uint8_t>() == FieldType::U8);
    STATIC_REQUIRE(field_type_of<std::uint16_t>() == FieldType::U16);
    STATIC_REQUIRE(field_type_of<std::uint32_t>() == FieldType::U32);
    STATIC_REQUIRE(field_type_of<bool>() == FieldType::Bool);
    STATIC_REQUIRE(field_type_of<Entity>() == FieldType::Entity);
}

TEST_CASE("integer fields round-trip every value at the ends of their range", "[schema]") {
    struct Case {
        FieldType type;
        double lo, hi;
    };
    const Case cases[] = {{FieldType::I8, -128, 127},
                          {FieldType::I16, -32768, 32767},
                          {FieldType::I32, -2147483648.0, 2147483647.0},
                          {FieldType::U8, 0, 255},
                          {FieldType::U16, 0, 65535},
                          {FieldType::U32, 0, 4294967295.0},
                          {FieldType::Entity, 0, 4294967295.0}};
    for (const Case& c : cases) {
        INFO(std::string(field_type_name(c.type)));
        for (double v : {c.lo, c.lo + 1, 0.0, c.hi - 1, c.hi}) {
            unsigned char out[8];
            REQUIRE(encode_code(c.type, v, out) == "no error");
            CHECK(decode_field(c.type, out) == v);
        }
    }
}

TEST_CASE("encode_field rejects out-of-range integers with BadValue and writes nothing", "[schema]") {
    struct Case {
        FieldType type;
        double below, above;
    };
    const Case cases[] = {{FieldType::I8, -129, 128},
                          {FieldType::I16, -32769, 32768},
                          {FieldType::I32, -2147483649.0, 2147483648.0},
                          {FieldType::U8, -1, 256},
                          {FieldType::U16, -1, 65536},
                          {FieldType::U32, -1, 4294967296.0},
                          {FieldType::Entity, -1, 4294967296.0}};
    for (const Case& c : cases) {
        INFO(std::string(field_type_name(c.type)));
        unsigned char out[8];
        CHECK(encode_code(c.type, c.below, out) == "BadValue");
        CHECK(untouched(out));
        CHECK(encode_code(c.type, c.above, out) == "BadValue");
        CHECK(untouched(out));
    }
}

TEST_CASE("encode_field rejects fractional and non-finite integers with BadValue", "[schema]") {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (FieldType type : {FieldType::I8, FieldType::I16, FieldType::I32, FieldType::U8, FieldType::U16,
                           FieldType::U32, FieldType::Entity}) {
        INFO(std::string(field_type_name(type)));
        for (double v : {0.5, 1.25, -0.5, 100.001, inf, -inf, nan}) {
            INFO("value " << v);
            unsigned char out[8];
            CHECK(encode_code(type, v, out) == "BadValue");
            CHECK(untouched(out));
        }
    }
}

TEST_CASE("bool fields take only 0 and 1", "[schema]") {
    unsigned char out[8];
    REQUIRE(encode_code(FieldType::Bool, 1, out) == "no error");
    CHECK(out[0] == 1);
    CHECK(decode_field(FieldType::Bool, out) == 1.0);
    REQUIRE(encode_code(FieldType::Bool, 0, out) == "no error");
    CHECK(out[0] == 0);
    CHECK(decode_field(FieldType::Bool, out) == 0.0);
    for (double v : {2.0, -1.0, 0.5, 255.0, std::numeric_limits<double>::quiet_NaN()}) {
        INFO("value " << v);
        CHECK(encode_code(FieldType::Bool, v, out) == "BadValue");
        CHECK(untouched(out));
    }
}

TEST_CASE("NaN is rejected in every field type, Infinity is kept in f32 and f64", "[schema]") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (FieldType type : {FieldType::F32, FieldType::F64, FieldType::I8, FieldType::I16, FieldType::I32, FieldType::U8,
                           FieldType::U16, FieldType::U32, FieldType::Bool, FieldType::Entity}) {
        INFO(std::string(field_type_name(type)));
        unsigned char out[8];
        CHECK(encode_code(type, nan, out) == "BadValue");
        CHECK(encode_code(type, -nan, out) == "BadValue");
        CHECK(untouched(out));
    }
    const double inf = std::numeric_limits<double>::infinity();
    for (FieldType type : {FieldType::F32, FieldType::F64}) {
        unsigned char out[8];
        REQUIRE(encode_code(type, -inf, out) == "no error");
        CHECK(decode_field(type, out) == -inf);
    }
}

TEST_CASE("f32 fields reject finite values beyond float range and keep the rest", "[schema]") {
    unsigned char out[8];
    CHECK(encode_code(FieldType::F32, 1e39, out) == "BadValue");
    CHECK(untouched(out));
    CHECK(encode_code(FieldType::F32, -1e39, out) == "BadValue");
    REQUIRE(encode_code(FieldType::F32, 1.5, out) == "no error");
    CHECK(decode_field(FieldType::F32, out) == 1.5);
    REQUIRE(encode_code(FieldType::F32, 3.4028234663852886e38, out) == "no error");
    CHECK(decode_field(FieldType::F32, out) == double(std::numeric_limits<float>::max()));
    REQUIRE(encode_code(FieldType::F32, std::numeric_limits<double>::infinity(), out) == "no error");
    CHECK(std::isinf(decode_field(FieldType::F32, out)));
}

TEST_CASE("f64 fields hold any double bit for bit", "[schema]") {
    for (double v : {0.1, -1e300, 5e-324, std::numeric_limits<double>::infinity()}) {
        unsigned char out[8];
        REQUIRE(encode_code(FieldType::F64, v, out) == "no error");
        CHECK(decode_field(FieldType::F64, out) == v);
    }
}

TEST_CASE("an encode error names the field and its type", "[schema]") {
    unsigned char out[8];
    const std::string message = test::thrown_message([&] { encode_field(FieldType::U8, 300, out, "hitpoints"); });
    CHECK_THAT(message, Catch::Matchers::Contains("hitpoints") && Catch::Matchers::Contains("u8"));
}
