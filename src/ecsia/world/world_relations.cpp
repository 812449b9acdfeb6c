// World's pair calls (relation/relation.hpp has the design). They keep three things in step:
// the RelationStore's two indexes, the subject's presence component in its archetype (present
// exactly while the subject has at least one pair of the relation), and the relation's observers.
// Every check runs before the first change, so a refused call leaves the world as it was (G5).

#include <cstdio>
#include <cstring>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "ecsia/base/error.hpp"
#include "ecsia/relation/relation_store.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

namespace {

std::string handle_text(Entity entity) {
    if (entity.is_null()) return "the null entity";
    char text[32];
    std::snprintf(text, sizeof text, "entity 0x%08x", entity.bits);
    return text;
}

}  // namespace

void World::define_builtin_relations() {
    const RelationId child_of =
        define_relation("ChildOf", {}, RelationOptions{true, OnDeleteTarget::Delete, /*acyclic=*/true});
    const RelationId is_a = define_relation("IsA", {}, RelationOptions{true, OnDeleteTarget::Remove, /*acyclic=*/true});
    // The prefab tag next (relation/prefab.hpp): the query layer knows its id.
    const ComponentId prefab = registry_.define("Prefab", {});
    if (child_of != kChildOf || is_a != kIsA || prefab != kPrefab) {
        throw Error(ErrorCode::BadDefinition, "the built-in relations and the prefab tag must be the world's first registrations");
    }
}

RelationId World::define_relation(std::string name, const std::vector<FieldSpec>& fields, RelationOptions options) {
    require_structural("define_relation");
    ComponentDesc data = layout_component(name, fields);  // BadDefinition before anything registers
    if (const ComponentId existing = registry_.find(name); existing != kNoComponent) {
        if (!registry_.desc(existing).relation) {
            throw Error(ErrorCode::DuplicateName, "a component or relation named '" + name + "' is already registered");
        }
        // Defined again: the same fields and options give the relation; others are an error.
        const RelationStore::Relation& had = *relations_->find(existing);
        const auto text = [](const ComponentDesc& layout, RelationOptions o) {
            return "fields " + fields_text(layout) + " and options { exclusive: " + (o.exclusive ? "true" : "false") +
                   ", onDeleteTarget: '" + std::string(on_delete_target_name(o.on_delete_target)) +
                   "', acyclic: " + (o.acyclic ? "true" : "false") + " }";
        };
        if (same_layout(had.data, data) && had.options == options) return existing;
        throw_redefined("relation", name, text(had.data, had.options), text(data, options));
    }
    const RelationId id = registry_.define_relation(std::move(name));
    data.id = id;
    relations_->define(id, std::move(data), options);
    return id;
}

RelationId World::relation_id(std::string_view name) const {
    const ComponentId id = registry_.find(name);
    if (id == kNoComponent) {
        std::string defined;
        for (const RelationStore::Relation& r : relations_->all()) {
            defined += (defined.empty() ? "" : ", ") + registry_.desc(r.id).name;
        }
        throw Error(ErrorCode::UnknownComponent,
                    "no relation named '" + std::string(name) + "'; the defined relations are: " + defined);
    }
    checked_relation(id);
    return id;
}

RelationStore::Relation& World::checked_relation(RelationId relation) const {
    const ComponentDesc& desc = registry_.desc(relation);  // UnknownComponent
    if (!desc.relation) {
        throw Error(ErrorCode::BadValue, "'" + desc.name + "' is a component, not a relation: pairs need a relation");
    }
    return *relations_->find(relation);
}

const RelationOptions& World::relation_options(RelationId relation) const { return checked_relation(relation).options; }

void World::check_pair_entity(Entity entity, const char* role) const {
    if (!pool_.is_alive(entity)) {
        throw Error(ErrorCode::StaleEntity, std::string("the ") + role + ", " + handle_text(entity) +
                                                ", is not alive: it was despawned, never spawned, or is from an older "
                                                "generation");
    }
}

