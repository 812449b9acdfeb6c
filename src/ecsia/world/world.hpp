#pragma once
// The world layer: the facade over entities, schema, storage, queries, commands and reactivity.
// It owns the phase (serial or wave), the tick, and the entity -> (table, row) map.
//
// Thread rule for every member: serial phase, coordinator thread, unless it says otherwise.
// Every operation validates all of its input before it changes anything, so an operation that
// throws ecsia::Error leaves the world exactly as it was (G5).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "ecsia/base/diagnostics.hpp"
#include "ecsia/base/error.hpp"
#include "ecsia/command/command_buffer.hpp"
#include "ecsia/entity/entity_pool.hpp"
#include "ecsia/entity/entity_reservation.hpp"
#include "ecsia/query/query_cache.hpp"
#include "ecsia/reactivity/observers.hpp"
#include "ecsia/relation/prefab.hpp"
#include "ecsia/relation/relation.hpp"
#include "ecsia/schema/component_registry.hpp"
#include "ecsia/storage/table_graph.hpp"
#include "ecsia/topic/topic_messages.hpp"
#include "ecsia/world/component_rows.hpp"
#include "ecsia/world/entity_locations.hpp"
#include "ecsia/world/world_phase.hpp"

namespace ecsia {

struct WorldOptions {
    std::uint32_t max_entities = 1u << 20;
    unsigned index_bits = 22;  // the rest of the 32 handle bits are the generation
};

// What applying command buffers did; skipped records are also reported as a diagnostic (G3).
struct ApplyStats {
    std::size_t applied = 0;
    std::size_t skipped_dead_target = 0;
    std::size_t overflow_spawns = 0;
};

class Query;
class RelationStore;
struct RelationData;
class SystemCursors;
class TopicStore;
namespace detail {
struct WorldAccess;
}

class WorldDependent;

class World {
public:
    explicit World(WorldOptions options = {});
    // Tells every attached dependent first (a scheduler then stops its workers and refuses use).
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // ---- schema
    // Registers T on first use; a first use inside an observer or a wave is refused as
    // define_component is (they read the registry while it would grow).
    template <typename T>
    ComponentId component() {
        const ComponentId id = registry_.find_type<T>();
        if (id != kNoComponent) [[likely]] return id;
        require_structural("component");
        return registry_.register_type<T>();
    }
    // A component defined at run time. The same name again with the same fields (names, types,
    // order) gives its id; other fields are a DuplicateName showing both.
    ComponentId define_component(std::string name, const std::vector<FieldSpec>& fields);
    ComponentId component_id(std::string_view name) const { return registry_.id_of(name); }
    const ComponentRegistry& components() const noexcept { return registry_; }

    // ---- entities
    Entity spawn() { return spawn_with({}); }
    template <typename... Ts>
    Entity spawn(const Ts&... values) {
        const ComponentValue list[] = {value_of(values)...};
        return spawn_with(list);
    }
    Entity spawn_with(std::span<const ComponentValue> values);
    // out.size() new entities, written to `out` in spawn order, all or nothing: the phase, the
    // values and the capacity are checked and room is made before the first one
    // (CapacityExceeded names what fits; std::bad_alloc leaves nothing spawned). values[k] gives
    // entity i the element at bytes + i * stride (ComponentRows; stride 0: the same for all).
    // Each entity is what spawn_with(its values) makes, observers included, in order.
    void spawn_many(std::span<Entity> out, std::span<const ComponentRows> values = {});
    std::vector<Entity> spawn_many(std::uint32_t count, std::span<const ComponentRows> values = {}) {
        std::vector<Entity> out(count);
        spawn_many(out, values);
        return out;
    }
    // Also removes the entity's pairs, and the pairs to it from their subjects, or despawns those
    // subjects where the relation says OnDeleteTarget::Delete (recursively, relations in name
    // order; world_relations.cpp).
    void despawn(Entity entity);
    // despawn() of each, in order, all or nothing: the phase and every handle (alive, none given
    // twice) are checked first (StaleEntity, or BadValue for a repeat, naming its index). One that
    // an earlier one's despawn took with it (OnDeleteTarget::Delete) is not despawned twice.
    void despawn_many(std::span<const Entity> entities);
    bool is_alive(Entity entity) const noexcept { return pool_.is_alive(entity); }
    // Whether a direct structural change is allowed now (serial phase, no observer running): the
    // condition under which spawn/despawn/add/remove throw WrongPhase, as a test that never throws.
    bool structural_allowed() const noexcept { return phase_ == WorldPhase::Serial && observer_depth_ == 0; }
    // Rises whenever a row is added, removed or moved in any table (spawn, despawn, add, remove,
    // applied commands): row contents seen through views may have shifted since.
    std::uint64_t structure_version() const noexcept { return structure_version_; }
    std::uint32_t alive_count() const noexcept { return pool_.alive_count(); }
    // Entities that can still be spawned before max_entities is reached (retired slots count).
    std::uint32_t spawn_capacity() const noexcept { return pool_.available(); }
    const EntityPool& entities() const noexcept { return pool_; }

