// World's bulk calls: spawn_many and despawn_many; add_many and remove_many, one component on
// many entities. Each is what the loop of its per-entity call does (tests/world/world_bulk_test.cpp
// holds them to that loop: the same state, the same observer events in the same order), all or
// nothing, and faster by what the loop repeats: the checks run once, in one pass; a target table
// is looked up once per run of entities from the same table and made room in once; and a run that
// is every row of its table (a query's entities, the common case) moves whole: appended to the
// target, the source emptied at once.

#include <algorithm>
#include <string>

#include "ecsia/base/error.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

void World::check_bulk(std::span<const Entity> entities, ComponentId id, const char* operation) {
    require_structural(operation);
    refuse_reserved(registry_.desc(id), "the pair calls");  // UnknownComponent for an id never handed out
    check_handles(entities, "changed");
}

void World::check_handles(std::span<const Entity> entities, const char* outcome) {
    const HandleLayout& layout = pool_.layout();
    // Marks by slot index catch a handle given twice; cleared again below, whichever way this
    // ends, so the next call starts from zeros without touching every slot.
    if (bulk_marks_.size() < pool_.slot_count()) bulk_marks_.resize(pool_.slot_count(), 0);
    std::size_t marked = 0;
    auto clear = [&] {
        for (std::size_t i = 0; i < marked; ++i) bulk_marks_[layout.index(entities[i])] = 0;
    };
    for (; marked < entities.size(); ++marked) {
        const Entity e = entities[marked];
        const char* problem = nullptr;
        ErrorCode code = ErrorCode::StaleEntity;
        if (!pool_.is_alive(e)) {
            problem = "is not alive (despawned, never spawned, or from an older generation)";
        } else if (bulk_marks_[layout.index(e)] != 0) {
            problem = "appears twice";
            code = ErrorCode::BadValue;
        }
        if (problem != nullptr) {
            clear();
            throw Error(code, "entities[" + std::to_string(marked) + "] (" + std::to_string(e.bits) + ") " + problem +
                                  "; nothing was " + outcome);
        }
        bulk_marks_[layout.index(e)] = 1;
    }
    clear();
}

void World::first_rows(std::span<const ComponentRows> rows, std::vector<ComponentValue>& out, const char* operation) const {
    out.clear();
    out.reserve(rows.size());
    for (const ComponentRows& r : rows) {
        if (r.bytes != nullptr && r.stride != 0 && r.stride < r.size) {
            throw Error(ErrorCode::BadValue, std::string(operation) + ": the rows of component " + std::to_string(r.id) +
                                                 " have stride " + std::to_string(r.stride) + ", less than their size " +
                                                 std::to_string(r.size) + " (0 gives every row the same value)");
        }
        out.push_back(ComponentValue{r.id, r.bytes, r.size});
    }
}

void World::spawn_many(std::span<Entity> out, std::span<const ComponentRows> values) {
    require_spawn_capacity(out.size(), "spawn_many");
    std::vector<ComponentValue> row;
    first_rows(values, row, "spawn_many");
    check_values(row);
    const auto count = static_cast<std::uint32_t>(out.size());  // fits: require_spawn_capacity
    if (count == 0) return;  // no table made for rows that never come (as the loop makes none)
    // Everything that allocates first: out of heap, nothing is spawned.
    pool_.make_room(count);
    const TableIndex index = prepare_rows(row, count);
    for (std::uint32_t i = 0; i < count; ++i) {
        for (std::size_t k = 0; k < values.size(); ++k) {
            if (values[k].bytes != nullptr) row[k].bytes = static_cast<const std::byte*>(values[k].bytes) + std::size_t(i) * values[k].stride;
        }
        const Entity entity = pool_.create();
        place_in(index, entity, row);
        out[i] = entity;
    }
    retired_storage_.release();
}

void World::despawn_many(std::span<const Entity> entities) {
    require_structural("despawn_many");
    check_handles(entities, "despawned");
    for (const Entity e : entities) {
        if (pool_.is_alive(e)) despawn(e);
    }
}

TableIndex World::bulk_target(TableIndex from, ComponentId id, bool adding) {
    if (adding) return graph_.with(from, id);
    return graph_.table(from).has(id) ? graph_.without(from, id) : from;
}

void World::reserve_bulk_moves(std::span<const Entity> entities, ComponentId id, bool adding) {
    // Entities of one table come in runs as a query hands them out: the target is looked up
    // once per run. Looking one up may make a table, hence the resize inside the loop.
    bulk_rows_.assign(graph_.table_count(), 0);
    TableIndex source = kNoTable;
    TableIndex target = kNoTable;
    for (const Entity e : entities) {
        const TableIndex from = locations_[pool_.layout().index(e)].table;
        if (from != source) {
            source = from;
            target = bulk_target(from, id, adding);
            if (bulk_rows_.size() < graph_.table_count()) bulk_rows_.resize(graph_.table_count(), 0);
        }
        if (target != from) ++bulk_rows_[target];
    }
    for (TableIndex t = 0; t < bulk_rows_.size(); ++t) {
        // The old columns kept until the call's end: add_many's elements may be rows of them.
        if (bulk_rows_[t] != 0) graph_.table(t).reserve(graph_.table(t).size() + bulk_rows_[t], &retired_storage_);
    }
}

