// EMSCRIPTEN_BINDINGS(ecsia_world): the World part of the JS API's raw surface, and WorldBinding.
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "boundary_constants.hpp"
#include "encoded_values.hpp"
#include "ecsia/query/query_cache.hpp"
#include "ecsia/relation/relation_store.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "ecsia/world/world_access.hpp"
#include "js_error.hpp"
#include "js_values.hpp"
#include "world_binding.hpp"

using emscripten::val;

namespace ecsia::wasm {

namespace {

ComponentId id_of(const World& world, const std::string& name) {
    const ComponentId id = world.components().find(name);
    if (id == kNoComponent) {
        throw Error(ErrorCode::UnknownComponent,
                    "unknown component '" + name + "' (defined: " + defined_component_names(world.components()) + ")");
    }
    // A relation's presence component is not a component to add, read or observe by name: the
    // core refuses those calls anyway, but the fast paths (world_fast.cpp) call it outside a catch.
    if (world.components().desc(id).relation) {
        throw Error(ErrorCode::BadValue, "'" + name + "' is a relation, not a component: its pairs go through addPair, "
                                             "removePair, hasPair, getPair, setPair and query pair terms");
    }
    return id;
}

}  // namespace

WorldBinding::WorldBinding(std::uint32_t max_entities) {
    WorldOptions options;
    options.max_entities = max_entities;
    world_ = std::make_unique<World>(options);  // with the module's registered components
}

namespace {

// { field: type } as FieldSpecs, in JS key order; `what` names the component or relation.
std::vector<FieldSpec> field_specs(const std::string& what, const std::string& name, const val& fields) {
    if (!is_plain_object(fields)) {
        throw Error(ErrorCode::BadDefinition,
                    what + " '" + name + "' needs an object of field types, got " + describe_js(fields));
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
    return specs;
}

val fields_info(const ComponentDesc& desc) {
    val fields = val::array();
    for (const FieldDesc& field : desc.fields) {
        val f = val::object();
        f.set("name", field.name);
        f.set("type", std::string(field_type_name(field.type)));
        f.set("offset", field.offset);
        fields.call<void>("push", f);
    }
    return fields;
}

// The names of ECSIA_BOUNDARY_ON_DELETE_TARGETS, in OnDeleteTarget order.
#define ECSIA_ON_DELETE_NAME(enumerator, name) name,
constexpr const char* kOnDeleteNames[] = {ECSIA_BOUNDARY_ON_DELETE_TARGETS(ECSIA_ON_DELETE_NAME)};
#undef ECSIA_ON_DELETE_NAME

}  // namespace

std::uint32_t WorldBinding::define_component(const std::string& name, const val& fields) {
    // The core's rule for a name defined again (the same fields give the component).
    return world_->define_component(name, field_specs("component", name, fields));
}

std::uint32_t WorldBinding::define_relation(const std::string& name, const val& fields, const val& options) {
    std::vector<FieldSpec> specs = field_specs("relation", name, fields);
    RelationOptions parsed;
    parsed.exclusive = options["exclusive"].isTrue();
    parsed.acyclic = options["acyclic"].isTrue();
    const val on_delete = options["onDeleteTarget"];
    if (!on_delete.isUndefined()) {
        const std::string given = on_delete.isString() ? on_delete.as<std::string>() : describe_js(on_delete);
        const auto* found = std::find(std::begin(kOnDeleteNames), std::end(kOnDeleteNames), given);
        if (!on_delete.isString() || found == std::end(kOnDeleteNames)) {
            throw Error(ErrorCode::BadDefinition, "relation '" + name + "': onDeleteTarget is 'remove' or 'delete', got " +
                                                      describe_js(on_delete));
        }
        parsed.on_delete_target = static_cast<OnDeleteTarget>(found - std::begin(kOnDeleteNames));
    }
    return world_->define_relation(name, specs, parsed);  // the same again gives it; DuplicateName, BadDefinition, WrongPhase
}

val WorldBinding::relation_info(const std::string& name) const {
    const RelationId id = world_->relation_id(name);  // the core's errors, listing the relations
    const RelationStore::Relation& relation = *world_->relations().find(id);
    val info = val::object();
    info.set("id", id);
    info.set("name", name);
    info.set("size", relation.data.size);
    info.set("alignment", relation.data.alignment);
    info.set("tag", relation.data.size == 0);
    info.set("fields", fields_info(relation.data));
    info.set("exclusive", relation.options.exclusive);
    info.set("onDeleteTarget", std::string(kOnDeleteNames[static_cast<int>(relation.options.on_delete_target)]));
    info.set("acyclic", relation.options.acyclic);
    return info;
}

std::uint32_t WorldBinding::define_topic(const std::string& name, const val& fields) {
    return world_->define_topic(name, field_specs("topic", name, fields));  // the same again gives it; DuplicateName, BadDefinition
}

val WorldBinding::topic_info(const std::string& name) const {
    const ComponentDesc& layout = world_->topics().topic(world_->topic_id(name)).layout;
    val info = val::object();
    info.set("id", world_->topic_id(name));
    info.set("name", name);
    info.set("size", layout.size);
    info.set("alignment", layout.alignment);
    info.set("tag", false);
    info.set("fields", fields_info(layout));
    return info;
}

val WorldBinding::relation_names() const {
    val names = val::array();
    for (const RelationStore::Relation& relation : world_->relations().all()) {
        names.call<void>("push", world_->components().desc(relation.id).name);
    }
    return names;
}

std::uint32_t WorldBinding::entity_list(const std::vector<Entity>& entities) {
    entity_list_.resize(1 + entities.size());
    entity_list_[0] = static_cast<std::uint32_t>(entities.size());
    for (std::size_t i = 0; i < entities.size(); ++i) entity_list_[1 + i] = entities[i].bits;
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(entity_list_.data()));
}

val WorldBinding::component_info(const std::string& name) const {
    const ComponentDesc& desc = world_->components().desc(id_of(*world_, name));
    val info = val::object();
    info.set("id", desc.id);
    info.set("name", desc.name);
    info.set("size", desc.size);
    info.set("alignment", desc.alignment);
    info.set("tag", desc.is_tag());
    info.set("fields", fields_info(desc));
    return info;
}

std::uint32_t WorldBinding::alive_count() const { return world_->alive_count(); }

std::uint32_t WorldBinding::max_entities() const { return world_->entities().max_entities(); }

std::uint32_t WorldBinding::count(const val& with, const val& without) {
    QueryDesc desc;
    desc.with = component_ids_of(world_->components(), with, "count(with)");
    desc.without = component_ids_of(world_->components(), without, "count(without)");
    return world_->count(desc);
}

std::string WorldBinding::state_hash() const {
    // A page may call it while a wave is out on the workers (update() not awaited): a hash then is
    // of no state the world was ever in. (Natively the coordinator's thread waits for its waves.)
    if (world_->phase() == WorldPhase::Wave) {
        throw Error(ErrorCode::WrongPhase, "stateHash during a wave: the workers are changing the state; call it between "
                                           "frames (await update()) or from a main-thread system");
    }
    return state_hash_hex(*world_);
}

std::uint32_t WorldBinding::scratch(std::uint32_t bytes, std::uint32_t level) {
    // Growing the list of levels moves the vectors, not their storage: a lower level's area stays put.
    if (scratch_.size() <= level) scratch_.resize(std::size_t(level) + 1);
    std::vector<std::uint64_t>& area = scratch_[level];
    const std::size_t words = (std::size_t(bytes) + 7) / 8;
    if (area.size() < words) area.resize(std::max(words, area.size() * 2));
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(area.data()));
}

