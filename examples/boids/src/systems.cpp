// The boids' components and systems, registered by name. Nothing else is needed for a page to
// spawn "position"/"velocity" by name and add 'BuildGrid', 'Flock' and 'Integrate' to a scheduler.
#include <cmath>
#include <memory>

#include "boids.hpp"
#include "grid.hpp"

ECSIA_REGISTER_COMPONENT(boids::Position);
ECSIA_REGISTER_COMPONENT(boids::Velocity);

namespace boids {
namespace {

// How strongly each rule steers, per frame.
constexpr float kSeparation = 1.5f;
constexpr float kAlignment = 0.05f;
constexpr float kCohesion = 0.01f;

// The shortest way from a to b on the wrapped axis.
float wrapped_delta(float a, float b) {
    float d = b - a;
    if (d > kWorldSize / 2) d -= kWorldSize;
    if (d < -kWorldSize / 2) d += kWorldSize;
    return d;
}

Velocity steer(const Grid& grid, Position p, Velocity v) {
    const std::int32_t cx = static_cast<std::int32_t>(Grid::cell_of(p.x, p.y) % kCells);
    const std::int32_t cy = static_cast<std::int32_t>(Grid::cell_of(p.x, p.y) / kCells);
    float sum_dx = 0, sum_dy = 0, sum_x = 0, sum_y = 0, sep_x = 0, sep_y = 0;
    std::uint32_t seen = 0;
    for (std::int32_t oy = -1; oy <= 1; ++oy) {
        for (std::int32_t ox = -1; ox <= 1; ++ox) {
            const auto gx = static_cast<std::uint32_t>((cx + ox + std::int32_t(kCells)) % std::int32_t(kCells));
            const auto gy = static_cast<std::uint32_t>((cy + oy + std::int32_t(kCells)) % std::int32_t(kCells));
            const std::uint32_t cell = gy * kCells + gx;
            for (std::uint32_t j = grid.cell_start[cell]; j < grid.cell_start[cell + 1]; ++j) {
                const GridBoid& other = grid.boids[j];
                const float dx = wrapped_delta(p.x, other.x);
                const float dy = wrapped_delta(p.y, other.y);
                const float d2 = dx * dx + dy * dy;
                if (d2 == 0 || d2 > kRadius * kRadius) continue;  // itself (or an exact overlap), or too far
                ++seen;
                sum_dx += other.dx;
                sum_dy += other.dy;
                sum_x += dx;
                sum_y += dy;
                if (d2 < kSeparationRadius * kSeparationRadius) {
                    sep_x -= dx / d2;
                    sep_y -= dy / d2;
                }
            }
        }
    }
    Velocity out = v;
    if (seen > 0) {
        const float n = static_cast<float>(seen);
        out.dx += (sum_dx / n - v.dx) * kAlignment + (sum_x / n) * kCohesion + sep_x * kSeparation * kMaxSpeed;
        out.dy += (sum_dy / n - v.dy) * kAlignment + (sum_y / n) * kCohesion + sep_y * kSeparation * kMaxSpeed;
    }
    const float speed2 = out.dx * out.dx + out.dy * out.dy;
    if (speed2 > kMaxSpeed * kMaxSpeed) {
        const float scale = kMaxSpeed / std::sqrt(speed2);
        out.dx *= scale;
        out.dy *= scale;
    } else if (speed2 > 0 && speed2 < kMinSpeed * kMinSpeed) {
        const float scale = kMinSpeed / std::sqrt(speed2);
        out.dx *= scale;
        out.dy *= scale;
    }
    return out;
}

float wrap(float x) {
    if (x < 0) x += kWorldSize;
    if (x >= kWorldSize) x -= kWorldSize;
    return x;
}

}  // namespace
}  // namespace boids

// BuildGrid: a main-thread system (it runs in the serial slot with the whole world), so the grid
// is complete before Flock's batches start reading it in the next wave.
ECSIA_REGISTER_SYSTEM("BuildGrid", [](ecsia::World& world) {
    const ecsia::ComponentId position = world.component<boids::Position>(), velocity = world.component<boids::Velocity>();
    ecsia::QueryDesc desc;
    desc.with = {position, velocity};
    auto query = std::make_shared<ecsia::Query>(world.query(desc));
    ecsia::SystemDesc system;
    system.reads = {position, velocity};
    system.main_thread = [grid = boids::grid_for(world), query, position, velocity](ecsia::World&, float) {
        grid->build(*query, position, velocity);
    };
    return system;
});

// Flock: batches of boids on the workers; each reads only the grid and writes its own velocity.
ECSIA_REGISTER_SYSTEM("Flock", [](ecsia::World& world) {
    const ecsia::ComponentId position = world.component<boids::Position>(), velocity = world.component<boids::Velocity>();
    ecsia::SystemDesc system;
    system.reads = {position};
    system.writes = {velocity};
    system.after = {"BuildGrid"};  // it needs the grid: without BuildGrid the plan says so
    system.kernel = [grid = boids::grid_for(world), position, velocity](ecsia::KernelContext& ctx) {
        const auto* p = ctx.chunk.read<boids::Position>(position);
        auto* v = ctx.chunk.write<boids::Velocity>(velocity);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) v[i] = boids::steer(*grid, p[i], v[i]);
    };
    return system;
});

// Integrate: moves every boid by its velocity and wraps it around the world.
ECSIA_REGISTER_SYSTEM("Integrate", [](ecsia::World& world) {
    const ecsia::ComponentId position = world.component<boids::Position>(), velocity = world.component<boids::Velocity>();
    ecsia::SystemDesc system;
    system.reads = {velocity};
    system.writes = {position};  // after Flock: Flock reads position (a conflict orders them as added)
    system.kernel = [position, velocity](ecsia::KernelContext& ctx) {
        auto* p = ctx.chunk.write<boids::Position>(position);
        const auto* v = ctx.chunk.read<boids::Velocity>(velocity);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
            p[i].x = boids::wrap(p[i].x + v[i].dx * ctx.dt);
            p[i].y = boids::wrap(p[i].y + v[i].dy * ctx.dt);
        }
    };
    return system;
});

namespace boids {

void spawn_flock(ecsia::World& world, std::uint32_t count, std::uint32_t seed) {
    std::uint32_t state = seed == 0 ? 1 : seed;
    auto next = [&state](std::uint32_t n) {  // xorshift32, an integer in [0, n)
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return state % n;
    };
    for (std::uint32_t i = 0; i < count; ++i) {
        const float x = static_cast<float>(next(8192)) / 8;   // [0, 1024) in steps of 1/8
        const float y = static_cast<float>(next(8192)) / 8;
        const float dx = (static_cast<float>(next(641)) - 320) / 8;  // [-40, 40]
        const float dy = (static_cast<float>(next(641)) - 320) / 8;
        world.spawn(Position{x, y}, Velocity{dx, dy});
    }
}

}  // namespace boids
