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

}  // namespace test

ECSIA_COMPONENT(test::Position, "position", x, y)
ECSIA_COMPONENT(test::Velocity, "velocity", dx, dy)
ECSIA_COMPONENT(test::Health, "health", hp, alive, regen)
ECSIA_COMPONENT(test::Target, "target", who)
ECSIA_TAG(test::Enemy, "enemy")
