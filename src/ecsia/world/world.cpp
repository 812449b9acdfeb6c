#include "ecsia/relation/relation_store.hpp"
#include "ecsia/topic/topic_store.hpp"
#include "ecsia/world/system_cursors.hpp"
#include "ecsia/world/world.hpp"
#include "ecsia/world/registered_components.hpp"
#include "ecsia/world/world_access.hpp"

#include <algorithm>
#include <cstring>

#include "ecsia/base/error.hpp"

namespace ecsia {

namespace {

// Raises the observer depth for one scope. Lowering it in a destructor matters: an observer that
// throws must not leave the world refusing every later structural change as "inside an observer".
class ObserverScope {
public:
    explicit ObserverScope(int& depth) noexcept : depth_(depth) { ++depth_; }
    ~ObserverScope() { --depth_; }
    ObserverScope(const ObserverScope&) = delete;
    ObserverScope& operator=(const ObserverScope&) = delete;

private:
    int& depth_;
};


}  // namespace

World::World(WorldOptions options)
    : pool_(HandleLayout(options.index_bits), options.max_entities),
      graph_(registry_),
      locations_(pool_.layout()),
      cursors_(std::make_unique<SystemCursors>()),
      topics_(std::make_unique<TopicStore>()),
      relations_(std::make_unique<RelationStore>(pool_.layout())) {
    define_builtin_relations();  // first: ChildOf, IsA and the Prefab tag keep their ids whatever else registers
    // Components registered with ECSIA_REGISTER_COMPONENT, in name order (ids independent of link order).
    for (const auto& entry : detail::registered_components_checked()) entry.add_to(*this);
}

std::uint64_t World::frames() const noexcept { return cursors_->frames(); }

World::~World() {
    // A copy: a dependent detaches itself while it is told.
    const std::vector<WorldDependent*> dependents = dependents_;
    for (WorldDependent* dependent : dependents) dependent->on_world_destroyed();
}

void World::attach(WorldDependent& dependent) { dependents_.push_back(&dependent); }

void World::detach(WorldDependent& dependent) noexcept {
    std::erase(dependents_, &dependent);
}

void World::throw_unregistered() {
    throw Error(ErrorCode::UnknownComponent, "that C++ component type was never added to this world");
}

ComponentId World::define_component(std::string name, const std::vector<FieldSpec>& fields) {
    require_structural("define_component");
    const ComponentId existing = registry_.find(name);
    if (existing != kNoComponent && !registry_.desc(existing).relation && existing != kPrefab) {
        // Defined again: the same fields give the component; other fields are an error.
        const ComponentDesc wanted = layout_component(name, fields);  // BadDefinition first
        const ComponentDesc& had = registry_.desc(existing);
        if (same_layout(had, wanted)) return existing;
        throw_redefined("component", name, "fields " + fields_text(had), "fields " + fields_text(wanted));
    }
    return registry_.define(std::move(name), fields);
}

void World::throw_redefined(const char* what, const std::string& name, const std::string& had, const std::string& given) {
    throw Error(ErrorCode::DuplicateName,
                std::string(what) + " '" + name + "' is already defined with " + had + ", which differs from " + given);
}

void World::throw_stale(Entity entity) const {
    throw Error(ErrorCode::StaleEntity, describe(entity, pool_.layout()) +
                                            " is not alive: it was despawned, never spawned, or is from an older generation");
}

bool World::has(Entity entity, ComponentId id) const {
    const EntityLocation at = locate(entity);
    registry_.desc(id);  // an id never handed out is an UnknownComponent, not "absent" (G5)
    return graph_.table(at.table).has(id);
}

std::byte* World::element(Entity entity, ComponentId id) const {
    const EntityLocation at = locate(entity);
    const ComponentDesc& desc = registry_.desc(id);
    auto& table = const_cast<TableGraph&>(graph_).table(at.table);
    Column* column = table.column(id);
    if (column == nullptr) {
        throw Error(ErrorCode::MissingComponent, describe(entity, pool_.layout()) + " has no '" + desc.name + "'");
    }
    if (desc.is_tag()) {
        if (desc.relation) {
            throw Error(ErrorCode::BadValue, "'" + desc.name + "' is a relation, not a component: use get_pair");
        }
        throw Error(ErrorCode::BadValue, "'" + desc.name + "' is a tag: it has no values to read or write");
    }
    return column->element(at.row);
}

std::byte* World::find_bytes(Entity entity, ComponentId id) const noexcept {
    std::uint32_t row = 0;
    Column* column = find_column(entity, id, row);
    return column == nullptr ? nullptr : column->element(row);
}

Column* World::find_column(Entity entity, ComponentId id, std::uint32_t& row) const noexcept {
    // The location names the handle placed in its slot: alive, and where, in one read (locate()).
    const std::uint32_t slot = pool_.layout().index(entity);
    if (slot >= locations_.size() || id >= registry_.size()) return nullptr;
    const EntityLocation at = locations_[slot];
    if (at.entity != entity) return nullptr;
    Column* column = const_cast<TableGraph&>(graph_).table(at.table).column(id);
    // A tag's column holds no bytes. (Not registry_.desc(id).is_tag(): desc() may throw, and with
    // JS-based exceptions in wasm a call that may throw from a noexcept function goes through JS.)
    if (column == nullptr || column->element_size() == 0) return nullptr;
    row = at.row;
    return column;
}

std::byte* World::change_in_place(Entity entity, ComponentId id) noexcept {
    if (phase_ != WorldPhase::Serial || !pending_changes_.empty() || !observer_commands_.empty()) return nullptr;
    std::uint32_t row = 0;
    Column* column = find_column(entity, id, row);
    if (column == nullptr || observers_.any(ObserverEvent::OnChange, id)) return nullptr;
    column->mark_changed(row, tick_);
    return column->element(row);
}

void World::mark_changed(Entity entity, ComponentId id) {
    require_serial("mark_changed");
    (void)element(entity, id);  // alive, has it, not a tag
    touch(entity, id);
}

void World::touch(Entity entity, ComponentId id) {
    const EntityLocation at = locations_[pool_.layout().index(entity)];
    graph_.table(at.table).column(id)->mark_changed(at.row, tick_);
    if (observers_.any(ObserverEvent::OnChange, id)) pending_changes_.push_back({entity, id});
}

void World::require_serial(const char* operation) const {
    if (phase_ == WorldPhase::Wave) {
        throw Error(ErrorCode::WrongPhase, std::string(operation) +
                                               " during a wave: a kernel writes through its chunk (declared components only) "
                                               "and records everything else in its command buffer");
    }
}

void World::refuse_structural(const char* operation) const {
    if (phase_ == WorldPhase::Wave) {
        // The call may come from a kernel (which has a command buffer) or from outside the frame
        // (the page while workers run a wave), and a definition has no command at all.
        const std::string_view op(operation);
        if (op.starts_with("define") || op == "component" || op == "topic") {
            throw Error(ErrorCode::WrongPhase, std::string(operation) +
                                                   " during a wave: definitions are made between frames, while no wave runs");
        }
        throw Error(ErrorCode::WrongPhase, std::string(operation) +
                                               " during a wave: a kernel records it in its command buffer; code outside "
                                               "the frame waits for the wave to end (update() to return)");
    }
    throw Error(ErrorCode::WrongPhase, std::string(operation) +
                                           " inside an observer: observers make no structural change directly (a C++ "
                                           "observer records it in ctx.commands, applied at the next flush)");
}

void World::throw_reserved(const ComponentDesc& desc, const char* pair_call) const {
    if (desc.relation) {
        throw Error(ErrorCode::BadValue, "'" + desc.name + "' is a relation, not a component: use " + pair_call);
    }
    throw Error(ErrorCode::BadValue, "'" + desc.name + "' is the built-in prefab tag, not a component to add or "
                                     "remove: use define_prefab to make a prefab");
}

void World::check_value_failed(std::span<const ComponentValue> values, std::size_t i) const {
    const ComponentDesc& desc = registry_.desc(values[i].id);
    refuse_reserved(desc, "add_pair");
    if (values[i].bytes != nullptr && values[i].size != desc.size) {
        throw Error(ErrorCode::BadValue, "'" + desc.name + "' takes " + std::to_string(desc.size) + " bytes, got " +
                                             std::to_string(values[i].size));
    }
    throw Error(ErrorCode::BadValue, "'" + desc.name + "' is given twice in one operation");
}

void World::write_value(Table& table, std::uint32_t row, const ComponentValue& value) {
    if (value.bytes == nullptr || value.size == 0) return;
    detail::copy_element(table.column(value.id)->element(row), static_cast<const std::byte*>(value.bytes), value.size);
}

void World::require_spawn_capacity(std::uint64_t count, const char* operation) const {
    require_structural(operation);
    if (count > pool_.available()) {
        throw Error(ErrorCode::CapacityExceeded, std::string(operation) + " of " + std::to_string(count) +
                                                     " entities does not fit: " + std::to_string(pool_.available()) +
                                                     " more fit under max_entities " +
                                                     std::to_string(pool_.max_entities()) + "; nothing was spawned");
    }
}

Entity World::spawn_with(std::span<const ComponentValue> values) {
    require_structural("spawn");
    check_values(values);
    // Everything the spawn allocates comes before the handle is made: out of heap, the world is
    // as it was (std::bad_alloc; JS: OutOfMemory), never an alive entity without a row (G5).
    pool_.make_room(1);  // first: a full world throws CapacityExceeded before any table is made
    const TableIndex index = prepare_rows(values, 1);
    const Entity entity = pool_.create();
    place_in(index, entity, values);
    retired_storage_.release();
    return entity;
}

TableIndex World::prepare_rows(std::span<const ComponentValue> values, std::uint32_t count) {
    std::vector<ComponentId>& signature = place_signature_;
    signature.resize(values.size());
    if (values.size() <= 16) {
        // An insertion sort: a spawn names a handful of components, and std::sort's call and
        // set-up cost more than sorting them.
        for (std::size_t i = 0; i < values.size(); ++i) {
            std::size_t at = i;
            for (; at > 0 && signature[at - 1] > values[i].id; --at) signature[at] = signature[at - 1];
            signature[at] = values[i].id;
        }
    } else {
        for (std::size_t i = 0; i < values.size(); ++i) signature[i] = values[i].id;
        std::sort(signature.begin(), signature.end());
    }
    const TableIndex index = graph_.find_or_create(signature);
    Table& table = graph_.table(index);
    // The caller releases the old columns once the values are in (they may be rows of them).
    if (table.size() + count > table.capacity()) [[unlikely]] table.reserve(table.size() + count, &retired_storage_);
    // A handle's index is below the pool's slot count after the spawns (reused or new slots).
    const std::size_t slots = std::size_t(pool_.slot_count()) + count;
    if (locations_.capacity() < slots) locations_.reserve(std::max(slots, locations_.capacity() * 2));
    return index;
}

void World::place(Entity entity, std::span<const ComponentValue> values) {
    place_in(prepare_rows(values, 1), entity, values);
    retired_storage_.release();
}

void World::place_in(TableIndex index, Entity entity, std::span<const ComponentValue> values) {
    Table& table = graph_.table(index);
    const std::uint32_t row = table.push_default(entity, tick_);
    ++structure_version_;
    for (const ComponentValue& value : values) write_value(table, row, value);
    const std::uint32_t slot = pool_.layout().index(entity);
    if (locations_.size() <= slot) locations_.resize(slot + 1);
    locations_.set(slot, EntityLocation{index, row, entity});
    for (const ComponentValue& value : values) fire(ObserverEvent::OnAdd, value.id, entity);
}

void World::despawn(Entity entity) {
    require_structural("despawn");
    locate(entity);  // StaleEntity
    if (relations_->pair_count() != 0) {
        despawn_with_pairs(entity);
        return;
    }
    despawn_row(entity);
}

void World::despawn_row(Entity entity) {
    const EntityLocation at = locations_[pool_.layout().index(entity)];
    // No copy of the signature needed: observers cannot change structure, tables never move
    // (the graph owns them by pointer) and a table's signature never changes.
    const std::vector<ComponentId>& signature = graph_.table(at.table).signature();
    for (std::size_t i = 0; i < signature.size(); ++i) fire(ObserverEvent::OnRemove, signature[i], entity);
    if (graph_.table(at.table).has(kPrefab)) forget_prefab(entity);  // its name is free again
    const Entity moved = graph_.table(at.table).swap_remove(at.row);
    ++structure_version_;
    if (!moved.is_null()) locations_.set(pool_.layout().index(moved), EntityLocation{at.table, at.row, moved});
    locations_.vacate(pool_.layout().index(entity));
    const std::uint32_t retired_before = pool_.retired_count();
    pool_.destroy(entity);
    if (pool_.retired_count() != retired_before) {
        // G3: capacity shrinks for good here, so say so.
        diagnostics_.report("entity slot " + std::to_string(pool_.layout().index(entity)) +
                            " used all its generations and is retired; max_entities is effectively " +
                            std::to_string(pool_.max_entities() - pool_.retired_count()) + " from now on");
    }
}

std::uint32_t World::move_to(Entity entity, TableIndex target) {
    const std::uint32_t slot = pool_.layout().index(entity);
    const EntityLocation from = locations_[slot];
    if (from.table == target) return from.row;
    Table& source = graph_.table(from.table);
    Table& destination = graph_.table(target);
    const std::uint32_t row = destination.push_moved(entity, source, from.row, tick_);
    const Entity moved = source.swap_remove(from.row);
    ++structure_version_;
    if (!moved.is_null()) locations_.set(pool_.layout().index(moved), EntityLocation{from.table, from.row, moved});
    locations_.set(slot, EntityLocation{target, row, entity});
    return row;
}

void World::add(Entity entity, const ComponentValue& value) {
    require_structural("add");
    const EntityLocation at = locate(entity);
    check_values({&value, 1});
    add_checked(entity, at, graph_.with(at.table, value.id), value);
    retired_storage_.release();
}

void World::add_checked(Entity entity, EntityLocation at, TableIndex target, const ComponentValue& value) {
    if (target == at.table) {  // has it: overwritten, a change; a tag has nothing to overwrite
        if (registry_.desc(value.id).size == 0) return;
        Table& table = graph_.table(at.table);
        write_value(table, at.row, value);
        table.column(value.id)->mark_changed(at.row, tick_);
        if (observers_.any(ObserverEvent::OnChange, value.id)) pending_changes_.push_back({entity, value.id});
        return;
    }
    Table& destination = graph_.table(target);
    // Grown here rather than by the move, keeping the old columns: the value may be a row of them.
    if (destination.size() == destination.capacity()) [[unlikely]] destination.reserve(destination.size() + 1, &retired_storage_);
    write_value(destination, move_to(entity, target), value);
    fire(ObserverEvent::OnAdd, value.id, entity);
}

void World::remove(Entity entity, ComponentId id) {
    require_structural("remove");
    const EntityLocation at = locate(entity);
    refuse_reserved(registry_.desc(id), "remove_pair");
    if (!graph_.table(at.table).has(id)) return;
    fire(ObserverEvent::OnRemove, id, entity);
    move_to(entity, graph_.without(at.table, id));
}

void World::change_components(Entity entity, std::span<const ComponentValue> adds,
                              std::span<const ComponentId> removes) {
    require_structural(adds.empty() ? "remove" : "add");
    const EntityLocation at = locate(entity);
    check_values(adds);
    for (ComponentId id : removes) refuse_reserved(registry_.desc(id), "remove_pair");

    const Table& before = graph_.table(at.table);
    // removes[i] is removed when the entity has it and it is not named earlier in `removes`. No
    // list is built: a local with a destructor would turn every call below into a round trip
    // through JS in wasm (JS-based exceptions), and `removes` is a handful of ids.
    auto named = [&](ComponentId id, std::size_t before_index) {
        return std::find(removes.begin(), removes.begin() + static_cast<std::ptrdiff_t>(before_index), id) !=
               removes.begin() + static_cast<std::ptrdiff_t>(before_index);
    };
    auto removed_at = [&](std::size_t i) { return before.has(removes[i]) && !named(removes[i], i); };
    auto kept = [&](ComponentId id) { return before.has(id) && !named(id, removes.size()); };
    for (std::size_t i = 0; i < removes.size(); ++i) {
        if (removed_at(i)) fire(ObserverEvent::OnRemove, removes[i], entity);
    }

    TableIndex target = at.table;
    for (std::size_t i = 0; i < removes.size(); ++i) {
        if (removed_at(i)) target = graph_.without(target, removes[i]);
    }
    for (const ComponentValue& value : adds) target = graph_.with(target, value.id);
    Table& table = graph_.table(target);
    // Grown here rather than by the move, keeping the old columns: a value may be a row of them.
    if (target != at.table && table.size() == table.capacity()) [[unlikely]] table.reserve(table.size() + 1, &retired_storage_);
    const std::uint32_t row = move_to(entity, target);

    for (const ComponentValue& value : adds) {
        Column* column = table.column(value.id);
        if (kept(value.id)) {
            if (registry_.desc(value.id).size == 0) continue;  // a tag it keeps: nothing changes
            write_value(table, row, value);
            column->mark_changed(row, tick_);
            if (observers_.any(ObserverEvent::OnChange, value.id)) pending_changes_.push_back({entity, value.id});
        } else {
            // Removed and re-added in one change: the component starts over, as if freshly added.
            if (before.has(value.id)) column->init_row(row, tick_);
            write_value(table, row, value);
        }
    }
    for (const ComponentValue& value : adds) {
        if (!kept(value.id)) fire(ObserverEvent::OnAdd, value.id, entity);
    }
    retired_storage_.release();
}

void World::fire_observers(ObserverEvent event, ComponentId id, Entity entity) {
    const ObserverScope observing(observer_depth_);
    observers_.fire(*this, event, id, entity, observer_commands_, diagnostics_, registry_);
}

void World::set_bytes(Entity entity, ComponentId id, std::uint32_t offset, const void* bytes, std::uint32_t size) {
    require_serial("set");
    std::byte* target = element(entity, id);
    const ComponentDesc& desc = registry_.desc(id);
    if (std::uint64_t(offset) + size > desc.size) {
        throw Error(ErrorCode::BadValue, "write of " + std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                                             " does not fit '" + desc.name + "' (" + std::to_string(desc.size) + " bytes)");
    }
    if (bytes == nullptr && size != 0) {
        throw Error(ErrorCode::BadValue, "set of '" + desc.name + "' was given no bytes (a null pointer) for " +
                                             std::to_string(size) + " bytes");
    }
    std::memmove(target + offset, bytes, size);  // bytes may be this very element's
    touch(entity, id);
}

void World::set_field(Entity entity, ComponentId id, std::string_view field, double value) {
    require_serial("set_field");
    std::byte* target = element(entity, id);
    const ComponentDesc& desc = registry_.desc(id);
    const FieldDesc* f = desc.find_field(field);
    if (f == nullptr) {
        throw Error(ErrorCode::UnknownField, "'" + desc.name + "' has no field '" + std::string(field) + "'");
    }
    std::byte encoded[8];
    encode_field(f->type, value, encoded, f->name);
    std::memcpy(target + f->offset, encoded, field_size(f->type));
    touch(entity, id);
}

double World::get_field(Entity entity, ComponentId id, std::string_view field) const {
    const std::byte* source = element(entity, id);
    const ComponentDesc& desc = registry_.desc(id);
    const FieldDesc* f = desc.find_field(field);
    if (f == nullptr) {
        throw Error(ErrorCode::UnknownField, "'" + desc.name + "' has no field '" + std::string(field) + "'");
    }
    return decode_field(f->type, source + f->offset);
}

Query World::query(QueryDesc desc) {
    for (const auto* list : {&desc.with, &desc.without, &desc.optional, &desc.changed, &desc.added}) {
        for (ComponentId id : *list) registry_.desc(id);
    }
    for (const auto* list : {&desc.pairs, &desc.without_pairs}) {
        for (const PairTerm& term : *list) {
            checked_relation(term.relation);
            if (term.target != kAnyTarget) check_pair_entity(term.target, "pair term's target");
        }
    }
    return Query(*this, std::move(desc));
}

std::uint32_t World::count(const QueryDesc& desc) { return query(desc).count(); }

std::vector<Entity> Query::entities(Tick since) {
    std::vector<Entity> out;
    cache_.for_each_chunk(world_->graph_, since, world_->tick(), nullptr, [&](Chunk& chunk) {
        out.insert(out.end(), chunk.entities(), chunk.entities() + chunk.size());
    });
    return out;
}

EntityReservation World::reserve(std::uint32_t count) {
    require_structural("reserve");
    return EntityReservation(pool_.reserve(count));
}

void World::release_unused(const EntityReservation& reservation) {
    const auto& handles = reservation.handles();
    for (std::size_t i = handles.size(); i-- > reservation.taken_count();) {
        if (pool_.is_reserved(handles[i])) pool_.destroy(handles[i], /*bump_generation=*/false);
    }
}

ObserverId World::observe(ObserverEvent event, ComponentId component, ObserverFn fn) {
    require_serial("observe");
    if (registry_.desc(component).relation && event == ObserverEvent::OnChange) {
        // set_pair queues no change events, so such an observer would never run: refused, not silent (G3).
        throw Error(ErrorCode::BadValue, "'" + registry_.desc(component).name +
                                             "' is a relation: its observers see pairs added and removed, not changed");
    }
    return observers_.add(event, component, std::move(fn));
}

void World::merge_write_log(const WriteLog& log, Tick tick) {
    const WriteLog* logs[] = {&log};
    const Tick ticks[] = {tick};
    merge_write_logs(logs, ticks);
}

void World::check_write_log(const WriteLog& log) const {
    for (const WrittenRange& range : log.ranges()) {
        const bool fits = range.table < graph_.table_count() && range.row_begin <= range.row_end &&
                          range.row_end <= graph_.table(range.table).size() &&
                          graph_.table(range.table).column(range.component) != nullptr;
        if (!fits) {
            throw Error(ErrorCode::BadValue, "a write log names rows " + std::to_string(range.row_begin) + ".." +
                                                 std::to_string(range.row_end) + " of component " +
                                                 std::to_string(range.component) + " in table " +
                                                 std::to_string(range.table) + ", which do not exist");
        }
    }
}

void World::merge_write_logs(std::span<const WriteLog* const> logs, std::span<const Tick> ticks) {
    require_serial("merge_write_logs");
    if (logs.size() != ticks.size()) throw Error(ErrorCode::BadValue, "merge_write_logs needs one tick per log");
    for (const WriteLog* log : logs) check_write_log(*log);
    // A system's row batches write adjacent ranges of a column at one tick; stamped one by one,
    // each would be a per-row fill (only a range from row 0 that reaches the end of the current
    // stamp can replace it in O(1)), so a whole-table write costs O(rows) per frame. Coalesced,
    // it is one O(1) bulk stamp. A range joins the latest pending range of its column only when
    // it has the same tick and touches it, so the stamps of one column keep their order.
    constexpr std::size_t kLookBack = 16;  // columns written in one wave, typically a handful
    pending_stamps_.clear();
    pending_stamp_ticks_.clear();
    for (std::size_t i = 0; i < logs.size(); ++i) {
        const Tick tick = ticks[i];
        for (const WrittenRange& range : logs[i]->ranges()) {
            bool joined = false;
            const std::size_t stop = pending_stamps_.size() > kLookBack ? pending_stamps_.size() - kLookBack : 0;
            for (std::size_t k = pending_stamps_.size(); k-- > stop;) {
                WrittenRange& pending = pending_stamps_[k];
                if (pending.table != range.table || pending.component != range.component) continue;
                if (pending_stamp_ticks_[k] == tick && range.row_begin <= pending.row_end && range.row_end >= pending.row_begin) {
                    pending.row_begin = std::min(pending.row_begin, range.row_begin);
                    pending.row_end = std::max(pending.row_end, range.row_end);
                    joined = true;
                }
                break;  // only the latest range of this column may be joined
            }
            if (!joined) {
                pending_stamps_.push_back(range);
                pending_stamp_ticks_.push_back(tick);
            }
            if (!observers_.any(ObserverEvent::OnChange, range.component)) continue;
            const Entity* rows = graph_.table(range.table).entities();
            for (std::uint32_t row = range.row_begin; row < range.row_end; ++row) {
                pending_changes_.push_back({rows[row], range.component});
            }
        }
    }
    for (std::size_t k = 0; k < pending_stamps_.size(); ++k) {
        const WrittenRange& range = pending_stamps_[k];
        graph_.table(range.table).column(range.component)->mark_changed_range(range.row_begin, range.row_end, pending_stamp_ticks_[k]);
    }
}

void World::flush() {
    // Checked before anything is taken off the queues: a flush in a wave or inside an observer
    // (which would run observers re-entrantly) must fail without losing queued changes or commands.
    require_structural("flush");
    // Observers may cause more changes; a chain that never settles is cut off loudly, not silently.
    constexpr int kMaxRounds = 64;
    for (int round = 0; round < kMaxRounds; ++round) {
        if (pending_changes_.empty() && observer_commands_.empty()) return;
        std::vector<PendingChange> changes;
        changes.swap(pending_changes_);
        {
            const ObserverScope observing(observer_depth_);
            for (const PendingChange& change : changes) {
                if (!pool_.is_alive(change.entity) || !has(change.entity, change.component)) continue;
                observers_.fire(*this, ObserverEvent::OnChange, change.component, change.entity, observer_commands_,
                                diagnostics_, registry_);
            }
        }
        if (!observer_commands_.empty()) {
            CommandBuffer commands;
            std::swap(commands, observer_commands_);
            CommandBuffer* list[] = {&commands};
            apply(list);
        }
    }
    diagnostics_.report("observers kept causing changes for " + std::to_string(kMaxRounds) +
                        " rounds; the rest stays queued for the next flush");
}

}  // namespace ecsia