Entity WorldBinding::spawn_encoded(std::uint32_t encoded) {
    const auto* base = reinterpret_cast<const std::byte*>(static_cast<std::uintptr_t>(encoded));
    std::vector<std::uint32_t> offsets;
    const EncodedValues values = decode_header(*world_, base, 1, offsets);
    return world_->spawn_with(values.values);
}

std::uint32_t WorldBinding::spawn_many(std::uint32_t count, std::uint32_t encoded) {
    static_assert(sizeof(Entity) == sizeof(std::uint32_t), "JS reads the handles as a Uint32Array");
    const auto* bytes = reinterpret_cast<const std::byte*>(static_cast<std::uintptr_t>(encoded));
    std::vector<std::uint32_t> offsets;
    const EncodedValues values = decode_header(*world_, bytes, count, offsets);
    // The core's check before the handles' list is sized: a count far beyond the world's room
    // must not first ask the heap for it.
    ::ecsia::detail::WorldAccess::require_spawn_capacity(*world_, count, "spawn_many");
    spawned_.reserve(1);  // a non-null address for count 0 (JS reads 0 as a failure)
    spawned_.resize(count);
    world_->spawn_many(spawned_, encoded_rows(values, bytes, offsets));  // all or nothing
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(spawned_.data()));
}

std::uint32_t WorldBinding::define_prefab(const std::string& name, std::uint32_t base, std::uint32_t encoded) {
    const auto* bytes = reinterpret_cast<const std::byte*>(static_cast<std::uintptr_t>(encoded));
    std::vector<std::uint32_t> offsets;
    const EncodedValues values = decode_header(*world_, bytes, 1, offsets);
    return world_->define_prefab(name, values.values, Entity{base}).bits;
}

