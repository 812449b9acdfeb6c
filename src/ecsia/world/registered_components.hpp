#pragma once
// Components every new World knows from construction: ECSIA_REGISTER_COMPONENT(T), at namespace
// scope in any source linked into the program, registers T (declared with ECSIA_COMPONENT or
// ECSIA_TAG) at static-initialisation time. A page can then spawn T by name before any scheduler
// exists, and a C++ system's factory finds it.
//
//   struct Boid { float x, y, dx, dy; };
//   ECSIA_COMPONENT(Boid, "boid", x, y, dx, dy)
//   ECSIA_REGISTER_COMPONENT(Boid);
//
// A World registers them in name order (not static-initialisation order, which depends on how
// the program was linked), so the ids, and so the state hash, are the same natively and in every
// browser build of the same sources. Registering the same type twice is harmless; two different
// types under one name make every World constructor throw DuplicateName, naming it.
//
// Thread rule: registration runs during static initialisation (one thread, before main); after
// that the list is only read, from any thread.

#include <string>
#include <vector>

#include "ecsia/schema/component_traits.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

namespace detail {

struct RegisteredComponent {
    std::string name;
    const void* type_key;
    void (*add_to)(World&);  // world.component<T>()
};

// Static-initialisation time only. Returns a value so the macro can hold it in a static.
bool register_component(std::string name, const void* type_key, void (*add_to)(World&));
// The registrations, in name order; throws DuplicateName for one name claimed by two types.
std::vector<RegisteredComponent> registered_components_checked();

}  // namespace detail

// The names of the registered components, in the order a World registers them.
std::vector<std::string> registered_components();

}  // namespace ecsia

#define ECSIA_DETAIL_CONCAT_INNER(a, b) a##b
#define ECSIA_DETAIL_CONCAT(a, b) ECSIA_DETAIL_CONCAT_INNER(a, b)

// End it with `;` like a declaration. Namespace scope.
#define ECSIA_REGISTER_COMPONENT(T)                                                                      \
    [[maybe_unused]] static const bool ECSIA_DETAIL_CONCAT(ecsia_registered_component_, __COUNTER__) = \
        ::ecsia::detail::register_component(::ecsia::ComponentTraits<T>::describe().name,               \
                                            ::ecsia::detail::type_key<T>(),                              \
                                            [](::ecsia::World& world) { world.component<T>(); })
