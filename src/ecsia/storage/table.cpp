#include "ecsia/storage/table.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace ecsia {

Table::Table(TableIndex index, std::vector<ComponentId> signature, const ComponentRegistry& registry,
             std::uint64_t* storage_generation)
    : index_(index), signature_(std::move(signature)), storage_generation_(storage_generation) {
    columns_.reserve(signature_.size());
    const ComponentId max_id = signature_.empty() ? 0 : signature_.back();
    column_slot_by_component_.assign(signature_.empty() ? 0 : max_id + 1, -1);
    for (std::size_t i = 0; i < signature_.size(); ++i) {
        columns_.emplace_back(registry.desc(signature_[i]));
        column_slot_by_component_[signature_[i]] = static_cast<int>(i);
        if (registry.desc(signature_[i]).name < registry.desc(signature_[ticks_reference_]).name) ticks_reference_ = static_cast<std::uint32_t>(i);
    }
}

void Table::reserve(std::uint32_t rows, RetiredStorage* retired) {
    if (rows <= capacity_) return;
    const std::uint32_t capacity = std::max<std::uint32_t>({rows, capacity_ * 2, 16});
    bool moved = false;
    try {
        for (Column& column : columns_) moved |= column.reserve(capacity, size(), retired);
        entities_.reserve(capacity);
    } catch (...) {
        // Out of heap part way (std::bad_alloc): the rows are all still there, but the columns
        // that did move must still invalidate the views of their old storage.
        if (moved) ++*storage_generation_;
        throw;
    }
    capacity_ = capacity;
    if (moved) ++*storage_generation_;
}

std::uint64_t Table::added_matches_among() const noexcept {
    if (columns_.size() > 64) return 0;
    const Column& reference = columns_[ticks_reference_];
    std::uint64_t matched = 0;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
        if (i != ticks_reference_ && columns_[i].added_matches(reference)) matched |= std::uint64_t{1} << i;
    }
    return matched;
}

void Table::keep_added_matches_among(std::uint64_t matched, std::uint32_t row, std::uint32_t count) noexcept {
    const Column& reference = columns_[ticks_reference_];
    for (; matched != 0; matched &= matched - 1) {
        Column& column = columns_[static_cast<std::size_t>(std::countr_zero(matched))];
        // One row (a spawn or a move) compares inline: a memcmp call cost more than the compare.
        const bool same = count == 1 ? column.added_ticks_[row] == reference.added_ticks_[row]
                                     : std::memcmp(column.added_ticks_.data() + row, reference.added_ticks_.data() + row,
                                                   std::size_t(count) * sizeof(Tick)) == 0;
        if (same) {
            column.record_added_matches(reference);
        }
    }
}

std::uint32_t Table::push_default(Entity entity, Tick tick) {
    const std::uint32_t row = push_entity(entity);
    const std::uint64_t matched = added_matches_before();
    for (Column& column : columns_) column.init_row(row, tick);
    keep_added_matches(matched, row, 1);
    return row;
}

std::uint32_t Table::push_moved_rows(std::span<const Entity> entities, const Table& source, std::uint32_t source_row, Tick tick) {
    const std::uint32_t row = size();
    const auto count = static_cast<std::uint32_t>(entities.size());
    if (row + count > capacity_) reserve(row + count);
    entities_.insert(entities_.end(), entities.begin(), entities.end());
    ++row_version_;
    const std::uint64_t matched = added_matches_before();
    for (Column& column : columns_) {
        if (const Column* from = source.column(column.component())) {
            column.copy_rows_from(row, *from, source_row, count);
        } else {
            column.init_rows(row, count, tick);
        }
    }
    keep_added_matches(matched, row, count);
    return row;
}

void Table::permute_rows(const std::vector<std::uint32_t>& order) {
    // Everything that allocates comes first: out of heap, no row has moved yet.
    std::uint32_t widest = sizeof(Tick);
    for (const Column& column : columns_) widest = std::max(widest, column.element_size());
    std::vector<std::byte> scratch;
    scratch.reserve(std::size_t(widest) * order.size());
    const std::vector<Entity> old = entities_;
    for (Column& column : columns_) column.permute_rows(order, scratch);
    for (std::size_t row = 0; row < order.size(); ++row) entities_[row] = old[order[row]];
    counted_rows_ = 0;
    ++row_version_;
}

void Table::clear() noexcept {
    for (Column& column : columns_) column.forget_rows();
    entities_.clear();
    counted_rows_ = 0;
    ++row_version_;
}

}  // namespace ecsia