std::size_t World::bulk_run(std::span<const Entity> entities, std::size_t first, TableIndex from) const {
    std::size_t end = first;
    while (end < entities.size() && locations_[pool_.layout().index(entities[end])].table == from) ++end;
    return end - first;
}

void World::move_whole_table(std::span<const Entity> entities, TableIndex from, TableIndex target) {
    Table& source = graph_.table(from);
    Table& destination = graph_.table(target);
    const std::uint32_t first_row = destination.size();
    // In row order (a query's entities, or spawn_many's) the rows move column by column.
    bool in_row_order = true;
    for (std::size_t i = 0; i < entities.size() && in_row_order; ++i) {
        in_row_order = locations_[pool_.layout().index(entities[i])].row == i;
    }
    if (in_row_order) {
        destination.push_moved_rows(entities, source, 0, tick_);
    } else {
        for (const Entity e : entities) destination.push_moved(e, source, locations_[pool_.layout().index(e)].row, tick_);
    }
    source.clear();
    structure_version_ += entities.size();  // one per row moved, as move_to counts
    for (std::size_t i = 0; i < entities.size(); ++i) {
        locations_.set(pool_.layout().index(entities[i]), EntityLocation{target, first_row + static_cast<std::uint32_t>(i), entities[i]});
    }
}

void World::add_many(std::span<const Entity> entities, ComponentId id, const void* elements) {
    check_bulk(entities, id, "add_many");
    reserve_bulk_moves(entities, id, /*adding=*/true);
    const ComponentDesc& desc = registry_.desc(id);
    const auto* bytes = static_cast<const std::byte*>(elements);
    const std::uint32_t size = desc.size;
    // A table's rows all moving at once is only the same as moving them one by one when nobody
    // looks in between: an add observer would see later rows already moved.
    const bool whole_tables = !observers_.any(ObserverEvent::OnAdd, id);

    // add() of each, without what the checks above made redundant. The tables cannot change
    // under the loop: observers may not change structure.
    TableIndex source = kNoTable;
    TableIndex target = kNoTable;
    for (std::size_t i = 0; i < entities.size(); ++i) {
        const Entity e = entities[i];
        const std::uint32_t slot = pool_.layout().index(e);
        const TableIndex from = locations_[slot].table;
        if (from != source) {
            source = from;
            target = bulk_target(from, id, /*adding=*/true);
            const std::size_t run = whole_tables && target != from ? bulk_run(entities, i, from) : 0;
            if (run != 0 && run == graph_.table(from).size()) {
                move_whole_table(entities.subspan(i, run), from, target);
                if (bytes != nullptr && size != 0) {
                    Column& column = *graph_.table(target).column(id);
                    const std::uint32_t first_row = locations_[slot].row;
                    for (std::size_t k = 0; k < run; ++k) {
                        detail::copy_element(column.element(first_row + std::uint32_t(k)), bytes + (i + k) * size, size);
                    }
                }
                i += run - 1;
                continue;
            }
        }
        const ComponentValue value{id, bytes == nullptr || size == 0 ? nullptr : bytes + i * size,
                                   bytes == nullptr ? 0u : size};
        add_checked(e, locations_[slot], target, value);
    }
    retired_storage_.release();
}

void World::remove_many(std::span<const Entity> entities, ComponentId id) {
    check_bulk(entities, id, "remove_many");
    reserve_bulk_moves(entities, id, /*adding=*/false);
    const bool whole_tables = !observers_.any(ObserverEvent::OnRemove, id);  // as in add_many
    // What change_components does for one removal, without the checks made above.
    TableIndex source = kNoTable;
    TableIndex target = kNoTable;
    for (std::size_t i = 0; i < entities.size(); ++i) {
        const Entity e = entities[i];
        const TableIndex from = locations_[pool_.layout().index(e)].table;
        if (from != source) {
            source = from;
            target = bulk_target(from, id, /*adding=*/false);
            const std::size_t run = whole_tables && target != from ? bulk_run(entities, i, from) : 0;
            if (run != 0 && run == graph_.table(from).size()) {
                move_whole_table(entities.subspan(i, run), from, target);
                i += run - 1;
                continue;
            }
        }
        if (target == from) continue;  // does not have it
        fire(ObserverEvent::OnRemove, id, e);
        move_to(e, target);
    }
    retired_storage_.release();
}

}  // namespace ecsia
