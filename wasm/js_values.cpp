#include "js_values.hpp"

#include <cstring>

#include "ecsia/base/error.hpp"
#include "ecsia/schema/field_type.hpp"

using emscripten::val;

namespace ecsia::wasm {

std::vector<std::string> object_keys(const val& object) {
    const val keys = val::global("Object").call<val>("keys", object);
    const auto length = keys["length"].as<unsigned>();
    std::vector<std::string> out;
    out.reserve(length);
    for (unsigned i = 0; i < length; ++i) out.push_back(keys[i].as<std::string>());
    return out;
}

bool is_plain_object(const val& value) {
    return value.typeOf().as<std::string>() == "object" && !value.isNull() && !value.isArray();
}

std::vector<std::string> names_of(const val& names, const std::string& what) {
    std::vector<std::string> out;
    if (names.isUndefined() || names.isNull()) return out;
    if (!names.isArray()) throw Error(ErrorCode::BadValue, what + " takes an array of names, got " + describe_js(names));
    const auto length = names["length"].as<unsigned>();
    for (unsigned i = 0; i < length; ++i) {
        const val name = names[i];
        if (!name.isString()) throw Error(ErrorCode::BadValue, what + "[" + std::to_string(i) + "] must be a string, got " + describe_js(name));
        out.push_back(name.as<std::string>());
    }
    return out;
}

std::string defined_component_names(const ComponentRegistry& registry) {
    std::string out;
    for (ComponentId id = 0; id < registry.size(); ++id) out += (out.empty() ? "" : ", ") + registry.desc(id).name;
    return out.empty() ? "none" : out;
}

std::vector<ComponentId> component_ids_of(const ComponentRegistry& registry, const val& names, const std::string& what) {
    std::vector<ComponentId> ids;
    for (const std::string& name : names_of(names, what)) {
        const ComponentId id = registry.find(name);
        if (id == kNoComponent) {
            throw Error(ErrorCode::UnknownComponent,
                        what + " names unknown component '" + name + "' (defined: " + defined_component_names(registry) + ")");
        }
        ids.push_back(id);
    }
    return ids;
}

std::string describe_js(const val& value) {
    if (value.isNull()) return "null";
    if (value.isUndefined()) return "undefined";
    if (value.isArray()) return "an array";
    const std::string type = value.typeOf().as<std::string>();
    if (type == "string") {
        std::string text = value.as<std::string>();
        if (text.size() > 40) text = text.substr(0, 40) + "...";
        return "a string (\"" + text + "\")";
    }
    if (type == "object") return "an object";
    if (type == "boolean") return value.isTrue() ? "true" : "false";
    return "a " + type;
}

std::vector<std::byte> default_element(const ComponentDesc& desc) {
    std::vector<std::byte> bytes(desc.size, std::byte{0});
    for (const FieldDesc& field : desc.fields) {
        if (field.type == FieldType::Entity) std::memset(bytes.data() + field.offset, 0xFF, 4);
    }
    return bytes;
}

namespace {

std::string field_list(const ComponentDesc& desc) {
    std::string out;
    for (const FieldDesc& field : desc.fields) out += (out.empty() ? "" : ", ") + field.name;
    return out;
}

[[noreturn]] void wrong_type(const ComponentDesc& desc, const FieldDesc& field, const char* wanted, const val& got) {
    throw Error(ErrorCode::BadValue, "field '" + desc.name + "." + field.name + "' is " +
                                         std::string(field_type_name(field.type)) + " and takes " + wanted + ", got " +
                                         describe_js(got));
}

double field_number(const ComponentDesc& desc, const FieldDesc& field, const val& value) {
    switch (field.type) {
        case FieldType::Bool:
            if (value.isTrue()) return 1;
            if (value.isFalse()) return 0;
            if (!value.isNumber()) wrong_type(desc, field, "true or false", value);
            return value.as<double>();
        case FieldType::Entity:
            if (value.isNull()) return 4294967295.0;  // the null handle
            if (!value.isNumber()) wrong_type(desc, field, "an entity handle (a number) or null", value);
            return value.as<double>();
        default:
            if (!value.isNumber()) wrong_type(desc, field, "a number", value);
            return value.as<double>();
    }
}

}  // namespace

void write_fields(const ComponentDesc& desc, const val& values, std::byte* element) {
    if (!is_plain_object(values)) {
        throw Error(ErrorCode::BadValue, "'" + desc.name + "' takes an object of field values, got " + describe_js(values));
    }
    for (const std::string& key : object_keys(values)) {
        const FieldDesc* field = desc.find_field(key);
        if (field == nullptr) {
            throw Error(ErrorCode::UnknownField,
                        desc.is_tag() ? "'" + desc.name + "' is a tag and has no field '" + key + "'"
                                      : "'" + desc.name + "' has no field '" + key + "' (fields: " + field_list(desc) + ")");
        }
        const val value = values[key];
        if (value.isUndefined()) continue;
        encode_field(field->type, field_number(desc, *field, value), element + field->offset, desc.name + "." + key);
    }
}

val read_fields(const ComponentDesc& desc, const std::byte* element) {
    val out = val::object();
    for (const FieldDesc& field : desc.fields) {
        const double value = decode_field(field.type, element + field.offset);
        if (field.type == FieldType::Bool) {
            out.set(field.name, val(value != 0));
        } else if (field.type == FieldType::Entity && value == 4294967295.0) {
            out.set(field.name, val::null());
        } else {
            out.set(field.name, val(value));
        }
    }
    return out;
}

}  // namespace ecsia::wasm