    // ---- components of one entity
    template <typename T>
    void add(Entity entity, const T& value = {}) {
        add(entity, value_of(value));
    }
    template <typename... Ts>
    void remove(Entity entity) {
        const ComponentId ids[] = {component<Ts>()...};
        change_components(entity, {}, ids);
    }
    // change_components of one add or one removal (what they do is its), on a shorter path: the
    // per-entity calls of a page are mostly these.
    void add(Entity entity, const ComponentValue& value);
    void remove(Entity entity, ComponentId id);
    // Removes, then adds, in one row move. Adding a component the entity keeps overwrites its value
    // (a change); adding a tag it keeps does nothing.
    void change_components(Entity entity, std::span<const ComponentValue> adds, std::span<const ComponentId> removes);

    // ---- one component on many entities, all or nothing: the phase, the id, and every handle
    // (alive, none given twice) are checked and room is made in the target tables before the
    // first entity changes; a bad handle throws StaleEntity (or BadValue when repeated) naming its
    // position, and the world is as it was. Observers fire as for the per-entity calls, in order.
    // Adds (or overwrites) `id` on entities[i] with the element at elements + i * size (the
    // component's size; nothing for a tag). elements == nullptr is add() of a value without
    // bytes for each: the component starts with default values, or keeps its values where the
    // entity has it already.
    void add_many(std::span<const Entity> entities, ComponentId id, const void* elements = nullptr);
    // Removes `id` from each entity that has it (the others are left as they are).
    void remove_many(std::span<const Entity> entities, ComponentId id);

    // A type the world never saw is simply absent, but a stale handle is refused either way (G4).
    template <typename T>
    bool has(Entity entity) const {
        const ComponentId id = registry_.find_type<T>();
        if (id == kNoComponent) {
            locate(entity);  // throws StaleEntity for a handle that is not alive
            return false;
        }
        return has(entity, id);
    }
    bool has(Entity entity, ComponentId id) const;

    template <typename T>
    const T& get(Entity entity) const {
        return *reinterpret_cast<const T*>(element(entity, registry_type<T>()));
    }
    // Marks the component changed at the current tick; the change observers run at the next flush.
    template <typename T>
    T& get_mut(Entity entity) {
        require_serial("get_mut");
        const ComponentId id = registry_type<T>();
        std::byte* bytes = element(entity, id);
        touch(entity, id);
        return *reinterpret_cast<T*>(bytes);
    }
    // nullptr when the entity lacks T; throws StaleEntity when the handle is not alive.
    template <typename T>
    const T* try_get(Entity entity) const {
        if (!has<T>(entity)) return nullptr;
        return &get<T>(entity);
    }
    template <typename T>
    void set(Entity entity, const T& value) {
        set_bytes(entity, registry_type<T>(), 0, &value, sizeof(T));
    }
    // Writes `size` bytes at `offset` inside the component (a whole component or one field).
    void set_bytes(Entity entity, ComponentId id, std::uint32_t offset, const void* bytes, std::uint32_t size);
    void set_field(Entity entity, ComponentId id, std::string_view field, double value);
    double get_field(Entity entity, ComponentId id, std::string_view field) const;
    // The component's bytes; throws StaleEntity / MissingComponent / UnknownComponent.
    const std::byte* get_bytes(Entity entity, ComponentId id) const { return element(entity, id); }
    // get_bytes without the throw: nullptr when get_bytes would throw (a dead handle, an unknown
    // id, a component the entity lacks, a tag). For callers that test before they call.
    std::byte* find_bytes(Entity entity, ComponentId id) const noexcept;
    // Marks the component changed at the current tick (for writes made through a pointer or a
    // view); the change observers run at the next flush. Throws StaleEntity / MissingComponent /
    // BadValue (a tag) like get_bytes, and WrongPhase during a wave (a kernel's writes through its
    // chunk are tracked already; this would race with the other batches).
    void mark_changed(Entity entity, ComponentId id);

