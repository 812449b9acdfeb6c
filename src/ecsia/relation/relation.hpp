#pragma once
// The relation layer: pairs (relation, target entity) on a subject entity, like "a ChildOf b".
//
// A relation is defined like a component (a tag, or with fields: each pair's own data) and is
// named by a RelationId, which is the id of the relation's *presence* component: a hidden tag in
// the archetype of every subject that has at least one pair of that relation. So `(R, *)` and
// `without (R, *)` are table-level query filters, and adding a second pair of R, retargeting an
// exclusive pair or changing pair data never moves a row to another table.
//
// Where the pairs themselves live (RelationStore, relation_store.hpp): per relation, subject ->
// its targets (a small vector sorted by target index, with each pair's data) and target -> its
// subjects (sorted by subject index), both indexed by entity slot. Not in the archetype, because
// fragmenting tables by target (flecs's classic `(ChildOf, parent)` ids) makes one table per
// parent: flecs issue #941 measured ~200k tables of <= 3 rows and ~70x slower iteration for a
// forest of small trees, and every re-parent is a table move. Here a forest of 100,000 nodes
// under 1,000 roots stays in the few tables its components make, and re-parenting is two sorted
// vector edits. The hierarchy slice can split tables by depth (flecs's (ParentDepth, d) hybrid)
// without touching this API.
//
// Orders (G1: every order below is a function of the operations, never of addresses or hashing):
//   targets_of(subject, R)   ascending target entity index
//   subjects_of(R, target)   ascending subject entity index
//   subjects_of(R, any)      ascending subject entity index, each subject once
//   a despawn's cascade      relations in name order, subjects ascending (world_relations.cpp)
// They survive a snapshot round trip unchanged, since they depend neither on insertion order nor
// on the order relations were defined in.

#include <cstdint>
#include <string_view>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"

namespace ecsia {

// A relation's id: the ComponentId of its presence component (see above).
using RelationId = ComponentId;

// The wildcard target of subjects_of and of query pair terms: "any target".
inline constexpr Entity kAnyTarget = kNullEntity;

// What despawning a target does to the subjects of its pairs.
enum class OnDeleteTarget : std::uint8_t {
    Remove,  // the pairs to it are removed from the subjects (the subjects live on)
    Delete,  // the subjects are despawned too, recursively (a subtree goes with its root)
};

// Its name in messages and in the JS API's `onDeleteTarget` option ("remove", "delete"); the wasm
// boundary's list of names (wasm/boundary_constants.hpp) is checked against it at compile time.
constexpr std::string_view on_delete_target_name(OnDeleteTarget policy) noexcept {
    return policy == OnDeleteTarget::Delete ? "delete" : "remove";
}

struct RelationOptions {
    // At most one target per subject: adding a pair with another target replaces the old one.
    bool exclusive = false;
    OnDeleteTarget on_delete_target = OnDeleteTarget::Remove;
    // A pair (e, R, e) and any cycle through R are refused (an entity cannot be its own ancestor).
    bool acyclic = false;

    friend bool operator==(const RelationOptions&, const RelationOptions&) = default;
};

}  // namespace ecsia
