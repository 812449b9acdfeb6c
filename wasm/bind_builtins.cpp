// EMSCRIPTEN_BINDINGS(ecsia_builtins): the test module's own API, which web/builtins.js wraps.
// Only the test module (ecsia_test_*, wasm/CMakeLists.txt) compiles this file: it reaches the
// built-in workloads (src/builtin/) that tests, benchmarks and the demo share, which is why these
// calls are not on the public Scheduler or World: neither the engine's own module (the package's)
// nor a user's has them.
//
//   builtinSpawnMovers(world, count, seed)          the scenario's movers (position, velocity, age, energy, seen)
//   builtinSpawnMoveWorkload(world, count)          DESIGN.md's *move* entities (position, velocity only)
//   builtinSpawnHeavy(world, perGroup, seed)        perGroup entities in each heavy group
//   builtinSpawnHeavyGroup(world, group, count, seed)
//   builtinAddSystem(scheduler, name, config)       a built-in system with settings (heavySteps, ...)
//   builtinSetupScenario(scheduler, seed)           the G1 scenario; returns a BuiltinScenario
// Thread rule: the page's main thread, serial phase (between frames).
#include <emscripten/bind.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "builtin/faults.hpp"
#include "builtin/scenario.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/base/hash.hpp"
#include "js_error.hpp"
#include "js_values.hpp"
#include "scheduler_binding.hpp"

using emscripten::val;

namespace ecsia::wasm {

namespace {

std::uint32_t number_or(const val& config, const char* key, std::uint32_t fallback) {
    if (config.isUndefined() || config.isNull()) return fallback;
    const val v = config[key];
    if (v.isUndefined()) return fallback;
    if (!v.isNumber() || v.as<double>() < 0 || v.as<double>() > 4294967295.0) {
        throw Error(ErrorCode::BadValue, std::string("config.") + key + " must be a non-negative number, got " + describe_js(v));
    }
    return static_cast<std::uint32_t>(v.as<double>());
}

builtin::BuiltinConfig config_of(const val& config) {
    builtin::BuiltinConfig c;
    if (!config.isUndefined() && !config.isNull()) {
        if (!is_plain_object(config)) throw Error(ErrorCode::BadValue, "the built-in config must be an object, got " + describe_js(config));
        const val seed = config["seed"];
        if (!seed.isUndefined()) {
            if (!seed.isNumber() || seed.as<double>() < 0) throw Error(ErrorCode::BadValue, "config.seed must be a non-negative number, got " + describe_js(seed));
            c.seed = static_cast<std::uint64_t>(seed.as<double>());
        }
    }
    c.spawns_per_frame = number_or(config, "spawnsPerFrame", c.spawns_per_frame);
    c.spawn_reservation = number_or(config, "spawnReservation", c.spawn_reservation);
    c.max_age = number_or(config, "maxAge", c.max_age);
    c.heavy_steps = number_or(config, "heavySteps", c.heavy_steps);
    return c;
}

void spawn_movers(WorldBinding& world, std::uint32_t count, double seed) {
    rethrow_as_js([&] { builtin::spawn_movers(world.world(), count, static_cast<std::uint64_t>(seed)); });
}

void spawn_move_workload(WorldBinding& world, std::uint32_t count) {
    rethrow_as_js([&] { builtin::spawn_move_workload(world.world(), count); });
}

void spawn_heavy(WorldBinding& world, std::uint32_t per_group, double seed) {
    rethrow_as_js([&] { builtin::spawn_heavy(world.world(), per_group, static_cast<std::uint64_t>(seed)); });
}

void spawn_heavy_group(WorldBinding& world, std::uint32_t group, std::uint32_t count, double seed) {
    rethrow_as_js([&] { builtin::spawn_heavy_group(world.world(), group, count, static_cast<std::uint64_t>(seed)); });
}

void add_fault_system(SchedulerBinding& scheduler, const std::string& name) {
    rethrow_as_js([&] {
        scheduler.scheduler().add_system(builtin::make_fault_system(scheduler.world_binding().world(), name));
    });
}

void add_system(SchedulerBinding& scheduler, const std::string& name, const val& config) {
    rethrow_as_js([&] {
        SystemDesc system = builtin::make_builtin_system(scheduler.world_binding().world(), name, config_of(config));
        scheduler.scheduler().add_system(std::move(system));
    });
}

}  // namespace

// A handle on the scenario's observer event log. The world's observers append to the log, so the
// world owns it (WorldBinding::keep_alive) and this handle only looks: deleting the handle or the
// scheduler never leaves an observer writing into freed memory, and the log goes with the world.
class BuiltinScenario {
public:
    explicit BuiltinScenario(std::weak_ptr<std::vector<std::uint64_t>> log) : log_(std::move(log)) {}

    // FNV hash (hex) of the event log: equal runs fire equal sequences.
    std::string observer_log_hash() const {
        const auto log = live_log();
        StateHasher hasher;
        for (std::uint64_t word : *log) {
            hasher.u32(static_cast<std::uint32_t>(word));
            hasher.u32(static_cast<std::uint32_t>(word >> 32));
        }
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hasher.value()));
        return text;
    }
    std::uint32_t observer_events() const { return static_cast<std::uint32_t>(live_log()->size()); }

private:
    std::shared_ptr<std::vector<std::uint64_t>> live_log() const {
        auto log = log_.lock();
        if (!log) throw Error(ErrorCode::BadValue, "the scenario's world was disposed");
        return log;
    }

    std::weak_ptr<std::vector<std::uint64_t>> log_;
};

namespace {

BuiltinScenario* setup_scenario(SchedulerBinding& scheduler, double seed) {
    return rethrow_as_js([&] {
        auto log = std::make_shared<std::vector<std::uint64_t>>();
        WorldBinding& world = scheduler.world_binding();
        builtin::setup_scenario(world.world(), scheduler.scheduler(), static_cast<std::uint64_t>(seed), *log);
        world.keep_alive(log);
        return new BuiltinScenario(log);
    });
}

std::string scenario_log_hash(const BuiltinScenario& scenario) {
    return rethrow_as_js([&] { return scenario.observer_log_hash(); });
}
std::uint32_t scenario_events(const BuiltinScenario& scenario) {
    return rethrow_as_js([&] { return scenario.observer_events(); });
}

}  // namespace

}  // namespace ecsia::wasm

EMSCRIPTEN_BINDINGS(ecsia_builtins) {
    using ecsia::wasm::BuiltinScenario;
    emscripten::function("builtinSpawnMovers", &ecsia::wasm::spawn_movers);
    emscripten::function("builtinSpawnMoveWorkload", &ecsia::wasm::spawn_move_workload);
    emscripten::function("builtinSpawnHeavy", &ecsia::wasm::spawn_heavy);
    emscripten::function("builtinSpawnHeavyGroup", &ecsia::wasm::spawn_heavy_group);
    emscripten::function("builtinAddSystem", &ecsia::wasm::add_system);
    emscripten::function("builtinAddFaultSystem", &ecsia::wasm::add_fault_system);
    emscripten::function("builtinSetupScenario", &ecsia::wasm::setup_scenario, emscripten::allow_raw_pointers());
    emscripten::class_<BuiltinScenario>("BuiltinScenario")
        .function("observerLogHash", &ecsia::wasm::scenario_log_hash)
        .function("observerEvents", &ecsia::wasm::scenario_events);
}
