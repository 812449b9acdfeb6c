#include "builtin/faults.hpp"

#include <cstddef>
#include <cstdint>
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
            if (ctx.chunk.row_begin() == 0) __builtin_trap();
        });
    }
    if (name == "FaultExhaust") {
        return fault_system("FaultExhaust", {ids.energy}, [](KernelContext& ctx) {
            if (ctx.chunk.row_begin() != 0) return;
            // 16 MB blocks until the allocator gives up (std::bad_alloc); freed again when the
            // batch fails. The volatile writes keep the compiler from removing the allocations:
            // a loop of new-expressions with no observable effect may be elided, and was (the
            // kernel returned at once in the first wasm build). Bounded at 8 GB, past any heap
            // wasm32 can have, so that a heap that never runs out is an error too.
            constexpr std::size_t kBlock = std::size_t(16) << 20;
            std::vector<std::unique_ptr<char[]>> blocks;
            for (std::uint64_t total = 0; total < (std::uint64_t(8) << 30); total += kBlock) {
                blocks.emplace_back(new char[kBlock]);
                static_cast<volatile char*>(blocks.back().get())[kBlock - 1] = 1;
            }
            throw Error(ErrorCode::BadValue, "FaultExhaust allocated 8 GB without running out of heap");
        });
    }
    throw Error(ErrorCode::BadValue, "no fault system named '" + std::string(name) +
                                         "' (FaultUndeclared, FaultTrap, FaultExhaust)");
}

}  // namespace ecsia::builtin
