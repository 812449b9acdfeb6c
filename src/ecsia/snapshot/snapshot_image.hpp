#pragma once
// Internal to the snapshot layer: a snapshot read and fully validated against one world
// (snapshot_reader.cpp), ready to be committed to it (snapshot_restore.cpp). Pointers point into
// the caller's bytes; the pool's new slots, free list and entity locations are already built, so
// the commit only moves and copies.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ecsia/snapshot/snapshot_access.hpp"

namespace ecsia {

struct SnapshotImage {
    struct Cursor {
        std::string_view name;
        Tick last_run;
    };
    // A tick array: one u32 per row at `per_row` (unaligned, little-endian), or `uniform` for all.
    struct Ticks {
        const std::byte* per_row = nullptr;
        Tick uniform = 0;
    };
    struct ColumnImage {
        SnapshotAccess::TickSummary summary;
        Ticks added;
        Ticks changed;
        const std::byte* values = nullptr;  // rows x the component's size
    };
    struct TableImage {
        std::vector<ComponentId> signature;  // this world's ids, ascending (as a Table orders them)
        std::uint32_t rows = 0;
        const std::byte* entities = nullptr;  // rows x u32 handle
        std::vector<ColumnImage> columns;      // columns[i] stores signature[i]
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
    std::vector<EntityLocation> locations;
    std::vector<SnapshotAccess::PendingChange> pending;
};

// Validates `bytes` completely against `world` (which it does not change) and returns the image.
// Throws BadSnapshot or SnapshotMismatch naming what is wrong.
SnapshotImage read_snapshot(const World& world, std::span<const std::byte> bytes);

}  // namespace ecsia