std::uint32_t WorldBinding::prefab(const std::string& name) const { return world_->prefab(name).bits; }

std::string WorldBinding::prefab_name(std::uint32_t prefab) const { return std::string(world_->prefab_name(Entity{prefab})); }

Entity WorldBinding::instantiate_encoded(std::uint32_t prefab, std::uint32_t encoded) {
    const auto* bytes = reinterpret_cast<const std::byte*>(static_cast<std::uintptr_t>(encoded));
    std::vector<std::uint32_t> offsets;
    const EncodedValues values = decode_header(*world_, bytes, 1, offsets);
    return world_->instantiate(Entity{prefab}, values.values);
}

std::uint32_t WorldBinding::instantiate_many(std::uint32_t prefab, std::uint32_t count, std::uint32_t encoded) {
    static_assert(sizeof(Entity) == sizeof(std::uint32_t), "JS reads the handles as a Uint32Array");
    const auto* bytes = reinterpret_cast<const std::byte*>(static_cast<std::uintptr_t>(encoded));
    std::vector<std::uint32_t> offsets;
    const EncodedValues values = decode_header(*world_, bytes, count, offsets);
    ::ecsia::detail::WorldAccess::require_spawn_capacity(*world_, count, "instantiate_many");  // as in spawn_many
    instanced_.reserve(1);  // a non-null address for count 0 (JS reads 0 as a failure)
    instanced_.resize(count);
    world_->instantiate_many(Entity{prefab}, instanced_, encoded_rows(values, bytes, offsets));  // all or nothing
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(instanced_.data()));
}

void WorldBinding::despawn_many(std::uint32_t handles, std::uint32_t count) {
    const auto* list = reinterpret_cast<const Entity*>(static_cast<std::uintptr_t>(handles));
    world_->despawn_many({list, count});  // all or nothing
}

void WorldBinding::mark_rows_changed(std::uint32_t table, std::uint32_t id, std::uint32_t begin, std::uint32_t end) {
    World& world = *world_;
    if (table >= world.tables().table_count() || !world.tables().table(table).has(id)) {
        throw Error(ErrorCode::MissingComponent, "the chunk's table has no component '" +
                                                     (id < world.components().size() ? world.components().desc(id).name
                                                                                      : std::to_string(id)) + "'");
    }
    const std::uint32_t rows = world.tables().table(table).size();
    if (begin > end || end > rows) {
        throw Error(ErrorCode::BadValue, "rows " + std::to_string(begin) + ".." + std::to_string(end) +
                                             " are outside the table's " + std::to_string(rows) +
                                             " rows (the chunk is stale: fetch chunks again)");
    }
    WriteLog log;
    log.record(table, id, begin, end);
    ::ecsia::detail::WorldAccess::merge_write_log(world, log, world.tick());
    flush_if_allowed();
}

void WorldBinding::mark_runs_written(const val& runs) {
    World& world = *world_;
    const auto words = runs["length"].as<unsigned>();
    WriteLog log;
    for (unsigned at = 0; at + 4 <= words; at += 4) {
        const auto table = runs[at].as<std::uint32_t>();
        const auto id = runs[at + 3].as<std::uint32_t>();
        if (table >= world.tables().table_count() || !world.tables().table(table).has(id)) continue;
        // A structural change after the fetch may have shortened the table: its rows now.
        const std::uint32_t begin = runs[at + 1].as<std::uint32_t>();
        const std::uint32_t end = std::min(begin + runs[at + 2].as<std::uint32_t>(), world.tables().table(table).size());
        if (begin < end) log.record(table, id, begin, end);
    }
    ::ecsia::detail::WorldAccess::merge_write_log(world, log, world.tick());
}

