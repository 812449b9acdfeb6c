#pragma once
// The DESIGN.md benchmark workloads' entities and the systems only benchmarks need, shared by the
// native benchmarks (bench/) and the browser benchmark page (through the wasm module), so both
// sides measure the same entities and the same kernels.

#include <atomic>
#include <cstdint>
#include <memory>

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

// What the *tracked* workload's drainer has seen: rows drained, and an order-free checksum of the
// x values it summed (so the sums cannot be optimised away, and equal runs agree).
struct DrainTotals {
    std::atomic<std::uint64_t> rows{0};
    std::atomic<std::uint32_t> checksum{0};
};

// "SumMoved": reads position through a changed<position> filter since its own last run and sums x
// (the *tracked* workload's drainer). Totals go to `totals` when given.
SystemDesc make_sum_moved_system(ComponentId position, std::shared_ptr<DrainTotals> totals = nullptr);

// "Idle": a kernel that does nothing over the entities with position (the *fence* workload).
SystemDesc make_idle_system(ComponentId position);

}  // namespace ecsia::builtin
