// KernelContext's reads of other entities (system.hpp): lookups and exclusive targets. They run
// on workers during a wave, when no structural change happens (those wait for the merge) and no
// system of the wave writes a looked-up component (the plan puts writers in other waves), so the
// entity pool, the location table, the columns and the relation store are read without locks.

#include <algorithm>
#include <cstddef>
#include <string>

#include "ecsia/base/error.hpp"
#include "ecsia/schedule/system.hpp"
#include "ecsia/world/world.hpp"
#include "ecsia/world/world_access.hpp"

namespace ecsia {

const std::byte* KernelContext::lookup_full(ComponentId id, Entity entity) const {
    check_lookup(id, "lookup");
    lookup_memo_ = LookupMemo::of(*wiring_.world, id, wiring_.lookup_columns->of(id));
    return lookup_memo_.find(entity);
}

void KernelContext::check_lookup(ComponentId id, const char* caller) const {
    const World* world = wiring_.world;
    const std::span<const ComponentId> lookups = wiring_.lookups;
    if (world != nullptr && wiring_.lookup_columns != nullptr && std::find(lookups.begin(), lookups.end(), id) != lookups.end()) return;
    const std::string name = world != nullptr && id < world->components().size()
                                 ? "'" + world->components().desc(id).name + "'"
                                 : "component id " + std::to_string(id);
    throw Error(ErrorCode::BadValue, std::string(caller) + " of " + name + ": the system does not declare it in its lookups");
}

LookupMemo KernelContext::lookup_memo_of(ComponentId id, std::size_t size) const {
    check_lookup(id, "lookup_of");
    const World* world = wiring_.world;
    const std::uint32_t component_size = world->components().desc(id).size;
    if (size != component_size) {
        throw Error(ErrorCode::BadValue, "lookup_of of '" + world->components().desc(id).name + "': its values are " +
                                             std::to_string(component_size) + " bytes, the type asked for is " +
                                             std::to_string(size));
    }
    return LookupMemo::of(*world, id, wiring_.lookup_columns->of(id));
}

LookupMemo LookupMemo::of(const World& world, ComponentId id, LookupColumns columns) noexcept {
    static_assert(sizeof(EntityLocations::Placed) == 8 && offsetof(EntityLocations::Placed, table_row) == 0 &&
                      offsetof(EntityLocations::Placed, entity) == 4,
                  "LookupMemo reads a slot's location as two uint32: table-and-row, handle");
    const detail::WorldAccess::EntityMemory memory = detail::WorldAccess::entity_memory(world);
    LookupMemo memo;
    memo.id = id;
    memo.placed = reinterpret_cast<const std::byte*>(memory.placed);
    memo.tables = memory.tables;
    memo.location_count = memory.count;
    memo.index_mask = world.entities().layout().index_mask();
    memo.row_bits = memory.row_bits;
    memo.escape = memory.escape;
    memo.columns = columns;
    return memo;
}

Entity KernelContext::target_of(Entity subject, RelationId relation) const {
    const World* world = wiring_.world;
    if (world == nullptr) throw Error(ErrorCode::BadValue, "target_of: this kernel context has no world");
    if (!world->relation_options(relation).exclusive) {
        return world->target_of(subject, relation);  // the world's BadValue, naming the relation
    }
    return world->is_alive(subject) ? world->target_of(subject, relation) : kNullEntity;
}

}  // namespace ecsia
