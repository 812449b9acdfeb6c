#pragma once
// Components shared by the tests. Layout mirrors the DESIGN.md workloads.

#include <cstdint>

#include "ecsia/ecsia.hpp"

namespace test {

struct Position {
    float x, y;
};
struct Velocity {
    float dx, dy;
};
struct Health {
    std::int32_t hp;
    bool alive;
    double regen;
};
struct Target {
    ecsia::Entity who;
};
struct Enemy {};

// Every integer type once, in an order that needs padding, so layouts are checked against the compiler.
struct Padded {
    std::uint8_t a;
    double b;
    std::int16_t c;
    bool d;
    ecsia::Entity e;
    float f;
    std::int8_t g;
    std::uint16_t h;
};
struct Counter {
    std::uint32_t n;
    std::int8_t delta;
};
struct Frozen {};

}  // namespace test

ECSIA_COMPONENT(test::Position, "position", x, y)
ECSIA_COMPONENT(test::Velocity, "velocity", dx, dy)
ECSIA_COMPONENT(test::Health, "health", hp, alive, regen)
ECSIA_COMPONENT(test::Target, "target", who)
ECSIA_TAG(test::Enemy, "enemy")
ECSIA_COMPONENT(test::Padded, "padded", a, b, c, d, e, f, g, h)
ECSIA_COMPONENT(test::Counter, "counter", n, delta)
ECSIA_TAG(test::Frozen, "frozen")
