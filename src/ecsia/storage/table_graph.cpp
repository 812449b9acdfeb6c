#include "ecsia/storage/table_graph.hpp"

#include <algorithm>

namespace ecsia {

TableGraph::TableGraph(const ComponentRegistry& registry) : registry_(registry) { find_or_create({}); }

TableIndex TableGraph::find_or_create(const std::vector<ComponentId>& signature) {
    if (last_found_ < tables_.size() && tables_[last_found_]->signature() == signature) return last_found_;
    if (auto it = by_signature_.find(signature); it != by_signature_.end()) return last_found_ = it->second;
    const auto index = static_cast<TableIndex>(tables_.size());
    tables_.push_back(std::make_unique<Table>(index, signature, registry_, &storage_generation_));
    by_signature_.emplace(signature, index);
    ++storage_generation_;
    return index;
}

TableIndex TableGraph::with(TableIndex from, ComponentId id) {
    Table& source = *tables_[from];
    if (source.has(id)) return from;
    if (TableIndex cached = source.add_edge(id); cached != kNoTable) return cached;
    std::vector<ComponentId> signature = source.signature();
    signature.insert(std::upper_bound(signature.begin(), signature.end(), id), id);
    const TableIndex target = find_or_create(signature);
    tables_[from]->set_add_edge(id, target);
    tables_[target]->set_remove_edge(id, from);
    return target;
}

TableIndex TableGraph::without(TableIndex from, ComponentId id) {
    Table& source = *tables_[from];
    if (!source.has(id)) return from;
    if (TableIndex cached = source.remove_edge(id); cached != kNoTable) return cached;
    std::vector<ComponentId> signature = source.signature();
    signature.erase(std::find(signature.begin(), signature.end(), id));
    const TableIndex target = find_or_create(signature);
    tables_[from]->set_remove_edge(id, target);
    tables_[target]->set_add_edge(id, from);
    return target;
}

}  // namespace ecsia
