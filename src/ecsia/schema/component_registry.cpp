#include "ecsia/schema/component_registry.hpp"

#include "ecsia/base/error.hpp"

namespace ecsia {

ComponentId ComponentRegistry::define(std::string name, const std::vector<FieldSpec>& fields) {
    return add(layout_component(std::move(name), fields), nullptr);
}

ComponentId ComponentRegistry::define_relation(std::string name) {
    ComponentDesc desc = layout_component(std::move(name), {});
    desc.relation = true;
    return add(std::move(desc), nullptr);
}

ComponentId ComponentRegistry::add(ComponentDesc desc, const void* type_key) {
    if (by_name_.count(desc.name) != 0) {
        throw Error(ErrorCode::DuplicateName, "a component named '" + desc.name + "' is already registered");
    }
    desc.id = static_cast<ComponentId>(descs_.size());
    by_name_.emplace(desc.name, desc.id);
    if (type_key != nullptr) by_type_.emplace(type_key, desc.id);
    descs_.push_back(std::move(desc));
    return descs_.back().id;
}

ComponentId ComponentRegistry::find(std::string_view name) const noexcept {
    auto it = by_name_.find(std::string(name));
    return it == by_name_.end() ? kNoComponent : it->second;
}

ComponentId ComponentRegistry::id_of(std::string_view name) const {
    const ComponentId id = find(name);
    if (id == kNoComponent) throw Error(ErrorCode::UnknownComponent, "no component named '" + std::string(name) + "'");
    return id;
}

void ComponentRegistry::throw_unknown(ComponentId id) {
    throw Error(ErrorCode::UnknownComponent, "no component with id " + std::to_string(id));
}

}  // namespace ecsia
