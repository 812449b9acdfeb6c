#include "ecsia/world/registered_components.hpp"

#include <algorithm>

#include "ecsia/base/error.hpp"

namespace ecsia::detail {

namespace {

// A function-local static: filled by registrars in other translation units during static
// initialisation, whatever order those run in.
std::vector<RegisteredComponent>& registrations() {
    static std::vector<RegisteredComponent> list;
    return list;
}

}  // namespace

bool register_component(std::string name, const void* type_key, void (*add_to)(World&)) {
    auto& list = registrations();
    for (const RegisteredComponent& existing : list) {
        if (existing.type_key == type_key) return true;  // the same type again (e.g. a header in two sources)
    }
    list.push_back({std::move(name), type_key, add_to});
    return true;
}

std::vector<RegisteredComponent> registered_components_checked() {
    std::vector<RegisteredComponent> list = registrations();
    std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    for (std::size_t i = 1; i < list.size(); ++i) {
        if (list[i].name == list[i - 1].name) {
            throw Error(ErrorCode::DuplicateName, "component '" + list[i].name +
                                                      "' is registered by two different C++ types (ECSIA_REGISTER_COMPONENT); "
                                                      "component names must be unique");
        }
    }
    return list;
}

}  // namespace ecsia::detail

namespace ecsia {

std::vector<std::string> registered_components() {
    std::vector<std::string> names;
    for (const auto& entry : detail::registered_components_checked()) names.push_back(entry.name);
    return names;
}

}  // namespace ecsia
