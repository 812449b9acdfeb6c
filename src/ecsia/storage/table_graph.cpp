#include "ecsia/storage/table_graph.hpp"

#include <algorithm>

namespace ecsia {

TableGraph::TableGraph(const ComponentRegistry& registry) : registry_(registry) { find_or_create({}); }

namespace {
// Signatures are a handful of ids: compared inline, where operator== called memcmp (a spawn loop's
// largest single cost natively).
bool same_signature(const std::vector<ComponentId>& a, const std::vector<ComponentId>& b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i]) return false;
    }
    return true;
}
}  // namespace

TableIndex TableGraph::find_or_create(const std::vector<ComponentId>& signature) {
    if (last_found_ < tables_.size() && same_signature(tables_[last_found_]->signature(), signature)) return last_found_;
    if (auto it = by_signature_.find(signature); it != by_signature_.end()) return last_found_ = it->second;
    const auto index = static_cast<TableIndex>(tables_.size());
    tables_.push_back(std::make_unique<Table>(index, signature, registry_, &storage_generation_));
    by_signature_.emplace(signature, index);
    ++storage_generation_;
    return index;
}

TableIndex TableGraph::find_with(TableIndex from, ComponentId id) {
    Table& source = *tables_[from];
    if (source.has(id)) {
        source.set_add_edge(id, from);
        return from;
    }
    std::vector<ComponentId> signature = source.signature();
    signature.insert(std::upper_bound(signature.begin(), signature.end(), id), id);
    const TableIndex target = find_or_create(signature);
    tables_[from]->set_add_edge(id, target);
    tables_[target]->set_remove_edge(id, from);
    return target;
}

TableIndex TableGraph::find_without(TableIndex from, ComponentId id) {
    Table& source = *tables_[from];
    if (!source.has(id)) {
        source.set_remove_edge(id, from);
        return from;
    }
    std::vector<ComponentId> signature = source.signature();
    signature.erase(std::find(signature.begin(), signature.end(), id));
    const TableIndex target = find_or_create(signature);
    tables_[from]->set_remove_edge(id, target);
    tables_[target]->set_add_edge(id, from);
    return target;
}

}  // namespace ecsia
