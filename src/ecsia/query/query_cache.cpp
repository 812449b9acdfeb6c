#include "ecsia/query/query_cache.hpp"

namespace ecsia {

QueryCache::QueryCache(QueryDesc desc) : desc_(std::move(desc)), required_(desc_.required()) {}

bool QueryCache::matches(const Table& table) const noexcept {
    for (ComponentId id : required_) {
        if (!table.has(id)) return false;
    }
    for (ComponentId id : desc_.without) {
        if (table.has(id)) return false;
    }
    return true;
}

const std::vector<TableIndex>& QueryCache::matched(const TableGraph& graph) {
    for (; tables_seen_ < graph.table_count(); ++tables_seen_) {
        if (matches(graph.table(tables_seen_))) matched_.push_back(tables_seen_);
    }
    return matched_;
}

bool QueryCache::table_may_have_selected_rows(const Table& table, Tick since) const noexcept {
    for (ComponentId id : desc_.changed) {
        if (table.column(id)->max_changed_tick() <= since) return false;
    }
    for (ComponentId id : desc_.added) {
        if (table.column(id)->max_added_tick() <= since) return false;
    }
    return true;
}

bool QueryCache::row_selected(const Table& table, std::uint32_t row, Tick since) const noexcept {
    for (ComponentId id : desc_.changed) {
        if (table.column(id)->changed_ticks()[row] <= since) return false;
    }
    for (ComponentId id : desc_.added) {
        if (table.column(id)->added_ticks()[row] <= since) return false;
    }
    return true;
}

std::uint32_t QueryCache::count(TableGraph& graph, Tick since) {
    std::uint32_t total = 0;
    for_each_chunk(graph, since, 0, nullptr, [&](Chunk& chunk) { total += chunk.size(); });
    return total;
}

}  // namespace ecsia
