#pragma once
// WorldBinding: the ecsia::World behind the JS API's World class (web/ecsia.js wraps it; this is
// the raw Embind object, `module.World`). Components and values cross as plain JS objects,
// entities as uint32 handle bits. Each method validates everything before it changes anything,
// so a throw leaves the world as it was (G5); the methods throw ecsia::Error, and the Embind
// layer (bind_world.cpp) turns that into a JS Error.
//
// Other binding areas (the scheduler) take a WorldBinding& and use world() directly.
// Thread rule: serial phase, the page's main thread (it owns the emscripten::val handles).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <emscripten/val.h>

#include "ecsia/world/world.hpp"

namespace ecsia::wasm {

class WorldBinding {
public:
    // Throws CapacityExceeded when max_entities does not fit the handle layout.
    explicit WorldBinding(std::uint32_t max_entities);

    World& world() noexcept { return *world_; }
    const World& world() const noexcept { return *world_; }

    // ---- schema
    // `fields`: { fieldName: 'f32' | 'f64' | 'i8' | ... | 'entity' }; {} defines a tag.
    std::uint32_t define_component(const std::string& name, const emscripten::val& fields);
    // { id, name, size, alignment, tag, fields: [{ name, type, offset }] }
    emscripten::val component_info(const std::string& name) const;
    // Names in id order.
    emscripten::val component_names() const;

    // ---- entities and their components
    // `components`: { name: { field: value, ... } | {} | true, ... } (undefined = no components).
    std::uint32_t spawn(const emscripten::val& components);
    void despawn(std::uint32_t entity);
    bool is_alive(std::uint32_t entity) const;
    std::uint32_t alive_count() const;
    std::uint32_t max_entities() const;
    // Adds (or overwrites) the whole component: fields not given get default values.
    void add(std::uint32_t entity, const std::string& name, const emscripten::val& values);
    void remove(std::uint32_t entity, const std::string& name);
    bool has(std::uint32_t entity, const std::string& name) const;
    emscripten::val get(std::uint32_t entity, const std::string& name) const;
    // Writes the fields given; the others keep their values.
    void set(std::uint32_t entity, const std::string& name, const emscripten::val& values);

    // ---- queries and storage
    std::uint32_t count(const emscripten::val& with, const emscripten::val& without);
    // Per non-empty matching table: { table, count, entities, columns: [address per `with` name] },
    // addresses into the heap (0 for a tag). Valid until storage_generation() changes.
    emscripten::val chunks(const emscripten::val& with);
    double storage_generation() const;
    std::string state_hash() const;

    // Diagnostics (G3) go to handler(message) instead of stderr.
    void set_diagnostic_handler(const emscripten::val& handler);

    // Keeps `owned` alive as long as the world: for state the world's observers write into
    // (another binding area's, such as the built-in scenario's event log).
    void keep_alive(std::shared_ptr<void> owned) { kept_alive_.push_back(std::move(owned)); }

private:
    Entity handle(std::uint32_t bits) const noexcept { return Entity{bits}; }
    std::vector<ComponentId> ids_of(const emscripten::val& names, const char* what) const;

    std::vector<std::shared_ptr<void>> kept_alive_;  // declared first, so destroyed after world_
    std::unique_ptr<World> world_;
};

}  // namespace ecsia::wasm
