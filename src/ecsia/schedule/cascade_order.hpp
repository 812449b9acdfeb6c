#pragma once
// CascadeOrder: what a cascade system (SystemDesc::cascade) needs before its batches are cut:
// every matched row's depth in the relation's forest, each matched table's rows grouped by depth
// (where each level starts), and, for each row with a parent, where the parent's values of the
// system's parent_reads are. Batching cuts each level on its own; a batch's ParentView reads its
// rows' parents through parents() once the levels above it finished.
//
// Kept, not rebuilt each frame: refresh() recomputes only when the relation's pairs, any column's
// memory, or the rows of a table it read (the matched tables and those holding parents) changed
// since the last refresh (a few compares while no table's rows changed; one more per table when
// rows changed elsewhere). A recompute is O(matched rows): depths memoised per entity slot (kept
// across recomputes, but for the subtrees of the subjects whose pairs changed, which the
// relation's change list names: only those and new rows walk their chains again), a counting sort
// per table whose rows are out of depth order, then the parent locations.
// Thread rule: refresh() on the coordinator in the serial phase; the addresses parents() gives are
// read by the threads that run the batches, in columns the plan gives no one else to write then.

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
    // By row of `table` (a matched table with rows): where the row's parent's element of
    // parent_reads()[k] is (null at depth 0), until the next refresh.
    const std::byte* const* parents(TableIndex table, std::size_t k) const noexcept { return tables_[table].parent[k].data(); }

private:
    struct TableOrder {
        std::vector<std::uint32_t> level_begin;  // levels_ + 1 entries once refreshed; empty: no rows
        // parent[k][row]: the parent's element of parent_reads_[k] (a zero element when the parent
        // lacks it); null at depth 0.
        std::vector<std::vector<const std::byte*>> parent;
    };
    bool current(const World& world, const std::vector<TableIndex>& tables) const noexcept;
    std::uint32_t depth_of(const RelationStore& store, const RelationStore::Relation& r, const HandleLayout& layout,
                           std::size_t limit, Entity entity);
    // Forgets the depths of the subjects whose pairs changed since depths_version_, and of their
    // subtrees (the relation's change list from there must be complete).
    void forget_changed(const RelationStore& store, const RelationStore::Relation& r, const HandleLayout& layout);

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
    std::vector<bool> read_tables_;             // by TableIndex: matched, or holding a parent
    std::vector<std::uint64_t> row_versions_;   // by TableIndex: Table::row_version() then

    // Depth memo by entity slot, valid where stamp_ == epoch_ (no clearing between refreshes);
    // depths_version_: the relation's version it is for. When the pairs changed, the changed
    // subtrees are forgotten (forget_changed), or all of it (the epoch moves).
    std::vector<std::uint32_t> depth_;
    std::vector<Entity> parent_;  // the slot's target (null for a root), read by the location pass
    std::vector<std::uint32_t> stamp_;
    std::uint32_t epoch_ = 0;
    std::uint64_t depths_version_ = 0;
    std::vector<Entity> path_;
    std::vector<std::uint32_t> row_depths_;
    std::vector<std::uint32_t> order_;
};

}  // namespace ecsia
