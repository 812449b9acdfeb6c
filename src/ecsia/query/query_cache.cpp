#include "ecsia/query/query_cache.hpp"

#include <algorithm>

#include "ecsia/base/error.hpp"
#include "ecsia/relation/prefab.hpp"
#include "ecsia/relation/relation_store.hpp"

namespace ecsia {

QueryCache::QueryCache(QueryDesc desc) : desc_(std::move(desc)), required_(desc_.required()) {}

bool QueryCache::matches(const Table& table) const noexcept {
    if (!desc_.prefabs && table.has(kPrefabTag)) return false;
    for (ComponentId id : required_) {
        if (!table.has(id)) return false;
    }
    for (ComponentId id : desc_.without) {
        if (table.has(id)) return false;
    }
    for (const PairTerm& term : desc_.without_pairs) {
        if (term.target == kAnyTarget && table.has(term.relation)) return false;
    }
    return true;
}

void QueryCache::require_relations() const {
    if (relations_ == nullptr) {
        throw Error(ErrorCode::BadValue, "a pair term with a specific target needs the world's relations: "
                                         "make the query through World::query or a scheduler");
    }
}

bool QueryCache::row_selected(const Table& table, std::uint32_t row, Tick since) const noexcept {
    for (const TickTerm& term : terms_) {
        if (row >= term.covered && term.ticks[row] <= since) return false;
    }
    const Entity entity = table.entities()[row];
    for (const PairTerm& term : desc_.pairs) {
        if (term.target != kAnyTarget && !relations_->has_pair(term.relation, entity, term.target)) return false;
    }
    for (const PairTerm& term : desc_.without_pairs) {
        if (term.target != kAnyTarget && relations_->has_pair(term.relation, entity, term.target)) return false;
    }
    return true;
}

const std::vector<TableIndex>& QueryCache::matched(const TableGraph& graph) {
    if (layout_epoch_ != graph.layout_epoch()) {  // the table list was replaced: match afresh
        matched_.clear();
        tables_seen_ = 0;
        layout_epoch_ = graph.layout_epoch();
    }
    for (; tables_seen_ < graph.table_count(); ++tables_seen_) {
        if (matches(graph.table(tables_seen_))) matched_.push_back(tables_seen_);
    }
    return matched_;
}

bool QueryCache::bind_terms(const Table& table, Tick since) {
    terms_.clear();
    for (ComponentId id : desc_.changed) {
        const Column* column = table.column(id);
        if (column->max_changed_tick() <= since) return false;
        const std::uint32_t covered = column->bulk_changed_tick() > since ? column->bulk_changed_rows() : 0;
        terms_.push_back(TickTerm{column->own_changed_ticks(), covered});
    }
    for (ComponentId id : desc_.added) {
        const Column* column = table.column(id);
        if (column->max_added_tick() <= since) return false;
        terms_.push_back(TickTerm{column->added_ticks(), 0});
    }
    return true;
}

std::uint32_t QueryCache::find_row(std::uint32_t row, std::uint32_t rows, Tick since, bool selected) const noexcept {
    if (terms_.size() == 1) {
        // The common single-filter case as a tight scan over one tick array.
        const TickTerm term = terms_[0];
        if (selected) {
            if (row < term.covered) return row;
            while (row < rows && term.ticks[row] <= since) ++row;
        } else {
            row = std::max(row, term.covered);
            while (row < rows && term.ticks[row] > since) ++row;
        }
        return std::min(row, rows);
    }
    for (; row < rows; ++row) {
        bool passes = true;
        for (const TickTerm& term : terms_) {
            if (row >= term.covered && term.ticks[row] <= since) {
                passes = false;
                break;
            }
        }
        if (passes == selected) return row;
    }
    return rows;
}

std::uint32_t QueryCache::count(TableGraph& graph, Tick since) {
    std::uint32_t total = 0;
    for_each_chunk(graph, since, 0, nullptr, [&](Chunk& chunk) { total += chunk.size(); });
    return total;
}

}  // namespace ecsia
