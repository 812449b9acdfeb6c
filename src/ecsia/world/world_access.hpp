#pragma once
// detail::WorldAccess: the engine's own access to a World's bookkeeping, which users must not
// reach and ecsia.hpp does not include. The scheduler sets the phase, moves the tick, reserves
// handle blocks, applies command buffers and merges write logs; bindings iterate mutable tables
// and merge the writes a page made through views; tests drive frames by hand. Not for users:
// each of these can break an invariant the World keeps (the entity -> row map, the tick order
// that `changed` filters and snapshots rely on).
// Thread rule: coordinator thread, serial phase (set_phase: the scheduler's frame only).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ecsia/topic/topic_store.hpp"
#include "ecsia/world/system_cursors.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

// Something whose use of a world must end when the world does (a Scheduler). The world calls
// on_world_destroyed() from its destructor, so a dependent never touches a world that is gone.
class WorldDependent {
public:
    virtual void on_world_destroyed() noexcept = 0;
    // Whether one of its systems named `system` consumes `topic` (a scheduler's systems): a
    // consumer no dependent claims, which a restore brought back, is dropped at the next frame.
    virtual bool consumes(TopicId topic, std::string_view system) const noexcept = 0;
    // After a restore replaced the topics' consumers: adds its systems' own the snapshot lacked,
    // at the end of their topics, so messages published before its next frame reach them.
    virtual void claim_consumers() = 0;

protected:
    ~WorldDependent() = default;
};

namespace detail {

struct WorldAccess {
    static TableGraph& tables(World& world) noexcept { return world.graph_; }
    static void set_phase(World& world, WorldPhase phase) noexcept { world.phase_ = phase; }
    // Moves the tick on and returns it (serial phase): a system's run, the end of a frame.
    static Tick advance_tick(World& world) { return world.advance_tick(); }
    // Frames run and each system's last-run tick (system_cursors.hpp): schedulers keep them in the
    // world so that a snapshot holds them.
    static SystemCursors& cursors(World& world) noexcept { return *world.cursors_; }
    static const SystemCursors& cursors(const World& world) noexcept { return *world.cursors_; }
    static TopicStore& topics(World& world) noexcept { return *world.topics_; }
    // After a restore: every dependent claims its consumers (WorldDependent::claim_consumers).
    static void claim_consumers(World& world) {
        for (WorldDependent* dependent : world.dependents_) dependent->claim_consumers();
    }
    // Whether any dependent attached to the world (but `except`) claims the consumer (WorldDependent::consumes).
    static bool consumer_claimed(const World& world, TopicId topic, std::string_view system,
                                 const WorldDependent* except = nullptr) noexcept {
        for (const WorldDependent* dependent : world.dependents_) {
            if (dependent != except && dependent->consumes(topic, system)) return true;
        }
        return false;
    }
    // The main-thread system that runs now, its topic windows (World::messages) and the topics it
    // may publish (World::publish); null name: none runs. The name and the windows must outlive the call that clears them.
    static void set_consumer(World& world, const std::string* name, std::span<const TopicWindow> windows,
                             std::span<const TopicId> publishes) noexcept {
        world.consumer_name_ = name;
        world.consumer_windows_ = windows;
        world.consumer_publishes_ = publishes;
        world.topics_->hold_views(name != nullptr);
    }
    static ApplyStats apply(World& world, std::span<CommandBuffer* const> buffers,
                            std::span<EntityReservation* const> reservations = {}) {
        return world.apply(buffers, reservations);
    }
    static EntityReservation reserve(World& world, std::uint32_t count) { return world.reserve(count); }
    // World::require_spawn_capacity, for the engine's own bulk spawners (the built-in workloads).
    static void require_spawn_capacity(const World& world, std::uint64_t count, const char* operation) {
        world.require_spawn_capacity(count, operation);
    }
    static void release_unused(World& world, const EntityReservation& reservation) { world.release_unused(reservation); }
    static void merge_write_log(World& world, const WriteLog& log, Tick tick) { world.merge_write_log(log, tick); }
    static void require_serial(const World& world, const char* operation) { world.require_serial(operation); }
    static void merge_write_logs(World& world, std::span<const WriteLog* const> logs, std::span<const Tick> ticks) {
        world.merge_write_logs(logs, ticks);
    }
    // The JS set's one crossing: the element's bytes, stamped changed, when the write can be made
    // in place with nothing left for flush(); nullptr otherwise (World::change_in_place).
    // Whether flush() has change events or observers' commands to run (the JS calls flush after
    // a call that queued some, before returning).
    static bool flush_pending(const World& world) noexcept {
        return !world.pending_changes_.empty() || !world.observer_commands_.empty();
    }
    static std::byte* change_in_place(World& world, Entity entity, ComponentId id) noexcept {
        return world.change_in_place(entity, id);
    }
    // Where an alive entity's row is, unchecked (the caller knows it is alive).
    static EntityLocation location(const World& world, Entity entity) noexcept {
        return world.locations_[world.pool_.layout().index(entity)];
    }
    // The entity table as memory, for a reader that checks liveness and finds rows without calling
    // into C++ (LookupMemo, the JS kernels' chunk.lookup, wasm/js_kernel.cpp): a handle `e` of
    // index i < count is alive exactly when placed[i].entity == e, and it is then at row
    // placed[i].table_row & ((1 << row_bits) - 1) of the table placed[i].table_row >> row_bits, or
    // of tables[i] when that is `escape` (EntityLocations). Valid while the world is in a wave (no
    // structural change until the merge).
    struct EntityMemory {
        const EntityLocations::Placed* placed;
        const TableIndex* tables;
        std::uint32_t count;
        unsigned row_bits;
        std::uint32_t escape;
    };
    static EntityMemory entity_memory(const World& world) noexcept {
        const EntityLocations& locations = world.locations_;
        return EntityMemory{locations.placed(), locations.tables(), static_cast<std::uint32_t>(locations.size()),
                            locations.row_bits(), locations.escape()};
    }
    static std::uint64_t storage_generation(const World& world) noexcept { return world.graph_.storage_generation(); }
    // Reorders one table's rows (Table::permute_rows) and keeps the entity -> row map true.
    // Serial phase; a cascade system's ordering of rows by depth (schedule/cascade_order.cpp).
    static void permute_rows(World& world, TableIndex index, const std::vector<std::uint32_t>& order) {
        Table& table = world.graph_.table(index);
        table.permute_rows(order);
        const HandleLayout& layout = world.pool_.layout();
        for (std::uint32_t row = 0; row < table.size(); ++row) world.locations_.set_row(layout.index(table.entities()[row]), row);
        ++world.structure_version_;  // rows moved: views that index rows must look again
    }
    static void attach(World& world, WorldDependent& dependent) { world.attach(dependent); }
    static void detach(World& world, WorldDependent& dependent) noexcept { world.detach(dependent); }
};

}  // namespace detail
}  // namespace ecsia
