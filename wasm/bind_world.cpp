// EMSCRIPTEN_BINDINGS(ecsia_world): the World part of the JS API's raw surface, and WorldBinding.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "builtin_components.hpp"
#include "ecsia/query/query_cache.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "js_error.hpp"
#include "js_values.hpp"
#include "world_binding.hpp"

using emscripten::val;

namespace ecsia::wasm {

namespace {

std::string defined_names(const ComponentRegistry& registry) {
    std::string out;
    for (ComponentId id = 0; id < registry.size(); ++id) out += (out.empty() ? "" : ", ") + registry.desc(id).name;
    return out.empty() ? "none" : out;
}

ComponentId id_of(const World& world, const std::string& name) {
    const ComponentId id = world.components().find(name);
    if (id == kNoComponent) {
        throw Error(ErrorCode::UnknownComponent,
                    "no component named '" + name + "' (defined: " + defined_names(world.components()) + ")");
    }
    return id;
}

// One component's value from JS, with the bytes it points at owned here.
struct ParsedValue {
    ComponentValue value;
    std::vector<std::byte> bytes;
};

ParsedValue parse_value(const ComponentDesc& desc, const val& values) {
    ParsedValue parsed{ComponentValue{desc.id, nullptr, 0}, {}};
    const bool defaults = values.isUndefined() || values.isNull() || values.isTrue();
    if (!defaults && !is_plain_object(values)) {
        throw Error(ErrorCode::BadValue,
                    "'" + desc.name + "' takes an object of field values (or true), got " + describe_js(values));
    }
    if (desc.is_tag()) {
        if (!defaults) write_fields(desc, values, nullptr);  // throws for any field given
        return parsed;
    }
    if (defaults) return parsed;
    parsed.bytes = default_element(desc);
    write_fields(desc, values, parsed.bytes.data());
    parsed.value.bytes = parsed.bytes.data();
    parsed.value.size = desc.size;
    return parsed;
}

}  // namespace

WorldBinding::WorldBinding(std::uint32_t max_entities) {
    WorldOptions options;
    options.max_entities = max_entities;
    world_ = std::make_unique<World>(options);
    register_world_components(*world_);
}

std::uint32_t WorldBinding::define_component(const std::string& name, const val& fields) {
    if (!is_plain_object(fields)) {
        throw Error(ErrorCode::BadDefinition,
                    "component '" + name + "' needs an object of field types, got " + describe_js(fields));
    }
    if (world_->components().find(name) != kNoComponent) {
        throw Error(ErrorCode::DuplicateName, "a component named '" + name + "' is already defined");
    }
    std::vector<FieldSpec> specs;
    for (const std::string& key : object_keys(fields)) {
        const val type = fields[key];
        std::optional<FieldType> parsed;
        if (type.isString()) parsed = parse_field_type(type.as<std::string>());
        if (!parsed) {
            throw Error(ErrorCode::BadDefinition, "field '" + name + "." + key + "' has type " + describe_js(type) +
                                                      "; the types are f32, f64, i8, i16, i32, u8, u16, u32, bool, entity");
        }
        specs.push_back(FieldSpec{key, *parsed});
    }
    return world_->define_component(name, specs);
}

val WorldBinding::component_info(const std::string& name) const {
    const ComponentDesc& desc = world_->components().desc(id_of(*world_, name));
    val fields = val::array();
    for (const FieldDesc& field : desc.fields) {
        val f = val::object();
        f.set("name", field.name);
        f.set("type", std::string(field_type_name(field.type)));
        f.set("offset", field.offset);
        fields.call<void>("push", f);
    }
    val info = val::object();
    info.set("id", desc.id);
    info.set("name", desc.name);
    info.set("size", desc.size);
    info.set("alignment", desc.alignment);
    info.set("tag", desc.is_tag());
    info.set("fields", fields);
    return info;
}

val WorldBinding::component_names() const {
    val names = val::array();
    const ComponentRegistry& registry = world_->components();
    for (ComponentId id = 0; id < registry.size(); ++id) names.call<void>("push", registry.desc(id).name);
    return names;
}

std::uint32_t WorldBinding::spawn(const val& components) {
    std::vector<ParsedValue> parsed;
    if (!components.isUndefined() && !components.isNull()) {
        if (!is_plain_object(components)) {
            throw Error(ErrorCode::BadValue,
                        "spawn takes an object of components by name, got " + describe_js(components));
        }
        for (const std::string& name : object_keys(components)) {
            parsed.push_back(parse_value(world_->components().desc(id_of(*world_, name)), components[name]));
        }
    }
    std::vector<ComponentValue> values;
    values.reserve(parsed.size());
    for (const ParsedValue& p : parsed) values.push_back(p.value);
    return world_->spawn_with(values).bits;
}

void WorldBinding::despawn(std::uint32_t entity) { world_->despawn(handle(entity)); }

bool WorldBinding::is_alive(std::uint32_t entity) const { return world_->is_alive(handle(entity)); }

std::uint32_t WorldBinding::alive_count() const { return world_->alive_count(); }

std::uint32_t WorldBinding::max_entities() const { return world_->entities().max_entities(); }

void WorldBinding::add(std::uint32_t entity, const std::string& name, const val& values) {
    const ParsedValue parsed = parse_value(world_->components().desc(id_of(*world_, name)), values);
    world_->add(handle(entity), parsed.value);
}

void WorldBinding::remove(std::uint32_t entity, const std::string& name) {
    world_->remove(handle(entity), id_of(*world_, name));
}

bool WorldBinding::has(std::uint32_t entity, const std::string& name) const {
    return world_->has(handle(entity), id_of(*world_, name));
}

val WorldBinding::get(std::uint32_t entity, const std::string& name) const {
    const ComponentId id = id_of(*world_, name);
    const ComponentDesc& desc = world_->components().desc(id);
    if (desc.is_tag()) {
        world_->locate(handle(entity));  // a dead handle is still an error
        if (!world_->has(handle(entity), id)) world_->get_bytes(handle(entity), id);  // throws MissingComponent
        return val::object();
    }
    return read_fields(desc, world_->get_bytes(handle(entity), id));
}

void WorldBinding::set(std::uint32_t entity, const std::string& name, const val& values) {
    const ComponentId id = id_of(*world_, name);
    const ComponentDesc& desc = world_->components().desc(id);
    const std::byte* current = world_->get_bytes(handle(entity), id);  // throws for dead, missing, tag
    std::vector<std::byte> element(current, current + desc.size);
    write_fields(desc, values, element.data());
    world_->set_bytes(handle(entity), id, 0, element.data(), desc.size);
}

std::vector<ComponentId> WorldBinding::ids_of(const val& names, const char* what) const {
    std::vector<ComponentId> ids;
    if (names.isUndefined() || names.isNull()) return ids;
    if (names.isString()) {
        ids.push_back(id_of(*world_, names.as<std::string>()));
        return ids;
    }
    if (!names.isArray()) {
        throw Error(ErrorCode::BadValue, std::string(what) + " takes an array of component names, got " + describe_js(names));
    }
    const auto length = names["length"].as<unsigned>();
    for (unsigned i = 0; i < length; ++i) {
        const val name = names[i];
        if (!name.isString()) {
            throw Error(ErrorCode::BadValue, std::string(what) + " takes component names, got " + describe_js(name));
        }
        ids.push_back(id_of(*world_, name.as<std::string>()));
    }
    return ids;
}

std::uint32_t WorldBinding::count(const val& with, const val& without) {
    QueryDesc desc;
    desc.with = ids_of(with, "count(with)");
    desc.without = ids_of(without, "count(without)");
    return world_->count(desc);
}

val WorldBinding::chunks(const val& with) {
    QueryDesc desc;
    desc.with = ids_of(with, "chunks(with)");
    const std::vector<ComponentId> columns = desc.with;
    QueryCache cache(std::move(desc));
    val out = val::array();
    for (TableIndex index : cache.matched(::ecsia::detail::WorldAccess::tables(*world_))) {
        Table& table = ::ecsia::detail::WorldAccess::tables(*world_).table(index);
        if (table.size() == 0) continue;
        val addresses = val::array();
        for (ComponentId id : columns) {
            const Column* column = table.column(id);
            addresses.call<void>("push", static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(column->data())));
        }
        val chunk = val::object();
        chunk.set("table", index);
        chunk.set("count", table.size());
        chunk.set("entities", static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(table.entities())));
        chunk.set("columns", addresses);
        out.call<void>("push", chunk);
    }
    return out;
}

