#pragma once
// ComponentRegistry: dense ids in registration order, lookup by name and by C++ type.
// C++ structs register through ECSIA_COMPONENT / ECSIA_TAG (see component_traits.hpp); run-time
// components (the JS API) through define(). Both produce the same ComponentDesc for the same fields.
// Serial phase only: registration may add tables' worth of ids, lookups are read-only and safe anywhere.

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ecsia/schema/component_desc.hpp"
#include "ecsia/schema/component_traits.hpp"

namespace ecsia {

class ComponentRegistry {
public:
    // Throws DuplicateName, BadDefinition.
    ComponentId define(std::string name, const std::vector<FieldSpec>& fields);
    // A relation's presence component: a tag named as the relation, so that component and
    // relation names share one namespace. Throws DuplicateName, BadDefinition.
    ComponentId define_relation(std::string name);
    // Idempotent per type. Throws DuplicateName if another component already has T's name.
    template <typename T>
    ComponentId register_type();
    // kNoComponent when T was never registered.
    template <typename T>
    ComponentId find_type() const noexcept;

    // Throws UnknownComponent naming `name`.
    ComponentId id_of(std::string_view name) const;
    ComponentId find(std::string_view name) const noexcept;
    // Throws UnknownComponent for an id that was never handed out. Inline: every per-entity call
    // of World asks at least once.
    const ComponentDesc& desc(ComponentId id) const {
        if (id >= descs_.size()) [[unlikely]] throw_unknown(id);
        return descs_[id];
    }
    std::size_t size() const noexcept { return descs_.size(); }

private:
    [[noreturn]] static void throw_unknown(ComponentId id);
    ComponentId add(ComponentDesc desc, const void* type_key);
    std::vector<ComponentDesc> descs_;
    std::unordered_map<std::string, ComponentId> by_name_;
    std::unordered_map<const void*, ComponentId> by_type_;
};

template <typename T>
ComponentId ComponentRegistry::register_type() {
    const void* key = detail::type_key<T>();
    if (auto it = by_type_.find(key); it != by_type_.end()) return it->second;
    return add(ComponentTraits<T>::describe(), key);
}

template <typename T>
ComponentId ComponentRegistry::find_type() const noexcept {
    auto it = by_type_.find(detail::type_key<T>());
    return it == by_type_.end() ? kNoComponent : it->second;
}

}  // namespace ecsia
