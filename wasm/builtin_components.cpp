// Components every world of the test module (ecsia_test_*) starts with: the *move* workload's
// position {x, y: f32} and velocity {dx, dy: f32} (DESIGN.md, reference workloads), registered the
// way a user's module registers its own (ECSIA_REGISTER_COMPONENT), so a page can spawn them by
// name before any scheduler exists. The structs are the built-in systems' own
// (src/builtin/components.hpp): a JS view over a "position" column and the Move kernel see the
// same bytes. A World registers them in name order (position, velocity), the first two ids of
// builtin::register_builtin_components, so a world that later gets the rest of the built-in
// components (the scenario's) has the same ids, and so the same state hash, as a native one.
// Part of the test module's sources only (wasm/CMakeLists.txt), never of the engine's own module
// (the package's) or a user's.

#include "builtin/components.hpp"
#include "ecsia/world/registered_components.hpp"

ECSIA_REGISTER_COMPONENT(ecsia::builtin::Position);
ECSIA_REGISTER_COMPONENT(ecsia::builtin::Velocity);
