// The per-entity fast paths of the JS API: plain C exports (Module._ecsia_world_*) that take
// numbers only, so a call costs a direct wasm call instead of Embind's marshalling, and that
// never throw. Each returns a "could not" value (0, or kNull for a handle) when the operation
// would fail (a dead handle, a missing component, the wrong phase, a full world); the JS layer
// then makes the same call through the Embind method, which throws the worded error (and
// changes nothing). Values arrive checked and encoded by JS (encoded_values.hpp); world state is
// checked here, before anything changes, so "could not" always means "nothing happened".
//
// No try/catch here: with JS-based exceptions a try block turns every call inside it into a
// round trip through JS, which is what these functions exist to avoid. They only call what the
// checks above each call guarantee not to throw.
// Thread rule: the page's main thread.

#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "encoded_values.hpp"
#include "world_binding.hpp"

using ecsia::ComponentId;
using ecsia::Entity;
using ecsia::World;
using ecsia::wasm::WorldBinding;

namespace {

constexpr std::uint32_t kNull = 0xffffffffu;

const std::byte* at(std::uint32_t address) { return reinterpret_cast<const std::byte*>(static_cast<std::uintptr_t>(address)); }

bool known(const World& world, ComponentId id) { return id < world.components().size(); }

// A component's element lives in a column: not a tag, the entity alive and holding it.
bool holds(const World& world, Entity e, ComponentId id) {
    return known(world, id) && world.is_alive(e) && world.has(e, id);
}

// The encoded values of one row (encoded_values.hpp) as ComponentValues, without allocating:
// false when an id is unknown or there are more components than fit.
constexpr std::uint32_t kMaxComponents = 64;
bool decode_row(const World& world, const std::byte* base, ecsia::ComponentValue (&out)[kMaxComponents], std::uint32_t& n) {
    const auto* words = reinterpret_cast<const std::uint32_t*>(base);
    n = words[0];
    if (n > kMaxComponents) return false;
    std::uint32_t offset = ecsia::wasm::align8(4 * (1 + n));
    for (std::uint32_t i = 0; i < n; ++i) {
        const ComponentId id = words[1 + i];
        if (!known(world, id)) return false;
        const std::uint32_t size = world.components().desc(id).size;
        out[i] = ecsia::ComponentValue{id, size == 0 ? nullptr : base + offset, size};
        offset += ecsia::wasm::align8(size);
    }
    return true;
}

}  // namespace

extern "C" {

// The element's address, or 0 (dead handle, missing component, unknown id). A tag has no
// element: 1 when the entity has it.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_element(WorldBinding* binding, std::uint32_t entity, std::uint32_t id) {
    const World& world = binding->world();
    const Entity e{entity};
    if (!holds(world, e, id)) return 0;
    if (world.components().desc(id).size == 0) return 1;
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(world.get_bytes(e, id)));
}

// Writes the fields of `id` whose bit is set in `mask` (bit i = field i) from the element
// encoded at `src`; marks the component changed and runs change observers when allowed. 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_set(WorldBinding* binding, std::uint32_t entity, std::uint32_t id, std::uint32_t src,
                                         std::uint32_t mask) {
    World& world = binding->world();
    const Entity e{entity};
    // In a wave (a JS kernel on the page calling world.set): the Embind call throws WrongPhase.
    if (world.phase() != ecsia::WorldPhase::Serial || !holds(world, e, id)) return 0;
    const ecsia::ComponentDesc& desc = world.components().desc(id);
    if (desc.size == 0) return 0;
    auto* element = const_cast<std::byte*>(world.get_bytes(e, id));
    const std::byte* from = at(src);
    for (std::size_t i = 0; i < desc.fields.size() && i < 32; ++i) {
        if ((mask >> i & 1u) == 0) continue;
        const ecsia::FieldDesc& field = desc.fields[i];
        std::memcpy(element + field.offset, from + field.offset, ecsia::field_size(field.type));
    }
    world.mark_changed(e, id);
    if (world.structural_allowed()) world.flush();
    return 1;
}

// Spawns one entity from the encoded values at `src` (rows = 1). The handle, or kNull.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_spawn(WorldBinding* binding, std::uint32_t src) {
    World& world = binding->world();
    if (!world.structural_allowed() || world.entities().available() == 0) return kNull;
    ecsia::ComponentValue values[kMaxComponents];
    std::uint32_t n = 0;
    if (!decode_row(world, at(src), values, n)) return kNull;
    return world.spawn_with({values, n}).bits;
}

// Adds (or overwrites) one component from the encoded values at `src` (rows = 1). 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_add(WorldBinding* binding, std::uint32_t entity, std::uint32_t src) {
    World& world = binding->world();
    const Entity e{entity};
    if (!world.structural_allowed() || !world.is_alive(e)) return 0;
    ecsia::ComponentValue values[kMaxComponents];
    std::uint32_t n = 0;
    if (!decode_row(world, at(src), values, n) || n != 1) return 0;
    world.add(e, values[0]);
    return 1;
}

EMSCRIPTEN_KEEPALIVE int ecsia_world_remove(WorldBinding* binding, std::uint32_t entity, std::uint32_t id) {
    World& world = binding->world();
    const Entity e{entity};
    if (!world.structural_allowed() || !world.is_alive(e) || !known(world, id)) return 0;
    world.remove(e, id);
    return 1;
}

EMSCRIPTEN_KEEPALIVE int ecsia_world_despawn(WorldBinding* binding, std::uint32_t entity) {
    World& world = binding->world();
    const Entity e{entity};
    if (!world.structural_allowed() || !world.is_alive(e)) return 0;
    world.despawn(e);
    return 1;
}

EMSCRIPTEN_KEEPALIVE int ecsia_world_is_alive(WorldBinding* binding, std::uint32_t entity) {
    return binding->world().is_alive(Entity{entity}) ? 1 : 0;
}

// 1 has, 0 has not, -1 dead handle or unknown id (the Embind call words the error).
EMSCRIPTEN_KEEPALIVE int ecsia_world_has(WorldBinding* binding, std::uint32_t entity, std::uint32_t id) {
    const World& world = binding->world();
    const Entity e{entity};
    if (!known(world, id) || !world.is_alive(e)) return -1;
    return world.has(e, id) ? 1 : 0;
}

// Marks one entity's component changed (world.markChanged(entity, name)). 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_mark_changed(WorldBinding* binding, std::uint32_t entity, std::uint32_t id) {
    World& world = binding->world();
    const Entity e{entity};
    if (world.phase() != ecsia::WorldPhase::Serial || !holds(world, e, id) || world.components().desc(id).size == 0) return 0;
    world.mark_changed(e, id);
    if (world.structural_allowed()) world.flush();
    return 1;
}

// What the JS views' validity depends on (world.storageGeneration, Chunk.stale), as doubles.
EMSCRIPTEN_KEEPALIVE double ecsia_world_storage_generation(WorldBinding* binding) {
    return static_cast<double>(binding->world().storage_generation());
}
EMSCRIPTEN_KEEPALIVE double ecsia_world_structure_version(WorldBinding* binding) {
    return static_cast<double>(binding->world().structure_version());
}

}  // extern "C"
