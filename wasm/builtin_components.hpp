#pragma once
// Components every world made through the JS API starts with: the *move* workload's
// position {x, y: f32} and velocity {dx, dy: f32} (DESIGN.md, reference workloads). The structs
// are the built-in systems' own (src/builtin/components.hpp), so a JS view over a "position"
// column and the Move kernel see the same bytes; this header only decides what a new world holds.

#include "builtin/components.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia::wasm {

// Serial phase only. Registers position then velocity, the first two ids of
// builtin::register_builtin_components, so a world that later gets the rest of the built-in
// components (the scheduler's) has the same ids, and so the same state hash, as a native one.
inline void register_world_components(World& world) {
    world.component<builtin::Position>();
    world.component<builtin::Velocity>();
}

}  // namespace ecsia::wasm