double WorldBinding::storage_generation() const { return static_cast<double>(world_->storage_generation()); }

std::string WorldBinding::state_hash() const { return state_hash_hex(*world_); }

void WorldBinding::set_diagnostic_handler(const val& handler) {
    if (handler.isUndefined() || handler.isNull()) {
        world_->diagnostics().set_sink(nullptr);
        return;
    }
    world_->diagnostics().set_sink([handler](const std::string& message) { handler(message); });
}

namespace {

// Wraps a WorldBinding method so that an ecsia::Error becomes a JS Error (js_error.hpp).
template <auto Method>
struct Guarded;

template <typename R, typename... A, R (WorldBinding::*Method)(A...)>
struct Guarded<Method> {
    static R call(WorldBinding& self, A... args) {
        return rethrow_as_js([&]() -> R { return (self.*Method)(args...); });
    }
};

template <typename R, typename... A, R (WorldBinding::*Method)(A...) const>
struct Guarded<Method> {
    static R call(const WorldBinding& self, A... args) {
        return rethrow_as_js([&]() -> R { return (self.*Method)(args...); });
    }
};

WorldBinding* make_world(std::uint32_t max_entities) {
    return rethrow_as_js([&] { return new WorldBinding(max_entities); });
}

}  // namespace

}  // namespace ecsia::wasm

