// The C++ systems of the hierarchy scenarios (web/test/hierarchy_scenario.js), compiled only into
// the test module (wasm/CMakeLists.txt: ecsia_test), so that the browser tests run C++ kernels'
// relations the way a user's own module does:
// - Regroup (the mixed scenario): re-parents nodes of the ChildOf forest, cuts them loose and
//   instantiates the scenario's 'orc' prefab under them, all through its command buffer, so that
//   the scenario's determinism check (G1) covers a C++ kernel's pair and prefab commands beside
//   the JS kernels' and the main-thread system's.
// - PropagateCpp: the forest's cascade as a C++ kernel (parent_reads), what the JS kernel
//   `propagate` (web/test/kernels/hierarchy.js) does.
// - PeekParents: each row's parent by ctx.target_of and the parent's localPos by ctx.lookup,
//   written where the page can check them against world.targetOf and world.get.
#include <cstdint>

#include "ecsia/ecsia.hpp"

namespace {

struct LocalPos {
    float x;
    float y;
};

// By localPos.x, the counter the scenario's Restructure kernel moves on by one each frame: at 5
// (mod 53) a node leaves its parent, at 23 it moves under the batch's previous row (a cycle is
// refused at the merge), at 41 it gets an orc child (a reserved or pending handle as subject).
ecsia::SystemDesc regroup(ecsia::World& world) {
    const ecsia::ComponentId local = world.components().id_of("localPos");  // UnknownComponent without the scenario
    const ecsia::Entity orc = world.prefab("orc");
    ecsia::SystemDesc system;
    system.name = "Regroup";
    system.reads = {local};
    system.spawns_per_batch = 1;
    system.kernel = [local, orc](ecsia::KernelContext& ctx) {
        const LocalPos* l = ctx.chunk.read<LocalPos>(local);
        const ecsia::Entity* rows = ctx.chunk.entities();
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
            switch (static_cast<std::uint32_t>(l[i].x) % 53) {
                case 5:
                    ctx.commands.remove_pair(rows[i], ecsia::World::kChildOf, ecsia::kAnyTarget);
                    break;
                case 23:
                    if (i > 0) ctx.commands.add_pair(rows[i], ecsia::World::kChildOf, rows[i - 1]);
                    break;
                case 41: {
                    const ecsia::Entity child = ctx.instantiate(orc);
                    ctx.commands.add_pair(child, ecsia::World::kChildOf, rows[i]);
                    break;
                }
                default:
                    break;
            }
        }
    };
    return system;
}

struct WorldPos {
    float x;
    float y;
};

struct Seen {
    std::uint32_t parent;  // an entity field: the handle's bits, null (all ones) for a root
    float parent_local_x;  // -1 for a root
};

// worldPos = the parent's worldPos + localPos (a root: localPos); level.d = the chunk's depth.
ecsia::SystemDesc propagate_cpp(ecsia::World& world) {
    const ecsia::ComponentId local = world.components().id_of("localPos");
    const ecsia::ComponentId pos = world.components().id_of("worldPos");
    const ecsia::ComponentId level = world.components().id_of("level");
    ecsia::SystemDesc system;
    system.name = "PropagateCpp";
    system.reads = {local};
    system.writes = {pos, level};
    system.cascade = ecsia::World::kChildOf;
    system.parent_reads = {pos};
    system.kernel = [local, pos, level](ecsia::KernelContext& ctx) {
        const LocalPos* l = ctx.chunk.read<LocalPos>(local);
        WorldPos* out = ctx.chunk.write<WorldPos>(pos);
        std::uint32_t* depth = ctx.chunk.write<std::uint32_t>(level);
        const ecsia::ParentView* parent = ctx.chunk.parent();
        const ecsia::ParentColumn<WorldPos> up = parent != nullptr ? parent->column<WorldPos>(pos) : ecsia::ParentColumn<WorldPos>{};
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
            out[i] = up ? WorldPos{up[i].x + l[i].x, up[i].y + l[i].y} : WorldPos{l[i].x, l[i].y};
            depth[i] = ctx.chunk.depth();
        }
    };
    return system;
}

// seen = { the row's ChildOf target, that target's localPos.x }, read during the wave.
ecsia::SystemDesc peek_parents(ecsia::World& world) {
    const ecsia::ComponentId local = world.components().id_of("localPos");
    const ecsia::ComponentId seen = world.components().id_of("seen");
    ecsia::SystemDesc system;
    system.name = "PeekParents";
    system.writes = {seen};
    system.lookups = {local};
    system.kernel = [local, seen](ecsia::KernelContext& ctx) {
        const ecsia::Entity* rows = ctx.chunk.entities();
        Seen* out = ctx.chunk.write<Seen>(seen);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
            const ecsia::Entity parent = ctx.target_of(rows[i], ecsia::World::kChildOf);
            const LocalPos* at = parent.is_null() ? nullptr : ctx.lookup<LocalPos>(local, parent);
            out[i] = Seen{parent.bits, at != nullptr ? at->x : -1.0f};
        }
    };
    return system;
}

}  // namespace

ECSIA_REGISTER_SYSTEM("Regroup", regroup);
ECSIA_REGISTER_SYSTEM("PropagateCpp", propagate_cpp);
ECSIA_REGISTER_SYSTEM("PeekParents", peek_parents);