    // ---- relations: pairs (relation, target) on a subject. Design, orders and why they are
    // stored outside the archetype: relation/relation.hpp. Implemented in world_relations.cpp.
    // Every call refuses bad input with the world unchanged (G5): a dead or stale subject or
    // target (StaleEntity), an id that is a component and not a relation or the reverse
    // (BadValue), an unknown id (UnknownComponent), data of the wrong size (BadValue), a pair
    // on itself or a cycle through an acyclic relation such as ChildOf (BadValue).

    // Built in, in every world, with these ids: ChildOf (exclusive, acyclic; despawning the
    // parent despawns the children) and IsA (exclusive, acyclic; an instance's link to its one prefab).
    static constexpr RelationId kChildOf = 0;
    static constexpr RelationId kIsA = 1;
    // `fields` is each pair's data (none: a tag relation). The name shares the components'
    // namespace (DuplicateName); the same definition again (fields and options) gives its id.
    RelationId define_relation(std::string name, const std::vector<FieldSpec>& fields = {},
                               RelationOptions options = {});
    // Throws UnknownComponent listing the defined relations, or BadValue for a component's name.
    RelationId relation_id(std::string_view name) const;
    const RelationOptions& relation_options(RelationId relation) const;
    // Adds the pair with `data` (the relation's data size; nullptr: the fields' defaults, zero and
    // the null handle in entity fields). An existing pair keeps its data unless `data` is given.
    // Exclusive: replaces the subject's other target (a remove then an add for observers); the
    // subject's row stays in its table either way.
    void add_pair(Entity subject, RelationId relation, Entity target, const void* data = nullptr,
                  std::uint32_t size = 0);
    template <typename T>
    void add_pair(Entity subject, RelationId relation, Entity target, const T& data) {
        add_pair(subject, relation, target, &data, static_cast<std::uint32_t>(sizeof(T)));
    }
    // Overwrites an existing pair's data (MissingComponent when the pair is absent).
    void set_pair(Entity subject, RelationId relation, Entity target, const void* data, std::uint32_t size);
    template <typename T>
    void set_pair(Entity subject, RelationId relation, Entity target, const T& data) {
        set_pair(subject, relation, target, &data, static_cast<std::uint32_t>(sizeof(T)));
    }
    // The pair's data bytes (MissingComponent when absent, else BadValue for a tag relation).
    const std::byte* get_pair(Entity subject, RelationId relation, Entity target) const;
    template <typename T>
    T get_pair(Entity subject, RelationId relation, Entity target) const {
        T value;
        copy_pair_data(subject, relation, target, &value, sizeof(T));
        return value;
    }
    // target kAnyTarget: whether the subject has any pair of the relation.
    bool has_pair(Entity subject, RelationId relation, Entity target) const;
    // Removes the pair if present (absent is fine, like remove()); kAnyTarget removes them all.
    void remove_pair(Entity subject, RelationId relation, Entity target);
    // An exclusive relation's one target, or the null entity (BadValue for a non-exclusive one).
    Entity target_of(Entity subject, RelationId relation) const;
    // Ascending target index.
    std::vector<Entity> targets_of(Entity subject, RelationId relation) const;
    // Ascending subject index; target kAnyTarget: every subject with a pair of the relation.
    std::vector<Entity> subjects_of(RelationId relation, Entity target) const;
    // Every relation's pairs, read-only (include relation/relation_store.hpp to use it).
    const RelationStore& relations() const noexcept { return *relations_; }

    // ---- prefabs (relation/prefab.hpp has the design; world_prefabs.cpp). Every call refuses
    // bad input with the world unchanged (G5).