void World::fire_pair(ObserverEvent event, RelationId relation, Entity subject, Entity target) {
    if (!observers_.any(event, relation)) return;
    struct Scope {
        int& depth;
        explicit Scope(int& d) : depth(d) { ++depth; }
        ~Scope() { --depth; }
    } observing(observer_depth_);
    observers_.fire(*this, event, relation, subject, observer_commands_, diagnostics_, registry_, target);
}

void World::erase_pair(RelationStore::Relation& r, Entity subject, Entity target) {
    // Before the change, as for components: a remove observer can still read the pair's data.
    fire_pair(ObserverEvent::OnRemove, r.id, subject, target);
    relations_->erase(r, subject, target);
    if (!relations_->has(r, subject, kAnyTarget)) {
        const EntityLocation at = locations_[pool_.layout().index(subject)];
        move_to(subject, graph_.without(at.table, r.id));
    }
}

void World::add_pair(Entity subject, RelationId relation, Entity target, const void* data, std::uint32_t size) {
    require_structural("add_pair");
    RelationStore::Relation& r = checked_relation(relation);
    const std::string& name = registry_.desc(relation).name;
    check_pair_entity(subject, "subject");
    check_pair_entity(target, "target");
    if (data != nullptr && size != r.data.size) {
        throw Error(ErrorCode::BadValue, "a '" + name + "' pair's data takes " + std::to_string(r.data.size) +
                                             " bytes, got " + std::to_string(size));
    }
    if (relations_->has(r, subject, target)) {
        if (data != nullptr && size != 0) std::memmove(relations_->data(r, subject, target), data, size);
        return;
    }
    if (r.options.acyclic) {
        if (subject == target) {
            throw Error(ErrorCode::BadValue, handle_text(subject) + " cannot be " + name + " itself ('" + name +
                                                 "' is acyclic: an entity cannot be its own ancestor)");
        }
        // Would the subject become its own ancestor? Only if something is below it already (a
        // subject with no subjects of its own, as a node is while a tree is built from the root
        // down, cannot be above the target: no walk, so that building a chain of n is O(n), not
        // O(n^2)). Else walk up from the target; the relation's pairs are acyclic already, so the
        // walk ends. Exclusive: one chain, nothing allocated (a re-parent costs the depth).
        // Otherwise `seen` bounds a diamond-shaped graph.
        const bool below = !relations_->subjects(r, subject).empty();
        auto cycle = [&] {
            return Error(ErrorCode::BadValue, "(" + name + ", " + handle_text(target) + ") on " + handle_text(subject) +
                                                  " would make a cycle: the target is already below the subject, and "
                                                  "an entity cannot be its own ancestor");
        };
        if (below && r.options.exclusive) {
            for (std::span<const Entity> up = relations_->targets(r, target); !up.empty(); up = relations_->targets(r, up.front())) {
                if (up.front() == subject) throw cycle();
            }
        } else if (below) {
            std::set<std::uint32_t> seen;
            std::vector<Entity> stack{target};
            while (!stack.empty()) {
                const Entity at = stack.back();
                stack.pop_back();
                for (Entity up : relations_->targets(r, at)) {
                    if (up == subject) throw cycle();
                    if (seen.insert(pool_.layout().index(up)).second) stack.push_back(up);
                }
            }
        }
    }

    if (data != nullptr && size != 0) {
        // It may be another pair's data (get_pair's): the insert may grow the subject's data,
        // and a retarget erases the old pair first.
        const auto* bytes = static_cast<const std::byte*>(data);
        pair_bytes_.assign(bytes, bytes + size);
        data = pair_bytes_.data();
    }
    if (r.options.exclusive) {
        const std::span<const Entity> old = relations_->targets(r, subject);
        if (!old.empty()) {  // retarget: the row keeps its table
            const Entity previous = old.front();
            fire_pair(ObserverEvent::OnRemove, r.id, subject, previous);
            relations_->erase(r, subject, previous);
            relations_->insert(r, subject, target, data);
            fire_pair(ObserverEvent::OnAdd, r.id, subject, target);
            return;
        }
    }
    const bool first = !relations_->has(r, subject, kAnyTarget);
    if (first) {
        const EntityLocation at = locations_[pool_.layout().index(subject)];
        const TableIndex destination = graph_.with(at.table, r.id);
        graph_.table(destination).reserve(graph_.table(destination).size() + 1);
        relations_->insert(r, subject, target, data);
        move_to(subject, destination);
    } else {
        relations_->insert(r, subject, target, data);
    }
    fire_pair(ObserverEvent::OnAdd, r.id, subject, target);
}

