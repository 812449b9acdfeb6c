#include "ecsia/relation/relation_store.hpp"
#include "ecsia/snapshot/state_hash.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "ecsia/base/hash.hpp"
#include "ecsia/topic/topic_store.hpp"
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
    // Components are hashed in name order, so the hash does not depend on registration order.
    const TableGraph& tables = world.tables();
    std::vector<std::vector<ComponentId>> by_name(tables.table_count());
    for (TableIndex t = 0; t < tables.table_count(); ++t) {
        by_name[t] = tables.table(t).signature();
        std::sort(by_name[t].begin(), by_name[t].end(),
                  [&](ComponentId a, ComponentId b) { return registry.desc(a).name < registry.desc(b).name; });
    }
    StateHasher hasher;
    const EntityPool& pool = world.entities();
    hasher.u32(pool.alive_count());
    for (std::uint32_t index = 0; index < pool.slot_count(); ++index) {
        const Entity entity = pool.alive_at(index);
        if (entity.is_null()) continue;
        hasher.u32(entity.bits);
        const EntityLocation at = world.locate(entity);
        const Table& table = tables.table(at.table);
        hasher.u32(static_cast<std::uint32_t>(table.signature().size()));
        for (ComponentId id : by_name[at.table]) {
            hasher.u32(static_cast<std::uint32_t>(name_hashes[id]));
            hasher.u32(static_cast<std::uint32_t>(name_hashes[id] >> 32));
            const Column& column = *table.column(id);
            if (column.data() == nullptr) continue;
            const std::byte* element = column.element(at.row);
            for (const FieldDesc& field : registry.desc(id).fields) {
                hasher.bytes(element + field.offset, field_size(field.type));
            }
        }
    }
    // Pairs (relation/relation.hpp) after the rows: only when there are any, so that a world
    // without pairs hashes as it did before relations existed. Relations in name order, subjects
    // and their targets ascending by index (the store's own orders), data field by field.
    const RelationStore& relations = world.relations();
    if (relations.pair_count() != 0) {
        std::vector<const RelationStore::Relation*> by_relation_name;
        for (const RelationStore::Relation& r : relations.all()) {
            if (r.pairs != 0) by_relation_name.push_back(&r);
        }
        std::sort(by_relation_name.begin(), by_relation_name.end(), [&](const auto* a, const auto* b) {
            return registry.desc(a->id).name < registry.desc(b->id).name;
        });
        for (const RelationStore::Relation* r : by_relation_name) {
            hasher.u32(static_cast<std::uint32_t>(name_hashes[r->id]));
            hasher.u32(static_cast<std::uint32_t>(name_hashes[r->id] >> 32));
            hasher.u32(static_cast<std::uint32_t>(r->pairs));
            for (std::uint32_t slot = 0; slot < r->by_subject.size(); ++slot) {
                const auto& entry = r->by_subject[slot];
                if (entry.targets.empty()) continue;
                hasher.u32(pool.alive_at(slot).bits);
                hasher.u32(static_cast<std::uint32_t>(entry.targets.size()));
                for (std::size_t i = 0; i < entry.targets.size(); ++i) {
                    hasher.u32(entry.targets[i].bits);
                    const std::byte* data = entry.data.data() + i * r->data.size;
                    for (const FieldDesc& field : r->data.fields) hasher.bytes(data + field.offset, field_size(field.type));
                }
            }
        }
    }
    // Prefab names after the pairs, only when there are any (a world without prefabs hashes as
    // before prefabs existed): their count, then per prefab in definition order (which a snapshot
    // keeps) its handle, the name's length and bytes. Definition order, not name order: it is
    // the order prefab_names() shows, so two worlds that list them differently hash differently.
    const auto& prefabs = world.prefab_names();
    if (!prefabs.empty()) {
        hasher.u32(static_cast<std::uint32_t>(prefabs.size()));
        for (const World::PrefabName& prefab : prefabs) {
            hasher.u32(prefab.prefab.bits);
            hasher.u32(static_cast<std::uint32_t>(prefab.name.size()));
            hasher.bytes(prefab.name.data(), prefab.name.size());
        }
    }
    // Pending messages after the prefabs, only for topics that keep any (a world without them
    // hashes as before topics existed), in name order: the name, the count, each consumer's name
    // and how many of the messages it has seen (sequence numbers themselves are not observable),
    // then the messages field by field.
    const TopicStore& topics = world.topics();
    std::vector<TopicId> pending_topics;
    for (TopicId id = 0; id < topics.size(); ++id) {
        if (topics.topic(id).count != 0) pending_topics.push_back(id);
    }
    std::sort(pending_topics.begin(), pending_topics.end(),
              [&](TopicId a, TopicId b) { return topics.topic(a).layout.name < topics.topic(b).layout.name; });
    for (TopicId id : pending_topics) {
        const TopicStore::Topic& topic = topics.topic(id);
        hasher.u32(static_cast<std::uint32_t>(topic.layout.name.size()));
        hasher.bytes(topic.layout.name.data(), topic.layout.name.size());
        hasher.u32(topic.count);
        hasher.u32(static_cast<std::uint32_t>(topic.consumers.size()));
        for (const TopicStore::Consumer& consumer : topic.consumers) {
            hasher.u32(static_cast<std::uint32_t>(consumer.name.size()));
            hasher.bytes(consumer.name.data(), consumer.name.size());
            hasher.u32(static_cast<std::uint32_t>(std::max(consumer.cursor, topic.first) - topic.first));
        }
        for (const FieldBytes& field : topic.fields) hasher.bytes(field.data(), field.size());
    }
    return hasher.value();
}

std::string state_hash_hex(const World& world) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(state_hash(world)));
    return text;
}

}  // namespace ecsia
