#pragma once
// The uniform grid BuildGrid fills and Flock reads: boids sorted by cell (a counting sort, so the
// order inside a cell is the world's iteration order: the same in every build), each a copy of
// its position and velocity. One grid per world, shared by the two systems' kernels.
//
// The engine has no per-world "resources" yet, so the grid is owned by the systems that use it:
// grid_for(world) gives every factory of one world the same grid, and it goes when they do.
// Thread rule: grid_for on the main thread (factories); BuildGrid writes the grid in the serial
// slot, Flock's batches only read it during the next wave.

#include <cstdint>
#include <memory>
#include <vector>

#include "boids.hpp"

namespace boids {

struct GridBoid {
    float x, y, dx, dy;
};

struct Grid {
    std::vector<std::uint32_t> cell_start;  // kCells * kCells + 1 offsets into `boids`
    std::vector<GridBoid> boids;            // sorted by cell

    static std::uint32_t cell_of(float x, float y);
    // `boids`: a query over position and velocity of the world whose boids are sorted.
    void build(ecsia::Query& boids, ecsia::ComponentId position, ecsia::ComponentId velocity);
};

std::shared_ptr<Grid> grid_for(ecsia::World& world);

}  // namespace boids
