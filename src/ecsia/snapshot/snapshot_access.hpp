#pragma once
// Internal to the snapshot layer (only snapshot/*.cpp include it): the one friend of World,
// EntityPool, TableGraph, Table, Column and SystemCursors, through which the writer reads their
// private state and the restorer replaces it. Keeping every such access here means those classes
// grow no public setters that could break their invariants.

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "ecsia/relation/relation_store.hpp"
#include "ecsia/world/world.hpp"
#include "ecsia/world/world_access.hpp"

namespace ecsia {

class SnapshotAccess {
public:
    using Slot = EntityPool::Slot;
    using SlotState = EntityPool::SlotState;
    using PendingChange = World::PendingChange;

    // ---- world
    static EntityPool& pool(World& w) noexcept { return w.pool_; }
    static const EntityPool& pool(const World& w) noexcept { return w.pool_; }
    static TableGraph& graph(World& w) noexcept { return w.graph_; }
    static const TableGraph& graph(const World& w) noexcept { return w.graph_; }
    static EntityLocations& locations(World& w) noexcept { return w.locations_; }
    static RelationStore& relations(World& w) noexcept { return *w.relations_; }
    static std::vector<World::PrefabName>& prefab_names(World& w) noexcept { return w.prefab_names_; }
    static Tick& tick(World& w) noexcept { return w.tick_; }
    static std::vector<TopicStore::Topic>& topics(World& w) noexcept { return w.topics_->topics_; }
    static void consumers_restored(World& w) noexcept { ++w.topics_->consumer_restores_; }
    static SystemCursors& cursors(World& w) noexcept { return *w.cursors_; }
    // Every row may have moved: views and caches keyed on the structure version must re-fetch.
    static void structure_changed(World& w) noexcept { ++w.structure_version_; }
    static std::vector<PendingChange>& pending_changes(World& w) noexcept { return w.pending_changes_; }
    static const std::vector<PendingChange>& pending_changes(const World& w) noexcept { return w.pending_changes_; }
    static bool observer_commands_pending(const World& w) noexcept { return !w.observer_commands_.empty(); }
    static bool inside_observer(const World& w) noexcept { return w.observer_depth_ > 0; }

    // ---- cursors
    static std::vector<std::string>& cursor_names(SystemCursors& c) noexcept { return c.names_; }
    static std::vector<Tick>& cursor_ticks(SystemCursors& c) noexcept { return c.last_run_; }
    static std::uint64_t& frames(SystemCursors& c) noexcept { return c.frames_; }

    // ---- entity pool
    static std::vector<Slot>& slots(EntityPool& p) noexcept { return p.slots_; }
    static const std::vector<Slot>& slots(const EntityPool& p) noexcept { return p.slots_; }
    static std::vector<std::uint32_t>& free_indices(EntityPool& p) noexcept { return p.free_indices_; }
    static const std::vector<std::uint32_t>& free_indices(const EntityPool& p) noexcept { return p.free_indices_; }
    // Sets the counters from the slots (after the slots and free list were replaced).
    static void recount(EntityPool& p) noexcept {
        std::uint32_t alive = 0, reserved = 0, retired = 0;
        for (const Slot& slot : p.slots_) {
            alive += slot.state == SlotState::Alive;
            reserved += slot.state == SlotState::Reserved;
            retired += slot.state == SlotState::Retired;
        }
        p.alive_count_ = alive;
        p.allocated_count_ = alive + reserved;
        p.retired_count_ = retired;
    }

    // ---- tables
    static std::vector<std::unique_ptr<Table>>& tables(TableGraph& g) noexcept { return g.tables_; }
    static std::map<std::vector<ComponentId>, TableIndex>& by_signature(TableGraph& g) noexcept { return g.by_signature_; }
    static std::uint64_t* storage_generation(TableGraph& g) noexcept { return &g.storage_generation_; }
    static void replace_layout(TableGraph& g) noexcept { ++g.layout_epoch_; }
    static const ComponentRegistry& registry(const TableGraph& g) noexcept { return g.registry_; }
    // The table's rows, to replace them (which counts as a change of its rows: Table::row_version).
    static std::vector<Entity>& entities(Table& t) noexcept {
        ++t.row_version_;
        return t.entities_;
    }
    // How many leading rows are known to count up from the first (Table::counted_rows_): mutable,
    // so a snapshot of a const world records it.
    static std::uint32_t& counted_rows(const Table& t) noexcept { return t.counted_rows_; }
    static std::uint32_t capacity(const Table& t) noexcept { return t.capacity_; }
    static void forget_edges(Table& t) noexcept {
        t.add_edges_.clear();
        t.remove_edges_.clear();
    }

