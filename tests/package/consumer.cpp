// Uses every part ecsia/ecsia.hpp promises (world, queries, commands, observers, scheduler,
// registry, state hash) from that one include, through an installed package or add_subdirectory.
// Exits 0 only when each part did what it should; prints what failed otherwise.
#include "ecsia/ecsia.hpp"

#include <cstdio>
#include <string>
#include <vector>

struct Position {
    float x, y;
};
struct Velocity {
    float dx, dy;
};
struct Frozen {};
ECSIA_COMPONENT(Position, "position", x, y)
ECSIA_COMPONENT(Velocity, "velocity", dx, dy)
ECSIA_TAG(Frozen, "frozen")
ECSIA_REGISTER_COMPONENT(Position);
ECSIA_REGISTER_COMPONENT(Velocity);

// Spawns a frozen copy of every entity that moved past x = 1, through the batch's command buffer.
ECSIA_REGISTER_SYSTEM("Split", [](ecsia::World& world) {
    const auto position = world.component<Position>(), frozen = world.component<Frozen>();
    ecsia::SystemDesc system;
    system.reads = {position};
    system.query.with = {position};
    system.query.without = {frozen};
    system.query_set = true;
    system.spawns_per_batch = 128;  // handles reserved per batch: a spawn beyond them is reported (G3)
    system.kernel = [position, frozen](ecsia::KernelContext& ctx) {
        const auto* p = ctx.chunk.read<Position>(position);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
            if (p[i].x > 1.0f) {
                const Position copy = p[i];
                const ecsia::ComponentValue values[] = {{position, &copy, sizeof copy}, {frozen, nullptr, 0}};
                ctx.spawn(values, 2);
            }
        }
    };
    return system;
});

ECSIA_REGISTER_SYSTEM("Move", [](ecsia::World& world) {
    const auto position = world.component<Position>(), velocity = world.component<Velocity>();
    ecsia::SystemDesc system;
    system.reads = {velocity};
    system.writes = {position};
    system.kernel = [position, velocity](ecsia::KernelContext& ctx) {
        auto* p = ctx.chunk.write<Position>(position);
        const auto* v = ctx.chunk.read<Velocity>(velocity);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) p[i].x += v[i].dx * ctx.dt;
    };
    return system;
});

int main() {
    int failures = 0;
    auto check = [&](bool ok, const char* what) {
        if (!ok) {
            std::printf("FAILED: %s\n", what);
            ++failures;
        }
    };
    std::vector<std::string> hashes;
    for (std::uint32_t workers : {0u, 2u}) {
        ecsia::World world;  // position and velocity from construction
        // Registered components come right after the built-ins (the relations ChildOf and IsA,
        // then the hidden Prefab tag).
        check(world.component_id("position") == ecsia::World::kPrefab + 1 &&
                  world.component_id("velocity") == ecsia::World::kPrefab + 2,
              "registered components");
        std::uint32_t added = 0;
        world.observe(ecsia::ObserverEvent::OnAdd, world.component<Frozen>(), [&](ecsia::ObserverContext&) { ++added; });
        for (int i = 0; i < 100; ++i) world.spawn(Position{0, float(i)}, Velocity{float(i) / 50, 0});
        ecsia::Scheduler scheduler(world, {.workers = workers});
        for (const std::string& name : ecsia::registered_systems()) scheduler.add_system(ecsia::make_system(world, name));
        for (int frame = 0; frame < 60; ++frame) scheduler.update(1.0f);
        ecsia::QueryDesc frozen;
        frozen.with = {world.component<Frozen>()};
        check(world.count(frozen) > 0 && added == world.count(frozen), "commands spawned frozen copies, observers saw each");
        try {
            ecsia::make_system(world, "Nope");
            check(false, "an unknown system throws");
        } catch (const ecsia::UnknownSystem& error) {
            check(std::string(error.what()).find("Move") != std::string::npos, "UnknownSystem names the registered ones");
        }
        hashes.push_back(ecsia::state_hash_hex(world));
    }
    check(hashes[0] == hashes[1], "the same state hash at 0 and 2 workers");
    std::printf("consumer: %s, state hash %s\n", failures == 0 ? "ok" : "FAILED", hashes[0].c_str());
    return failures == 0 ? 0 : 1;
}
