// EMSCRIPTEN_BINDINGS(ecsia_query): QueryBinding, the cached query of the JS API.
#include <emscripten/bind.h>

#include <string>
#include <utility>

#include "js_error.hpp"
#include "js_values.hpp"
#include "query_binding.hpp"

using emscripten::val;

namespace ecsia::wasm {

namespace {

QueryDesc make_desc(const ComponentRegistry& registry, const val& with, const val& without, const val& optional,
                    const val& changed, const val& added) {
    QueryDesc desc;
    desc.with = component_ids_of(registry, with, "with");
    desc.without = component_ids_of(registry, without, "without");
    desc.optional = component_ids_of(registry, optional, "optional");
    desc.changed = component_ids_of(registry, changed, "changed");
    desc.added = component_ids_of(registry, added, "added");
    return desc;
}

}  // namespace

QueryBinding::QueryBinding(WorldBinding& world, const val& with, const val& without, const val& optional,
                           const val& changed, const val& added, const val& columns)
    : world_(world),
      cache_(make_desc(world.world().components(), with, without, optional, changed, added)),
      columns_(component_ids_of(world.world().components(), columns, "columns")) {}

std::uint32_t QueryBinding::fetch(bool advance) {
    World& world = world_.world();
    const Tick now = world.tick();
    const std::uint32_t chunks = fetch_records(since_, now);
    if (cache_.desc().has_row_filter()) {
        since_ = now;
        if (advance) world.advance_tick();
    }
    return chunks;
}

std::uint32_t QueryBinding::fetch_since(Tick since) { return fetch_records(since, world_.world().tick()); }

std::uint32_t QueryBinding::fetch_records(Tick since, Tick now) {
    records_.clear();
    std::uint32_t chunks = 0;
    cache_.for_each_chunk(::ecsia::detail::WorldAccess::tables(world_.world()), since, now, nullptr, [&](Chunk& chunk) {
        records_.push_back(chunk.table().index());
        records_.push_back(chunk.row_begin());
        records_.push_back(chunk.size());
        records_.push_back(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(chunk.entities())));
        for (ComponentId id : columns_) {
            records_.push_back(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(chunk.raw(id))));
        }
        ++chunks;
    });
    return chunks;
}

std::uint32_t QueryBinding::count() { return cache_.count(::ecsia::detail::WorldAccess::tables(world_.world()), since_); }

void QueryBinding::mark_written(const val& ids) {
    World& world = world_.world();
    std::vector<ComponentId> written;
    const auto length = ids["length"].as<unsigned>();
    for (unsigned i = 0; i < length; ++i) written.push_back(ids[i].as<ComponentId>());
    WriteLog log;
    const std::size_t words = record_words();
    for (std::size_t at = 0; at + words <= records_.size(); at += words) {
        const TableIndex index = records_[at];
        if (index >= world.tables().table_count()) continue;
        const Table& table = world.tables().table(index);
        const std::uint32_t begin = records_[at + 1];
        const std::uint32_t end = std::min(begin + records_[at + 2], table.size());
        for (ComponentId id : written) {
            if (table.has(id) && begin < end) log.record(index, id, begin, end);
        }
    }
    ::ecsia::detail::WorldAccess::merge_write_log(world, log, world.tick());
}

namespace {

QueryBinding* make_query(WorldBinding& world, const val& with, const val& without, const val& optional, const val& changed,
                         const val& added, const val& columns) {
    return rethrow_as_js([&] { return new QueryBinding(world, with, without, optional, changed, added, columns); });
}

}  // namespace

}  // namespace ecsia::wasm

EMSCRIPTEN_BINDINGS(ecsia_query) {
    using ecsia::wasm::Guarded;
    using ecsia::wasm::QueryBinding;
    emscripten::class_<QueryBinding>("Query")
        .constructor(&ecsia::wasm::make_query, emscripten::allow_raw_pointers())
        .function("fetch", &Guarded<&QueryBinding::fetch>::call)
        .function("fetchSince", &Guarded<&QueryBinding::fetch_since>::call)
        .function("records", &Guarded<&QueryBinding::records>::call)
        .function("recordWords", &Guarded<&QueryBinding::record_words>::call)
        .function("count", &Guarded<&QueryBinding::count>::call)
        .function("markWritten", &Guarded<&QueryBinding::mark_written>::call);
}
