// The C++ side of e2e/g2_stress.spec.js, as a user's own browser module: a system whose kernel
// allocates and frees on every row (a scratch vector, a string), as users' kernels do. On the
// workers every such call goes to the worker heap (wasm/worker_heap.cpp); were it dlmalloc, the
// page would contend with it for dlmalloc's mutex many times a frame.
#include <cstdint>
#include <string>
#include <vector>

#include "ecsia/ecsia.hpp"

namespace g2_stress {
struct Ballast {
    float value;
};
}  // namespace g2_stress

ECSIA_COMPONENT(g2_stress::Ballast, "ballast", value)
ECSIA_REGISTER_COMPONENT(g2_stress::Ballast);

ECSIA_REGISTER_SYSTEM("Allocate", [](ecsia::World& world) {
    const ecsia::ComponentId ballast = world.component<g2_stress::Ballast>();
    ecsia::SystemDesc system;
    system.writes = {ballast};
    system.kernel = [ballast](ecsia::KernelContext& ctx) {
        auto* b = ctx.chunk.write<g2_stress::Ballast>(ballast);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
            const std::vector<float> scratch(8 + (i & 63), b[i].value);
            const std::string label = "row " + std::to_string(i) + std::string(16 + (i & 31), '.');
            b[i].value = scratch.back() + static_cast<float>(label.size() & 1);
        }
    };
    return system;
});
