// restore(): validates (snapshot_reader.cpp), then allocates everything the new state needs, then
// commits it with moves and copies only, so that a failure at any point before the commit (bad
// bytes, a mismatched schema, even running out of memory) leaves the world exactly as it was.
//
// Tables whose index and components match the world's are reused in place (the rollback case:
// restoring a recent frame of the same world allocates nothing); the others are built afresh, and
// tables the snapshot does not have are dropped, so the world ends up with exactly the
// snapshot's tables in the snapshot's order, which is what makes iteration, batch ids and merges
// replay identically.

#include <algorithm>
#include <cstring>

#include "ecsia/base/little_endian.hpp"
#include "ecsia/snapshot/handle_runs.hpp"
#include "ecsia/snapshot/snapshot.hpp"
#include "ecsia/snapshot/snapshot_image.hpp"
#include "ecsia/world/world_access.hpp"

namespace ecsia {

namespace {

using Access = SnapshotAccess;

// Writes the snapshot's ticks of `rows` rows into a column's per-row array, unless the column's
// memo (Column::UniformTicks) says the array already holds exactly those: restoring a recent frame
// of the same world (a rollback) usually finds them there, and the fill costs as much as copying
// the column's values.
void copy_ticks(std::vector<Tick>& to, Access::UniformTicks& uniform, const SnapshotImage::Ticks& from, std::uint32_t rows) noexcept {
    if (rows == 0) {  // an empty column may have no tick storage at all
        uniform = Access::UniformTicks{};
        return;
    }
    if (from.per_row != nullptr) {
        std::memcpy(to.data(), from.per_row, std::size_t(rows) * sizeof(Tick));
        uniform = Access::UniformTicks{};
        return;
    }
    if (from.runs != nullptr) {
        Tick* row = to.data();
        for (std::uint32_t i = 0; i < from.run_count; ++i) {
            const Tick tick = little_endian::load_u32(from.runs + 8 * std::size_t(i));
            row = std::fill_n(row, little_endian::load_u32(from.runs + 8 * std::size_t(i) + 4), tick);
        }
        uniform = Access::UniformTicks{};
        return;
    }
    if (uniform.known && uniform.rows == rows && uniform.tick == from.uniform) return;
    std::fill(to.begin(), to.begin() + rows, from.uniform);
    uniform = Access::UniformTicks{true, rows, from.uniform};
}

// The same, when `spare` (the spare column's array, of the same capacity) may hold the ticks: a
// per-row array the reader copied there changes places with the column's.
void place_ticks(std::vector<Tick>& to, Access::UniformTicks& uniform, const SnapshotImage::Ticks& from, std::uint32_t rows,
                 std::vector<Tick>* spare) noexcept {
    // Another column's array (kTicksSame) is copied: it may lie in that column's spare.
    if (spare == nullptr || from.per_row == nullptr || from.shared) return copy_ticks(to, uniform, from, rows);
    to.swap(*spare);
    uniform = Access::UniformTicks{};
}

// `same_rows`: the table already holds the snapshot's rows (SnapshotImage::keeps_entities).
void fill_table(Table& table, const SnapshotImage::TableImage& image, bool same_rows) noexcept {
    RestoreSpares::TableSpare* const spare = image.spare;
    if (!same_rows) {
        std::vector<Entity>& entities = Access::entities(table);
        entities.resize(image.rows);  // within the capacity reserved before the commit: no allocation
        if (image.runs != nullptr) {
            expand_runs(image.runs, image.run_count, entities.data());
        } else if (image.rows > 0) {
            std::memcpy(entities.data(), image.entities, std::size_t(image.rows) * sizeof(Entity));
        }
        Access::counted_rows(table) = 0;
    }
    // Rows written (or found equal) as runs: the first run's rows count up (Table::counted_rows_).
    if (image.runs != nullptr && image.run_count > 0) Access::counted_rows(table) = little_endian::load_u32(image.runs + 4);
    std::vector<Column>& columns = table.columns();
    for (std::size_t c = 0; c < columns.size(); ++c) {
        Column& column = columns[c];
        const SnapshotImage::ColumnImage& from = image.columns[c];
        Column* const other = spare != nullptr ? &spare->columns[c] : nullptr;
        if (other != nullptr) {
            // The spare memory lacks the leading values that equal the column's own; when that is
            // all of them, the column already holds the snapshot's values.
            const std::size_t bytes = std::size_t(image.rows) * column.element_size();
            if (from.values_unchanged < bytes) {
                if (from.values_unchanged > 0) std::memcpy(other->data(), column.data(), from.values_unchanged);
                Access::swap_values(column, *other);
            }
        } else if (column.element_size() > 0 && image.rows > 0) {
            std::memcpy(column.data(), from.values, std::size_t(image.rows) * column.element_size());
        }
        place_ticks(Access::added_ticks(column), Access::uniform_added(column), from.added, image.rows,
                    other != nullptr ? &Access::added_ticks(*other) : nullptr);
        place_ticks(Access::own_changed_ticks(column), Access::uniform_changed(column), from.changed, image.rows,
                    other != nullptr ? &Access::own_changed_ticks(*other) : nullptr);
        Access::set_summary(column, from.summary);
    }
    Access::forget_edges(table);  // edges may name tables that no longer exist; they are a cache
}

}  // namespace

void restore(World& world, std::span<const std::byte> bytes) {
    detail::require_between_frames(world, "restore");
    SnapshotImage image = read_snapshot(world, bytes);
    commit_snapshot(world, image);
}

void commit_snapshot(World& world, SnapshotImage& image) {
    // ---- prepare: every allocation happens here, before the world changes
    TableGraph& graph = Access::graph(world);
    std::vector<std::unique_ptr<Table>>& current = Access::tables(graph);
    const std::size_t table_count = image.tables.size();
    std::vector<std::unique_ptr<Table>> next(table_count);
    std::vector<bool> reused(table_count, false);
    std::map<std::vector<ComponentId>, TableIndex> by_signature;
    for (std::size_t t = 0; t < table_count; ++t) {
        const SnapshotImage::TableImage& table = image.tables[t];
        if (t < current.size() && current[t]->signature() == table.signature) {
            reused[t] = true;
            current[t]->reserve(table.rows);  // may move columns, never changes what they hold
        } else {
            next[t] = std::make_unique<Table>(static_cast<TableIndex>(t), table.signature, Access::registry(graph),
                                              Access::storage_generation(graph));
            next[t]->reserve(table.rows);
        }
        by_signature.emplace(table.signature, static_cast<TableIndex>(t));
    }
    // Cursors keep their slots (schedulers hold them): known names take the snapshot's tick or
    // "never ran", new names are appended.
    SystemCursors& cursors = Access::cursors(world);
    std::vector<std::string> cursor_names = Access::cursor_names(cursors);
    std::vector<Tick> cursor_ticks(cursor_names.size(), 0);
    cursor_names.reserve(cursor_names.size() + image.cursors.size());
    cursor_ticks.reserve(cursor_names.size() + image.cursors.size());
    for (const SnapshotImage::Cursor& cursor : image.cursors) {
        const auto it = std::find(cursor_names.begin(), cursor_names.end(), cursor.name);
        if (it != cursor_names.end()) {
            cursor_ticks[static_cast<std::size_t>(it - cursor_names.begin())] = cursor.last_run;
        } else {
            cursor_names.emplace_back(cursor.name);
            cursor_ticks.push_back(cursor.last_run);
        }
    }

    // ---- commit: moves, swaps and copies into reserved memory only
    for (std::size_t t = 0; t < table_count; ++t) {
        if (reused[t]) next[t] = std::move(current[t]);
        fill_table(*next[t], image.tables[t], reused[t] && image.keeps_entities);
    }
    current.swap(next);  // `next` now holds the dropped tables, freed on return
    Access::by_signature(graph).swap(by_signature);
    Access::replace_layout(graph);
    ++*Access::storage_generation(graph);

    if (!image.keeps_entities) {
        EntityPool& pool = Access::pool(world);
        Access::slots(pool).swap(image.slots);
        Access::free_indices(pool).swap(image.free_indices);
        Access::recount(pool);
        Access::locations(world).swap(image.locations);
    }
    Access::tick(world) = image.tick;
    Access::structure_changed(world);
    Access::pending_changes(world).swap(image.pending);
    Access::relations(world) = std::move(*image.relations);
    Access::prefab_names(world).swap(image.prefab_names);
    std::vector<TopicStore::Topic>& topics = Access::topics(world);
    for (std::size_t id = 0; id < topics.size(); ++id) {
        TopicStore::Topic& topic = topics[id];
        TopicStore::Topic& saved = image.topics[id];
        topic.fields.swap(saved.fields);
        topic.first = saved.first;
        topic.count = saved.count;
        topic.consumers.swap(saved.consumers);
    }
    Access::consumers_restored(world);
    Access::cursor_names(cursors).swap(cursor_names);
    Access::cursor_ticks(cursors).swap(cursor_ticks);
    Access::frames(cursors) = image.frames;
    // The schedulers' consumers the snapshot lacks start now, not at their next frame: what the
    // page publishes before that frame reaches them. Only an allocation can fail here, and then
    // their next frame claims them (Scheduler's begin_frame): the restore itself is whole.
    try {
        detail::WorldAccess::claim_consumers(world);
    } catch (...) {
    }
}

}  // namespace ecsia
