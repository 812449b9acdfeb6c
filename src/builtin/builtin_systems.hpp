#pragma once
// Built-in systems, compiled into every build and registered by name: the DESIGN.md workloads
// (Move, Heavy0..Heavy7; SumMoved and Idle from builtin/workloads.hpp), the demo's Attract, and
// a small living scenario (Spawner, Bounce, Reaper, Marker, Pulse, Drain) that changes structure
// every frame. Tests, benchmarks, the wasm module and the demo use
// these same kernels, so a hash recorded natively can be compared with one computed in a browser.
// All randomness is a hash of (seed, frame, entity): independent of batching and threads.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "builtin/components.hpp"
#include "ecsia/schedule/system.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia::builtin {

struct BuiltinIds {
    ComponentId position, velocity, age, energy, seen, marked;
    std::array<ComponentId, 8> heavy;  // "heavy0".."heavy7", each {a, b: f32}
};

struct BuiltinConfig {
    std::uint64_t seed = 1;
    std::uint32_t spawns_per_frame = 32;
    std::uint32_t spawn_reservation = 32;  // handles reserved per Spawner batch; fewer exercises overflow
    std::uint32_t max_age = 90;            // Reaper despawns entities this many frames old
    std::uint32_t heavy_steps = 512;       // sub-steps per entity per frame in Heavy*
};

// Registers every built-in component (idempotent: returns the existing ids on a second call).
BuiltinIds register_builtin_components(World& world);
std::vector<std::string> builtin_system_names();
// Throws BadValue naming the unknown system.
SystemDesc make_builtin_system(World& world, std::string_view name, const BuiltinConfig& config = {});
// The heavy kernel over any {a, b: f32} component (the one-system variant of the workload).
SystemDesc make_heavy_system(std::string name, ComponentId component, std::uint32_t steps);

// Spawns `count` moving entities (position, velocity, age, energy, seen) from `seed`.
void spawn_movers(World& world, std::uint32_t count, std::uint64_t seed);
// Spawns `per_group` entities in each heavy group, values from `seed` (zeros when seed == 0).
void spawn_heavy(World& world, std::uint32_t per_group, std::uint64_t seed);

}  // namespace ecsia::builtin