    // The built-in hidden tag every prefab holds, registered right after ChildOf and IsA. It is
    // not a component users add, remove or set (BadValue: use define_prefab).
    static constexpr ComponentId kPrefab = kPrefabTag;
    // A prefab named `name`: the Prefab tag; then, with a `base` prefab, the base's components
    // with the base's values (not the tag, not the presence components of its pairs); then
    // `values`, each replacing a whole component or adding one (nullptr bytes: default values);
    // then the pair (IsA, base). Throws BadDefinition for an empty or already used name,
    // StaleEntity for a dead base, BadValue for a base that is not a prefab, and what spawn_with
    // throws for bad values. Observers fire as for spawn_with then add_pair.
    Entity define_prefab(std::string name, std::span<const ComponentValue> values = {}, Entity base = kNullEntity);
    // The prefab named `name`; UnknownComponent listing the defined prefabs when there is none.
    Entity prefab(std::string_view name) const;
    // A prefab's name; StaleEntity for a dead handle, BadValue for an entity that is no prefab.
    std::string_view prefab_name(Entity prefab) const;
    bool is_prefab(Entity entity) const noexcept;
    struct PrefabName {
        Entity prefab;
        std::string name;
    };
    // Every prefab and its name, in definition order (a despawned prefab's entry is gone).
    const std::vector<PrefabName>& prefab_names() const noexcept { return prefab_names_; }
    // One new entity, placed straight in its final table: the prefab's components with the
    // prefab's values (not the Prefab tag, not the presence components of the prefab's pairs; no
    // pair is copied), then `values` replacing whole components or adding new ones, and the pair
    // (IsA, prefab). Observers fire as for spawn_with (components in that order: the prefab's in
    // ascending id, replaced in place, then the new ones as given) and then add_pair. Throws
    // StaleEntity for a dead prefab handle, BadValue for an entity that is not a prefab, and what
    // spawn_with throws. Later changes to the prefab change no instance (values are copied).
    Entity instantiate(Entity prefab, std::span<const ComponentValue> values = {});
    template <typename T, typename... Ts>
        requires(!std::is_convertible_v<const T&, std::span<const ComponentValue>>)
    Entity instantiate(Entity prefab, const T& value, const Ts&... values) {
        const ComponentValue list[] = {value_of(value), value_of(values)...};
        return instantiate(prefab, list);
    }
    // out.size() instances of `prefab`, written to `out` in spawn order, all or nothing: the
    // phase, the prefab, the values and the capacity are checked and room is made before the
    // first one (CapacityExceeded names what fits; std::bad_alloc leaves nothing spawned).
    // values[k] gives instance i the element at bytes + i * stride (ComponentRows). Each instance
    // is what instantiate(prefab, its values) makes, observers included, in order.
    void instantiate_many(Entity prefab, std::span<Entity> out, std::span<const ComponentRows> values = {});
    std::vector<Entity> instantiate_many(Entity prefab, std::uint32_t count, std::span<const ComponentRows> values = {}) {
        std::vector<Entity> out(count);
        instantiate_many(prefab, out, values);
        return out;
    }

    // ---- queries
    Query query(QueryDesc desc);
    std::uint32_t count(const QueryDesc& desc);
    // Typed per-entity iteration over every entity that has all of Ts: fn(Entity, Ts&...).
    // A `const T` is read-only; a non-const T marks the rows changed (see Query::for_each_chunk).
    // No structural changes inside fn.
    template <typename... Ts, typename Fn>
    void each(Fn&& fn);

    // ---- observers
    ObserverId observe(ObserverEvent event, ComponentId component, ObserverFn fn);
    void unobserve(ObserverId id) {
        require_serial("unobserve");
        observers_.remove(id);
    }
    // Runs queued change observers and applies the commands observers recorded, until quiet.
    void flush();

    // ---- topics (topic/topic_store.hpp): messages systems publish and consume, once each
    // A topic from a struct reflected with ECSIA_TOPIC; the same name again returns its id.
    template <typename T>
    TopicId topic();
    // The same name again with the same fields gives its id; other fields are a DuplicateName.
    // BadDefinition for no fields or a bad field (as define_component).
    TopicId define_topic(std::string name, const std::vector<FieldSpec>& fields);
    // Throws UnknownTopic naming the defined topics.
    TopicId topic_id(std::string_view name) const;
    // Every topic's messages and consumers, read-only (include topic/topic_store.hpp to use it).
    const TopicStore& topics() const noexcept { return *topics_; }
    // Publishes a message (bytes laid out as the topic, `size` its layout's size), after every
    // message published before it. Serial phase only (WrongPhase in a wave: a kernel publishes
    // through KernelContext::publish); inside a main-thread system, only a topic it declares in
    // SystemDesc::publishes (UnknownTopic). Dropped at once when no system consumes the topic.
    void publish(TopicId topic, const void* bytes, std::size_t size);
    template <typename T>
    void publish(TopicId topic, const T& message) {
        publish(topic, &message, sizeof(T));
    }
    // The messages of `topic` that the running main-thread system has not seen yet (it must
    // declare the topic in SystemDesc::consumes): valid during its whole run, also across a
    // publish of its own or of an observer its changes set off (the bytes it views stay alive).
    // UnknownTopic outside such a system or for a topic it does not consume.
    TopicMessages messages(TopicId topic) const;

