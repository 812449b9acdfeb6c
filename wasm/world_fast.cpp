// The JS World's operations on entities and their values: one plain C export each
// (Module._ecsia_world_*), numbers in, a status out, so that each call of web/world.js crosses
// into wasm once, as a direct wasm call without Embind's marshalling. Values arrive encoded by JS
// (encoded_values.hpp: JS checks what only it can, the JS types and ranges of values); world state
// (handles, phase, components, capacity) is checked here and by the core.
//
// On failure an export returns its "could not" value (0, -1, or kNull for a handle) and the
// engine's own error, its ErrorCode and the message World's throwing call words, waits in the
// error slot (js_error.hpp) for JS to read; the world is unchanged (G5). No try block is on the
// successful path of the per-entity exports: with JS-based exceptions every call inside one is a
// round trip through JS. Each first makes the cheap checks that tell whether the core call can
// throw, calls the core directly when they pass, and otherwise hands the core call to
// capture_error(), where the core throws its error having changed nothing (when the core takes
// the call after all, it is done and the export succeeds). The bulk exports make one core call
// through capture_error(): one round trip per call, whatever the count.
// Thread rule: the page's main thread.

#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstring>
#include <new>

#include "boundary_constants.hpp"
#include "encoded_values.hpp"
#include "js_error.hpp"
#include "ecsia/world/world_access.hpp"
#include "world_binding.hpp"
#include "world_exports.hpp"

using ecsia::ComponentId;
using ecsia::ComponentValue;
using ecsia::Entity;
using ecsia::World;
using ecsia::wasm::capture_error;
using ecsia::wasm::heap_bytes;
using ecsia::wasm::world_disposed;
using ecsia::wasm::WorldBinding;

namespace {

constexpr std::uint32_t kNull = ecsia::wasm::kNULL_ENTITY;
constexpr std::uint32_t kWholeElement = ecsia::wasm::kWHOLE_ELEMENT;

template <typename T>
std::uint32_t address_of(const T* p) { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p)); }

// A component JS may add, read or observe: registered, and neither a relation's presence
// component nor the Prefab tag (those ids must take the core's path, which refuses them with its
// own error inside capture_error; the fast path calls the world outside it).
bool known(const World& world, ComponentId id) {
    return id < world.components().size() && !world.components().desc(id).relation && id != World::kPrefab;
}

// A component's element lives in a column: not a tag, the entity alive and holding it.
bool holds(const World& world, Entity e, ComponentId id) {
    return known(world, id) && world.is_alive(e) && world.has(e, id);
}

// The value of one component from an element at `src` (0: default values, or a tag).
ComponentValue value_at(const World& world, ComponentId id, std::uint32_t src) {
    const std::uint32_t size = src == 0 ? 0 : world.components().desc(id).size;
    return ComponentValue{id, size == 0 ? nullptr : heap_bytes(src), size};
}

// The encoded values of one row (encoded_values.hpp) as ComponentValues, without allocating:
// false when an id is unknown or repeated, or there are more components than fit (the core
// refuses those, so the caller takes its failure path).
constexpr std::uint32_t kMaxComponents = 64;
// Room for a row's values that is not initialized: ComponentValue's members have defaults, so an
// array of 64 of them wrote 768 bytes on every spawn before the first value was decoded.
union RowValues {
    RowValues() {}
    ComponentValue items[kMaxComponents];
};
bool decode_row(const World& world, const std::byte* base, RowValues& out, std::uint32_t& n) {
    const auto* words = reinterpret_cast<const std::uint32_t*>(base);
    n = words[0];
    if (n > kMaxComponents) return false;
    std::uint32_t offset = ecsia::wasm::align8(4 * (1 + n));
    for (std::uint32_t i = 0; i < n; ++i) {
        const ComponentId id = words[1 + i];
        if (!known(world, id)) return false;
        for (std::uint32_t j = 0; j < i; ++j) {
            if (out.items[j].id == id) return false;
        }
        const std::uint32_t size = world.components().desc(id).size;
        ::new (&out.items[i]) ComponentValue{id, size == 0 ? nullptr : base + offset, size};
        offset += ecsia::wasm::align8(size);
    }
    return true;
}

void flush_if_allowed(World& world) {
    if (world.structural_allowed()) world.flush();
}

// After a call that may queue change events (an add that overwrites a component): they run
// before the call returns, as for set. Inline: add asks on every call.
void flush_if_pending(World& world) {
    if (ecsia::detail::WorldAccess::flush_pending(world)) [[unlikely]] flush_if_allowed(world);
}

}  // namespace

