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

class RelationStore;

class QueryCache {
public:
    explicit QueryCache(QueryDesc desc);

    const QueryDesc& desc() const noexcept { return desc_; }
    // Where pair terms with a specific target look their pairs up (the world's store). Without
    // it, such a query throws BadValue when iterated.
    void bind_relations(const RelationStore* relations) noexcept { relations_ = relations; }
    bool matches(const Table& table) const noexcept;
    const std::vector<TableIndex>& matched(const TableGraph& graph);

    // Calls fn(Chunk&) for every non-empty run of selected rows. Without changed/added terms a run
    // is a whole table; with them, each maximal run of rows whose ticks are newer than `since`.
    template <typename Fn>
    void for_each_chunk(TableGraph& graph, Tick since, Tick now, WriteLog* log, Fn&& fn);
    std::uint32_t count(TableGraph& graph, Tick since);

private:
    // One changed/added term bound to a table: a row passes when it is below `covered` (under a
    // bulk changed stamp newer than `since`) or its own tick is newer than `since`.
    struct TickTerm {
        const Tick* ticks;
        std::uint32_t covered;
    };
    // Binds the row filter's terms to `table`; false when no row of it can be selected.
    bool bind_terms(const Table& table, Tick since);
    // The row filter in its general form: the bound tick terms and the pair terms with a target.
    bool row_selected(const Table& table, std::uint32_t row, Tick since) const noexcept;
    void require_relations() const;
    // The first row in [row, rows) whose selection equals `selected`, or `rows`.
    std::uint32_t find_row(std::uint32_t row, std::uint32_t rows, Tick since, bool selected) const noexcept;

    QueryDesc desc_;
    std::vector<ComponentId> required_;
    std::vector<TableIndex> matched_;
    std::uint32_t tables_seen_ = 0;
    std::uint64_t layout_epoch_ = 0;  // the graph's layout_epoch() that matched_ describes
    std::vector<TickTerm> terms_;  // scratch for bind_terms, kept to avoid a per-table allocation
    const RelationStore* relations_ = nullptr;
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
        if (!bind_terms(table, since)) continue;
        if (desc_.has_pair_row_filter()) {
            require_relations();
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
            continue;
        }
        std::uint32_t row = 0;
        while (row < rows) {
            const std::uint32_t begin = find_row(row, rows, since, true);
            row = find_row(begin, rows, since, false);
            if (begin < row) {
                Chunk chunk(table, begin, row, now, log);
                fn(chunk);
            }
        }
    }
}

}  // namespace ecsia
