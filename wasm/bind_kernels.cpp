// EMSCRIPTEN_BINDINGS(ecsia_kernels): adding a JS kernel system (wasm/js_kernel.hpp) to a scheduler.
// web/scheduler.js calls module.addKernelSystem(rawScheduler, spec) for addSystem({ kernel }).
#include <emscripten/bind.h>

#include "js_error.hpp"
#include "js_kernel.hpp"
#include "js_values.hpp"
#include "scheduler_binding.hpp"

using emscripten::val;

namespace ecsia::wasm {

namespace {

std::vector<std::string> names_of(const val& spec, const char* key, const std::string& what) {
    std::vector<std::string> out;
    const val names = spec[key];
    if (names.isUndefined() || names.isNull()) return out;
    if (!names.isArray()) throw Error(ErrorCode::BadValue, what + " takes an array of names, got " + describe_js(names));
    const auto length = names["length"].as<unsigned>();
    for (unsigned i = 0; i < length; ++i) {
        const val name = names[i];
        if (!name.isString()) throw Error(ErrorCode::BadValue, what + "[" + std::to_string(i) + "] must be a string, got " + describe_js(name));
        out.push_back(name.as<std::string>());
    }
    return out;
}

std::vector<ComponentId> ids_of(const World& world, const val& spec, const char* key, const std::string& what) {
    std::vector<ComponentId> ids;
    for (const std::string& name : names_of(spec, key, what)) {
        const ComponentId id = world.components().find(name);
        if (id == kNoComponent) throw Error(ErrorCode::UnknownComponent, what + " names unknown component '" + name + "'");
        ids.push_back(id);
    }
    return ids;
}

// spec: { name, kernel, kernelId, spawnsPerBatch, reads, writes, before, after, query?: { with,
// without, optional, changed, added } }, already checked for shape by web/scheduler.js; names are resolved here.
void add_kernel_system(SchedulerBinding& scheduler, const val& spec) {
    rethrow_as_js([&] {
        World& world = scheduler.world_binding().world();
        JsKernelSpec s;
        s.name = spec["name"].as<std::string>();
        s.kernel = spec["kernel"].as<std::string>();
        s.kernel_id = spec["kernelId"].as<std::uint32_t>();
        s.spawns_per_batch = spec["spawnsPerBatch"].as<std::uint32_t>();
        const std::string what = "system '" + s.name + "'";
        s.reads = ids_of(world, spec, "reads", what + " reads");
        s.writes = ids_of(world, spec, "writes", what + " writes");
        s.before = names_of(spec, "before", what + " before");
        s.after = names_of(spec, "after", what + " after");
        const val query = spec["query"];
        if (!query.isUndefined() && !query.isNull()) {
            s.query.with = ids_of(world, query, "with", what + " query.with");
            s.query.without = ids_of(world, query, "without", what + " query.without");
            s.query.optional = ids_of(world, query, "optional", what + " query.optional");
            s.query.changed = ids_of(world, query, "changed", what + " query.changed");
            s.query.added = ids_of(world, query, "added", what + " query.added");
        }
        scheduler.scheduler().add_system(make_js_kernel_system(world, std::move(s)));
    });
}

}  // namespace

}  // namespace ecsia::wasm

EMSCRIPTEN_BINDINGS(ecsia_kernels) {
    emscripten::function("addKernelSystem", &ecsia::wasm::add_kernel_system);
}
