#pragma once
// WorldBinding: the ecsia::World behind the JS API's World class (web/ecsia.js wraps it; this is
// the raw Embind object, `module.World`). The operations on entities and values are C exports
// over it (world_fast.cpp); the schema, observers, diagnostics and the like are its Embind
// methods. Each method validates everything before it changes anything, so a throw leaves the
// world as it was (G5); the methods throw ecsia::Error, which the Embind layer (Guarded,
// js_error.hpp) turns into a JS Error.
//
// Other binding areas (the scheduler) take a WorldBinding& and use world() directly.
// Thread rule: serial phase, the page's main thread (it owns the emscripten::val handles).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <emscripten/val.h>

#include "ecsia/snapshot/snapshot_restorer.hpp"
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

    // ---- relations: definitions and names here; the pair calls are C exports (world_pairs.cpp)
    // `fields` as define_component takes them ({}: a tag relation); `options`: { exclusive,
    // onDeleteTarget: 'remove' | 'delete', acyclic }, each optional (JS checked the keys).
    std::uint32_t define_relation(const std::string& name, const emscripten::val& fields, const emscripten::val& options);
    // component_info's object plus { exclusive, onDeleteTarget, acyclic }; the core's error for an
    // unknown name (listing the defined relations) or a component's name.
    emscripten::val relation_info(const std::string& name) const;
    // Relation names in id order (ChildOf and IsA first).
    emscripten::val relation_names() const;
    // Copies `entities` to a list JS reads as [count, handle...]; its address, valid until the
    // next call (targets_of and subjects_of return through it).
    std::uint32_t entity_list(const std::vector<Entity>& entities);

    // ---- topics: definitions here; publish and a system's messages are C exports (world_topics.cpp)
    // `fields` as define_component takes them (at least one).
    std::uint32_t define_topic(const std::string& name, const emscripten::val& fields);
    // { id, name, size, alignment, tag: false, fields: [{ name, type, offset }] }; the core's
    // UnknownTopic (listing the defined topics) for an unknown name.
    emscripten::val topic_info(const std::string& name) const;

    // ---- entities and their components: the per-entity calls are C exports (world_fast.cpp)
    std::uint32_t alive_count() const;
    std::uint32_t max_entities() const;

    // ---- what a developer looks at (world_inspect.cpp)
    // { entities, maxEntities, archetypes: [{ components, relations, prefab, rows, bytes }],
    //   memory: { heapBytes, allocatedBytes, tableBytes } }; archetypes without rows are left out.
    emscripten::val inspect() const;
    // { components, relations, prefab } of the entity's archetype; StaleEntity when not alive.
    emscripten::val components_of(std::uint32_t entity) const;

    // ---- queries and storage (queries themselves: query_binding.hpp)
    std::uint32_t count(const emscripten::val& with, const emscripten::val& without);
    std::string state_hash() const;

    // ---- what the C exports of world_fast.cpp call (values encoded by web/internal/world_core.js
    // in the layout of encoded_values.hpp; world state, ids and capacity are checked here)
    // This object's address: the C exports take it.
    std::uint32_t address() const { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(this)); }
    // An 8-aligned area of at least `bytes` bytes that JS encodes a call's arguments into; valid
    // until the next scratch() call of the same `level`. Never shrinks. A level per depth of JS
    // callbacks (observers, systems, diagnostic handlers: web/internal/world_core.js passes its
    // callbackDepth): a call made inside a callback writes its own area, never the one the call
    // that ran the callback is still reading (a despawnMany's handle list while its observers run).
    std::uint32_t scratch(std::uint32_t bytes, std::uint32_t level);
    // Spawns one entity from the encoded values at `encoded` (one row), with the core's checks.
    Entity spawn_encoded(std::uint32_t encoded);
    // Spawns `count` entities from the encoded values at `encoded` (`count` rows), all or
    // nothing: the phase, the ids and the capacity are checked before the first spawn. Returns
    // the address of the `count` new handles (valid until the next spawn_many).
    std::uint32_t spawn_many(std::uint32_t count, std::uint32_t encoded);
    // Despawns `count` handles at `handles`; all or nothing (every one alive, none twice).
    void despawn_many(std::uint32_t handles, std::uint32_t count);
    // Prefabs (World::define_prefab, prefab, prefab_name, instantiate, instantiate_many) with
    // encoded values: one row (define, instantiate) or `count` rows (instantiate_many, whose
    // handles are at the returned address until its next call).
    std::uint32_t define_prefab(const std::string& name, std::uint32_t base, std::uint32_t encoded);
    std::uint32_t prefab(const std::string& name) const;
    std::string prefab_name(std::uint32_t prefab) const;
    Entity instantiate_encoded(std::uint32_t prefab, std::uint32_t encoded);
    std::uint32_t instantiate_many(std::uint32_t prefab, std::uint32_t count, std::uint32_t encoded);
    // Rows [begin, end) of table `table` changed in component `id` (world.markChanged(chunk)).
    void mark_rows_changed(std::uint32_t table, std::uint32_t id, std::uint32_t begin, std::uint32_t end);
    // Runs queued change observers when the phase allows (a no-op inside an observer or a wave).
    void flush_if_allowed();

    // ---- observers: fn(entityBits) on 'add' | 'remove' | 'change' of a component, or
    // fn(subjectBits, targetBits) on 'add' | 'remove' of a relation's pairs (a relation has no
    // 'change': the core refuses it). fn must not throw (the JS layer wraps it). Returns an id
    // for unobserve.
    std::uint32_t observe(const std::string& event, const std::string& name, const emscripten::val& fn);
    void unobserve(std::uint32_t id);

    // Diagnostics (G3) go to handler(message) instead of stderr.
    void set_diagnostic_handler(const emscripten::val& handler);
    // Stamps runs of rows as changed at the world's tick and queues their change observers (no
    // flush): `runs` is [table, first row, rows, component id] per run; rows past a table's end
    // and tables without the component are skipped. A main-thread JS system's declared writes
    // through views it fetched from other queries.
    void mark_runs_written(const emscripten::val& runs);
    // A diagnostic of the JS layer, through the same channel (naming, repeats counted); with
    // `system`, a message that names that system itself.
    void report_diagnostic(const std::string& message, const std::string& system);

    // Keeps `owned` alive as long as the world: for state the world's observers write into
    // (another binding area's, such as the built-in scenario's event log).
    void keep_alive(std::shared_ptr<void> owned) { kept_alive_.push_back(std::move(owned)); }

    // What world.restore(bytes) restores through (bind_snapshot.cpp): its spare column memory
    // lives as long as the world.
    SnapshotRestorer& restorer() noexcept { return restorer_; }

private:
    std::vector<std::shared_ptr<void>> kept_alive_;  // declared first, so destroyed after world_
    std::unique_ptr<World> world_;
    std::vector<std::vector<std::uint64_t>> scratch_;  // scratch() by level: 8-aligned by the element type
    std::vector<Entity> spawned_;               // spawn_many's handles
    std::vector<Entity> instanced_;             // instantiate_many's handles
    std::vector<std::uint32_t> entity_list_;    // entity_list(): [count, handle...]
    SnapshotRestorer restorer_;
};

}  // namespace ecsia::wasm
