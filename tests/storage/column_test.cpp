#include <cstring>

#include <catch2/catch.hpp>

#include "ecsia/schema/component_registry.hpp"
#include "ecsia/storage/column.hpp"
#include "support/test_components.hpp"

using namespace ecsia;

TEST_CASE("a new column row is zero-filled with entity fields null", "[storage]") {
    ComponentRegistry registry;
    const ComponentDesc& desc = registry.desc(registry.register_type<test::Padded>());
    Column column(desc);
    REQUIRE(column.reserve(4, 0));
    // Fill with garbage first: the default must be written, not inherited from fresh memory.
    std::memset(column.data(), 0xCD, 4 * column.element_size());
    column.init_row(2, 1);
    test::Padded value;
    std::memcpy(&value, column.element(2), sizeof value);
    CHECK(value.a == 0);
    CHECK(value.b == 0.0);
    CHECK(value.c == 0);
    CHECK_FALSE(value.d);
    CHECK(value.e.is_null());
    CHECK(value.f == 0.0f);
    CHECK(value.g == 0);
    CHECK(value.h == 0);
    // Neighbouring rows are left alone.
    CHECK(std::to_integer<int>(column.element(1)[0]) == 0xCD);
    CHECK(std::to_integer<int>(column.element(3)[0]) == 0xCD);
}

TEST_CASE("growing a column moves its data and keeps the existing rows", "[storage]") {
    ComponentRegistry registry;
    Column column(registry.desc(registry.register_type<test::Position>()));
    CHECK(column.data() == nullptr);
    REQUIRE(column.reserve(2, 0));
    for (std::uint32_t row = 0; row < 2; ++row) {
        const test::Position p{float(row) + 0.5f, float(row) * 2};
        std::memcpy(column.element(row), &p, sizeof p);
    }
    const std::byte* before = column.data();
    CHECK(column.reserve(64, 2));
    CHECK(column.data() != before);
    for (std::uint32_t row = 0; row < 2; ++row) {
        test::Position p;
        std::memcpy(&p, column.element(row), sizeof p);
        CHECK(p.x == float(row) + 0.5f);
        CHECK(p.y == float(row) * 2);
    }
}

TEST_CASE("a tag column stores no bytes but keeps per-row ticks", "[storage]") {
    ComponentRegistry registry;
    Column column(registry.desc(registry.register_type<test::Enemy>()));
    CHECK(column.element_size() == 0);
    CHECK_FALSE(column.reserve(8, 0));
    CHECK(column.data() == nullptr);
    column.init_row(3, 9);
    CHECK(column.added_ticks()[3] == 9);
    CHECK(column.changed_ticks()[3] == 9);
}

TEST_CASE("marking a row added also marks it changed and raises the column's newest ticks", "[storage]") {
    ComponentRegistry registry;
    Column column(registry.desc(registry.register_type<test::Position>()));
    column.reserve(4, 0);
    column.init_row(0, 3);
    column.init_row(1, 5);
    CHECK(column.added_ticks()[0] == 3);
    CHECK(column.changed_ticks()[1] == 5);
    CHECK(column.max_added_tick() == 5);
    column.mark_changed(0, 8);
    CHECK(column.changed_ticks()[0] == 8);
    CHECK(column.added_ticks()[0] == 3);
    CHECK(column.max_changed_tick() == 8);
    CHECK(column.max_added_tick() == 5);
}

TEST_CASE("moving the last row into a hole carries its bytes and ticks", "[storage]") {
    ComponentRegistry registry;
    Column column(registry.desc(registry.register_type<test::Velocity>()));
    column.reserve(4, 0);
    for (std::uint32_t row = 0; row < 3; ++row) {
        column.init_row(row, row + 1);
        const test::Velocity v{float(row), float(row) * 10};
        std::memcpy(column.element(row), &v, sizeof v);
    }
    column.mark_changed(2, 7);
    column.move_last_into(0, 2);
    test::Velocity v;
    std::memcpy(&v, column.element(0), sizeof v);
    CHECK(v.dx == 2);
    CHECK(v.dy == 20);
    CHECK(column.added_ticks()[0] == 3);
    CHECK(column.changed_ticks()[0] == 7);
}