    // ---- phase, ticks, change tracking
    // The phase and the tick are moved by the scheduler that runs a frame, never by users: it
    // advances the tick for every system run and after every frame, so that writes made between
    // frames are newer than every system's last run.
    WorldPhase phase() const noexcept { return phase_; }
    Tick tick() const noexcept { return tick_; }
    // Frames completed over the world, by any of its schedulers (a restore sets it to the count
    // the snapshot holds): a main-thread system reads the number of the frame before its own.
    std::uint64_t frames() const noexcept;

    // ---- storage, read-only (state_hash and tests read it). Mutable access, which could break
    // the world's entity -> row map, is for the engine's own layers only (world_access.hpp).
    const TableGraph& tables() const noexcept { return graph_; }
    std::uint64_t storage_generation() const noexcept { return graph_.storage_generation(); }
    // Throws StaleEntity when not alive. Inline, always: every per-entity call asks first, and a
    // call returned the location assembled on its stack and read back whole, a store-forwarding
    // stall that made a native get and set 2.4x slower (docs/PERFORMANCE.md, "Eight bytes a slot").
    [[gnu::always_inline]] EntityLocation locate(Entity entity) const {
        // A slot's location names the handle placed there (null once it left), so one read says
        // both whether `entity` is alive and where: the pool's slot is not read too.
        const std::uint32_t slot = pool_.layout().index(entity);
        if (slot >= locations_.size() || locations_.entity(slot) != entity) [[unlikely]] throw_stale(entity);
        return locations_[slot];
    }
    Diagnostics& diagnostics() noexcept { return diagnostics_; }

private:
    [[noreturn]] void throw_stale(Entity entity) const;
    // For bulk spawns, which must be all or nothing: throws CapacityExceeded naming `operation`
    // unless `count` more entities fit, and WrongPhase during a wave or inside an observer.
    void require_spawn_capacity(std::uint64_t count, const char* operation) const;
    // Whether two layouts have the same fields (names, types, offsets) and size.
    static bool same_layout(const ComponentDesc& a, const ComponentDesc& b) noexcept;
    // A definition of a taken name that differs from the one made (define_component, define_topic,
    // define_relation): DuplicateName showing both.
    [[noreturn]] static void throw_redefined(const char* what, const std::string& name, const std::string& had,
                                             const std::string& given);
    // The engine's own layers reach the bookkeeping below through these, never users:
    friend class CommandApplier;
    friend struct detail::WorldAccess;  // world_access.hpp: the scheduler, bindings, tests
    friend class SnapshotAccess;        // snapshot/: reads and replaces the whole state
    friend class Query;                 // iterates mutable tables, merges its chunks' writes
    // For a caller that writes an element's bytes itself (the JS set): when the write can be made
    // in place with nothing left for flush() to do (serial phase; the entity alive and holding
    // `id`, not a tag; no change observer of `id`, nothing queued), marks the component changed at
    // the current tick and returns its bytes. nullptr otherwise, and nothing changed: the caller
    // then takes set_bytes' path (its checks and errors, then flush()).
    std::byte* change_in_place(Entity entity, ComponentId id) noexcept;
    // find_bytes' search: the column holding `id`'s bytes for `entity`, and its row there.
    Column* find_column(Entity entity, ComponentId id, std::uint32_t& row) const noexcept;

