#pragma once
// CascadeOrder: what a cascade system (SystemDesc::cascade) needs before its batches are cut:
// every matched row's depth in the relation's forest, each matched table's rows grouped by depth
// (where each level starts), and, for each row with a parent, where the parent's values of the
// system's parent_reads are. Batching cuts each level on its own; a batch gathers its rows'
// parent values (gather()) when it starts, after the levels above it finished.
//
// Kept, not rebuilt each frame: refresh() recomputes only when the relation's pairs, any
// table's rows (World::structure_version()) or any column's memory changed since the last
// refresh (three compares). A recompute is O(matched rows): depths memoised per entity slot, a
// counting sort per table whose rows are out of depth order, then the parent locations.
// Thread rule: refresh() on the coordinator in the serial phase; gather() on the thread that
// runs the batch, reading columns the plan gives no one else to write while it runs.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"
#include "ecsia/relation/relation.hpp"
#include "ecsia/relation/relation_store.hpp"

namespace ecsia {

class World;

class CascadeOrder {
public:
    // `name`: the relation's, for the cycle error.
    CascadeOrder(RelationId relation, std::string name, std::vector<ComponentId> parent_reads);

    // Brings depths, row order and parent locations up to date for `tables` (the system's matched
    // tables). May reorder their rows (serial phase). Throws BadValue when the relation's pairs
    // form a cycle (possible only for a relation defined without `acyclic`).
    void refresh(World& world, const std::vector<TableIndex>& tables);

    // Depth levels over the matched rows (max depth + 1; 0 without rows).
    std::uint32_t levels() const noexcept { return levels_; }
    // Rows of level `depth` in `table` are [level_begin(table, depth), level_begin(table, depth + 1)).
    std::uint32_t level_begin(TableIndex table, std::uint32_t depth) const noexcept;

    std::span<const ComponentId> parent_reads() const noexcept { return parent_reads_; }
    std::uint32_t element_size(std::size_t k) const noexcept { return sizes_[k]; }
    // Copies parent_reads()[k] of the parents of rows [begin, end) of `table` (all of one level
    // above 0) into `out`, element_size(k) bytes per row.
    void gather(TableIndex table, std::uint32_t begin, std::uint32_t end, std::size_t k, std::byte* out) const noexcept;

private:
    struct TableOrder {
        std::vector<std::uint32_t> level_begin;  // levels_ + 1 entries once refreshed; empty: no rows
        // parent[k][row]: the parent's element of parent_reads_[k] (a zero element when the parent
        // lacks it); null at depth 0.
        std::vector<std::vector<const std::byte*>> parent;
    };
    bool current(const World& world) const noexcept;
    std::uint32_t depth_of(const RelationStore& store, const RelationStore::Relation& r, const HandleLayout& layout,
                           std::size_t limit, Entity entity);

    RelationId relation_;
    std::string name_;
    std::vector<ComponentId> parent_reads_;
    std::vector<std::uint32_t> sizes_;
    std::vector<std::byte> zeros_;  // the element of a parent lacking a component
    std::vector<TableOrder> tables_;  // by TableIndex (kept across refreshes: their memory is reused)
    std::vector<const std::byte*> base_;  // scratch: by TableIndex, one parent read's column data
    std::uint32_t levels_ = 0;

    // What the last refresh saw (current()): it stays valid while none of them moves.
    bool refreshed_ = false;
    std::uint64_t relation_version_ = 0;
    std::uint64_t storage_generation_ = 0;
    std::uint64_t structure_version_ = 0;
    std::vector<TableIndex> matched_;

    // Depth memo by entity slot, valid where stamp_ == epoch_ (no clearing between refreshes).
    std::vector<std::uint32_t> depth_;
    std::vector<Entity> parent_;  // the slot's target (null for a root), read by the location pass
    std::vector<std::uint32_t> stamp_;
    std::uint32_t epoch_ = 0;
    std::vector<Entity> path_;
    std::vector<std::uint32_t> row_depths_;
    std::vector<std::uint32_t> order_;
};

}  // namespace ecsia
