// LookupColumnCache (lookup_columns.hpp).

#include "ecsia/schedule/lookup_columns.hpp"

#include "ecsia/world/world.hpp"

namespace ecsia {

void LookupColumnCache::refresh(const World& world, ComponentId id) {
    if (id >= by_component_.size()) by_component_.resize(std::size_t(id) + 1);
    Entry& entry = by_component_[id];
    const std::uint64_t generation = world.storage_generation();
    if (entry.generation == generation) return;
    const TableGraph& tables = world.tables();
    entry.by_table.assign(tables.table_count(), nullptr);
    for (TableIndex t = 0; t < tables.table_count(); ++t) {
        const Column* column = tables.table(t).column(id);
        if (column != nullptr) entry.by_table[t] = column->data();
    }
    entry.element_size = world.components().desc(id).size;
    entry.generation = generation;
}

}  // namespace ecsia
