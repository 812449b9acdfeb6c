// The JS World's pair calls (world.addPair, removePair, ...): one plain C export each
// (Module._ecsia_world_*, found by name as world_fast.cpp's are), numbers in, a status out, so
// that each call crosses into wasm once and does its work there. The relation is its id (JS
// resolved the name through WorldBinding::relation_info, which gives the core's own error for an
// unknown name or a component's); a target of kANY_TARGET is the wildcard ('*' in JS). Pair data
// arrives encoded by JS as a whole element of the relation's fields (encoded_values.hpp's element
// layout), already checked for its JS types and ranges.
//
// On failure an export returns its "could not" value and the core's own error (ErrorCode and
// message: a dead or stale handle, a component's id, a cycle through an acyclic relation, a
// missing pair, the phase) waits in the error slot (js_error.hpp); the world is unchanged (G5).
// Unlike world_fast.cpp's per-entity exports, these make no cheap checks before the core call:
// whether a pair call can throw depends on the relation's pairs (a cycle through ChildOf, say),
// which only the core knows, so each makes its one core call through capture_error (one round
// trip through JS for the try) and repeats none of the core's checks.
// Thread rule: the page's main thread.

#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "js_error.hpp"
#include "world_binding.hpp"
#include "world_exports.hpp"
#include "ecsia/relation/relation_store.hpp"

using ecsia::Entity;
using ecsia::RelationId;
using ecsia::World;
using ecsia::wasm::capture_error;
using ecsia::wasm::heap_bytes;
using ecsia::wasm::world_disposed;
using ecsia::wasm::WorldBinding;

namespace {

// The relation's data size when `relation` is one (0 otherwise: the core call then refuses it).
std::uint32_t pair_data_size(const World& world, RelationId relation) {
    const auto* r = world.relations().find(relation);
    return r == nullptr ? 0 : r->data.size;
}

}  // namespace

extern "C" {

// Adds the pair (subject, relation, target) with the element at `src` (0: a tag relation's pair),
// or overwrites an existing pair's data; an exclusive relation's other target is replaced. 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_add_pair(WorldBinding* binding, std::uint32_t subject, std::uint32_t relation,
                                              std::uint32_t target, std::uint32_t src) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    return capture_error([&] {
        const std::uint32_t size = src == 0 ? 0 : pair_data_size(world, relation);
        world.add_pair(Entity{subject}, relation, Entity{target}, size == 0 ? nullptr : heap_bytes(src), size);
    });
}

// Writes the fields of an existing pair's data whose bit is set in `mask` (bit i = field i; every
// bit: the whole element) from the element at `src`; the other fields keep their values. 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_set_pair(WorldBinding* binding, std::uint32_t subject, std::uint32_t relation,
                                              std::uint32_t target, std::uint32_t src, std::uint32_t mask) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    return capture_error([&] {
        // get_pair's checks (the relation, the subject, a tag, a missing pair) come first; the
        // element is then merged from the current bytes and written by set_pair in one piece.
        const std::byte* current = world.get_pair(Entity{subject}, relation, Entity{target});
        const ecsia::ComponentDesc& desc = world.relations().find(relation)->data;
        std::vector<std::byte> element(current, current + desc.size);
        const std::byte* from = heap_bytes(src);
        for (std::size_t i = 0; i < desc.fields.size(); ++i) {
            if (i < 32 && (mask >> i & 1u) == 0) continue;
            const ecsia::FieldDesc& field = desc.fields[i];
            std::memcpy(element.data() + field.offset, from + field.offset, ecsia::field_size(field.type));
        }
        world.set_pair(Entity{subject}, relation, Entity{target}, element.data(), desc.size);
    });
}

// The pair's data: its address (valid until the pair changes); 1 for a pair of a tag relation,
// which has no data (JS: {}); 0 failed (no such pair, a dead handle, an unknown relation, ...).
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_get_pair(WorldBinding* binding, std::uint32_t subject,
                                                        std::uint32_t relation, std::uint32_t target) {
    if (binding == nullptr) return world_disposed();
    const World& world = binding->world();
    std::uint32_t address = 0;
    capture_error([&] {
        const ecsia::RelationStore::Relation* known = world.relations().find(relation);
        if (known != nullptr && known->data.size == 0 && world.has_pair(Entity{subject}, relation, Entity{target})) {
            address = 1;
            return;
        }
        // Anything else is get_pair's: the data, or its error (a missing pair comes first).
        const std::byte* bytes = world.get_pair(Entity{subject}, relation, Entity{target});
        address = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(bytes));
    });
    return address;
}

// 1 has, 0 has not, -1 failed. Target kANY_TARGET: any pair of the relation.
EMSCRIPTEN_KEEPALIVE int ecsia_world_has_pair(WorldBinding* binding, std::uint32_t subject, std::uint32_t relation,
                                              std::uint32_t target) {
    if (binding == nullptr) return world_disposed() ? 0 : -1;
    const World& world = binding->world();
    bool has = false;
    return capture_error([&] { has = world.has_pair(Entity{subject}, relation, Entity{target}); }) ? int(has) : -1;
}

// Removes the pair if present (kANY_TARGET: every pair of the relation on the subject). 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_remove_pair(WorldBinding* binding, std::uint32_t subject, std::uint32_t relation,
                                                 std::uint32_t target) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    return capture_error([&] { world.remove_pair(Entity{subject}, relation, Entity{target}); });
}

// An exclusive relation's one target: its handle (kNULL_ENTITY: none), or -1 failed. A double,
// so that every handle and the failure fit one return value.
EMSCRIPTEN_KEEPALIVE double ecsia_world_target_of(WorldBinding* binding, std::uint32_t subject, std::uint32_t relation) {
    if (binding == nullptr) return world_disposed() ? 0 : -1;
    const World& world = binding->world();
    Entity target = ecsia::kNullEntity;
    return capture_error([&] { target = world.target_of(Entity{subject}, relation); }) ? double(target.bits) : -1.0;
}

// The subject's targets, ascending index, as [count, handle...] (WorldBinding::entity_list): its
// address, or 0 failed.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_targets_of(WorldBinding* binding, std::uint32_t subject,
                                                          std::uint32_t relation) {
    if (binding == nullptr) return world_disposed();
    std::uint32_t list = 0;
    capture_error([&] { list = binding->entity_list(binding->world().targets_of(Entity{subject}, relation)); });
    return list;
}

// The subjects with the pair (relation, target), ascending index (kANY_TARGET: with any pair of
// the relation, each once), as targets_of returns them.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_subjects_of(WorldBinding* binding, std::uint32_t relation,
                                                           std::uint32_t target) {
    if (binding == nullptr) return world_disposed();
    std::uint32_t list = 0;
    capture_error([&] { list = binding->entity_list(binding->world().subjects_of(relation, Entity{target})); });
    return list;
}

}  // extern "C"
