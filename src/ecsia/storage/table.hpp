#pragma once
// Table (an archetype): every entity with exactly one component set, one Column per component in
// signature order, and the entity of each row. Rows are dense; removing a row moves the last row
// into the hole (swap-remove). Tables grow only on the serial slot.

#include <cstdint>
#include <span>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"
#include "ecsia/schema/component_registry.hpp"
#include "ecsia/storage/column.hpp"

namespace ecsia {

class Table {
public:
    // `storage_generation` is bumped whenever any column of this table reallocates.
    Table(TableIndex index, std::vector<ComponentId> signature, const ComponentRegistry& registry,
          std::uint64_t* storage_generation);

    TableIndex index() const noexcept { return index_; }
    const std::vector<ComponentId>& signature() const noexcept { return signature_; }
    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(entities_.size()); }
    std::uint32_t capacity() const noexcept { return capacity_; }  // rows that fit without reserve()
    const Entity* entities() const noexcept { return entities_.data(); }
    // Rises whenever a row is added, removed or reordered: what was found at a row (a cascade's
    // parent addresses) still is while it stays the same and no column reallocated.
    std::uint64_t row_version() const noexcept { return row_version_; }

    bool has(ComponentId id) const noexcept { return column_slot(id) >= 0; }
    // nullptr when the table does not store `id`.
    Column* column(ComponentId id) noexcept {
        const int slot = column_slot(id);
        return slot < 0 ? nullptr : &columns_[slot];
    }
    const Column* column(ComponentId id) const noexcept { return const_cast<Table*>(this)->column(id); }
    std::vector<Column>& columns() noexcept { return columns_; }
    const std::vector<Column>& columns() const noexcept { return columns_; }

    // Appends a row for `entity` with every column at its default value, added at `tick`.
    std::uint32_t push_default(Entity entity, Tick tick);
    // Appends a row for `entity` whose shared columns are copied from `source`/`source_row`; the
    // others start at default values added at `tick`. The source row is left in place.
    std::uint32_t push_moved(Entity entity, const Table& source, std::uint32_t source_row, Tick tick);
    // push_moved of source rows [source_row, + entities.size()), whose entities are `entities`,
    // column by column. Returns the first new row.
    std::uint32_t push_moved_rows(std::span<const Entity> entities, const Table& source, std::uint32_t source_row, Tick tick);
    // Removes `row`; returns the entity that now occupies it (null if `row` was the last).
    Entity swap_remove(std::uint32_t row) noexcept;
    // Removes every row (what swap_remove of each would leave: an empty table).
    void clear() noexcept;
    // Ensures room for `rows` rows without further reallocation; with `retired`, the columns'
    // old storage is kept there (RetiredStorage) instead of freed.
    void reserve(std::uint32_t rows, RetiredStorage* retired = nullptr);
    // Reorders the rows: row i takes what row order[i] held (order: a permutation of
    // [0, size())). The caller updates whatever maps entities to rows (the world's locations).
    // Used by cascade systems, which keep each table's rows grouped by hierarchy depth.
    void permute_rows(const std::vector<std::uint32_t>& order);

    // Cached graph edges: the table reached by adding or removing one component (this table's own
    // index when it already has, or lacks, the component). Indexed by component id (a load, no
    // hashing: every add and remove of one entity asks).
    TableIndex add_edge(ComponentId id) const noexcept { return id < add_edges_.size() ? add_edges_[id] : kNoTable; }
    TableIndex remove_edge(ComponentId id) const noexcept {
        return id < remove_edges_.size() ? remove_edges_[id] : kNoTable;
    }
    void set_add_edge(ComponentId id, TableIndex target) { set_edge(add_edges_, id, target); }
    void set_remove_edge(ComponentId id, TableIndex target) { set_edge(remove_edges_, id, target); }

    // The column whose component name sorts first (its slot): snapshots list a table's columns in
    // name order and store another column's added ticks as the same as this one's when they are,
    // which each column's memo (Column::TicksMatch) records; the row operations carry it forward.
    std::uint32_t ticks_reference() const noexcept { return ticks_reference_; }

private:
    friend class SnapshotAccess;  // snapshot/: reads and replaces the whole state
    int column_slot(ComponentId id) const noexcept {
        return id < column_slot_by_component_.size() ? column_slot_by_component_[id] : -1;
    }
    // Always inlined (clang left it a call in wasm, where a call per row costs more than the
    // append); growth out of line.
    [[gnu::always_inline]] std::uint32_t push_entity(Entity entity) {
        if (size() + 1 > capacity_) [[unlikely]] reserve(size() + 1);
        entities_.push_back(entity);
        ++row_version_;
        return size() - 1;
    }
    // Before rows are appended: a bit per column whose added ticks match the reference column's
    // (none for a table of more than 64 columns). After: those whose appended rows [row, + count)
    // match too match again, at the columns' new versions. Inline for the common cases, a table of
    // one column (no other column to match) and nothing matched; the scans are out of line.
    std::uint64_t added_matches_before() const noexcept { return columns_.size() < 2 ? 0 : added_matches_among(); }
    std::uint64_t added_matches_among() const noexcept;
    void keep_added_matches(std::uint64_t matched, std::uint32_t row, std::uint32_t count) noexcept {
        if (matched != 0) keep_added_matches_among(matched, row, count);
    }
    void keep_added_matches_among(std::uint64_t matched, std::uint32_t row, std::uint32_t count) noexcept;
    static void set_edge(std::vector<TableIndex>& edges, ComponentId id, TableIndex target) {
        if (id >= edges.size()) edges.resize(std::size_t(id) + 1, kNoTable);
        edges[id] = target;
    }

    TableIndex index_;
    std::vector<ComponentId> signature_;  // sorted ascending
    std::vector<Column> columns_;         // columns_[i] stores signature_[i]
    std::vector<int> column_slot_by_component_;
    std::uint32_t ticks_reference_ = 0;  // ticks_reference()
    std::vector<Entity> entities_;
    // A memo of snapshot/ (which records it, as it does a column's uniform ticks): the first
    // counted_rows_ rows hold handles counting up from the first row's, one more each, so a
    // snapshot storing the rows as runs (handle_runs.hpp) scans only the rows past them.
    // swap_remove() shortens it to the row it changes; appended rows leave it as it is.
    mutable std::uint32_t counted_rows_ = 0;
    std::uint64_t row_version_ = 0;
    std::uint32_t capacity_ = 0;
    std::uint64_t* storage_generation_;
    std::vector<TableIndex> add_edges_;     // by component id; kNoTable: not known yet
    std::vector<TableIndex> remove_edges_;
};

// A row's move between tables is defined here, inline, because a single add or remove is little
// more than it: out of line, the calls' own cost was a fifth of a native add of a tag.

inline std::uint32_t Table::push_moved(Entity entity, const Table& source, std::uint32_t source_row, Tick tick) {
    const std::uint32_t row = push_entity(entity);
    const std::uint64_t matched = added_matches_before();
    for (Column& column : columns_) {
        if (const Column* from = source.column(column.component())) {
            column.copy_row_from(row, *from, source_row);
        } else {
            column.init_row(row, tick);
        }
    }
    keep_added_matches(matched, row, 1);
    return row;
}

inline Entity Table::swap_remove(std::uint32_t row) noexcept {
    const std::uint32_t last = size() - 1;
    for (Column& column : columns_) column.move_last_into(row, last);
    entities_[row] = entities_[last];
    entities_.pop_back();
    ++row_version_;
    if (row < counted_rows_) counted_rows_ = row;
    return row == last ? kNullEntity : entities_[row];
}

}  // namespace ecsia
