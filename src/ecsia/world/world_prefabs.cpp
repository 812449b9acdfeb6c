// World's prefab calls (relation/prefab.hpp has the design): define_prefab, instantiate and
// instantiate_many, and the prefab names. An instance is made in one step, straight into its
// final table (no chain of moves through the tables of its components one by one): what it holds
// is worked out first (prepare_instances), then its row is placed (place_instance). Every check
// runs before the first change, so a refused call leaves the world as it was (G5).

#include <algorithm>
#include <string>

#include "ecsia/base/error.hpp"
#include "ecsia/relation/relation_store.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

bool World::is_prefab(Entity entity) const noexcept {
    if (!pool_.is_alive(entity)) return false;
    return graph_.table(locations_[pool_.layout().index(entity)].table).has(kPrefab);
}

void World::check_prefab(Entity prefab, const char* operation) const {
    if (!pool_.is_alive(prefab)) {
        throw Error(ErrorCode::StaleEntity, std::string(operation) + ": the prefab, " + describe(prefab, pool_.layout()) +
                                                ", is not alive: it was despawned, never spawned, or is from an older "
                                                "generation");
    }
    if (!is_prefab(prefab)) {
        throw Error(ErrorCode::BadValue, std::string(operation) + ": " + describe(prefab, pool_.layout()) +
                                             " is not a prefab (prefabs are made with define_prefab)");
    }
}

TableIndex World::prepare_instances(Entity prefab, std::span<const ComponentValue> values, std::uint32_t count,
                                    bool as_prefab) {
    check_values(values);
    std::vector<ComponentValue>& out = prefab_values_;
    out.clear();
    if (as_prefab) out.push_back(ComponentValue{kPrefab, nullptr, 0});
    const std::size_t inherited_begin = out.size();
    EntityLocation at;
    if (!prefab.is_null()) {
        at = locations_[pool_.layout().index(prefab)];
        // Ascending id (a table's signature order); neither the tag nor the presence of the
        // prefab's pairs: an instance is no prefab, and pairs are not copied.
        for (ComponentId id : graph_.table(at.table).signature()) {
            if (id == kPrefab || registry_.desc(id).relation) continue;
            out.push_back(ComponentValue{id, nullptr, 0});  // bytes below, once the room is made
        }
    }
    const std::size_t inherited_end = out.size();

    // The table and the room in it first: a new prefab may share its base's table, and making
    // room there could move the base's bytes, which are only pointed at after this.
    place_signature_.clear();
    for (const ComponentValue& value : out) place_signature_.push_back(value.id);
    for (const ComponentValue& value : values) place_signature_.push_back(value.id);
    if (!prefab.is_null()) place_signature_.push_back(kIsA);
    std::sort(place_signature_.begin(), place_signature_.end());
    place_signature_.erase(std::unique(place_signature_.begin(), place_signature_.end()), place_signature_.end());
    const TableIndex index = graph_.find_or_create(place_signature_);
    Table& table = graph_.table(index);
    // The caller releases the old columns once the values are in (they may be rows of them).
    if (table.size() + count > table.capacity()) table.reserve(table.size() + count, &retired_storage_);
    const std::size_t slots = std::size_t(pool_.slot_count()) + count;
    if (locations_.capacity() < slots) locations_.reserve(std::max(slots, locations_.capacity() * 2));
    if (!prefab.is_null()) relations_->reserve(*relations_->find(kIsA), static_cast<std::uint32_t>(slots), prefab, count);
    out.reserve(out.size() + values.size());

    if (!prefab.is_null()) {
        const Table& source = graph_.table(at.table);
        for (std::size_t i = inherited_begin; i < inherited_end; ++i) {
            const Column& column = *source.column(out[i].id);
            if (column.element_size() == 0) continue;  // a tag: nothing to copy
            out[i].bytes = column.element(at.row);
            out[i].size = registry_.desc(out[i].id).size;
        }
    }
    // The caller's values replace whole components in place, or come after the inherited ones.
    for (const ComponentValue& value : values) {
        const auto first = out.begin() + static_cast<std::ptrdiff_t>(inherited_begin);
        const auto last = out.begin() + static_cast<std::ptrdiff_t>(inherited_end);
        const auto same = std::find_if(first, last, [&](const ComponentValue& v) { return v.id == value.id; });
        if (same != last) {
            *same = value;
        } else {
            out.push_back(value);
        }
    }
    return index;
}

void World::place_instance(TableIndex index, Entity entity, Entity prefab) {
    Table& table = graph_.table(index);
    const std::uint32_t row = table.push_default(entity, tick_);
    ++structure_version_;
    for (const ComponentValue& value : prefab_values_) write_value(table, row, value);
    const std::uint32_t slot = pool_.layout().index(entity);
    if (locations_.size() <= slot) locations_.resize(slot + 1);
    locations_.set(slot, EntityLocation{index, row, entity});
    // The pair before any observer runs, so that every observer sees the finished instance (its
    // table has IsA's presence component exactly while it has an IsA pair). The events then come
    // in spawn_with's order, then add_pair's.
    if (!prefab.is_null()) relations_->insert(*relations_->find(kIsA), entity, prefab, nullptr);
    for (const ComponentValue& value : prefab_values_) fire(ObserverEvent::OnAdd, value.id, entity);
    if (!prefab.is_null()) fire_pair(ObserverEvent::OnAdd, kIsA, entity, prefab);
}

