#pragma once
// A readable picture of a world's logical state, for comparing two worlds in a test: when they
// differ, Catch2 prints both pictures and the first differing line names the entity and component.
// state_hash() says *whether* two worlds differ; these say *where*.

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ecsia/ecsia.hpp"

namespace test {

// One line per live entity in index order: its handle, then each component (id order) with its
// decoded field values. Padding never shows, so it compares like state_hash does.
inline std::string dump_entities(const ecsia::World& world) {
    const ecsia::ComponentRegistry& registry = world.components();
    const ecsia::EntityPool& pool = world.entities();
    std::string out;
    char text[64];
    for (std::uint32_t index = 0; index < pool.slot_count(); ++index) {
        const ecsia::Entity entity = pool.alive_at(index);
        if (entity.is_null()) continue;
        std::snprintf(text, sizeof text, "0x%08x:", entity.bits);
        out += text;
        const ecsia::EntityLocation at = world.locate(entity);
        const ecsia::Table& table = world.tables().table(at.table);
        for (ecsia::ComponentId id : table.signature()) {
            const ecsia::ComponentDesc& desc = registry.desc(id);
            out += " " + desc.name + "{";
            const std::byte* element = desc.is_tag() ? nullptr : table.column(id)->element(at.row);
            for (std::size_t f = 0; f < desc.fields.size(); ++f) {
                const ecsia::FieldDesc& field = desc.fields[f];
                const std::byte* at_field = element + field.offset;
                if (field.type == ecsia::FieldType::Entity) {
                    std::uint32_t bits;
                    std::memcpy(&bits, at_field, 4);
                    std::snprintf(text, sizeof text, "%s=0x%08x", field.name.c_str(), bits);
                } else if (field.type == ecsia::FieldType::Bool) {
                    // Raw byte: two different non-zero bytes are different states.
                    std::snprintf(text, sizeof text, "%s=%u", field.name.c_str(), unsigned(std::uint8_t(*at_field)));
                } else {
                    std::snprintf(text, sizeof text, "%s=%.17g", field.name.c_str(), ecsia::decode_field(field.type, at_field));
                }
                out += (f == 0 ? "" : ", ") + std::string(text);
            }
            out += "}";
        }
        out += "\n";
    }
    return out;
}

// The added and changed tick of every (entity, component), as the public query filters see them:
// a row with tick t is selected by `since` values 0 .. t-1, so counting the selections over every
// `since` below the world's tick recovers t. One line per live entity, components in id order.
inline std::string dump_ticks(ecsia::World& world) {
    const ecsia::ComponentRegistry& registry = world.components();
    std::map<std::uint32_t, std::map<ecsia::ComponentId, std::pair<ecsia::Tick, ecsia::Tick>>> ticks;
    for (ecsia::ComponentId id = 0; id < registry.size(); ++id) {
        ecsia::QueryDesc changed;
        changed.changed = {id};
        ecsia::QueryDesc added;
        added.added = {id};
        ecsia::Query changed_query = world.query(changed);
        ecsia::Query added_query = world.query(added);
        for (ecsia::Tick since = 0; since < world.tick(); ++since) {
            for (ecsia::Entity e : added_query.entities(since)) ++ticks[e.bits][id].first;
            for (ecsia::Entity e : changed_query.entities(since)) ++ticks[e.bits][id].second;
        }
    }
    std::string out;
    char text[96];
    for (const auto& [bits, components] : ticks) {
        std::snprintf(text, sizeof text, "0x%08x:", bits);
        out += text;
        for (const auto& [id, tick] : components) {
            std::snprintf(text, sizeof text, " %s added@%u changed@%u", registry.desc(id).name.c_str(), tick.first,
                          tick.second);
            out += text;
        }
        out += "\n";
    }
    return out;
}

}  // namespace test