    // Applies buffers in the given order (the batch-id order). See apply_commands.cpp.
    ApplyStats apply(std::span<CommandBuffer* const> buffers, std::span<EntityReservation* const> reservations = {});
    Tick advance_tick() {
        require_serial("advance_tick");
        return ++tick_;
    }
    // A dependent (a scheduler) attaches for as long as it holds on to the world.
    void attach(WorldDependent& dependent);
    void detach(WorldDependent& dependent) noexcept;
    EntityReservation reserve(std::uint32_t count);
    // Returns the handles nobody took, in reverse so that the next spawns reuse them in the order
    // they were reserved. Taken handles are spawned or released by apply_commands.
    void release_unused(const EntityReservation& reservation);
    // Stamps the logged row ranges at `tick` and queues change observers, in log order. Every
    // range is checked against the tables first (a bad range is BadValue, nothing is stamped).
    void merge_write_log(const WriteLog& log, Tick tick);
    // The same for several logs in order, logs[i] at ticks[i] (a wave's batches, in batch-id
    // order). Adjacent ranges of one column at one tick are stamped as one range.
    void merge_write_logs(std::span<const WriteLog* const> logs, std::span<const Tick> ticks);
    void check_write_log(const WriteLog& log) const;
    // Returns every reservation's handles (apply's last step; also when a buffer threw).
    void return_reservations(std::span<EntityReservation* const> reservations);
    // Value writes and registry changes: refused during a wave (a kernel must write through its
    // chunk, whose rows the plan gave it alone), with an error naming the call.
    void require_serial(const char* operation) const;
    template <typename T>
    ComponentValue value_of(const T& value) {
        // A tag struct is empty but still has sizeof 1, while its descriptor says 0 bytes: pass no
        // bytes, or check_values would refuse every typed spawn/add of a tag.
        if constexpr (std::is_empty_v<T>) {
            return ComponentValue{component<T>(), nullptr, 0};
        } else {
            return ComponentValue{component<T>(), &value, static_cast<std::uint32_t>(sizeof(T))};
        }
    }
    template <typename T>
    ComponentId registry_type() const {
        const ComponentId id = registry_.find_type<T>();
        if (id == kNoComponent) throw_unregistered();
        return id;
    }
    [[noreturn]] static void throw_unregistered();
    // topic<T>() after the reflection: the topic of that name, defined on first use.
    TopicId topic_of_layout(ComponentDesc layout);
    std::byte* element(Entity entity, ComponentId id) const;
    // Inline, with the error out of line: every structural call asks first.
    void require_structural(const char* operation) const {
        if (phase_ == WorldPhase::Wave || observer_depth_ > 0) [[unlikely]] refuse_structural(operation);
    }
    [[noreturn]] void refuse_structural(const char* operation) const;
    // mark_changed without its checks, for callers that have just checked the same things.
    void touch(Entity entity, ComponentId id);
    // Each value's component is known, one users may add, its bytes its size, and no component
    // is given twice. Inline, the errors out of line (check_value_failed): every add asks.
    void check_values(std::span<const ComponentValue> values) const {
        for (std::size_t i = 0; i < values.size(); ++i) {
            const ComponentDesc& desc = registry_.desc(values[i].id);
            bool bad = reserved(desc) || (values[i].bytes != nullptr && values[i].size != desc.size);
            for (std::size_t j = 0; j < i; ++j) bad |= values[j].id == values[i].id;
            if (bad) [[unlikely]] check_value_failed(values, i);
        }
    }
    [[noreturn]] void check_value_failed(std::span<const ComponentValue> values, std::size_t i) const;
    // A component id that users may not add or remove (a relation's presence, the Prefab tag).
    static bool reserved(const ComponentDesc& desc) noexcept { return desc.relation || desc.id == kPrefab; }
    // Throws BadValue for a reserved component, saying what to use instead. `pair_call` names the
    // pair call to suggest.
    void refuse_reserved(const ComponentDesc& desc, const char* pair_call) const {
        if (reserved(desc)) [[unlikely]] throw_reserved(desc, pair_call);
    }
    [[noreturn]] void throw_reserved(const ComponentDesc& desc, const char* pair_call) const;
    // Places an allocated handle into the table for `values` and fires add observers.
    void place(Entity entity, std::span<const ComponentValue> values);
    // The table for `values`, with room for `count` more rows and locations: everything place()
    // would allocate, done before anything changes.
    TableIndex prepare_rows(std::span<const ComponentValue> values, std::uint32_t count);
    void place_in(TableIndex index, Entity entity, std::span<const ComponentValue> values);
    // Returns the entity's row in `target`, which a caller uses rather than reading its location
    // back: a load of the 12 bytes just stored waited for the store (a stall in every add).
    std::uint32_t move_to(Entity entity, TableIndex target);
    // add() after its checks: `entity` is at `at`, and `target` is its table with value.id.
    void add_checked(Entity entity, EntityLocation at, TableIndex target, const ComponentValue& value);
    // Runs the observers of one event with structural changes locked out. The test is inline:
    // structural changes call this per component, and a world without observers pays one load.
    // Always inlined: clang left it a call in wasm, where a call costs more than the test.
    [[gnu::always_inline]] void fire(ObserverEvent event, ComponentId id, Entity entity) {
        if (observers_.any(event, id)) fire_observers(event, id, entity);
    }
    void fire_observers(ObserverEvent event, ComponentId id, Entity entity);
    void write_value(Table& table, std::uint32_t row, const ComponentValue& value);
    // despawn() of one entity's row and handle, after its pairs are gone.
    void despawn_row(Entity entity);
    // world_relations.cpp: despawn() when any pair exists; the built-in relations; the checks.
    void despawn_with_pairs(Entity entity);
    void define_builtin_relations();
    RelationData& checked_relation(RelationId relation) const;
    void check_pair_entity(Entity entity, const char* role) const;
    void copy_pair_data(Entity subject, RelationId relation, Entity target, void* out, std::size_t size) const;
    // Removes one pair that exists, firing its remove observers; moves the subject out of the
    // presence table when it was its last pair of the relation.
    void erase_pair(RelationData& r, Entity subject, Entity target);
    void fire_pair(ObserverEvent event, RelationId relation, Entity subject, Entity target);
    // world_prefabs.cpp. Throws unless `prefab` is an alive prefab; `operation` names the call.
    void check_prefab(Entity prefab, const char* operation) const;
    // Validates `values` (check_prefab and the handles' room, pool_.make_room, come first) and
    // builds what an instance of `prefab` holds (prefab_values_, in the
    // order observers see) and its table, with room for `count` more rows; nothing visible
    // changes. The prefab's bytes are read from its row, which no instance placement moves.
    // `prefab` null: `values` alone. `as_prefab`: the Prefab tag goes first (define_prefab).
    TableIndex prepare_instances(Entity prefab, std::span<const ComponentValue> values, std::uint32_t count,
                                 bool as_prefab);
    // Places an allocated handle as an instance in `index` (from prepare_instances) with
    // prefab_values_, adds (IsA, prefab) when `prefab` is not null, and fires the observers.
    void place_instance(TableIndex index, Entity entity, Entity prefab);
    void forget_prefab(Entity prefab) noexcept;
    std::vector<PrefabName> prefab_names_;     // definition order
    std::vector<ComponentValue> prefab_values_;  // prepare_instances' result (reused)

