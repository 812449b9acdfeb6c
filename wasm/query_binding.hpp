#pragma once
// QueryBinding: a cached query behind the JS API's Query (web/query.js). It keeps the matched
// tables (QueryCache) and its own change cursor: `changed`/`added` terms select rows newer than
// the query's previous fetch(), like a system's last-run tick.
//
// fetch() writes one record per selected run of rows into a uint32 array JS reads from the heap,
// so a re-fetch of an unchanged world costs O(matched tables) and builds no JS objects:
//   [table, row_begin, rows, entities address, column address per `columns` id (0 if absent)]
// Addresses are valid until the world's storage generation or structure version changes.
// A query without changed/added terms (or pair terms with a target) selects the same records for as long as neither changes
// (nor the heap's size, which gives JS a new buffer), so JS first asks ecsia_query_unchanged (a
// plain C export: one direct wasm call, no Embind marshalling, never throws) and reuses its last
// chunks when the answer is yes.
// Thread rule: serial phase, the page's main thread.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <emscripten/val.h>

#include "ecsia/query/query_cache.hpp"
#include "world_binding.hpp"

namespace ecsia::wasm {

class QueryBinding {
public:
    // Arrays of component names; `pairs` and `without_pairs`: [relation id, target bits, ...]
    // (kANY_TARGET: any target); `prefabs`: QueryDesc::prefabs; `columns` lists the components
    // whose column addresses records carry.
    QueryBinding(WorldBinding& world, const emscripten::val& with, const emscripten::val& without,
                 const emscripten::val& optional, const emscripten::val& changed, const emscripten::val& added,
                 const emscripten::val& pairs, const emscripten::val& without_pairs, bool prefabs,
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
    // This binding's address, the argument of ecsia_query_unchanged.
    std::uint32_t address() const { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(this)); }
    // Whether a fetch now would write the records it wrote last time, over the same heap buffer:
    // no changed/added terms and no pair term with a target (pairs change without moving rows), and since then no row added, removed or moved, no column moved and
    // no heap growth. Never throws.
    bool unchanged() const noexcept;
    // Rows a fetch() would select now; the cursor does not move.
    std::uint32_t count();
    const QueryDesc& desc() const noexcept { return cache_.desc(); }

private:
    void append_record(const Chunk& chunk);

    WorldBinding& world_;
    QueryCache cache_;
    std::vector<ComponentId> columns_;
    std::vector<std::uint32_t> records_;
    // The world's structure version and storage generation, and the heap's size in pages, when
    // records_ were written: a grown heap gives JS a new buffer, so new views.
    std::uint64_t records_version_ = 0;
    std::uint64_t records_generation_ = 0;
    std::size_t records_pages_ = 0;
    bool records_valid_ = false;
    Tick since_ = 0;  // rows with a newer tick pass the changed/added terms
};

}  // namespace ecsia::wasm
