#pragma once
// Internal to the snapshot layer: a snapshot read and fully validated against one world
// (snapshot_reader.cpp), ready to be committed to it (snapshot_restore.cpp). Pointers point into
// the bytes read, or into a table's spare memory they were copied to (RestoreSpares); the pool's
// new slots, free list and entity locations are already built, so the commit only moves, swaps
// and copies.

#include <cstddef>
#include <cstdint>
#include <memory>

#include <span>
#include <string_view>
#include <vector>

#include "ecsia/relation/relation_store.hpp"
#include "ecsia/snapshot/restore_spares.hpp"
#include "ecsia/snapshot/snapshot_access.hpp"

namespace ecsia {

struct SnapshotImage {
    struct Cursor {
        std::string_view name;
        Tick last_run;
    };
    // A tick array: one u32 per row at `per_row` (unaligned, little-endian), `run_count` runs
    // (u32 tick, u32 length) at `runs`, or `uniform` for all. `shared`: another column's array
    // (kTicksSame), which `per_row` may point into: copied from, never swapped in.
    struct Ticks {
        const std::byte* per_row = nullptr;
        const std::byte* runs = nullptr;
        std::uint32_t run_count = 0;
        Tick uniform = 0;
        Tick highest = 0;  // the highest tick of the rows (the reader's check)
        bool shared = false;
    };
    struct ColumnImage {
        SnapshotAccess::TickSummary summary;
        Ticks added;
        Ticks changed;
        const std::byte* values = nullptr;  // rows x the component's size
        // Read into a table's spares (TableImage::spare): how many leading bytes of the values
        // equal the column's own, and so are not in the spare memory (values_unchanged of them).
        std::size_t values_unchanged = 0;
    };
    struct TableImage {
        std::vector<ComponentId> signature;  // this world's ids, ascending (as a Table orders them)
        std::uint32_t rows = 0;
        // The rows' handles: listed, rows x u32 at `entities`, or as `run_count` runs of
        // consecutive handles (u32 first handle, u32 length: handle_runs.hpp) at `runs`, which the
        // per-row checks walk and the commit writes out into the table's rows.
        const std::byte* entities = nullptr;
        const std::byte* runs = nullptr;
        std::uint32_t run_count = 0;
        // The rows hold the same handles, in the same order, as the world's table of this index
        // (compared only when the snapshot's slots and free list are the pool's).
        bool worlds_rows = false;
        std::vector<ColumnImage> columns;      // columns[i] stores signature[i]
        // Set when the columns' arrays of rows (values, per-row ticks) lie in these spares, the
        // table's own at this index: the commit swaps them in instead of copying.
        RestoreSpares::TableSpare* spare = nullptr;
    };

    Tick tick = 1;
    std::uint64_t frames = 0;
    std::vector<Cursor> cursors;
    std::vector<TableImage> tables;
    // The snapshot's slots, free list and every table's rows are the world's own (a rollback over
    // frames without spawns or despawns): the commit leaves the pool, the entity locations and the
    // tables' rows as they are, and slots, free_indices and locations stay empty.
    bool keeps_entities = false;
    // Otherwise built by the reader while it checks that every slot is alive, free or retired
    // exactly once.
    std::vector<SnapshotAccess::Slot> slots;
    std::vector<std::uint32_t> free_indices;
    EntityLocations locations;
    std::vector<SnapshotAccess::PendingChange> pending;
    // The world's relations with the snapshot's pairs, built and checked by the reader (so the
    // commit only moves it in).
    std::unique_ptr<RelationStore> relations;
    // The prefab names, in definition order, checked against the snapshot's entities and tables.
    std::vector<World::PrefabName> prefab_names;
    // Every topic of the world, by its id: the snapshot's messages and consumers (a topic the
    // snapshot lacks: none), each layout the world's own.
    std::vector<TopicStore::Topic> topics;
};

class SnapshotInput;

// Validates `bytes` completely against `world` (which it does not change) and returns the image.
// Throws BadSnapshot or SnapshotMismatch naming what is wrong.
SnapshotImage read_snapshot(const World& world, std::span<const std::byte> bytes);
// The same from an input that may pull its bytes in as they are read; with `spares`, the arrays
// of rows of tables the world has room for are read into them.
SnapshotImage read_snapshot(const World& world, SnapshotInput& bytes, RestoreSpares* spares);

// Replaces the world's state with a validated image of it (restore()'s second half). Allocates
// first, so a throw (out of memory) leaves the world as it was; then commits without failing.
void commit_snapshot(World& world, SnapshotImage& image);

}  // namespace ecsia
