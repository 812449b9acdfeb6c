#pragma once
// QueryCache: the tables a QueryDesc matches, in table creation order, kept current by scanning
// only tables created since the last look. Iteration order is table creation order, then row order,
// which is deterministic for a deterministic sequence of operations.
// Matching and iteration run on the serial slot; the chunks it yields may be handed to workers.

#include <cstdint>
#include <vector>

#include "ecsia/query/chunk.hpp"
#include "ecsia/query/query_desc.hpp"
#include "ecsia/storage/table_graph.hpp"

namespace ecsia {

class QueryCache {
public:
    explicit QueryCache(QueryDesc desc);

    const QueryDesc& desc() const noexcept { return desc_; }
    bool matches(const Table& table) const noexcept;
    const std::vector<TableIndex>& matched(const TableGraph& graph);

    // Calls fn(Chunk&) for every non-empty run of selected rows. Without changed/added terms a run
    // is a whole table; with them, each maximal run of rows whose ticks are newer than `since`.
    template <typename Fn>
    void for_each_chunk(TableGraph& graph, Tick since, Tick now, WriteLog* log, Fn&& fn);
    std::uint32_t count(TableGraph& graph, Tick since);

private:
    bool row_selected(const Table& table, std::uint32_t row, Tick since) const noexcept;
    bool table_may_have_selected_rows(const Table& table, Tick since) const noexcept;

    QueryDesc desc_;
    std::vector<ComponentId> required_;
    std::vector<TableIndex> matched_;
    std::uint32_t tables_seen_ = 0;
};

template <typename Fn>
void QueryCache::for_each_chunk(TableGraph& graph, Tick since, Tick now, WriteLog* log, Fn&& fn) {
    for (TableIndex index : matched(graph)) {
        Table& table = graph.table(index);
        const std::uint32_t rows = table.size();
        if (rows == 0) continue;
        if (!desc_.has_row_filter()) {
            Chunk chunk(table, 0, rows, now, log);
            fn(chunk);
            continue;
        }
        if (!table_may_have_selected_rows(table, since)) continue;
        std::uint32_t row = 0;
        while (row < rows) {
            while (row < rows && !row_selected(table, row, since)) ++row;
            const std::uint32_t begin = row;
            while (row < rows && row_selected(table, row, since)) ++row;
            if (begin < row) {
                Chunk chunk(table, begin, row, now, log);
                fn(chunk);
            }
        }
    }
}

}  // namespace ecsia
