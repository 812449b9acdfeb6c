#include "builtin/faults.hpp"

#include <memory>
#include <new>
#include <string>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "ecsia/base/error.hpp"

namespace ecsia::builtin {

namespace {

SystemDesc fault_system(std::string name, std::vector<ComponentId> writes, Kernel kernel) {
    SystemDesc system;
    system.name = std::move(name);
    system.writes = std::move(writes);
    system.kernel = std::move(kernel);
    return system;
}

}  // namespace

SystemDesc make_fault_system(World& world, std::string_view name) {
    const BuiltinIds ids = register_builtin_components(world);
    if (name == "FaultUndeclared") {
        SystemDesc system = fault_system("FaultUndeclared", {ids.energy}, [ids](KernelContext& ctx) {
            Position* position = ctx.chunk.write<Position>(ids.position);  // not declared
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) position[i].x = -1;
        });
        system.query.with = {ids.energy, ids.position};
        system.query_set = true;
        return system;
    }
    if (name == "FaultTrap") {
        return fault_system("FaultTrap", {ids.energy}, [](KernelContext& ctx) {
            if (ctx.batch_id == 0) __builtin_trap();
        });
    }
    if (name == "FaultExhaust") {
        return fault_system("FaultExhaust", {ids.energy}, [](KernelContext& ctx) {
            if (ctx.batch_id != 0) return;
            // 16 MB blocks until the allocator gives up; freed again when the batch fails.
            std::vector<std::unique_ptr<char[]>> blocks;
            for (;;) {
                blocks.emplace_back(new char[16u << 20]);
                blocks.back()[0] = 1;  // touch it
            }
        });
    }
    throw Error(ErrorCode::BadValue, "no fault system named '" + std::string(name) +
                                         "' (FaultUndeclared, FaultTrap, FaultExhaust)");
}

}  // namespace ecsia::builtin
