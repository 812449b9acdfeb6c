#pragma once
// The determinism scenario (G1): seven systems that spawn, despawn, add, remove, write values and
// trigger observers every frame. The native tests record its hash; the browser tests must match it.

#include <cstdint>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "ecsia/schedule/scheduler.hpp"

namespace ecsia::builtin {

inline constexpr const char* kScenarioSystems[] = {"Spawner", "Move", "Bounce", "Reaper", "Marker", "Pulse", "Drain"};
inline constexpr std::uint32_t kScenarioMovers = 600;

// Spawns the initial movers, adds the scenario's systems to `scheduler` and observers that append
// one word per event to `observer_log` (which must outlive the world).
void setup_scenario(World& world, Scheduler& scheduler, std::uint64_t seed, std::vector<std::uint64_t>& observer_log);

}  // namespace ecsia::builtin
