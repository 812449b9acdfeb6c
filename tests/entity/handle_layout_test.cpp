#include <catch2/catch.hpp>

#include <vector>

#include "ecsia/base/error.hpp"
#include "ecsia/entity/entity.hpp"
#include "ecsia/entity/pending_scan.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

TEST_CASE("the default handle layout has 22 index bits and 10 generation bits", "[entity]") {
    const HandleLayout layout;
    CHECK(layout.index_bits() == 22);
    CHECK(layout.generation_bits() == 10);
    CHECK(layout.index_mask() == 0x3FFFFFu);
    CHECK(layout.max_generation() == 0x3FFu);
    CHECK(layout.max_slots() == 0x3FFFFFu);

    const Entity e = layout.make(0x12345, 0x2AB);
    CHECK(e.bits == ((0x2ABu << 22) | 0x12345u));
    CHECK(layout.index(e) == 0x12345u);
    CHECK(layout.generation(e) == 0x2ABu);
}

TEST_CASE("the null handle is all ones and is what a default Entity holds", "[entity]") {
    CHECK(Entity{}.bits == 0xFFFFFFFFu);
    CHECK(Entity::null().bits == 0xFFFFFFFFu);
    CHECK(kNullEntity.is_null());
    CHECK(Entity{}.is_null());
    CHECK_FALSE(Entity{0}.is_null());
    CHECK_FALSE(Entity{0xFFFFFFFEu}.is_null());
    // The all-ones index is never a slot, so no live handle can collide with null in any layout.
    for (unsigned bits = 1; bits <= 31; ++bits) {
        const HandleLayout layout(bits);
        INFO("index bits " << bits);
        CHECK(layout.max_slots() == layout.index_mask());
        CHECK_FALSE(layout.make(layout.max_slots() - 1, layout.max_live_generation()).is_null());
    }
}

TEST_CASE("a custom layout splits the 32 bits at the requested index width", "[entity]") {
    for (unsigned bits : {1u, 8u, 16u, 20u, 30u, 31u}) {
        INFO("index bits " << bits);
        const HandleLayout layout(bits);
        CHECK(layout.index_bits() == bits);
        CHECK(layout.generation_bits() == 32 - bits);
        CHECK(layout.index_mask() == (1u << bits) - 1u);
        CHECK(layout.max_generation() == (0xFFFFFFFFu >> bits));
        CHECK(layout.max_live_generation() == layout.max_generation() - 1);

        const std::uint32_t index = layout.max_slots() - 1;  // the highest slot a handle may name
        const std::uint32_t generation = layout.max_live_generation();
        const Entity e = layout.make(index, generation);
        CHECK(layout.index(e) == index);
        CHECK(layout.generation(e) == generation);
    }
}

TEST_CASE("a world created with a custom layout hands out handles in that layout", "[entity][world]") {
    WorldOptions options;
    options.index_bits = 12;
    options.max_entities = 100;
    World world(options);
    const HandleLayout& layout = world.entities().layout();
    CHECK(layout.index_bits() == 12);
    const Entity first = world.spawn();
    world.despawn(first);
    const Entity second = world.spawn();
    CHECK(second.bits == ((1u << 12) | 0u));
    CHECK(layout.index(second) == 0);
    CHECK(layout.generation(second) == 1);
}

TEST_CASE("a layout with no index bits or more than 31 is a BadDefinition", "[entity]") {
    for (unsigned bits : {0u, 32u, 33u, 64u}) {
        INFO("index bits " << bits);
        CHECK(test::thrown_code([&] { HandleLayout layout(bits); }) == "BadDefinition");
        CHECK(test::thrown_code([&] {
                  WorldOptions options;
                  options.index_bits = bits;
                  World world(options);
              }) == "BadDefinition");
    }
}

TEST_CASE("a bad layout's error message names the requested width", "[entity]") {
    CHECK_THAT(test::thrown_message([] { HandleLayout layout(40); }), Catch::Matchers::Contains("40"));
}

TEST_CASE("pending handles carry the reserved top generation and are never null or live", "[entity]") {
    const HandleLayout layout(20);
    const Entity pending = layout.pending(7);
    CHECK(layout.is_pending(pending));
    CHECK_FALSE(pending.is_null());
    CHECK(layout.index(pending) == 7);
    CHECK(layout.generation(pending) == layout.max_generation());
    CHECK_FALSE(layout.is_pending(layout.make(7, layout.max_live_generation())));
    CHECK_FALSE(layout.is_pending(kNullEntity));
}

TEST_CASE("is_pending is exactly 'the top generation and not null' in every layout", "[entity]") {
    // is_pending is one unsigned compare; checked against the definition at every index width, on
    // the handles around each boundary (generation steps, the top generation's first and last).
    for (unsigned bits = 1; bits <= 31; ++bits) {
        CAPTURE(bits);
        const HandleLayout layout(bits);
        const std::uint32_t top = layout.pending(0).bits;
        std::uint32_t wrong = 0;
        for (const std::uint32_t around : {0u, 1u, layout.index_mask(), top - 1, top, top + 1, 0xFFFFFFFEu, 0xFFFFFFFFu,
                                           (1u << bits), (1u << bits) - 1, top - (1u << bits)}) {
            for (std::uint32_t delta = 0; delta < 3; ++delta) {
                const Entity e{around + delta - 1};
                const bool defined = !e.is_null() && layout.generation(e) == layout.max_generation();
                if (layout.is_pending(e) != defined) ++wrong;
            }
        }
        CHECK(wrong == 0);
    }
}

TEST_CASE("any_pending finds one pending handle wherever it lies, in the steps of four or after them", "[entity]") {
    for (const unsigned bits : {1u, 10u, 22u, 31u}) {
        CAPTURE(bits);
        const HandleLayout layout(bits);
        std::uint32_t wrong = 0;
        for (std::uint32_t count = 0; count <= 13; ++count) {
            // Live handles of every generation but the top one, and the null handle: none pending.
            std::vector<std::uint32_t> handles(count);
            for (std::uint32_t i = 0; i < count; ++i) {
                const std::uint32_t generation = i % 2 == 0 ? layout.max_live_generation() : 0;
                handles[i] = i % 5 == 4 ? kNullEntity.bits : layout.make(i & layout.index_mask(), generation).bits;
            }
            if (any_pending(layout, handles.data(), count)) ++wrong;
            for (std::uint32_t at = 0; at < count; ++at) {
                std::vector<std::uint32_t> one = handles;
                one[at] = layout.pending(at % 2 == 0 ? 0 : layout.index_mask() - 1).bits;  // the first and last pending handles
                if (!any_pending(layout, one.data(), count)) ++wrong;
            }
        }
        CHECK(wrong == 0);
    }
}