EMSCRIPTEN_BINDINGS(ecsia_world) {
    using ecsia::wasm::Guarded;
    using ecsia::wasm::WorldBinding;
    emscripten::class_<WorldBinding>("World")
        .constructor(&ecsia::wasm::make_world, emscripten::allow_raw_pointers())
        .function("defineComponent", &Guarded<&WorldBinding::define_component>::call)
        .function("componentInfo", &Guarded<&WorldBinding::component_info>::call)
        .function("componentNames", &Guarded<&WorldBinding::component_names>::call)
        .function("spawn", &Guarded<&WorldBinding::spawn>::call)
        .function("despawn", &Guarded<&WorldBinding::despawn>::call)
        .function("isAlive", &Guarded<&WorldBinding::is_alive>::call)
        .function("aliveCount", &Guarded<&WorldBinding::alive_count>::call)
        .function("maxEntities", &Guarded<&WorldBinding::max_entities>::call)
        .function("add", &Guarded<&WorldBinding::add>::call)
        .function("remove", &Guarded<&WorldBinding::remove>::call)
        .function("has", &Guarded<&WorldBinding::has>::call)
        .function("get", &Guarded<&WorldBinding::get>::call)
        .function("set", &Guarded<&WorldBinding::set>::call)
        .function("count", &Guarded<&WorldBinding::count>::call)
        .function("chunks", &Guarded<&WorldBinding::chunks>::call)
        .function("storageGeneration", &Guarded<&WorldBinding::storage_generation>::call)
        .function("stateHash", &Guarded<&WorldBinding::state_hash>::call)
        .function("setDiagnosticHandler", &Guarded<&WorldBinding::set_diagnostic_handler>::call);
    // The pool the threaded module was linked with (0 in the single module): web/ecsia.js caps
    // its worker count at this.
    emscripten::constant("poolSize", ECSIA_WASM_POOL_SIZE);
    // Whether kernels' reads and writes are checked against their declarations (debug modules).
    emscripten::constant("accessChecks", ECSIA_ACCESS_CHECKS != 0);
}
