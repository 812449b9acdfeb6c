#include "builtin/scenario.hpp"

#include <cstring>

namespace ecsia::builtin {

void setup_scenario(World& world, Scheduler& scheduler, std::uint64_t seed, std::vector<std::uint64_t>& observer_log) {
    const BuiltinIds ids = register_builtin_components(world);
    BuiltinConfig config;
    config.seed = seed;
    config.spawns_per_frame = 24;
    config.spawn_reservation = 16;  // a third of the spawns take the overflow path every frame
    spawn_movers(world, kScenarioMovers, seed);
    for (const char* name : kScenarioSystems) scheduler.add_system(make_builtin_system(world, name, config));

    auto log = [&observer_log](std::uint64_t kind, const ObserverContext& ctx, std::uint32_t payload) {
        observer_log.push_back((kind << 60) ^ (std::uint64_t(ctx.entity.bits) << 28) ^ payload);
    };
    world.observe(ObserverEvent::OnAdd, ids.marked, [log](ObserverContext& ctx) {
        log(1, ctx, ctx.world.get<Marked>(ctx.entity).since_frame);
    });
    world.observe(ObserverEvent::OnRemove, ids.marked, [log](ObserverContext& ctx) { log(2, ctx, 0); });
    // Despawn observers still read the values: the log includes the dying entity's x bits.
    world.observe(ObserverEvent::OnRemove, ids.position, [log](ObserverContext& ctx) {
        const float x = ctx.world.get<Position>(ctx.entity).x;
        std::uint32_t bits;
        std::memcpy(&bits, &x, 4);
        log(3, ctx, bits & 0x0FFFFFFF);
    });
    // A change observer that records a structural change through its command buffer.
    world.observe(ObserverEvent::OnChange, ids.seen, [log, ids](ObserverContext& ctx) {
        const Seen& seen = ctx.world.get<Seen>(ctx.entity);
        if (seen.count == 5) {
            log(4, ctx, seen.count);
            ctx.commands.remove(ctx.entity, ids.marked);
        }
    });
}

}  // namespace ecsia::builtin
