#pragma once
// RelationStore: every relation's definition and pairs (the design and orders: relation.hpp).
// It keeps the two indexes consistent and nothing else: liveness, phases, archetype moves,
// observers and refusals are the world's (world_relations.cpp). Serial phase only.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ecsia/relation/relation.hpp"
#include "ecsia/relation/subject_list.hpp"
#include "ecsia/relation/target_list.hpp"
#include "ecsia/schema/component_desc.hpp"

namespace ecsia {

// One relation: its definition and its pairs, both indexes keyed by entity slot.
struct RelationData {
    RelationId id = kNoComponent;
    RelationOptions options;
    ComponentDesc data;  // the layout of one pair's data (size 0: a tag relation)
    std::vector<std::byte> defaults;  // a pair's data when none is given (default_element)
    // by_subject[slot]: the subject's targets, ascending index, and their data, `data.size`
    // bytes each in the same order.
    struct Targets {
        TargetList targets;
        std::vector<std::byte> data;
    };
    std::vector<Targets> by_subject;
    std::vector<SubjectList> by_target;  // by_target[slot]: subjects, ascending index
    std::uint64_t pairs = 0;
    std::uint32_t subjects = 0;  // subjects with at least one pair
    // Rises with every pair added or removed (not with pair data): a cache of who is whose
    // target (a cascade system's depths) is valid while it stays the same.
    std::uint64_t version = 0;
    // An exclusive relation's subjects whose pairs changed, in order, each with the version
    // its change made: a cache at version v catches up by the entries past v, if v >=
    // changes_floor (entries at or below the floor were dropped: the older half goes when
    // they outnumber max(1,024, a quarter of the pairs), all of them when a restore replaced
    // every pair). A relation that is not exclusive keeps none (its floor is its version).
    struct Change {
        std::uint64_t version;
        Entity subject;
    };
    std::vector<Change> changes;
    std::uint64_t changes_floor = 0;
};

class RelationStore {
public:
    using Relation = RelationData;

    explicit RelationStore(HandleLayout layout) : layout_(layout) {}

    // `id` is the presence component just registered for it; ids rise with each definition.
    Relation& define(RelationId id, ComponentDesc data, RelationOptions options);
    // nullptr when `id` is not a relation.
    Relation* find(RelationId id) noexcept;
    const Relation* find(RelationId id) const noexcept;
    // In definition order, which is ascending RelationId.
    std::vector<Relation>& all() noexcept { return relations_; }
    const std::vector<Relation>& all() const noexcept { return relations_; }
    // Positions in all(), in the order of the relations' names: the order of whatever changes the
    // world relation by relation (a despawn's cascade), which must not depend on the order the
    // relations were defined in (a snapshot restores into a world that defined them in another).
    std::span<const std::uint32_t> name_order() const noexcept { return name_order_; }
    std::uint64_t pair_count() const noexcept { return pair_count_; }

    std::span<const Entity> targets(const Relation& r, Entity subject) const noexcept;
    std::span<const Entity> subjects(const Relation& r, Entity target) const noexcept;
    // The pair's data (nullptr for a tag relation or a missing pair).
    std::byte* data(Relation& r, Entity subject, Entity target) noexcept;
    bool has(const Relation& r, Entity subject, Entity target) const noexcept;
    // Whether the subject has a pair (R, target); target kAnyTarget: any pair of R.
    bool has_pair(RelationId relation, Entity subject, Entity target) const noexcept;

    // Adds the pair with `bytes` (nullptr: the relation's defaults); the pair must be new.
    void insert(Relation& r, Entity subject, Entity target, const void* bytes);
    // insert() of (subject, target) for each of `subjects` in turn, with default data, for subjects
    // that have no pair of `r` yet (new entities): one pass that grows the indexes once, and on
    // std::bad_alloc the store is as it was.
    void insert_fresh(Relation& r, std::span<const Entity> subjects, Entity target);
    // Makes room for subjects in slots below `slots` and for `more` subjects of `target`, so that
    // many inserts to one target (a prefab's instances) allocate only each new subject's own list.
    void reserve(Relation& r, std::uint32_t slots, Entity target, std::size_t more);
    // Removes the pair if present; true when it was.
    bool erase(Relation& r, Entity subject, Entity target);
    // Forgets every pair (a snapshot restore replaces them); definitions stay.
    void clear_pairs() noexcept;

private:
    std::uint32_t index(Entity e) const noexcept { return layout_.index(e); }
    // Appends the change that made r.version to r.changes, or drops them all (never throws).
    static void record_change(Relation& r, Entity subject) noexcept;
    // Where `e` is or would go in `list` (sorted by index).
    std::size_t lower_bound(std::span<const Entity> list, Entity e) const noexcept;

    HandleLayout layout_;
    std::vector<Relation> relations_;
    std::vector<std::uint32_t> name_order_;
    std::vector<std::int32_t> slot_by_id_;  // component id -> index in relations_, or -1
    std::uint64_t pair_count_ = 0;
};

}  // namespace ecsia