    // ---- columns
    static std::uint32_t alignment(const Column& c) noexcept { return c.alignment_; }
    // Swaps the value memory of two columns of the same component and capacity (restore's spares).
    static void swap_values(Column& a, Column& b) noexcept { std::swap(a.data_, b.data_); }
    static const std::vector<Tick>& added_ticks(const Column& c) noexcept { return c.added_ticks_; }
    static const std::vector<Tick>& own_changed_ticks(const Column& c) noexcept { return c.changed_ticks_; }
    // For writing (a restore): the memos of matching arrays (Column::TicksMatch) are forgotten.
    static std::vector<Tick>& added_ticks(Column& c) noexcept {
        ++c.added_version_;
        return c.added_ticks_;
    }
    static std::vector<Tick>& own_changed_ticks(Column& c) noexcept {
        ++c.changed_version_;
        return c.changed_ticks_;
    }
    // The uniform-tick memo of a column's per-row arrays (Column::UniformTicks): mutable, so a
    // snapshot of a const world may record what it found.
    using UniformTicks = Column::UniformTicks;
    static UniformTicks& uniform_added(const Column& c) noexcept { return c.uniform_added_; }
    static UniformTicks& uniform_changed(const Column& c) noexcept { return c.uniform_changed_; }
    // The memos that a column's tick arrays equal others (Column::TicksMatch), recorded by a
    // snapshot that found them equal (of a const world: the memos are mutable).
    static bool changed_matches_added(const Column& c) noexcept { return c.changed_matches_added(); }
    static void record_changed_matches_added(const Column& c) noexcept { c.record_changed_matches_added(); }
    static bool added_matches(const Column& c, const Column& reference) noexcept { return c.added_matches(reference); }
    static void record_added_matches(const Column& c, const Column& reference) noexcept { c.record_added_matches(reference); }
    struct TickSummary {
        Tick max_added;
        Tick max_changed;
        std::uint32_t bulk_rows;
        Tick bulk_tick;
    };
    static TickSummary summary(const Column& c) noexcept {
        return {c.max_added_tick_, c.max_changed_tick_, c.bulk_changed_rows_, c.bulk_changed_tick_};
    }
    static void set_summary(Column& c, const TickSummary& s) noexcept {
        c.max_added_tick_ = s.max_added;
        c.max_changed_tick_ = s.max_changed;
        c.bulk_changed_rows_ = s.bulk_rows;
        c.bulk_changed_tick_ = s.bulk_tick;
    }
};

}  // namespace ecsia

namespace ecsia::detail {

// snapshot() and restore() run only between whole frames. Throws WrongPhase naming `operation`.
inline void require_between_frames(const World& world, const char* operation) {
    const char* why = nullptr;
    if (world.phase() == WorldPhase::Wave) why = " during a wave";
    else if (SnapshotAccess::inside_observer(world)) why = " inside an observer";
    else if (detail::WorldAccess::cursors(world).in_frame()) why = " inside a frame (between a scheduler's begin_frame and the frame's end)";
    if (why != nullptr) {
        throw Error(ErrorCode::WrongPhase, std::string(operation) + why + ": only a whole frame can be replayed, so call it between frames");
    }
    // A restore would leave them to be applied to the restored world at the next flush.
    if (SnapshotAccess::observer_commands_pending(world)) {
        throw Error(ErrorCode::WrongPhase,
                    std::string(operation) + " while commands recorded by observers wait to be applied: call flush() first");
    }
}

}  // namespace ecsia::detail
