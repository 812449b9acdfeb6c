#pragma once
// Components of the built-in systems (tests, benchmarks, the wasm module and the demo share them).

#include <cstdint>

#include "ecsia/schema/component_traits.hpp"

namespace ecsia::builtin {

struct Position { float x, y; };
struct Velocity { float dx, dy; };
struct Age { std::uint32_t frames; };          // frames since spawn; the Reaper despawns old ones
struct Energy { float value; };                // written by Pulse, drained by a `changed` filter
struct Seen { std::uint32_t count; };           // how many changes the drainer observed
struct Marked { std::uint32_t since_frame; };  // added/removed as entities cross the middle line
struct Heavy { float a, b; };                  // heavy0..heavy7 share this layout

// The world the built-in systems live in: [0, kWorldSize) squared.
inline constexpr float kWorldSize = 1000.0f;

}  // namespace ecsia::builtin

ECSIA_COMPONENT(ecsia::builtin::Position, "position", x, y)
ECSIA_COMPONENT(ecsia::builtin::Velocity, "velocity", dx, dy)
ECSIA_COMPONENT(ecsia::builtin::Age, "age", frames)
ECSIA_COMPONENT(ecsia::builtin::Energy, "energy", value)
ECSIA_COMPONENT(ecsia::builtin::Seen, "seen", count)
ECSIA_COMPONENT(ecsia::builtin::Marked, "marked", since_frame)
