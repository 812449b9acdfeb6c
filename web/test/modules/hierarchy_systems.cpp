// A C++ system of the mixed hierarchy scenario (web/test/hierarchy_scenario.js), compiled only into
// the test module (wasm/CMakeLists.txt: ecsia_test): a worker system whose kernel re-parents nodes
// of the ChildOf forest, cuts them loose and instantiates the scenario's 'orc' prefab under them,
// all through its command buffer, so that the scenario's determinism check (G1) covers a C++
// kernel's pair and prefab commands beside the JS kernels' and the main-thread system's.
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

}  // namespace

ECSIA_REGISTER_SYSTEM("Regroup", regroup);
