#pragma once
// KernelContext::lookup's memo (schedule/system.hpp) and Lookup<T>'s (lookup.hpp): the component
// and table its last full lookup found, with the entity table as memory, so that the next lookup
// of that component in that table (a kernel's targets are mostly in one or a few tables) is two
// dependent loads (the slot's location, which also says whether the handle is alive, then the
// element), inline, instead of a call that finds the table's column again; a dead handle is
// answered inline too, and a target in another table costs a call that finds that table's column
// (and makes it the memo's). Valid during one kernel call: nothing structural changes during a
// wave (changes wait for the merge). Its batch's thread only, like the KernelContext that holds it.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"
#include "ecsia/world/entity_locations.hpp"

namespace ecsia {

class World;

struct LookupMemo {
    ComponentId id = kNoComponent;  // none yet: find() finds nothing
    TableIndex table = kNoTable;    // none yet: every alive entity is in another table
    const World* world = nullptr;
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
    std::uint32_t code = 0;  // `table`'s code in a table-and-row word
    const std::byte* column = nullptr;  // the component's first element in `table` (nullptr: it has none)
    std::uint32_t element_size = 0;

    // What find() knows of `entity` (the memo's component's lookups only).
    enum class Answer : std::uint8_t {
        Element,     // `element` is its value (or nullptr: its table lacks the component)
        Dead,        // not alive (stale, pending, null, out of range): the lookup's answer is nullptr
        OtherTable,  // alive in `table`, at `row`: another table than the memo's
        NotMine,     // another component than the memo's (or no memo yet)
    };
    struct Found {
        Answer answer;
        const std::byte* element;
        TableIndex table;
        std::uint32_t row;
    };
    // A memo of `id` in `world` that covers no table yet (the first alive entity found makes its
    // table the memo's). Valid while the world makes no structural change (one wave).
    static LookupMemo of(const World& world, ComponentId id) noexcept;
    // Makes the memo cover `table` (its column of `id`) and returns the element at `row` there
    // (nullptr: the table lacks the component). Out of line: a target in another table.
    const std::byte* move_to(TableIndex table, std::uint32_t row) noexcept;

    // `entity`'s element of `component` when the memo covers them: alive (the handle its slot's
    // location holds, so neither stale nor pending nor null nor reserved) and in the memo's table.
    Found find(ComponentId component, Entity entity) const noexcept {
        if (component != id) return Found{Answer::NotMine, nullptr, kNoTable, 0};
        const std::uint32_t index = entity.bits & index_mask;
        if (index >= location_count) return Found{Answer::Dead, nullptr, kNoTable, 0};
        std::uint32_t location[2];  // table-and-row, handle
        std::memcpy(location, placed + 8 * std::size_t(index), 8);
        if (location[1] != entity.bits) return Found{Answer::Dead, nullptr, kNoTable, 0};
        const std::uint32_t row = location[0] & index_mask;
        const std::uint32_t found = location[0] >> row_bits;
        if (found != code || (found == escape && tables[index] != table)) [[unlikely]] {
            return Found{Answer::OtherTable, nullptr, EntityLocations::table_of(found, escape, tables, index), row};
        }
        return Found{Answer::Element, column == nullptr ? nullptr : column + std::size_t(row) * element_size, table, row};
    }
};

}  // namespace ecsia
