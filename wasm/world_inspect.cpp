// What a developer looks at (the devtools panel, world.inspect(), world.componentsOf()): the
// world's archetypes with their rows and bytes, the memory the module holds, and one entity's
// components. Read-only walks over the storage, between frames.
// Thread rule: the page's main thread, serial phase.

#include <malloc.h>

#include <emscripten/heap.h>

#include <cstdint>

#include "world_binding.hpp"

namespace ecsia::wasm {

using emscripten::val;

namespace {

// The names of `signature`: its components (tags too) and the relations its rows have pairs of,
// apart; whether its rows are prefabs (the hidden Prefab tag).
struct Signature {
    val components = val::array();
    val relations = val::array();
    bool prefab = false;
};

Signature describe(const ComponentRegistry& registry, const std::vector<ComponentId>& signature) {
    Signature out;
    for (ComponentId id : signature) {
        const ComponentDesc& desc = registry.desc(id);
        if (id == World::kPrefab) {
            out.prefab = true;
        } else {
            (desc.relation ? out.relations : out.components).call<void>("push", desc.name);
        }
    }
    return out;
}

}  // namespace

val WorldBinding::inspect() const {
    const ComponentRegistry& registry = world_->components();
    const TableGraph& graph = world_->tables();
    val archetypes = val::array();
    double table_bytes = 0;
    for (TableIndex t = 0; t < graph.table_count(); ++t) {
        const Table& table = graph.table(t);
        if (table.size() == 0) continue;  // the graph keeps every table it ever made
        std::uint64_t row_bytes = sizeof(Entity);
        for (const Column& column : table.columns()) row_bytes += column.element_size();
        const double bytes = static_cast<double>(row_bytes) * table.size();
        table_bytes += bytes;
        Signature names = describe(registry, table.signature());
        val archetype = val::object();
        archetype.set("components", names.components);
        archetype.set("relations", names.relations);
        archetype.set("prefab", names.prefab);
        archetype.set("rows", table.size());
        archetype.set("bytes", bytes);
        archetypes.call<void>("push", archetype);
    }
    // dlmalloc's own count of the bytes it handed out (the engine's tables, queues and the JS
    // API's buffers), and the wasm memory it carves them from.
    const struct mallinfo heap = mallinfo();
    val memory = val::object();
    memory.set("heapBytes", static_cast<double>(emscripten_get_heap_size()));
    memory.set("allocatedBytes", static_cast<double>(heap.uordblks));
    memory.set("tableBytes", table_bytes);
    val out = val::object();
    out.set("entities", world_->alive_count());
    out.set("maxEntities", world_->entities().max_entities());
    out.set("archetypes", archetypes);
    out.set("memory", memory);
    return out;
}

val WorldBinding::components_of(std::uint32_t entity) const {
    const EntityLocation at = world_->locate(Entity{entity});  // StaleEntity for a dead handle
    Signature names = describe(world_->components(), world_->tables().table(at.table).signature());
    val out = val::object();
    out.set("components", names.components);
    out.set("relations", names.relations);
    out.set("prefab", names.prefab);
    return out;
}

}  // namespace ecsia::wasm
