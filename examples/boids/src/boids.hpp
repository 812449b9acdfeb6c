#pragma once
// Boids: separation, alignment and cohesion over a uniform grid. Three C++ systems, registered by
// name so a page (scheduler.addSystem('Flock')) and a native program (ecsia::make_system) add them
// the same way:
//
//   BuildGrid  main thread  sorts every boid into the cell of a uniform grid (a copy of its
//                           position and velocity), once per frame
//   Flock      workers      steers each boid by its neighbours in the 3x3 cells around it, read
//                           from that grid (never from other boids' columns, which Flock writes)
//   Integrate  workers      moves each boid and wraps it around the square world (a torus)
//
// Every value is f32 arithmetic with + - * / and sqrt only (correctly rounded on every platform),
// so a frame gives the same bytes natively, in the threaded and in the single browser module.

#include <cstdint>

#include "ecsia/ecsia.hpp"

namespace boids {

struct Position {
    float x, y;
};
struct Velocity {
    float dx, dy;
};

inline constexpr float kWorldSize = 1024.0f;  // the world is [0, kWorldSize) squared, wrapped
inline constexpr float kRadius = 32.0f;       // a boid sees neighbours this close: the grid's cell size
inline constexpr std::uint32_t kCells = static_cast<std::uint32_t>(kWorldSize / kRadius);  // per side
inline constexpr float kSeparationRadius = 10.0f;
inline constexpr float kMinSpeed = 20.0f;
inline constexpr float kMaxSpeed = 80.0f;

// The initial flock: `count` boids from `seed`, every value a multiple of 1/8 (exact in f32), by a
// xorshift32 sequence the example's page repeats in JS (examples/boids/main.js).
void spawn_flock(ecsia::World& world, std::uint32_t count, std::uint32_t seed);

}  // namespace boids

ECSIA_COMPONENT(boids::Position, "position", x, y)
ECSIA_COMPONENT(boids::Velocity, "velocity", dx, dy)
