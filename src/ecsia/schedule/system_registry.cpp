#include "ecsia/schedule/system_registry.hpp"

#include <algorithm>
#include <map>

namespace ecsia {

namespace {

struct Registry {
    std::map<std::string, SystemFactory, std::less<>> factories;
    std::vector<std::string> duplicates;  // names registered more than once, in registration order
};

// A function-local static: filled by registrars in other translation units during static
// initialisation, whatever order those run in.
Registry& registry() {
    static Registry instance;
    return instance;
}

}  // namespace

namespace detail {

bool register_system(std::string name, SystemFactory factory) {
    Registry& r = registry();
    if (r.factories.count(name) != 0) {
        if (std::find(r.duplicates.begin(), r.duplicates.end(), name) == r.duplicates.end()) r.duplicates.push_back(name);
        return false;
    }
    r.factories.emplace(std::move(name), std::move(factory));
    return true;
}

}  // namespace detail

void check_system_registry() {
    const Registry& r = registry();
    if (r.duplicates.empty()) return;
    std::string names;
    for (const std::string& name : r.duplicates) names += (names.empty() ? "'" : ", '") + name + "'";
    throw Error(ErrorCode::DuplicateName, "system " + names + (r.duplicates.size() == 1 ? " is" : " are") +
                                              " registered twice (ECSIA_REGISTER_SYSTEM in two sources linked into one "
                                              "program); registered names must be unique");
}

std::vector<std::string> registered_systems() {
    check_system_registry();
    std::vector<std::string> names;
    for (const auto& [name, factory] : registry().factories) names.push_back(name);
    return names;
}

SystemDesc make_system(World& world, std::string_view name) {
    check_system_registry();
    const auto& factories = registry().factories;
    const auto it = factories.find(name);
    if (it == factories.end()) {
        std::string known;
        for (const auto& [n, factory] : factories) known += (known.empty() ? "" : ", ") + n;
        throw UnknownSystem("no system is registered under the name '" + std::string(name) + "' (registered: " +
                            (known.empty() ? "none" : known) + ")");
    }
    SystemDesc system = it->second(world);
    system.name = std::string(name);  // the plan and every error message use the name that was asked for
    return system;
}

}  // namespace ecsia