void World::set_pair(Entity subject, RelationId relation, Entity target, const void* data, std::uint32_t size) {
    require_serial("set_pair");
    RelationStore::Relation& r = checked_relation(relation);
    const std::string& name = registry_.desc(relation).name;
    check_pair_entity(subject, "subject");
    check_pair_entity(target, "target");
    if (r.data.size == 0) throw Error(ErrorCode::BadValue, "'" + name + "' is a tag relation: its pairs have no data");
    if (data == nullptr) throw Error(ErrorCode::BadValue, "set_pair of '" + name + "' was given no data (a null pointer)");
    if (size != r.data.size) {
        throw Error(ErrorCode::BadValue, "a '" + name + "' pair's data takes " + std::to_string(r.data.size) +
                                             " bytes, got " + std::to_string(size));
    }
    std::byte* bytes = relations_->data(r, subject, target);
    if (bytes == nullptr) {
        throw Error(ErrorCode::MissingComponent, handle_text(subject) + " has no pair ('" + name + "', " +
                                                     handle_text(target) + ")");
    }
    std::memmove(bytes, data, size);  // data may be this very pair's
}

const std::byte* World::get_pair(Entity subject, RelationId relation, Entity target) const {
    RelationStore::Relation& r = checked_relation(relation);
    const std::string& name = registry_.desc(relation).name;
    check_pair_entity(subject, "subject");
    check_pair_entity(target, "target");
    // Absence first: the JS getPair of a tag relation's pair (wasm/world_pairs.cpp) relies on it for its error.
    if (!relations_->has(r, subject, target)) {
        throw Error(ErrorCode::MissingComponent, handle_text(subject) + " has no pair ('" + name + "', " +
                                                     handle_text(target) + ")");
    }
    if (r.data.size == 0) throw Error(ErrorCode::BadValue, "'" + name + "' is a tag relation: its pairs have no data");
    return relations_->data(r, subject, target);
}

void World::copy_pair_data(Entity subject, RelationId relation, Entity target, void* out, std::size_t size) const {
    const std::byte* bytes = get_pair(subject, relation, target);
    const std::uint32_t expected = relations_->find(relation)->data.size;
    if (size != expected) {
        throw Error(ErrorCode::BadValue, "a '" + registry_.desc(relation).name + "' pair's data takes " +
                                             std::to_string(expected) + " bytes, the type given has " +
                                             std::to_string(size));
    }
    std::memcpy(out, bytes, size);
}

bool World::has_pair(Entity subject, RelationId relation, Entity target) const {
    const RelationStore::Relation& r = checked_relation(relation);
    check_pair_entity(subject, "subject");
    if (target != kAnyTarget) check_pair_entity(target, "target");
    return relations_->has(r, subject, target);
}

void World::remove_pair(Entity subject, RelationId relation, Entity target) {
    require_structural("remove_pair");
    RelationStore::Relation& r = checked_relation(relation);
    check_pair_entity(subject, "subject");
    if (target == kAnyTarget) {
        while (!relations_->targets(r, subject).empty()) erase_pair(r, subject, relations_->targets(r, subject).front());
        return;
    }
    check_pair_entity(target, "target");
    if (relations_->has(r, subject, target)) erase_pair(r, subject, target);
}

