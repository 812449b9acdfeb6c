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

// The component names under spec[key], as ids.
std::vector<ComponentId> ids_of(const World& world, const val& spec, const char* key, const std::string& what) {
    return component_ids_of(world.components(), spec[key], what);
}

// spec: { name, kernel, kernelId, spawnsPerBatch, reads, writes, before, after, cascade (a
// relation id, or -1), parentReads, lookups, publishes, consumes (topic names), query?: { with, without, optional, changed, added, pairs,
// withoutPairs, prefabs } } (pair terms as ids: pair_terms_of), already checked for shape by
// web/scheduler.js; names are resolved here, the cascade by Scheduler::add_system's checks.
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
        s.before = names_of(spec["before"], what + " before");
        s.after = names_of(spec["after"], what + " after");
        const int cascade = spec["cascade"].as<int>();
        if (cascade >= 0) s.cascade = static_cast<RelationId>(cascade);
        s.parent_reads = ids_of(world, spec, "parentReads", what + " parentReads");
        s.lookups = ids_of(world, spec, "lookups", what + " lookups");
        s.publishes = topic_ids_of(world, spec["publishes"], what + " publishes");
        s.consumes = topic_ids_of(world, spec["consumes"], what + " consumes");
        const val query = spec["query"];
        if (!query.isUndefined() && !query.isNull()) {
            s.query.with = ids_of(world, query, "with", what + " query.with");
            s.query.without = ids_of(world, query, "without", what + " query.without");
            s.query.optional = ids_of(world, query, "optional", what + " query.optional");
            s.query.changed = ids_of(world, query, "changed", what + " query.changed");
            s.query.added = ids_of(world, query, "added", what + " query.added");
            // [relation id, target bits, ...] from web/scheduler.js; checked with the system's
            // query by Scheduler::add_system (World::query's checks and errors).
            s.query.pairs = pair_terms_of(query["pairs"]);
            s.query.without_pairs = pair_terms_of(query["withoutPairs"]);
            s.query.prefabs = query["prefabs"].as<bool>();
        }
        scheduler.scheduler().add_system(make_js_kernel_system(world, std::move(s)));
    });
}

}  // namespace

}  // namespace ecsia::wasm

EMSCRIPTEN_BINDINGS(ecsia_kernels) {
    emscripten::function("addKernelSystem", &ecsia::wasm::add_kernel_system);
}
