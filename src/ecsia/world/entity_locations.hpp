#pragma once
// EntityLocations: the world's entity -> row map, by slot (a handle's index). Serial phase writes
// it; during a wave it is read-only memory that lookups on any thread read (WorldAccess::EntityMemory).
//
// A slot's location is 8 bytes, aligned (`Placed`): the handle placed there, and one word that
// holds both the row (its low `index_bits`: a table has fewer rows than there are slots) and the
// table (the bits above), so that a lookup learns whether a handle is alive and where its row is
// from one load that never straddles a cache line. A table index too large for those bits
// (from 1,023 up with the default 22 index bits) is written there as `escape()`, and the table
// is then read from a second array, which holds every slot's table. Against 12-byte
// records (table, row, handle), natively, a bare loop of random lookups took a third less and
// the kernels' Lookup<T> a tenth to a fifth less (docs/PERFORMANCE.md, "Eight bytes a slot").

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"

namespace ecsia {

// Where a slot's entity is. `entity` is the handle placed there, null once it is despawned (or
// never placed: a reserved handle): so a lookup on another thread checks a handle's liveness in the
// same 8 bytes that say where its row is, one random read instead of two (schedule/lookup_memo.hpp).
struct EntityLocation {
    TableIndex table = kNoTable;
    std::uint32_t row = 0;
    Entity entity = kNullEntity;
};

class EntityLocations {
public:
    // A slot's table-and-row word and the handle placed there.
    struct Placed {
        std::uint32_t table_row = 0;
        Entity entity = kNullEntity;
    };

    explicit EntityLocations(HandleLayout layout = HandleLayout()) noexcept { use_layout(layout); }

    // Empties it for handles of `layout` (its capacity kept).
    void reset(HandleLayout layout) noexcept {
        use_layout(layout);
        placed_.clear();
        tables_.clear();
    }
    std::size_t size() const noexcept { return placed_.size(); }
    std::size_t capacity() const noexcept { return placed_.capacity(); }
    void reserve(std::size_t slots) {
        placed_.reserve(slots);
        tables_.reserve(slots);
    }
    // New slots hold no entity.
    void resize(std::size_t slots) {
        placed_.resize(slots, Placed{escape_ << row_bits_, kNullEntity});
        tables_.resize(slots, kNoTable);
    }
    void swap(EntityLocations& other) noexcept {
        std::swap(row_bits_, other.row_bits_);
        std::swap(row_mask_, other.row_mask_);
        std::swap(escape_, other.escape_);
        placed_.swap(other.placed_);
        tables_.swap(other.tables_);
    }

    [[gnu::always_inline]] EntityLocation operator[](std::size_t slot) const noexcept {
        return EntityLocation{table(slot), row(slot), placed_[slot].entity};
    }
    Entity entity(std::size_t slot) const noexcept { return placed_[slot].entity; }
    TableIndex table(std::size_t slot) const noexcept { return table_of(placed_[slot].table_row >> row_bits_, escape_, tables_.data(), slot); }
    std::uint32_t row(std::size_t slot) const noexcept { return placed_[slot].table_row & row_mask_; }

    void set(std::size_t slot, EntityLocation at) noexcept {
        placed_[slot] = Placed{pack(at.table, at.row), at.entity};
        tables_[slot] = at.table;
    }
    void set_row(std::size_t slot, std::uint32_t row) noexcept { placed_[slot].table_row = pack(tables_[slot], row); }
    // The slot's entity left (despawned): a lookup of its handle now finds it dead.
    void vacate(std::size_t slot) noexcept { placed_[slot].entity = kNullEntity; }

    // ---- the layout as readers of the raw arrays see it (LookupMemo, chunk.lookup, lookupAll)
    // A table_row word's row is its low row_bits(); its bits above are the table's code.
    unsigned row_bits() const noexcept { return row_bits_; }
    std::uint32_t escape() const noexcept { return escape_; }
    // `table`'s code: the table itself, or `escape` for a table too large for the code's bits.
    static std::uint32_t code_of(TableIndex table, std::uint32_t escape) noexcept { return table < escape ? table : escape; }
    // The table of `slot`, whose code is `code`: read from `tables` only when the code is `escape`.
    static TableIndex table_of(std::uint32_t code, std::uint32_t escape, const TableIndex* tables, std::size_t slot) noexcept {
        return code != escape ? code : tables[slot];
    }
    const Placed* placed() const noexcept { return placed_.data(); }
    const TableIndex* tables() const noexcept { return tables_.data(); }
    void prefetch(std::size_t slot) const noexcept { __builtin_prefetch(placed_.data() + slot); }

private:
    void use_layout(HandleLayout layout) noexcept {
        row_bits_ = layout.index_bits();
        row_mask_ = layout.index_mask();
        escape_ = 0xFFFFFFFFu >> row_bits_;
    }
    std::uint32_t pack(TableIndex table, std::uint32_t row) const noexcept {
        return (code_of(table, escape_) << row_bits_) | row;
    }

    unsigned row_bits_ = 22;
    std::uint32_t row_mask_ = 0;
    std::uint32_t escape_ = 0;
    std::vector<Placed> placed_;
    std::vector<TableIndex> tables_;
};

}  // namespace ecsia
