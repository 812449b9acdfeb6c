#include "grid.hpp"

#include <map>

namespace boids {

std::uint32_t Grid::cell_of(float x, float y) {
    // Positions are wrapped into [0, kWorldSize), so the cell is in range; clamp anyway so a value
    // a hair under kWorldSize that rounds up never indexes past the grid.
    auto axis = [](float v) {
        const auto c = static_cast<std::int32_t>(v / kRadius);
        return static_cast<std::uint32_t>(c < 0 ? 0 : (c >= std::int32_t(kCells) ? std::int32_t(kCells) - 1 : c));
    };
    return axis(y) * kCells + axis(x);
}

void Grid::build(ecsia::Query& query, ecsia::ComponentId position, ecsia::ComponentId velocity) {
    std::vector<GridBoid> unsorted;
    std::vector<std::uint32_t> cells;
    query.for_each_chunk([&](ecsia::Chunk& chunk) {
        const auto* p = chunk.read<Position>(position);
        const auto* v = chunk.read<Velocity>(velocity);
        for (std::uint32_t i = 0; i < chunk.size(); ++i) {
            unsorted.push_back({p[i].x, p[i].y, v[i].dx, v[i].dy});
            cells.push_back(cell_of(p[i].x, p[i].y));
        }
    });
    cell_start.assign(kCells * kCells + 1, 0);
    for (std::uint32_t cell : cells) ++cell_start[cell + 1];
    for (std::size_t c = 1; c < cell_start.size(); ++c) cell_start[c] += cell_start[c - 1];
    this->boids.resize(unsorted.size());
    std::vector<std::uint32_t> next(cell_start.begin(), cell_start.end() - 1);
    for (std::size_t i = 0; i < unsorted.size(); ++i) this->boids[next[cells[i]]++] = unsorted[i];
}

std::shared_ptr<Grid> grid_for(ecsia::World& world) {
    // Factories run on the main thread only, so this map needs no lock. weak_ptr: a world's grid
    // lives as long as a system of that world holds it; a later world at the same address gets
    // a new one.
    static std::map<const ecsia::World*, std::weak_ptr<Grid>> grids;
    std::weak_ptr<Grid>& slot = grids[&world];
    std::shared_ptr<Grid> grid = slot.lock();
    if (!grid) {
        grid = std::make_shared<Grid>();
        slot = grid;
    }
    return grid;
}

}  // namespace boids
