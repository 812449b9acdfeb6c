#include "ecsia/snapshot/restore_spares.hpp"

#include "ecsia/snapshot/snapshot_access.hpp"

namespace ecsia {

RestoreSpares::TableSpare* RestoreSpares::for_table(const TableGraph& graph, std::uint32_t t, const std::vector<ComponentId>& signature,
                                                    std::uint32_t rows) {
    if (rows == 0 || t >= graph.table_count()) return nullptr;
    const Table& table = graph.table(static_cast<TableIndex>(t));
    const std::uint32_t capacity = SnapshotAccess::capacity(table);
    if (table.signature() != signature || rows > capacity) return nullptr;
    if (tables_.size() <= t) tables_.resize(t + 1);
    if (tables_[t] == nullptr) tables_[t] = std::make_unique<TableSpare>();
    TableSpare& spare = *tables_[t];
    const std::vector<Column>& columns = table.columns();
    bool fits = spare.capacity == capacity && spare.columns.size() == columns.size();
    for (std::size_t c = 0; fits && c < columns.size(); ++c) {
        const Column& own = columns[c];
        const Column& other = spare.columns[c];
        fits = other.component() == own.component() && other.element_size() == own.element_size() &&
               SnapshotAccess::alignment(other) == SnapshotAccess::alignment(own);
    }
    if (fits) return &spare;
    // Built afresh: a table grown since, or another world's table at this index. Every allocation
    // happens here, while the reader runs and the world is untouched.
    spare = TableSpare{};
    spare.columns.reserve(columns.size());
    for (const Column& own : columns) {
        spare.columns.emplace_back(SnapshotAccess::registry(graph).desc(own.component()));
        spare.columns.back().reserve(capacity, 0);
    }
    spare.capacity = capacity;
    return &spare;
}

}  // namespace ecsia
