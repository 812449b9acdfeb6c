#include "builtin/workloads.hpp"

#include <atomic>
#include <cstring>
#include <memory>
#include <string>

#include "builtin/builtin_systems.hpp"
#include "builtin/deterministic_math.hpp"
#include "ecsia/base/error.hpp"
#include "ecsia/world/world_access.hpp"

namespace ecsia::builtin {

Position move_workload_position(std::uint32_t i) { return {static_cast<float>(i % 1000), static_cast<float>(i / 1000)}; }

Velocity move_workload_velocity(std::uint32_t i) {
    return {static_cast<float>(i % 7) * 0.25f - 0.75f, static_cast<float>(i % 5) * 0.5f - 1.0f};
}

void spawn_move_workload(World& world, std::uint32_t count) {
    detail::WorldAccess::require_spawn_capacity(world, count, "spawn_move_workload");
    (void)register_builtin_components(world);
    for (std::uint32_t i = 0; i < count; ++i) world.spawn(move_workload_position(i), move_workload_velocity(i));
}

void spawn_heavy_group(World& world, std::uint32_t group, std::uint32_t count, std::uint64_t seed) {
    const BuiltinIds ids = register_builtin_components(world);
    if (group >= ids.heavy.size()) {
        throw Error(ErrorCode::BadValue, "heavy group must be 0..7, got " + std::to_string(group));
    }
    detail::WorldAccess::require_spawn_capacity(world, count, "spawn_heavy_group");
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint64_t h = mix(seed, group, i);
        const Heavy value = seed == 0 ? Heavy{0, 0} : Heavy{unit(mix(h, 1)), unit(mix(h, 2))};
        const ComponentValue v{ids.heavy[group], &value, sizeof value};
        world.spawn_with({&v, 1});
    }
}

namespace {

using Float4 = float __attribute__((vector_size(16)));

}  // namespace

// Four independent 4-float chains (eight rows per step): float addition is not reassociated at
// -O3, so a plain `total += x` would time one dependency chain instead of the read of the rows.
float sum_position_x(const Position* position, std::uint32_t rows) {
    Float4 sums[4] = {};
    std::uint32_t i = 0;
    for (; i + 8 <= rows; i += 8) {
        for (int k = 0; k < 4; ++k) {
            Float4 pair;
            std::memcpy(&pair, position + i + 2 * k, sizeof pair);  // {x, y} of two rows
            sums[k] += pair;
        }
    }
    const Float4 all = (sums[0] + sums[1]) + (sums[2] + sums[3]);
    float total = all[0] + all[2];
    for (; i < rows; ++i) total += position[i].x;
    return total;
}

SystemDesc make_sum_moved_system(ComponentId position) {
    auto checksum = std::make_shared<std::atomic<std::uint32_t>>(0);
    SystemDesc system;
    system.name = "SumMoved";
    system.reads = {position};
    system.query.with = {position};
    system.query.changed = {position};
    system.query_set = true;
    system.kernel = [position, checksum](KernelContext& ctx) {
        const float sum = sum_position_x(ctx.chunk.read<Position>(position), ctx.chunk.size());
        std::uint32_t bits = 0;
        std::memcpy(&bits, &sum, sizeof bits);
        // relaxed: nobody reads the word; the atomic only keeps the sum (order-free xor) alive.
        checksum->fetch_xor(bits, std::memory_order_relaxed);
    };
    return system;
}

SystemDesc make_idle_system(ComponentId position) {
    SystemDesc system;
    system.name = "Idle";
    system.reads = {position};
    system.kernel = [](KernelContext&) {};
    return system;
}

}  // namespace ecsia::builtin