extern "C" {

// Spawns one entity from the encoded values at `src` (one row). The handle, or kNull.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_spawn(WorldBinding* binding, std::uint32_t src) {
    if (binding == nullptr) return world_disposed() ? 0 : kNull;
    World& world = binding->world();
    RowValues values;
    std::uint32_t n = 0;
    if (world.structural_allowed() && world.entities().available() != 0 && decode_row(world, heap_bytes(src), values, n)) {
        return world.spawn_with({values.items, n}).bits;
    }
    std::uint32_t spawned = kNull;
    // The core's checks on the values as given: an unknown or repeated id, the phase, capacity.
    capture_error([&] { spawned = binding->spawn_encoded(src).bits; });
    return spawned;
}

EMSCRIPTEN_KEEPALIVE int ecsia_world_despawn(WorldBinding* binding, std::uint32_t entity) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    const Entity e{entity};
    if (world.structural_allowed() && world.is_alive(e)) {
        world.despawn(e);
        return 1;
    }
    return capture_error([&] { world.despawn(e); });
}

// Adds (or overwrites) component `id` from the element at `src` (0: default values; a tag).
EMSCRIPTEN_KEEPALIVE int ecsia_world_add(WorldBinding* binding, std::uint32_t entity, std::uint32_t id, std::uint32_t src) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    const Entity e{entity};
    if (world.structural_allowed() && world.is_alive(e) && known(world, id)) {
        world.add(e, value_at(world, id, src));
        flush_if_pending(world);
        return 1;
    }
    return capture_error([&] {
        world.add(e, known(world, id) ? value_at(world, id, src) : ComponentValue{id});
        flush_if_pending(world);
    });
}

EMSCRIPTEN_KEEPALIVE int ecsia_world_remove(WorldBinding* binding, std::uint32_t entity, std::uint32_t id) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    const Entity e{entity};
    if (world.structural_allowed() && world.is_alive(e) && known(world, id)) {
        world.remove(e, id);
        return 1;
    }
    return capture_error([&] { world.remove(e, id); });
}

EMSCRIPTEN_KEEPALIVE int ecsia_world_is_alive(WorldBinding* binding, std::uint32_t entity) {
    if (binding == nullptr) return world_disposed() ? 0 : -1;
    return binding->world().is_alive(Entity{entity}) ? 1 : 0;
}

// 1 has, 0 has not, -1 failed (a dead handle, an unknown id).
EMSCRIPTEN_KEEPALIVE int ecsia_world_has(WorldBinding* binding, std::uint32_t entity, std::uint32_t id) {
    if (binding == nullptr) return world_disposed() ? 0 : -1;
    const World& world = binding->world();
    const Entity e{entity};
    if (known(world, id) && world.is_alive(e)) return world.has(e, id) ? 1 : 0;
    bool has = false;
    return capture_error([&] { has = world.has(e, id); }) ? int(has) : -1;
}

// The element's address; 1 for a tag the entity has (no element); 0 failed (a dead handle, a
// missing component, an unknown id).
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_element(WorldBinding* binding, std::uint32_t entity, std::uint32_t id) {
    if (binding == nullptr) return world_disposed();
    const World& world = binding->world();
    const Entity e{entity};
    if (const std::byte* element = world.find_bytes(e, id)) return address_of(element);
    if (holds(world, e, id)) return 1;  // a tag
    std::uint32_t element = 0;
    capture_error([&] { element = address_of(world.get_bytes(e, id)); });
    return element;
}

// Writes the fields of `id` whose bit is set in `mask` (bit i = field i; every bit: the whole
// element, whatever its field count) from the element encoded at `src`; marks the component
// changed and runs change observers when allowed. 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_set(WorldBinding* binding, std::uint32_t entity, std::uint32_t id, std::uint32_t src,
                                         std::uint32_t mask) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    const Entity e{entity};
    std::byte* element = world.find_bytes(e, id);
    // set_bytes' own checks, met or not: the serial phase, alive, holding it, not a tag (a write
    // of no bytes checks them and changes nothing when one fails).
    if (element == nullptr || world.phase() != ecsia::WorldPhase::Serial) {
        const std::byte none{};
        if (!capture_error([&] { world.set_bytes(e, id, 0, &none, 0); })) return 0;
        element = world.find_bytes(e, id);
    }
    const ecsia::ComponentDesc& desc = world.components().desc(id);
    const std::byte* from = heap_bytes(src);
    if (mask == kWholeElement) {
        std::memcpy(element, from, desc.size);
    } else {
        for (std::size_t i = 0; i < desc.fields.size() && i < 32; ++i) {
            if ((mask >> i & 1u) == 0) continue;
            const ecsia::FieldDesc& field = desc.fields[i];
            std::memcpy(element + field.offset, from + field.offset, ecsia::field_size(field.type));
        }
    }
    world.mark_changed(e, id);
    flush_if_allowed(world);
    return 1;
}

