#pragma once
// KernelContext::lookup's memo (schedule/system.hpp): the component and table its last full
// lookup found, with the entity table as memory, so that the next lookup of that component in
// that table (a kernel's targets are mostly in one or a few tables) is three loads (the slot's
// check, the location, the element), inline, instead of a call that finds the table's column
// again. Valid during one kernel call: nothing structural changes during a wave (changes wait for
// the merge). Its batch's thread only, like the KernelContext that holds it.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"

namespace ecsia {

struct LookupMemo {
    ComponentId id = kNoComponent;  // none yet: find() finds nothing
    TableIndex table = kNoTable;
    // The entity table (WorldAccess::EntityMemory): slot i at slots + i * slot_bytes, its
    // generation a uint32 at byte 0, its state a byte at state_offset; an alive slot's location
    // (table, row: two uint32) at locations + 8 * i.
    const std::byte* slots = nullptr;
    std::uint32_t slot_count = 0;
    std::uint32_t slot_bytes = 0;
    std::uint32_t state_offset = 0;
    std::uint32_t alive_state = 0;
    const std::byte* locations = nullptr;
    std::uint32_t index_mask = 0;
    unsigned index_bits = 0;
    const std::byte* column = nullptr;  // the component's first element in `table`
    std::uint32_t element_size = 0;

    // `entity`'s element of `component` when the memo covers them: `entity` alive (its generation
    // the slot's, so neither stale nor pending nor null) and in the memo's table; else nullptr
    // (the caller then takes the full lookup, which also answers for dead handles).
    const std::byte* find(ComponentId component, Entity entity) const noexcept {
        const std::uint32_t index = entity.bits & index_mask;
        if (component != id || index >= slot_count) return nullptr;
        const std::byte* slot = slots + std::size_t(index) * slot_bytes;
        std::uint32_t generation;
        std::memcpy(&generation, slot, 4);
        if (generation != entity.bits >> index_bits || std::to_integer<std::uint32_t>(slot[state_offset]) != alive_state) return nullptr;
        std::uint32_t location[2];
        std::memcpy(location, locations + 8 * std::size_t(index), 8);
        return location[0] == table ? column + std::size_t(location[1]) * element_size : nullptr;
    }
};

}  // namespace ecsia
