#pragma once
// Everything a user of the engine includes: one header.
//
//   world       ecsia::World, entities, components (ECSIA_COMPONENT / ECSIA_TAG), structural changes
//   queries     ecsia::QueryDesc (with, without, optional, changed, added, pairs, prefabs), chunks, world.each
//   relations   world.define_relation, add_pair, ...; World::kChildOf, World::kIsA
//   prefabs     world.define_prefab, instantiate, instantiate_many (ecsia::ComponentRows)
//   commands    ecsia::CommandBuffer (structural changes recorded during a wave)
//   observers   on add / remove / change, world.observe
//   scheduler   ecsia::Scheduler, ecsia::SystemDesc, ecsia::KernelContext
//   registry    ECSIA_REGISTER_SYSTEM, ECSIA_REGISTER_COMPONENT, ecsia::make_system, ecsia::registered_systems
//   state hash  ecsia::state_hash(world)
//   errors      ecsia::Error, ecsia::ErrorCode

#include "ecsia/base/error.hpp"
#include "ecsia/command/command_buffer.hpp"
#include "ecsia/query/chunk.hpp"
#include "ecsia/query/query_desc.hpp"
#include "ecsia/reactivity/observers.hpp"
#include "ecsia/relation/prefab.hpp"
#include "ecsia/relation/relation.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "ecsia/schedule/system.hpp"
#include "ecsia/schedule/system_registry.hpp"
#include "ecsia/schema/component_traits.hpp"
#include "ecsia/snapshot/snapshot.hpp"
#include "ecsia/snapshot/snapshot_restorer.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "ecsia/world/registered_components.hpp"
#include "ecsia/world/world.hpp"
