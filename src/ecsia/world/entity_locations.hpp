#pragma once
// EntityLocations: the world's entity -> row map, by slot (a handle's index). Serial phase writes
// it; during a wave it is read-only memory that lookups on any thread read (WorldAccess::EntityMemory).
//
// Stored as two arrays, not one of 12-byte records: a slot's row and the handle placed there
// (8 bytes, aligned: the part a lookup reads first, which says whether the handle is alive) and its
// table (4 bytes). A lookup's two loads then never straddle a cache line and do not depend on each
// other, and the row-and-handle array is two thirds of the bytes a random lookup pulls through the
// cache. In a loop of random lookups that made a lookup about 30% cheaper than 12-byte records, at
// 20,000 rows as at 100,000 (docs/PERFORMANCE.md, hierarchy).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"

namespace ecsia {

// Where a slot's entity is. `entity` is the handle placed there, null once it is despawned (or
// never placed: a reserved handle): so a lookup on another thread checks a handle's liveness in the
// same 8 bytes that say which row it is, one random read instead of two (schedule/lookup_memo.hpp).
struct EntityLocation {
    TableIndex table = kNoTable;
    std::uint32_t row = 0;
    Entity entity = kNullEntity;
};

class EntityLocations {
public:
    // A slot's row and the handle placed there: the first half of its EntityLocation.
    struct Placed {
        std::uint32_t row = 0;
        Entity entity = kNullEntity;
    };

    std::size_t size() const noexcept { return placed_.size(); }
    std::size_t capacity() const noexcept { return placed_.capacity(); }
    void reserve(std::size_t slots) {
        placed_.reserve(slots);
        tables_.reserve(slots);
    }
    // New slots hold no entity.
    void resize(std::size_t slots) {
        placed_.resize(slots);
        tables_.resize(slots, kNoTable);
    }
    void clear() noexcept {
        placed_.clear();
        tables_.clear();
    }
    void swap(EntityLocations& other) noexcept {
        placed_.swap(other.placed_);
        tables_.swap(other.tables_);
    }

    EntityLocation operator[](std::size_t slot) const noexcept {
        return EntityLocation{tables_[slot], placed_[slot].row, placed_[slot].entity};
    }
    Entity entity(std::size_t slot) const noexcept { return placed_[slot].entity; }
    TableIndex table(std::size_t slot) const noexcept { return tables_[slot]; }
    std::uint32_t row(std::size_t slot) const noexcept { return placed_[slot].row; }

    void set(std::size_t slot, EntityLocation at) noexcept {
        placed_[slot] = Placed{at.row, at.entity};
        tables_[slot] = at.table;
    }
    void set_row(std::size_t slot, std::uint32_t row) noexcept { placed_[slot].row = row; }
    // The slot's entity left (despawned): a lookup of its handle now finds it dead.
    void vacate(std::size_t slot) noexcept { placed_[slot].entity = kNullEntity; }

    // The two arrays, for readers that check liveness and find rows without calling into C++.
    const Placed* placed() const noexcept { return placed_.data(); }
    const TableIndex* tables() const noexcept { return tables_.data(); }
    void prefetch(std::size_t slot) const noexcept {
        __builtin_prefetch(placed_.data() + slot);
        __builtin_prefetch(tables_.data() + slot);
    }

private:
    std::vector<Placed> placed_;
    std::vector<TableIndex> tables_;
};

}  // namespace ecsia
