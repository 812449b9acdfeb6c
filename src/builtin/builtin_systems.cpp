#include "builtin/builtin_systems.hpp"

#include "builtin/deterministic_math.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/base/error.hpp"
#include "ecsia/world/world_access.hpp"

namespace ecsia::builtin {

namespace {

Velocity random_velocity(std::uint64_t h) {
    return Velocity{(unit(mix(h, 1)) - 0.5f) * 200.0f, (unit(mix(h, 2)) - 0.5f) * 200.0f};
}

SystemDesc worker_system(std::string name, std::vector<ComponentId> reads, std::vector<ComponentId> writes, Kernel kernel) {
    SystemDesc system;
    system.name = std::move(name);
    system.reads = std::move(reads);
    system.writes = std::move(writes);
    system.kernel = std::move(kernel);
    return system;
}

SystemDesc move_system(const BuiltinIds& ids) {
    // Both components are two packed floats, so the kernel runs over the columns as flat float
    // arrays: clang vectorises that form for wasm SIMD, and not the two-field (stride-2) one.
    static_assert(sizeof(Position) == 2 * sizeof(float) && sizeof(Velocity) == 2 * sizeof(float));
    return worker_system("Move", {ids.velocity}, {ids.position}, [ids](KernelContext& ctx) {
        float* __restrict p = ctx.chunk.write<float>(ids.position);
        const float* __restrict v = ctx.chunk.read<float>(ids.velocity);
        const float dt = ctx.dt;
        for (std::uint32_t i = 0, n = 2 * ctx.chunk.size(); i < n; ++i) p[i] += v[i] * dt;
    });
}

SystemDesc bounce_system(const BuiltinIds& ids) {
    return worker_system("Bounce", {ids.position}, {ids.velocity}, [ids](KernelContext& ctx) {
        const Position* p = ctx.chunk.read<Position>(ids.position);
        Velocity* v = ctx.chunk.write<Velocity>(ids.velocity);
        for (std::uint32_t i = 0, n = ctx.chunk.size(); i < n; ++i) {
            if ((p[i].x < 0 && v[i].dx < 0) || (p[i].x > kWorldSize && v[i].dx > 0)) v[i].dx = -v[i].dx;
            if ((p[i].y < 0 && v[i].dy < 0) || (p[i].y > kWorldSize && v[i].dy > 0)) v[i].dy = -v[i].dy;
        }
    });
}

// Pulls every mover toward the world's centre with a swirl around it: the demo's galaxy.
SystemDesc attract_system(const BuiltinIds& ids) {
    return worker_system("Attract", {ids.position}, {ids.velocity}, [ids](KernelContext& ctx) {
        const Position* p = ctx.chunk.read<Position>(ids.position);
        Velocity* v = ctx.chunk.write<Velocity>(ids.velocity);
        const float dt = ctx.dt;
        constexpr float kCentre = kWorldSize / 2;
        for (std::uint32_t i = 0, n = ctx.chunk.size(); i < n; ++i) {
            const float rx = kCentre - p[i].x;
            const float ry = kCentre - p[i].y;
            v[i].dx += (rx * 0.6f - ry * 0.35f) * dt;
            v[i].dy += (ry * 0.6f + rx * 0.35f) * dt;
            v[i].dx *= 0.995f;
            v[i].dy *= 0.995f;
        }
    });
}

SystemDesc spawner_system(const BuiltinIds& ids, const BuiltinConfig& config) {
    // No query terms: the kernel runs once per frame.
    SystemDesc system = worker_system("Spawner", {}, {}, [ids, config](KernelContext& ctx) {
        for (std::uint32_t i = 0; i < config.spawns_per_frame; ++i) {
            const std::uint64_t h = mix(config.seed, ctx.frame, i);
            const Position p{unit(mix(h, 3)) * kWorldSize, unit(mix(h, 4)) * kWorldSize};
            const Velocity v = random_velocity(h);
            const Age age{0};
            const Energy energy{unit(mix(h, 5))};
            const Seen seen{0};
            const ComponentValue values[] = {{ids.position, &p, sizeof p}, {ids.velocity, &v, sizeof v},
                                             {ids.age, &age, sizeof age},   {ids.energy, &energy, sizeof energy},
                                             {ids.seen, &seen, sizeof seen}};
            ctx.spawn(values, 5);
        }
    });
    system.spawns_per_batch = config.spawn_reservation;
    return system;
}

SystemDesc reaper_system(const BuiltinIds& ids, const BuiltinConfig& config) {
    return worker_system("Reaper", {}, {ids.age}, [ids, config](KernelContext& ctx) {
        Age* age = ctx.chunk.write<Age>(ids.age);
        const Entity* entities = ctx.chunk.entities();
        for (std::uint32_t i = 0, n = ctx.chunk.size(); i < n; ++i) {
            if (++age[i].frames >= config.max_age) ctx.commands.despawn(entities[i]);
        }
    });
}

SystemDesc marker_system(const BuiltinIds& ids) {
    SystemDesc system = worker_system("Marker", {ids.position}, {ids.marked}, [ids](KernelContext& ctx) {
        const Position* p = ctx.chunk.read<Position>(ids.position);
        const bool marked = ctx.chunk.has(ids.marked);
        const Entity* entities = ctx.chunk.entities();
        for (std::uint32_t i = 0, n = ctx.chunk.size(); i < n; ++i) {
            const bool right = p[i].x > kWorldSize / 2;
            if (right && !marked) {
                const Marked m{static_cast<std::uint32_t>(ctx.frame)};
                ctx.commands.add(entities[i], ids.marked, m);
            } else if (!right && marked) {
                ctx.commands.remove(entities[i], ids.marked);
            }
        }
    });
    system.query.with = {ids.position};
    system.query.optional = {ids.marked};
    system.query_set = true;
    return system;
}

SystemDesc pulse_system(const BuiltinIds& ids) {
    // Writes energy every third frame only, so the drainer's `changed` filter has real work to skip.
    return worker_system("Pulse", {}, {ids.energy}, [ids](KernelContext& ctx) {
        if (ctx.frame % 3 != 0) return;
        Energy* e = ctx.chunk.write<Energy>(ids.energy);
        for (std::uint32_t i = 0, n = ctx.chunk.size(); i < n; ++i) e[i].value = e[i].value * 0.5f + 1.0f;
    });
}

SystemDesc drain_system(const BuiltinIds& ids) {
    SystemDesc system = worker_system("Drain", {ids.energy}, {ids.seen}, [ids](KernelContext& ctx) {
        Seen* seen = ctx.chunk.write<Seen>(ids.seen);
        for (std::uint32_t i = 0, n = ctx.chunk.size(); i < n; ++i) ++seen[i].count;
    });
    system.query.with = {ids.seen};
    system.query.changed = {ids.energy};
    system.query_set = true;
    return system;
}

}  // namespace

SystemDesc make_heavy_system(std::string name, ComponentId component, std::uint32_t steps) {
    return worker_system(std::move(name), {}, {component}, [component, steps](KernelContext& ctx) {
        Heavy* h = ctx.chunk.write<Heavy>(component);
        for (std::uint32_t i = 0, n = ctx.chunk.size(); i < n; ++i) {
            float a = h[i].a;
            float b = h[i].b;
            for (std::uint32_t s = 0; s < steps; ++s) {
                a = a * 0.999f + det_sin(b + 0.1f) * 0.01f;
                b = b * 0.999f + det_cos(a) * 0.01f + det_exp(-a * a) * 0.001f;
            }
            h[i].a = a;
            h[i].b = b;
        }
    });
}

BuiltinIds register_builtin_components(World& world) {
    BuiltinIds ids{};
    ids.position = world.component<Position>();
    ids.velocity = world.component<Velocity>();
    ids.age = world.component<Age>();
    ids.energy = world.component<Energy>();
    ids.seen = world.component<Seen>();
    ids.marked = world.component<Marked>();
    for (std::uint32_t g = 0; g < 8; ++g) {
        const std::string name = "heavy" + std::to_string(g);
        const ComponentId existing = world.components().find(name);
        ids.heavy[g] = existing != kNoComponent
                           ? existing
                           : world.define_component(name, {{"a", FieldType::F32}, {"b", FieldType::F32}});
    }
    return ids;
}

std::vector<std::string> builtin_system_names() {
    std::vector<std::string> names = {"Move",  "Bounce", "Attract", "Spawner", "Reaper",
                                      "Marker", "Pulse", "Drain",   "SumMoved", "Idle"};
    for (int g = 0; g < 8; ++g) names.push_back("Heavy" + std::to_string(g));
    return names;
}

SystemDesc make_builtin_system(World& world, std::string_view name, const BuiltinConfig& config) {
    const BuiltinIds ids = register_builtin_components(world);
    if (name == "Move") return move_system(ids);
    if (name == "Bounce") return bounce_system(ids);
    if (name == "Attract") return attract_system(ids);
    if (name == "Spawner") return spawner_system(ids, config);
    if (name == "Reaper") return reaper_system(ids, config);
    if (name == "Marker") return marker_system(ids);
    if (name == "Pulse") return pulse_system(ids);
    if (name == "Drain") return drain_system(ids);
    if (name == "SumMoved") return make_sum_moved_system(ids.position);
    if (name == "Idle") return make_idle_system(ids.position);
    if (name.size() == 6 && name.substr(0, 5) == "Heavy" && name[5] >= '0' && name[5] <= '7') {
        const int group = name[5] - '0';
        return make_heavy_system(std::string(name), ids.heavy[group], config.heavy_steps);
    }
    std::string known;
    for (const std::string& n : builtin_system_names()) known += (known.empty() ? "" : ", ") + n;
    throw Error(ErrorCode::BadValue, "no built-in system named '" + std::string(name) + "' (known: " + known + ")");
}

void spawn_movers(World& world, std::uint32_t count, std::uint64_t seed) {
    detail::WorldAccess::require_spawn_capacity(world, count, "spawn_movers");
    const BuiltinIds ids = register_builtin_components(world);
    (void)ids;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint64_t h = mix(seed, 0xA11CEull, i);
        world.spawn(Position{unit(mix(h, 3)) * kWorldSize, unit(mix(h, 4)) * kWorldSize}, random_velocity(h), Age{i % 60},
                    Energy{unit(mix(h, 5))}, Seen{0});
    }
}

void spawn_heavy(World& world, std::uint32_t per_group, std::uint64_t seed) {
    detail::WorldAccess::require_spawn_capacity(world, std::uint64_t(per_group) * 8, "spawn_heavy");
    for (std::uint32_t g = 0; g < 8; ++g) spawn_heavy_group(world, g, per_group, seed);
}

}  // namespace ecsia::builtin
