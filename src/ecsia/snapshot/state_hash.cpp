#include "ecsia/snapshot/state_hash.hpp"

#include <cstdio>
#include <vector>

#include "ecsia/base/hash.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

std::uint64_t state_hash(const World& world) {
    const ComponentRegistry& registry = world.components();
    std::vector<std::uint64_t> name_hashes(registry.size());
    for (ComponentId id = 0; id < registry.size(); ++id) {
        StateHasher h;
        h.bytes(registry.desc(id).name.data(), registry.desc(id).name.size());
        name_hashes[id] = h.value();
    }
    StateHasher hasher;
    const EntityPool& pool = world.entities();
    hasher.u32(pool.alive_count());
    for (std::uint32_t index = 0; index < pool.slot_count(); ++index) {
        const Entity entity = pool.alive_at(index);
        if (entity.is_null()) continue;
        hasher.u32(entity.bits);
        const EntityLocation at = world.locate(entity);
        const Table& table = world.tables().table(at.table);
        hasher.u32(static_cast<std::uint32_t>(table.signature().size()));
        for (ComponentId id : table.signature()) {
            hasher.u32(static_cast<std::uint32_t>(name_hashes[id]));
            hasher.u32(static_cast<std::uint32_t>(name_hashes[id] >> 32));
            const std::byte* element = table.column(id)->data();
            if (element == nullptr) continue;
            element += std::size_t(at.row) * table.column(id)->element_size();
            for (const FieldDesc& field : registry.desc(id).fields) {
                hasher.bytes(element + field.offset, field_size(field.type));
            }
        }
    }
    return hasher.value();
}

std::string state_hash_hex(const World& world) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(state_hash(world)));
    return text;
}

}  // namespace ecsia
