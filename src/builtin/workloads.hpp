#pragma once
// The DESIGN.md benchmark workloads' entities and the systems only benchmarks need, shared by the
// native benchmarks (bench/) and the browser benchmark page (through the wasm module), so both
// sides measure the same entities and the same kernels.

#include <cstdint>

#include "builtin/components.hpp"
#include "ecsia/schedule/system.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia::builtin {

// The *move* workload's initial values for entity i (also the plain-loop baselines').
Position move_workload_position(std::uint32_t i);
Velocity move_workload_velocity(std::uint32_t i);

// Spawns `count` entities with only position and velocity (the *move* and *tracked* workloads).
void spawn_move_workload(World& world, std::uint32_t count);

// Spawns `count` entities into heavy group `group` (0..7) only: the one-system *heavy* variant.
void spawn_heavy_group(World& world, std::uint32_t group, std::uint32_t count, std::uint64_t seed);

// The sum of `rows` positions' x: the *tracked* drainer's read of the changed rows (native
// benchmarks call it too, so both sides time the same code).
float sum_position_x(const Position* position, std::uint32_t rows);

// "SumMoved": reads position through a changed<position> filter since its own last run and sums x
// (the *tracked* workload's drainer). Each batch folds its sum into a shared word, so the read
// cannot be optimised away.
SystemDesc make_sum_moved_system(ComponentId position);

// "Idle": a kernel that does nothing over the entities with position (the *fence* workload).
SystemDesc make_idle_system(ComponentId position);

}  // namespace ecsia::builtin