Entity World::define_prefab(std::string name, std::span<const ComponentValue> values, Entity base) {
    require_structural("define_prefab");
    if (name.empty()) throw Error(ErrorCode::BadDefinition, "define_prefab: a prefab needs a name (it is empty)");
    for (const PrefabName& defined : prefab_names_) {
        if (defined.name == name) {
            throw Error(ErrorCode::BadDefinition, "define_prefab: a prefab named '" + name + "' is already defined (" +
                                                      describe(defined.prefab, pool_.layout()) + ")");
        }
    }
    if (!base.is_null()) check_prefab(base, "define_prefab's base");
    prefab_names_.reserve(prefab_names_.size() + 1);  // room first: nothing can fail after the spawn
    check_values(values);
    pool_.make_room(1);  // a full world throws CapacityExceeded before any table is made
    const TableIndex index = prepare_instances(base, values, 1, /*as_prefab=*/true);
    const Entity entity = pool_.create();
    prefab_names_.push_back(PrefabName{entity, std::move(name)});  // observers may ask for the name
    place_instance(index, entity, base);
    retired_storage_.release();
    return entity;
}

Entity World::prefab(std::string_view name) const {
    for (const PrefabName& defined : prefab_names_) {
        if (defined.name == name) return defined.prefab;
    }
    std::string known;
    for (const PrefabName& defined : prefab_names_) known += (known.empty() ? "'" : ", '") + defined.name + "'";
    throw Error(ErrorCode::UnknownComponent, "no prefab named '" + std::string(name) + "'; " +
                                                 (known.empty() ? std::string("no prefab is defined")
                                                                : "the defined prefabs are: " + known));
}

std::string_view World::prefab_name(Entity prefab) const {
    locate(prefab);  // StaleEntity
    for (const PrefabName& defined : prefab_names_) {
        if (defined.prefab == prefab) return defined.name;
    }
    throw Error(ErrorCode::BadValue, describe(prefab, pool_.layout()) + " is not a prefab: it has no prefab name");
}

void World::forget_prefab(Entity prefab) noexcept {
    std::erase_if(prefab_names_, [&](const PrefabName& defined) { return defined.prefab == prefab; });
}

Entity World::instantiate(Entity prefab, std::span<const ComponentValue> values) {
    require_structural("instantiate");
    check_prefab(prefab, "instantiate");
    check_values(values);
    pool_.make_room(1);  // a full world throws CapacityExceeded before any table is made
    const TableIndex index = prepare_instances(prefab, values, 1, /*as_prefab=*/false);
    const Entity entity = pool_.create();
    place_instance(index, entity, prefab);
    retired_storage_.release();
    return entity;
}

void World::instantiate_many(Entity prefab, std::span<Entity> out, std::span<const ComponentRows> values) {
    require_spawn_capacity(out.size(), "instantiate_many");
    check_prefab(prefab, "instantiate_many");
    // Row 0's values stand for every row's in the checks (same ids and sizes for all rows).
    std::vector<ComponentValue> first;
    first_rows(values, first, "instantiate_many");
    const auto count = static_cast<std::uint32_t>(out.size());  // fits: require_spawn_capacity
    check_values(first);
    if (count == 0) return;  // no table made for instances that never come (as the loop makes none)
    pool_.make_room(count);  // room for the handles' bookkeeping (std::bad_alloc: nothing spawned)
    const TableIndex index = prepare_instances(prefab, first, count, /*as_prefab=*/false);
    // Where each given component sits in prefab_values_, whose bytes move on per row.
    std::vector<std::size_t> at(values.size());
    for (std::size_t k = 0; k < values.size(); ++k) {
        at[k] = static_cast<std::size_t>(
            std::find_if(prefab_values_.begin(), prefab_values_.end(), [&](const ComponentValue& v) { return v.id == values[k].id; }) -
            prefab_values_.begin());
    }
    // With nobody to see the instances one by one, their pairs go in at once after the rows: no
    // observer runs in between to tell the difference, and prepare_instances made the pairs'
    // room, so that last step cannot fail.
    const bool observed = observers_.any(ObserverEvent::OnAdd, kIsA) ||
                          std::any_of(prefab_values_.begin(), prefab_values_.end(),
                                      [&](const ComponentValue& v) { return observers_.any(ObserverEvent::OnAdd, v.id); });
    for (std::uint32_t i = 0; i < count; ++i) {
        for (std::size_t k = 0; k < values.size(); ++k) {
            if (values[k].bytes == nullptr) continue;
            prefab_values_[at[k]].bytes = static_cast<const std::byte*>(values[k].bytes) + std::size_t(i) * values[k].stride;
        }
        const Entity entity = pool_.create();
        if (observed) {
            place_instance(index, entity, prefab);
        } else {
            place_in(index, entity, prefab_values_);
        }
        out[i] = entity;
    }
    if (!observed) relations_->insert_fresh(*relations_->find(kIsA), out, prefab);
    retired_storage_.release();
}

}  // namespace ecsia