    Diagnostics diagnostics_;
    ComponentRegistry registry_;
    EntityPool pool_;
    TableGraph graph_;
    EntityLocations locations_;  // by entity index; valid for alive handles only
    WorldPhase phase_ = WorldPhase::Serial;
    Tick tick_ = 1;
    std::unique_ptr<SystemCursors> cursors_;  // the schedulers' bookkeeping (world/system_cursors.hpp)
    std::unique_ptr<TopicStore> topics_;  // behind a pointer: its header is the engine's, not a user's
    // The main-thread system running now and its windows (Scheduler; null between systems).
    const std::string* consumer_name_ = nullptr;
    std::span<const TopicWindow> consumer_windows_;
    std::span<const TopicId> consumer_publishes_;
    ObserverRegistry observers_;
    std::unique_ptr<RelationStore> relations_;  // every relation's pairs (relation/relation_store.hpp)
    struct PendingChange {
        Entity entity;
        ComponentId component;
    };
    std::vector<PendingChange> pending_changes_;  // change events waiting for flush()
    std::vector<WrittenRange> pending_stamps_;    // merge_write_logs' coalesced ranges (reused)
    std::vector<Tick> pending_stamp_ticks_;
    CommandBuffer observer_commands_;             // what observers recorded; applied by flush()
    int observer_depth_ = 0;                      // > 0 while an observer runs: no direct structure
    std::uint64_t structure_version_ = 0;         // rows added, removed or moved (see structure_version())
    std::vector<WorldDependent*> dependents_;     // attached schedulers; told when the world goes
    // place()'s sorted signature, reused so that a spawn does not allocate. Safe to share: place()
    // is done with it before observers run, and observers cannot spawn.
    std::vector<ComponentId> place_signature_;
    // The bulk calls' scratch, reused so that a call allocates nothing once warm: which slots a
    // call names (its repeat check), and the rows it adds per target table.
    std::vector<std::uint8_t> bulk_marks_;
    std::vector<std::uint32_t> bulk_rows_;
    // The columns a call's growth replaced, freed when the call is done: the values it copies in
    // may be rows of them (spawn(get<T>(e)) for an e of the table the spawn grows).
    RetiredStorage retired_storage_;
    // add_pair's data, copied before the store changes: it may be another pair's data (get_pair).
    std::vector<std::byte> pair_bytes_;
    // The bulk calls' checks: structural phase, `id` known, every handle alive and none twice.
    void check_bulk(std::span<const Entity> entities, ComponentId id, const char* operation);
    // Every handle alive and none twice; the error ends "nothing was `outcome`".
    void check_handles(std::span<const Entity> entities, const char* outcome);
    // The values of row 0 of `rows` (their checks stand for every row's), after the stride check.
    void first_rows(std::span<const ComponentRows> rows, std::vector<ComponentValue>& out, const char* operation) const;
    // Where a bulk add (adding) or removal of `id` moves a row of table `from`; `from` itself
    // when the row stays (it has the component already, or lacks the one removed).
    TableIndex bulk_target(TableIndex from, ComponentId id, bool adding);
    // Makes room in every target table first, so that running out of heap changes nothing.
    void reserve_bulk_moves(std::span<const Entity> entities, ComponentId id, bool adding);
    // How many handles from entities[first] on are in table `from` (a run, as a query hands
    // them out), and whether they are all of its rows: then move_whole_table may take them.
    std::size_t bulk_run(std::span<const Entity> entities, std::size_t first, TableIndex from) const;
    // move_to of each of `entities` in turn, when they are every row of table `from` (in any
    // order): the same rows in `target` in the same order, the source left empty, without the
    // swap-removes that a row-by-row move makes to empty it.
    void move_whole_table(std::span<const Entity> entities, TableIndex from, TableIndex target);
};

// A query bound to a world: matched tables stay cached across calls.
class Query {
public:
    Query(World& world, QueryDesc desc) : world_(&world), cache_(std::move(desc)) {
        cache_.bind_relations(world.relations_.get());
    }

