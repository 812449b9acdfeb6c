#pragma once
// TableGraph: the storage layer's owner of all tables. Finds or creates the table for a component
// set, caches add/remove edges between tables, and keeps the storage generation: a counter that
// rises whenever any column moves or a table appears, so views over column memory (the JS typed
// arrays) know when to re-fetch. Serial phase only.

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "ecsia/storage/table.hpp"

namespace ecsia {

class TableGraph {
public:
    explicit TableGraph(const ComponentRegistry& registry);

    // Table 0 always exists and has the empty signature.
    Table& table(TableIndex index) noexcept { return *tables_[index]; }
    const Table& table(TableIndex index) const noexcept { return *tables_[index]; }
    std::uint32_t table_count() const noexcept { return static_cast<std::uint32_t>(tables_.size()); }

    // `signature` must be sorted and free of duplicates.
    TableIndex find_or_create(const std::vector<ComponentId>& signature);
    // The table reached from `from` by adding (removing) `id`; `from` itself when it has (lacks)
    // `id`. Inline: every add or remove of one entity asks, and a known edge is one load (an
    // edge to itself stands for "already has it", so no column lookup comes first).
    TableIndex with(TableIndex from, ComponentId id) {
        const TableIndex cached = tables_[from]->add_edge(id);
        return cached != kNoTable ? cached : find_with(from, id);
    }
    TableIndex without(TableIndex from, ComponentId id) {
        const TableIndex cached = tables_[from]->remove_edge(id);
        return cached != kNoTable ? cached : find_without(from, id);
    }

    std::uint64_t storage_generation() const noexcept { return storage_generation_; }
    // Rises whenever the table list is replaced rather than appended to (a snapshot restore), so
    // that caches of matched tables start over instead of only scanning new tables.
    std::uint64_t layout_epoch() const noexcept { return layout_epoch_; }

private:
    friend class SnapshotAccess;  // snapshot/: reads and replaces the whole state
    // with() and without() of an edge not known yet: finds (or makes) the table and records the
    // edge both ways.
    TableIndex find_with(TableIndex from, ComponentId id);
    TableIndex find_without(TableIndex from, ComponentId id);

    const ComponentRegistry& registry_;
    std::vector<std::unique_ptr<Table>> tables_;
    std::map<std::vector<ComponentId>, TableIndex> by_signature_;
    std::uint64_t storage_generation_ = 0;
    std::uint64_t layout_epoch_ = 0;
    // The table find_or_create found last: spawns in a loop ask for the same signature, and one
    // comparison with its signature is cheaper than the map's search. Checked before use (a
    // signature names one table), so a replaced table list needs no reset.
    TableIndex last_found_ = 0;
};

}  // namespace ecsia
