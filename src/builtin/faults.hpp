#pragma once
// Systems that fail on purpose, for the tests of fault handling (e2e/fault.spec.js): they are not
// in builtin_system_names() and not reachable by name from a scheduler; the browser tests add them
// through the built-in module's own API (web/builtins.js addFaultSystem).
//   FaultUndeclared  declares a write of energy, writes position too (debug modules: refused)
//   FaultTrap        the batch at row 0 of each table executes a trap (wasm `unreachable`)
//   FaultExhaust     the batch at row 0 of each table allocates until the heap is exhausted
//                    (std::bad_alloc)
// (Row 0, not batch id 0: batch ids count the whole wave's batches, other systems' too.)

#include <string_view>

#include "ecsia/schedule/system.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia::builtin {

// Throws BadValue naming the known fault systems.
SystemDesc make_fault_system(World& world, std::string_view name);

}  // namespace ecsia::builtin