    // Calls fn(Chunk&) per run of rows. Writes through chunk.write<T>() are stamped at the world's
    // current tick and their change observers queued once the iteration ends.
    template <typename Fn>
    void for_each_chunk(Fn&& fn, Tick since = 0) {
        WriteLog log;
        // Chunks give write access: not from a kernel, whose writes go through its own chunk.
        world_->require_serial("for_each_chunk");
        TableGraph& tables = world_->graph_;
        try {
            cache_.for_each_chunk(tables, since, world_->tick(), &log, fn);
        } catch (...) {
            // fn threw after writing some chunks: their changes still count.
            world_->merge_write_log(log, world_->tick());
            throw;
        }
        world_->merge_write_log(log, world_->tick());
    }
    std::uint32_t count(Tick since = 0) { return cache_.count(world_->graph_, since); }
    // fn(Entity, Ts&...) per selected row; every T must be one of the query's required components.
    template <typename... Ts, typename Fn>
    void each(Fn&& fn, Tick since = 0);
    // Entities in iteration order.
    std::vector<Entity> entities(Tick since = 0);
    QueryCache& cache() noexcept { return cache_; }

private:
    World* world_;
    QueryCache cache_;
};

namespace detail {
template <typename T>
T* column_of(Chunk& chunk, ComponentId id) {
    if constexpr (std::is_const_v<T>) {
        return chunk.read<std::remove_const_t<T>>(id);
    } else {
        return chunk.write<T>(id);
    }
}
template <typename... Ts, typename Fn, std::size_t... I>
void each_row(Chunk& chunk, const ComponentId* ids, Fn& fn, std::index_sequence<I...>) {
    auto columns = std::tuple<Ts*...>{column_of<Ts>(chunk, ids[I])...};
    const Entity* entities = chunk.entities();
    for (std::uint32_t i = 0; i < chunk.size(); ++i) fn(entities[i], std::get<I>(columns)[i]...);
}
}  // namespace detail

template <typename... Ts, typename Fn>
void Query::each(Fn&& fn, Tick since) {
    const ComponentId ids[] = {world_->component<std::remove_const_t<Ts>>()...};
    for (ComponentId id : ids) {
        const auto& required = cache_.desc().required();
        if (std::find(required.begin(), required.end(), id) == required.end()) {
            throw Error(ErrorCode::BadValue, "each<>() asks for '" + world_->components().desc(id).name +
                                                 "', which the query does not require");
        }
    }
    for_each_chunk([&](Chunk& chunk) { detail::each_row<Ts...>(chunk, ids, fn, std::index_sequence_for<Ts...>{}); },
                   since);
}

template <typename... Ts, typename Fn>
void World::each(Fn&& fn) {
    QueryDesc desc;
    desc.with = {component<std::remove_const_t<Ts>>()...};
    query(std::move(desc)).template each<Ts...>(std::forward<Fn>(fn));
}

template <typename T>
TopicId World::topic() {
    return topic_of_layout(ComponentTraits<T>::describe());
}

}  // namespace ecsia
