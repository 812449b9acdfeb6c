#pragma once
// The system registry: C++ systems by name. ECSIA_REGISTER_SYSTEM("Name", factory), at namespace
// scope in any source linked into the program, registers at static-initialisation time a factory
// that makes the system's SystemDesc for a given world; make_system(world, "Name") calls it. The
// browser's createScheduler({ systems }) and scheduler.addSystem('Name') go through here, and the
// engine's built-in systems (Move, Bounce, Heavy0..7, ...) register the same way.
//
//   ECSIA_REGISTER_SYSTEM("Drift", [](ecsia::World& world) {
//       ecsia::SystemDesc system;
//       system.name = "Drift";
//       system.writes = {world.component<Position>()};
//       system.kernel = [id = world.component<Position>()](ecsia::KernelContext& ctx) { ... };
//       return system;
//   });
//
// A name registered twice is an error at start-up: make_system, registered_systems and every
// Scheduler constructor throw DuplicateName naming it (and the browser's loadEcsia rejects).
// Sources that register must be linked as objects, not from a static library, or the linker drops
// them: ecsia_add_browser_module compiles them into the module.
//
// Thread rule: registration runs during static initialisation (one thread, before main); after
// that the registry is only read, from any thread.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ecsia/base/error.hpp"
#include "ecsia/schedule/system.hpp"

namespace ecsia {

class World;

// Makes a registered system for `world`: registers the components it names and returns its
// description. make_system gives the description the registered name, whatever name it had.
using SystemFactory = std::function<SystemDesc(World&)>;

// Thrown by make_system for a name nothing registered; the message lists the registered names.
class UnknownSystem : public Error {
public:
    explicit UnknownSystem(const std::string& message) : Error(ErrorCode::UnknownSystem, message) {}
};

// The registered system's description for `world`. Throws UnknownSystem (naming the registered
// ones) or DuplicateName (see above); whatever the factory throws passes through.
SystemDesc make_system(World& world, std::string_view name);
// Every registered name, sorted. Throws DuplicateName (see above).
std::vector<std::string> registered_systems();
// Throws DuplicateName when some name was registered twice; otherwise does nothing.
void check_system_registry();

namespace detail {
// Static-initialisation time only. Returns a value so the macro can hold it in a static.
bool register_system(std::string name, SystemFactory factory);
}  // namespace detail

}  // namespace ecsia

#define ECSIA_DETAIL_SYSTEM_CONCAT_INNER(a, b) a##b
#define ECSIA_DETAIL_SYSTEM_CONCAT(a, b) ECSIA_DETAIL_SYSTEM_CONCAT_INNER(a, b)

// End it with `;` like a declaration. Namespace scope. The factory is everything after the name,
// so a lambda whose body has commas needs no extra parentheses.
#define ECSIA_REGISTER_SYSTEM(name_literal, ...)                                                            \
    [[maybe_unused]] static const bool ECSIA_DETAIL_SYSTEM_CONCAT(ecsia_registered_system_, __COUNTER__) = \
        ::ecsia::detail::register_system(name_literal, ::ecsia::SystemFactory(__VA_ARGS__))
