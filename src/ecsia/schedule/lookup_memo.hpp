#pragma once
// What KernelContext::lookup (schedule/system.hpp) and Lookup<T> (lookup.hpp) read for lookups of
// one component: the entity table as memory and the component's column in each table
// (LookupColumns), so that a lookup is inline: the slot's location (which also says whether the
// handle is alive, and gives the table and row), then the table's column, then the element.
// Valid during one kernel call: nothing structural changes during a wave (changes wait for the
// merge). Its batch's thread only, like the KernelContext that holds it.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"
#include "ecsia/schedule/lookup_columns.hpp"
#include "ecsia/world/entity_locations.hpp"

namespace ecsia {

class World;

struct LookupMemo {
    ComponentId id = kNoComponent;  // none yet: KernelContext fills the memo before its first find()
    // The entity table (WorldAccess::EntityMemory): slot i's table-and-row word and the handle
    // placed there (null when none) are two uint32 at placed + 8 * i; the word's low row_bits are
    // the row, the bits above the table's code (EntityLocations::code_of: the table, or `escape`
    // for a table whose index does not fit, found in tables[i]).
    const std::byte* placed = nullptr;
    const TableIndex* tables = nullptr;
    std::uint32_t location_count = 0;
    std::uint32_t index_mask = 0;  // also the row's mask: a handle's index and a row have the same bits
    unsigned row_bits = 0;
    std::uint32_t escape = 0;
    LookupColumns columns;  // `id`'s column in each table

    // A memo of `id` in `world`, whose columns are `columns` (LookupColumnCache::of(id), refreshed
    // since the world's last structural change).
    static LookupMemo of(const World& world, ComponentId id, LookupColumns columns) noexcept;

    // `entity`'s element of the memo's component: nullptr when it is not alive (stale, pending,
    // null, reserved, out of range: its slot's location holds another handle) or its table lacks
    // the component.
    const std::byte* find(Entity entity) const noexcept {
        const std::uint32_t index = entity.bits & index_mask;
        if (index >= location_count) return nullptr;
        std::uint32_t location[2];  // table-and-row, handle
        std::memcpy(location, placed + 8 * std::size_t(index), 8);
        if (location[1] != entity.bits) return nullptr;
        const TableIndex table = EntityLocations::table_of(location[0] >> row_bits, escape, tables, index);
        const std::byte* column = columns.by_table[table];
        return column == nullptr ? nullptr : column + std::size_t(location[0] & index_mask) * columns.element_size;
    }
};

}  // namespace ecsia
