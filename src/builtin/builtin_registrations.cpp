// The built-in systems in the system registry, registered exactly as a user's are
// (ECSIA_REGISTER_SYSTEM), so make_system(world, "Move"), createScheduler({ systems: ['Move'] })
// and scheduler.addSystem('Move') find them the same way as a user's own. Each uses the default
// BuiltinConfig; make_builtin_system(world, name, config) (the built-in module's own API) takes
// settings. This file holds only static registrars: it must be linked as an object (ecsia_builtin
// is an OBJECT library; the browser module compiles it in), or a linker would drop it.

#include "builtin/builtin_systems.hpp"
#include "ecsia/schedule/system_registry.hpp"

namespace ecsia::builtin {
namespace {

SystemDesc builtin(World& world, const char* name) { return make_builtin_system(world, name); }

}  // namespace
}  // namespace ecsia::builtin

ECSIA_REGISTER_SYSTEM("Move", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Move"); });
ECSIA_REGISTER_SYSTEM("Bounce", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Bounce"); });
ECSIA_REGISTER_SYSTEM("Attract", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Attract"); });
ECSIA_REGISTER_SYSTEM("Spawner", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Spawner"); });
ECSIA_REGISTER_SYSTEM("Reaper", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Reaper"); });
ECSIA_REGISTER_SYSTEM("Marker", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Marker"); });
ECSIA_REGISTER_SYSTEM("Pulse", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Pulse"); });
ECSIA_REGISTER_SYSTEM("Drain", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Drain"); });
ECSIA_REGISTER_SYSTEM("SumMoved", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "SumMoved"); });
ECSIA_REGISTER_SYSTEM("Idle", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Idle"); });
ECSIA_REGISTER_SYSTEM("Heavy0", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Heavy0"); });
ECSIA_REGISTER_SYSTEM("Heavy1", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Heavy1"); });
ECSIA_REGISTER_SYSTEM("Heavy2", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Heavy2"); });
ECSIA_REGISTER_SYSTEM("Heavy3", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Heavy3"); });
ECSIA_REGISTER_SYSTEM("Heavy4", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Heavy4"); });
ECSIA_REGISTER_SYSTEM("Heavy5", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Heavy5"); });
ECSIA_REGISTER_SYSTEM("Heavy6", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Heavy6"); });
ECSIA_REGISTER_SYSTEM("Heavy7", [](ecsia::World& w) { return ecsia::builtin::builtin(w, "Heavy7"); });
