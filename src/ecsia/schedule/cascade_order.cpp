#include "ecsia/schedule/cascade_order.hpp"

#include <algorithm>
#include <string>

#include "ecsia/base/error.hpp"
#include "ecsia/storage/column.hpp"
#include "ecsia/world/world_access.hpp"

namespace ecsia {

CascadeOrder::CascadeOrder(RelationId relation, std::string name, std::vector<ComponentId> parent_reads)
    : relation_(relation), name_(std::move(name)), parent_reads_(std::move(parent_reads)) {}

std::uint32_t CascadeOrder::level_begin(TableIndex table, std::uint32_t depth) const noexcept {
    if (table >= tables_.size() || tables_[table].level_begin.empty()) return 0;
    const std::vector<std::uint32_t>& begins = tables_[table].level_begin;
    return begins[std::min<std::size_t>(depth, begins.size() - 1)];
}

bool CascadeOrder::current(const World& world, const std::vector<TableIndex>& tables) const noexcept {
    if (!refreshed_ || tables != matched_) return false;
    const RelationStore::Relation* r = world.relations().find(relation_);
    if (r == nullptr || r->version != relation_version_ || world.storage_generation() != storage_generation_) return false;
    if (world.structure_version() == structure_version_) return true;
    // Rows changed somewhere: what this order found holds if none changed in a table it read (the
    // matched tables, whose rows it ordered, and the tables its parents were in). Same pairs,
    // same rows there, same column memory: the same depths, order and parent addresses.
    const TableGraph& graph = world.tables();
    for (TableIndex t = 0; t < read_tables_.size(); ++t) {
        if (read_tables_[t] && graph.table(t).row_version() != row_versions_[t]) return false;
    }
    return true;
}

std::uint32_t CascadeOrder::depth_of(const RelationStore& store, const RelationStore::Relation& r,
                                     const HandleLayout& layout, std::size_t limit, Entity entity) {
    // Walk up to the first ancestor whose depth is known (or a root), then number the path down.
    path_.clear();
    Entity at = entity;
    std::uint32_t above = 0;  // depth of the node above path_.back(), plus one; 0: it is a root
    for (;;) {
        const std::uint32_t slot = layout.index(at);
        if (stamp_[slot] == epoch_) {
            above = depth_[slot] + 1;
            break;
        }
        path_.push_back(at);
        if (path_.size() > limit) {
            throw Error(ErrorCode::BadValue, "cascade over '" + name_ + "': its pairs form a cycle through entity slot " +
                                                 std::to_string(slot) + " (define the relation acyclic to refuse such pairs)");
        }
        const std::span<const Entity> targets = store.targets(r, at);
        parent_[slot] = targets.empty() ? kNullEntity : targets[0];
        if (targets.empty()) break;
        at = targets[0];
    }
    for (std::size_t i = path_.size(); i-- > 0;) {
        const std::uint32_t slot = layout.index(path_[i]);
        depth_[slot] = above;
        stamp_[slot] = epoch_;
        ++above;
    }
    return depth_[layout.index(entity)];
}

void CascadeOrder::forget_changed(const RelationStore& store, const RelationStore::Relation& r, const HandleLayout& layout) {
    const auto first = std::upper_bound(r.changes.begin(), r.changes.end(), depths_version_,
                                        [](std::uint64_t version, const RelationStore::Relation::Change& c) { return version < c.version; });
    path_.clear();  // the nodes still to forget, with their subtrees
    for (auto change = first; change != r.changes.end(); ++change) path_.push_back(change->subject);
    while (!path_.empty()) {
        const Entity at = path_.back();
        path_.pop_back();
        const std::uint32_t slot = layout.index(at);
        // An unknown node has no known node below it: a depth is memoised only with its chain.
        if (slot >= stamp_.size() || stamp_[slot] != epoch_) continue;
        stamp_[slot] = 0;
        for (Entity child : store.subjects(r, at)) path_.push_back(child);
    }
}

void CascadeOrder::refresh(World& world, const std::vector<TableIndex>& tables) {
    if (current(world, tables)) {
        structure_version_ = world.structure_version();  // the compare of the tables is done once per change
        return;
    }
    refreshed_ = false;  // until this recompute completes (a cycle throws part way)
    const ComponentRegistry& registry = world.components();
    if (sizes_.size() != parent_reads_.size()) {
        std::uint32_t widest = 0;
        for (ComponentId id : parent_reads_) {
            sizes_.push_back(registry.desc(id).size);
            widest = std::max(widest, sizes_.back());
        }
        zeros_.assign(widest, std::byte{0});
    }
    TableGraph& graph = detail::WorldAccess::tables(world);
    const std::uint32_t slots = world.entities().slot_count();
    if (stamp_.size() < slots) {
        stamp_.resize(slots, 0);
        depth_.resize(slots, 0);
        parent_.resize(slots, kNullEntity);
    }
    const RelationStore& store = world.relations();
    const RelationStore::Relation& r = *store.find(relation_);
    const HandleLayout& layout = world.entities().layout();
    const std::size_t limit = std::size_t(slots) + 1;
    // Depths depend on the pairs alone: while the relation's pairs stay the same (rows spawned,
    // despawned or moved elsewhere), every depth memoised so far holds and only new entities are
    // walked. A slot whose entity was replaced keeps a valid memo too: an entity despawned with a
    // pair, or a new one given one, changed the pairs; without, both are roots.
    // When they changed, the relation's change list says whose: those subjects' subtrees are
    // forgotten and walked again, the rest kept. Further behind than the list: all forgotten.
    if (epoch_ != 0 && r.version != depths_version_ && depths_version_ >= r.changes_floor) {
        forget_changed(store, r, layout);
        depths_version_ = r.version;
    } else if (epoch_ == 0 || r.version != depths_version_) {
        if (++epoch_ == 0) {  // the stamps wrapped: forget them all
            std::fill(stamp_.begin(), stamp_.end(), 0);
            epoch_ = 1;
        }
        depths_version_ = r.version;
    }
    tables_.resize(graph.table_count());
    for (TableOrder& order : tables_) order.level_begin.clear();

    // 1. Depths, and each table's rows in depth order (a stable counting sort, so rows of one
    // level keep their relative order: the result depends only on the world, never on timing).
    std::uint32_t deepest = 0;
    bool any = false;
    for (TableIndex t : tables) {
        Table& table = graph.table(t);
        const std::uint32_t rows = table.size();
        if (rows == 0) continue;
        any = true;
        row_depths_.resize(rows);
        bool sorted = true;
        std::uint32_t table_deepest = 0;
        for (std::uint32_t row = 0; row < rows; ++row) {
            row_depths_[row] = depth_of(store, r, layout, limit, table.entities()[row]);
            if (row > 0 && row_depths_[row] < row_depths_[row - 1]) sorted = false;
            table_deepest = std::max(table_deepest, row_depths_[row]);
        }
        std::vector<std::uint32_t>& begins = tables_[t].level_begin;
        begins.assign(std::size_t(table_deepest) + 2, 0);
        for (std::uint32_t row = 0; row < rows; ++row) ++begins[row_depths_[row] + 1];
        for (std::size_t d = 1; d < begins.size(); ++d) begins[d] += begins[d - 1];
        if (!sorted) {
            order_.resize(rows);
            std::vector<std::uint32_t> next(begins.begin(), begins.end() - 1);
            for (std::uint32_t row = 0; row < rows; ++row) order_[next[row_depths_[row]]++] = row;
            detail::WorldAccess::permute_rows(world, t, order_);
        }
        deepest = std::max(deepest, table_deepest);
    }
    levels_ = any ? deepest + 1 : 0;
    for (TableIndex t : tables) {
        std::vector<std::uint32_t>& begins = tables_[t].level_begin;
        if (!begins.empty()) begins.resize(std::size_t(levels_) + 1, begins.back());
    }

    // 2. Parent locations, after every table is in order (a parent may be in any table).
    base_.resize(graph.table_count());
    read_tables_.assign(graph.table_count(), false);
    for (TableIndex t : tables) read_tables_[t] = true;
    for (std::size_t k = 0; k < parent_reads_.size(); ++k) {
        // Each table's column of this parent read, looked up once (zeros_ with stride 0: lacking it).
        for (TableIndex t = 0; t < graph.table_count(); ++t) {
            const Column* column = graph.table(t).column(parent_reads_[k]);
            base_[t] = column != nullptr && column->data() != nullptr ? column->data() : nullptr;
        }
        const std::size_t size = sizes_[k];
        for (TableIndex t : tables) {
            TableOrder& order = tables_[t];
            if (order.level_begin.empty()) continue;
            const Table& table = graph.table(t);
            const std::uint32_t first_child = order.level_begin[1];
            order.parent.resize(parent_reads_.size());
            std::vector<const std::byte*>& parent = order.parent[k];
            parent.assign(table.size(), nullptr);
            for (std::uint32_t row = first_child; row < table.size(); ++row) {
                const Entity target = parent_[layout.index(table.entities()[row])];
                const EntityLocation at = detail::WorldAccess::location(world, target);
                read_tables_[at.table] = true;
                const std::byte* base = base_[at.table];
                parent[row] = base != nullptr ? base + at.row * size : zeros_.data();
            }
        }
    }

    refreshed_ = true;
    relation_version_ = r.version;
    storage_generation_ = world.storage_generation();
    structure_version_ = world.structure_version();  // after this refresh's own row moves
    matched_ = tables;
    row_versions_.resize(graph.table_count());
    for (TableIndex t = 0; t < graph.table_count(); ++t) row_versions_[t] = graph.table(t).row_version();
}

}  // namespace ecsia