void WorldBinding::flush_if_allowed() {
    if (world_->structural_allowed()) world_->flush();
}

std::uint32_t WorldBinding::observe(const std::string& event, const std::string& name, const val& fn) {
    ObserverEvent kind;
    if (event == "add") kind = ObserverEvent::OnAdd;
    else if (event == "remove") kind = ObserverEvent::OnRemove;
    else if (event == "change") kind = ObserverEvent::OnChange;
    else throw Error(ErrorCode::BadValue, "observer events are 'add', 'remove' and 'change', got '" + event + "'");
    const ComponentId found = world_->components().find(name);
    if (found != kNoComponent && world_->components().desc(found).relation) {
        // A relation's pairs: the subject and the target (World::observe refuses 'change').
        return world_->observe(kind, found, [fn](ObserverContext& ctx) { fn(ctx.entity.bits, ctx.target.bits); });
    }
    const ComponentId id = id_of(*world_, name);
    return world_->observe(kind, id, [fn](ObserverContext& ctx) { fn(ctx.entity.bits); });
}

void WorldBinding::unobserve(std::uint32_t id) { world_->unobserve(id); }

void WorldBinding::report_diagnostic(const std::string& message, const std::string& system) {
    if (system.empty()) {
        world_->diagnostics().report(message);
    } else {
        world_->diagnostics().report_for(system, message);
    }
}

void WorldBinding::set_diagnostic_handler(const val& handler) {
    if (handler.isUndefined() || handler.isNull()) {
        world_->diagnostics().set_sink(nullptr);
        return;
    }
    world_->diagnostics().set_sink([handler](const std::string& message) { handler(message); });
}

namespace {

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
        .function("defineRelation", &Guarded<&WorldBinding::define_relation>::call)
        .function("relationInfo", &Guarded<&WorldBinding::relation_info>::call)
        .function("relationNames", &Guarded<&WorldBinding::relation_names>::call)
        .function("defineTopic", &Guarded<&WorldBinding::define_topic>::call)
        .function("topicInfo", &Guarded<&WorldBinding::topic_info>::call)
        .function("definePrefab", &Guarded<&WorldBinding::define_prefab>::call)
        .function("prefab", &Guarded<&WorldBinding::prefab>::call)
        .function("prefabName", &Guarded<&WorldBinding::prefab_name>::call)
        .function("address", &WorldBinding::address)
        .function("aliveCount", &Guarded<&WorldBinding::alive_count>::call)
        .function("maxEntities", &Guarded<&WorldBinding::max_entities>::call)
        .function("inspect", &Guarded<&WorldBinding::inspect>::call)
        .function("componentsOf", &Guarded<&WorldBinding::components_of>::call)
        .function("count", &Guarded<&WorldBinding::count>::call)
        .function("markRowsChanged", &Guarded<&WorldBinding::mark_rows_changed>::call)
        .function("markRunsWritten", &Guarded<&WorldBinding::mark_runs_written>::call)
        .function("flushIfAllowed", &Guarded<&WorldBinding::flush_if_allowed>::call)
        .function("observe", &Guarded<&WorldBinding::observe>::call)
        .function("unobserve", &Guarded<&WorldBinding::unobserve>::call)
        .function("stateHash", &Guarded<&WorldBinding::state_hash>::call)
        .function("setDiagnosticHandler", &Guarded<&WorldBinding::set_diagnostic_handler>::call)
        .function("reportDiagnostic", &Guarded<&WorldBinding::report_diagnostic>::call);
    // The pool the threaded module was linked with (0 in the single module): web/ecsia.js caps
    // its worker count at this.
    emscripten::constant("poolSize", ECSIA_WASM_POOL_SIZE);
    // Whether kernels' reads and writes are checked against their declarations (debug modules).
    emscripten::constant("accessChecks", ECSIA_ACCESS_CHECKS != 0);
}