Entity World::target_of(Entity subject, RelationId relation) const {
    const RelationStore::Relation& r = checked_relation(relation);
    check_pair_entity(subject, "subject");
    if (!r.options.exclusive) {
        throw Error(ErrorCode::BadValue, "'" + registry_.desc(relation).name +
                                             "' is not exclusive: a subject may have several targets (use targets_of)");
    }
    const std::span<const Entity> targets = relations_->targets(r, subject);
    return targets.empty() ? kNullEntity : targets.front();
}

std::vector<Entity> World::targets_of(Entity subject, RelationId relation) const {
    const RelationStore::Relation& r = checked_relation(relation);
    check_pair_entity(subject, "subject");
    const std::span<const Entity> targets = relations_->targets(r, subject);
    return {targets.begin(), targets.end()};
}

std::vector<Entity> World::subjects_of(RelationId relation, Entity target) const {
    const RelationStore::Relation& r = checked_relation(relation);
    if (target != kAnyTarget) {
        check_pair_entity(target, "target");
        const std::span<const Entity> subjects = relations_->subjects(r, target);
        return {subjects.begin(), subjects.end()};
    }
    std::vector<Entity> out;
    out.reserve(r.subjects);
    for (std::size_t slot = 0; slot < r.by_subject.size(); ++slot) {
        if (r.by_subject[slot].targets.empty()) continue;
        out.push_back(pool_.alive_at(static_cast<std::uint32_t>(slot)));
    }
    return out;
}

void World::despawn_with_pairs(Entity entity) {
    // Which entities go: the entity, then (breadth first) the subjects of every pair to a member
    // through an OnDeleteTarget::Delete relation, relations in name order (never the order they
    // were defined in, which a restored world need not share), subjects in index order.
    // An entity in no pair (the common despawn in a world that has pairs) goes straight away.
    bool paired = false;
    for (const RelationStore::Relation& r : relations_->all()) {
        paired = paired || !relations_->targets(r, entity).empty() || !relations_->subjects(r, entity).empty();
    }
    if (!paired) {
        despawn_row(entity);
        return;
    }
    const HandleLayout& layout = pool_.layout();
    std::vector<Entity> doomed{entity};
    std::set<std::uint32_t> marked{layout.index(entity)};  // O(subtree), not O(slots), per despawn
    for (std::size_t i = 0; i < doomed.size(); ++i) {
        for (const std::uint32_t at : relations_->name_order()) {
            const RelationStore::Relation& r = relations_->all()[at];
            if (r.options.on_delete_target != OnDeleteTarget::Delete) continue;
            for (Entity subject : relations_->subjects(r, doomed[i])) {
                if (marked.insert(layout.index(subject)).second) doomed.push_back(subject);
            }
        }
    }
    // Deepest first (reverse discovery order), so a subject goes before its target. For each:
    // its own pairs (relations in name order, targets ascending), then the pairs to it (relations
    // in name order, subjects ascending), each firing remove observers, then its row and handle.
    for (std::size_t i = doomed.size(); i-- > 0;) {
        const Entity x = doomed[i];
        for (const std::uint32_t at : relations_->name_order()) {
            RelationStore::Relation& r = relations_->all()[at];
            while (!relations_->targets(r, x).empty()) erase_pair(r, x, relations_->targets(r, x).front());
        }
        for (const std::uint32_t at : relations_->name_order()) {
            RelationStore::Relation& r = relations_->all()[at];
            // From the front of the target's list: O(1) each (SubjectList), so linear in them.
            while (!relations_->subjects(r, x).empty()) erase_pair(r, relations_->subjects(r, x).front(), x);
        }
        despawn_row(x);
    }
}

}  // namespace ecsia
