#pragma once
// Chunk: a run of rows [row_begin, row_end) of one table, the unit kernels iterate. Column
// pointers are fetched per chunk, so the inner loop is a plain loop over arrays.
//
// read<T>() gives const access. write<T>() gives mutable access and records that the chunk's rows
// changed: stamped directly when the chunk has no write log (serial use), or logged for the merge
// when it runs in a batch. Change granularity is the rows covered by the write access.

#include <cstdint>
#include <string>
#include <vector>

#include "ecsia/query/parent_view.hpp"
#include "ecsia/query/query_desc.hpp"
#include "ecsia/storage/table.hpp"
#include "ecsia/storage/write_log.hpp"

#ifndef ECSIA_ACCESS_CHECKS
#define ECSIA_ACCESS_CHECKS 0
#endif

// With access checks compiled out the column accessors cannot throw, and say so.
#if ECSIA_ACCESS_CHECKS
#define ECSIA_ACCESS_NOEXCEPT
#else
#define ECSIA_ACCESS_NOEXCEPT noexcept
#endif

namespace ecsia {

class ComponentRegistry;

// What a running system declared (ECSIA_ACCESS_CHECKS builds): the scheduler hands it to each
// batch's chunk. Read-only while a wave runs, so any worker may consult it.
struct DeclaredAccess {
    std::string system;
    std::vector<ComponentId> reads;   // sorted: reads and writes (a written component may be read)
    std::vector<ComponentId> writes;  // sorted
    const ComponentRegistry* registry = nullptr;

    bool may_read(ComponentId id) const noexcept;
    bool may_write(ComponentId id) const noexcept;
    // Throws UndeclaredAccess naming the system, the component and what was declared.
    [[noreturn]] void refuse(const char* verb, ComponentId id) const;
};

class Chunk {
public:
    Chunk(Table& table, std::uint32_t begin, std::uint32_t end, Tick tick, WriteLog* log) noexcept
        : table_(&table), begin_(begin), end_(end), tick_(tick), log_(log) {}

    std::uint32_t size() const noexcept { return end_ - begin_; }
    std::uint32_t row_begin() const noexcept { return begin_; }
    std::uint32_t row_end() const noexcept { return end_; }
    Table& table() const noexcept { return *table_; }
    // Entities of the chunk's rows: entities()[i] is row row_begin() + i.
    const Entity* entities() const noexcept { return table_->entities() + begin_; }
    bool has(ComponentId id) const noexcept { return table_->has(id); }

    // Element pointers start at the chunk's first row. nullptr for an absent (optional) component.
    template <typename T>
    const T* read(ComponentId id) const ECSIA_ACCESS_NOEXCEPT {
        return reinterpret_cast<const T*>(raw(id));
    }
    // Not noexcept: logging the write may allocate (and in wasm a noexcept function that calls
    // something that may throw pays a round trip through JS for the terminate guard).
    template <typename T>
    T* write(ComponentId id) {
        return reinterpret_cast<T*>(write_raw(id));
    }
    const std::byte* raw(ComponentId id) const ECSIA_ACCESS_NOEXCEPT;
    std::byte* write_raw(ComponentId id);

    // A cascade system's chunk (SystemDesc::cascade) holds rows of one depth level: depth() is
    // that level (0: rows without a target of the relation), and parent() their parents' values
    // of the system's parent_reads (parent_view.hpp), already updated by this frame's earlier
    // levels. parent() is nullptr at depth 0 and for systems without cascade.
    std::uint32_t depth() const noexcept { return depth_; }
    const ParentView* parent() const noexcept { return parent_; }
    // The scheduler's, when it makes a cascade batch's chunk.
    void set_cascade(std::uint32_t depth, const ParentView* parent) noexcept {
        depth_ = depth;
        parent_ = parent;
    }

#if ECSIA_ACCESS_CHECKS
    // Reads and writes are checked against `access` from now on (nullptr: unchecked).
    void set_access(const DeclaredAccess* access) noexcept { access_ = access; }
#endif

private:
    Table* table_;
    std::uint32_t begin_;
    std::uint32_t end_;
    Tick tick_;
    WriteLog* log_;
    std::uint32_t depth_ = 0;
    const ParentView* parent_ = nullptr;
#if ECSIA_ACCESS_CHECKS
    const DeclaredAccess* access_ = nullptr;
#endif
};

}  // namespace ecsia
