#pragma once
// Prefabs: entities that are templates for others. A prefab is an ordinary entity that holds the
// built-in hidden tag `Prefab` and has a name unique among the world's prefabs. Instantiating it
// makes ONE new entity, straight in its final table, with a copy of the prefab's components and
// values (not the tag, not its pairs), the caller's values over them, and the pair (IsA, prefab).
// Instances copy: changing or despawning the prefab later changes no instance's values (a
// despawned prefab's IsA pairs go as IsA's OnDeleteTarget::Remove says). World::define_prefab,
// instantiate and instantiate_many are the calls (world/world.hpp, world_prefabs.cpp).
//
// Queries skip prefabs (QueryDesc::prefabs, default false), so systems and kernels never see a
// prefab's row unless they ask for it; that is why the tag's id is known to the query layer here.

#include "ecsia/base/ids.hpp"

namespace ecsia {

// The Prefab tag's id in every world: registered right after the built-in relations ChildOf (0)
// and IsA (1), before any other component.
inline constexpr ComponentId kPrefabTag = 2;

}  // namespace ecsia
