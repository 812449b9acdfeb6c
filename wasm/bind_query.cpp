// EMSCRIPTEN_BINDINGS(ecsia_query): QueryBinding, the cached query of the JS API.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <string>
#include <utility>

#include "js_error.hpp"
#include "js_values.hpp"
#include "ecsia/world/world_access.hpp"
#include "query_binding.hpp"

using emscripten::val;

namespace ecsia::wasm {

namespace {

// The query's terms, checked by the core as World::query checks them (unknown ids, a pair term
// whose relation is a component, a dead or stale target), so its errors reach JS as worded there.
QueryDesc make_desc(World& world, const val& with, const val& without, const val& optional, const val& changed,
                    const val& added, const val& pairs, const val& without_pairs, bool prefabs) {
    const ComponentRegistry& registry = world.components();
    QueryDesc desc;
    desc.with = component_ids_of(registry, with, "with");
    desc.without = component_ids_of(registry, without, "without");
    desc.optional = component_ids_of(registry, optional, "optional");
    desc.changed = component_ids_of(registry, changed, "changed");
    desc.added = component_ids_of(registry, added, "added");
    desc.pairs = pair_terms_of(pairs);
    desc.without_pairs = pair_terms_of(without_pairs);
    desc.prefabs = prefabs;
    world.query(desc);
    return desc;
}

}  // namespace

QueryBinding::QueryBinding(WorldBinding& world, const val& with, const val& without, const val& optional,
                           const val& changed, const val& added, const val& pairs, const val& without_pairs,
                           bool prefabs, const val& columns)
    : world_(world),
      cache_(make_desc(world.world(), with, without, optional, changed, added, pairs, without_pairs, prefabs)),
      columns_(component_ids_of(world.world().components(), columns, "columns")) {
    cache_.bind_relations(&world.world().relations());  // pair terms with a target look pairs up there
}

std::uint32_t QueryBinding::fetch(bool advance) {
    World& world = world_.world();
    const Tick now = world.tick();
    records_valid_ = false;  // until the records are complete (for_each_chunk may throw)
    records_.clear();
    std::uint32_t chunks = 0;
    cache_.for_each_chunk(::ecsia::detail::WorldAccess::tables(world), since_, now, nullptr, [&](Chunk& chunk) {
        append_record(chunk);
        ++chunks;
    });
    records_version_ = world.structure_version();
    records_generation_ = world.storage_generation();
    records_pages_ = __builtin_wasm_memory_size(0);
    records_valid_ = true;
    // Only changed/added terms have a cursor: a pair term with a target filters rows too, but by the
    // pairs now, so it leaves the tick alone (a query of children must not change the world).
    if (!cache_.desc().changed.empty() || !cache_.desc().added.empty()) {
        since_ = now;
        if (advance) ::ecsia::detail::WorldAccess::advance_tick(world);
    }
    return chunks;
}

std::uint32_t QueryBinding::set_records(std::span<Chunk> chunks) {
    records_valid_ = false;  // a system's selection, not this query's own: never "unchanged"
    records_.clear();
    for (const Chunk& chunk : chunks) append_record(chunk);
    return static_cast<std::uint32_t>(chunks.size());
}

void QueryBinding::append_record(const Chunk& chunk) {
    records_.push_back(chunk.table().index());
    records_.push_back(chunk.row_begin());
    records_.push_back(chunk.size());
    records_.push_back(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(chunk.entities())));
    for (ComponentId id : columns_) {
        records_.push_back(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(chunk.raw(id))));
    }
}

bool QueryBinding::unchanged() const noexcept {
    const World& world = world_.world();
    return records_valid_ && !cache_.desc().has_row_filter() && world.structure_version() == records_version_ &&
           world.storage_generation() == records_generation_ && __builtin_wasm_memory_size(0) == records_pages_;
}

std::uint32_t QueryBinding::count() { return cache_.count(::ecsia::detail::WorldAccess::tables(world_.world()), since_); }

namespace {

QueryBinding* make_query(WorldBinding& world, const val& with, const val& without, const val& optional, const val& changed,
                         const val& added, const val& pairs, const val& without_pairs, bool prefabs, const val& columns) {
    return rethrow_as_js(
        [&] { return new QueryBinding(world, with, without, optional, changed, added, pairs, without_pairs, prefabs, columns); });
}

}  // namespace

}  // namespace ecsia::wasm

// 1 when the query's last records still hold (QueryBinding::unchanged), else 0. A plain export so
// that the common case of chunks(), an unchanged world, costs one direct wasm call.
extern "C" EMSCRIPTEN_KEEPALIVE int ecsia_query_unchanged(const ecsia::wasm::QueryBinding* query) {
    return query->unchanged() ? 1 : 0;
}

EMSCRIPTEN_BINDINGS(ecsia_query) {
    using ecsia::wasm::Guarded;
    using ecsia::wasm::QueryBinding;
    emscripten::class_<QueryBinding>("Query")
        .constructor(&ecsia::wasm::make_query, emscripten::allow_raw_pointers())
        .function("fetch", &Guarded<&QueryBinding::fetch>::call)
        .function("records", &Guarded<&QueryBinding::records>::call)
        .function("recordWords", &Guarded<&QueryBinding::record_words>::call)
        .function("address", &Guarded<&QueryBinding::address>::call)
        .function("count", &Guarded<&QueryBinding::count>::call);
}
