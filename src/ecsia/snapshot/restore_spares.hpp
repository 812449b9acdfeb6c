#pragma once
// Internal to the snapshot layer: the spare column memory of a SnapshotRestorer. For each table of
// the world, a second set of its columns (values and per-row ticks) with the table's capacity:
// the reader copies a snapshot's arrays of values and ticks into them, and the commit swaps them
// with the table's own, which then become the spares. Rebuilt for a table whose capacity or
// columns changed since. (Not the entity arrays: a rollback only compares those with the table's
// own, so they stay in the restorer's staging buffer, which every restore reuses.)

#include <cstdint>
#include <memory>
#include <vector>

#include "ecsia/storage/column.hpp"

namespace ecsia {

class TableGraph;

class RestoreSpares {
public:
    struct TableSpare {
        std::uint32_t capacity = 0;
        std::vector<Column> columns;  // columns[i] matches the table's columns()[i]
    };

    // The spares of `graph`'s table `t` when a snapshot's table t, holding `rows` rows of the
    // components `signature`, can be read into them: the world has table t with those components
    // and room for the rows. nullptr otherwise, or when there are no rows to read.
    TableSpare* for_table(const TableGraph& graph, std::uint32_t t, const std::vector<ComponentId>& signature, std::uint32_t rows);

private:
    std::vector<std::unique_ptr<TableSpare>> tables_;  // by table index; pointers the reader hands out stay valid
};

}  // namespace ecsia