// set's one crossing when the write can be made in place (ecsia::detail::WorldAccess::change_in_place): the element's
// address, already marked changed, for JS to write the checked fields into. 1 when the write must
// go through ecsia_world_set instead (a change observer of the component, something queued for
// flush(): JS encodes into scratch and calls it). 0 failed: set's own error (a dead handle, a
// missing component, a tag, a wave) waits in the error slot, nothing changed.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_set_in_place(WorldBinding* binding, std::uint32_t entity, std::uint32_t id) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    const Entity e{entity};
    if (std::byte* element = ecsia::detail::WorldAccess::change_in_place(world, e, id)) return address_of(element);
    if (world.phase() == ecsia::WorldPhase::Serial && world.find_bytes(e, id) != nullptr) return 1;
    const std::byte none{};
    return capture_error([&] { world.set_bytes(e, id, 0, &none, 0); }) ? 1 : 0;
}

// Marks one entity's component changed (world.markChanged(entity, name)). 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_mark_changed(WorldBinding* binding, std::uint32_t entity, std::uint32_t id) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    const Entity e{entity};
    if (world.phase() == ecsia::WorldPhase::Serial && world.find_bytes(e, id) != nullptr) {
        world.mark_changed(e, id);
    } else if (!capture_error([&] { world.mark_changed(e, id); })) {
        return 0;
    }
    flush_if_allowed(world);
    return 1;
}

// World::instantiate of `prefab` with the encoded overrides at `src` (one row); kNull on failure.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_instantiate(WorldBinding* binding, std::uint32_t prefab, std::uint32_t src) {
    if (binding == nullptr) return world_disposed() ? 0 : kNull;
    std::uint32_t instance = kNull;
    capture_error([&] { instance = binding->instantiate_encoded(prefab, src).bits; });
    return instance;
}

// World::instantiate_many with `count` rows of encoded values at `src`: the address of the new
// handles, or 0 on failure (nothing made).
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_instantiate_many(WorldBinding* binding, std::uint32_t prefab, std::uint32_t count,
                                                               std::uint32_t src) {
    if (binding == nullptr) return world_disposed();
    std::uint32_t handles = 0;
    capture_error([&] { handles = binding->instantiate_many(prefab, count, src); });
    return handles;
}

// Spawns `count` entities from the encoded values at `src` (`count` rows), all or nothing.
// The address of the new handles (valid until the next call), or 0.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_spawn_many(WorldBinding* binding, std::uint32_t count, std::uint32_t src) {
    if (binding == nullptr) return world_disposed();
    std::uint32_t handles = 0;
    capture_error([&] { handles = binding->spawn_many(count, src); });
    return handles;
}

// The bulk calls over `count` handles at `handles`, all or nothing (World::add_many). 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_despawn_many(WorldBinding* binding, std::uint32_t handles, std::uint32_t count) {
    if (binding == nullptr) return world_disposed();
    return capture_error([&] { binding->despawn_many(handles, count); });
}

// `elements`: `count` elements of `id` one after the other (0: default values; a tag).
EMSCRIPTEN_KEEPALIVE int ecsia_world_add_many(WorldBinding* binding, std::uint32_t handles, std::uint32_t count,
                                              std::uint32_t id, std::uint32_t elements) {
    if (binding == nullptr) return world_disposed();
    const auto* list = reinterpret_cast<const Entity*>(heap_bytes(handles));
    return capture_error([&] {
        binding->world().add_many({list, count}, id, elements == 0 ? nullptr : heap_bytes(elements));
        flush_if_pending(binding->world());
    });
}

EMSCRIPTEN_KEEPALIVE int ecsia_world_remove_many(WorldBinding* binding, std::uint32_t handles, std::uint32_t count,
                                                 std::uint32_t id) {
    if (binding == nullptr) return world_disposed();
    const auto* list = reinterpret_cast<const Entity*>(heap_bytes(handles));
    return capture_error([&] { binding->world().remove_many({list, count}, id); });
}

// WorldBinding::scratch: an 8-aligned area of at least `bytes` bytes at callback depth `level`
// that JS encodes a call's arguments into. Its address, or 0 (out of heap).
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_scratch(WorldBinding* binding, std::uint32_t bytes, std::uint32_t level) {
    if (binding == nullptr) return world_disposed();
    std::uint32_t address = 0;
    capture_error([&] { address = binding->scratch(bytes, level); });
    return address;
}

// What the JS views' validity depends on (world.storageGeneration, Chunk.stale), as doubles.
EMSCRIPTEN_KEEPALIVE double ecsia_world_storage_generation(WorldBinding* binding) {
    return static_cast<double>(binding->world().storage_generation());
}
EMSCRIPTEN_KEEPALIVE double ecsia_world_structure_version(WorldBinding* binding) {
    return static_cast<double>(binding->world().structure_version());
}

}  // extern "C"
