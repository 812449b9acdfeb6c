#pragma once
// QueryBinding: a cached query behind the JS API's Query (web/query.js). It keeps the matched
// tables (QueryCache) and its own change cursor: `changed`/`added` terms select rows newer than
// the query's previous fetch(), like a system's last-run tick.
//
// fetch() writes one record per selected run of rows into a uint32 array JS reads from the heap,
// so a re-fetch of an unchanged world costs O(matched tables) and builds no JS objects:
//   [table, row_begin, rows, entities address, column address per `columns` id (0 if absent)]
// Addresses are valid until the world's storage generation or structure version changes.
// Thread rule: serial phase, the page's main thread.

#include <cstdint>
#include <span>
#include <vector>

#include <emscripten/val.h>

#include "ecsia/query/query_cache.hpp"
#include "world_binding.hpp"

namespace ecsia::wasm {

class QueryBinding {
public:
    // Arrays of component names; `columns` lists the components whose column addresses records carry.
    QueryBinding(WorldBinding& world, const emscripten::val& with, const emscripten::val& without,
                 const emscripten::val& optional, const emscripten::val& changed, const emscripten::val& added,
                 const emscripten::val& columns);

    // Selects the rows now (rows changed/added since the previous fetch when the query has such
    // terms) and returns how many records. The cursor moves to the world's tick; with `advance`
    // (outside a system) the world's tick then moves on, so that later writes are newer than it.
    std::uint32_t fetch(bool advance);
    // Writes the records of `chunks` (a main-thread system's, selected by the Scheduler with this
    // query's terms against the system's own cursor) and returns how many. The cursor does not move.
    std::uint32_t set_records(std::span<Chunk> chunks);
    std::uint32_t records() const { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(records_.data())); }
    std::uint32_t record_words() const { return static_cast<std::uint32_t>(4 + columns_.size()); }
    // Rows a fetch() would select now; the cursor does not move.
    std::uint32_t count();
    const QueryDesc& desc() const noexcept { return cache_.desc(); }

private:
    void append_record(const Chunk& chunk);

    WorldBinding& world_;
    QueryCache cache_;
    std::vector<ComponentId> columns_;
    std::vector<std::uint32_t> records_;
    Tick since_ = 0;  // rows with a newer tick pass the changed/added terms
};

}  // namespace ecsia::wasm
