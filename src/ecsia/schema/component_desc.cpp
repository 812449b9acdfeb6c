#include "ecsia/schema/component_desc.hpp"

#include <algorithm>
#include <cstring>

#include "ecsia/base/error.hpp"

namespace ecsia {

const FieldDesc* ComponentDesc::find_field(std::string_view field_name) const noexcept {
    for (const FieldDesc& field : fields) {
        if (field.name == field_name) return &field;
    }
    return nullptr;
}

std::vector<std::byte> default_element(const ComponentDesc& desc) {
    std::vector<std::byte> element(desc.size, std::byte{0});
    for (const FieldDesc& field : desc.fields) {
        if (field.type == FieldType::Entity) std::memset(element.data() + field.offset, 0xFF, 4);
    }
    return element;
}

std::string fields_text(const ComponentDesc& desc) {
    if (desc.fields.empty()) return "{}";
    std::string text = "{ ";
    for (std::size_t f = 0; f < desc.fields.size(); ++f) {
        if (f > 0) text += ", ";
        text += desc.fields[f].name + ": '" + std::string(field_type_name(desc.fields[f].type)) + "'";
    }
    return text + " }";
}

ComponentDesc layout_component(std::string name, const std::vector<FieldSpec>& fields) {
    if (name.empty()) throw Error(ErrorCode::BadDefinition, "a component needs a non-empty name");
    ComponentDesc desc;
    desc.name = std::move(name);
    std::uint32_t offset = 0;
    for (const FieldSpec& spec : fields) {
        if (spec.name.empty()) {
            throw Error(ErrorCode::BadDefinition, "component '" + desc.name + "' has a field with an empty name");
        }
        if (desc.find_field(spec.name) != nullptr) {
            throw Error(ErrorCode::BadDefinition, "component '" + desc.name + "' lists field '" + spec.name + "' twice");
        }
        const auto size = static_cast<std::uint32_t>(field_size(spec.type));
        offset = (offset + size - 1) / size * size;
        desc.fields.push_back(FieldDesc{spec.name, spec.type, offset});
        offset += size;
        desc.alignment = std::max(desc.alignment, size);
    }
    desc.size = (offset + desc.alignment - 1) / desc.alignment * desc.alignment;
    return desc;
}

}  // namespace ecsia
