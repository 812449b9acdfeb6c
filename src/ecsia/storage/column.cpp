#include "ecsia/storage/column.hpp"

#include <algorithm>
#include <cstring>
#include <new>

namespace ecsia {

Column::Column(const ComponentDesc& desc)
    : component_(desc.id), element_size_(desc.size), alignment_(std::max<std::uint32_t>(desc.alignment, 1)),
      default_element_(desc.size, std::byte{0}) {
    for (const FieldDesc& field : desc.fields) {
        if (field.type == FieldType::Entity) std::memset(default_element_.data() + field.offset, 0xFF, 4);
    }
}

Column::~Column() {
    if (data_ != nullptr) ::operator delete(data_, std::align_val_t(alignment_));
}

Column::Column(Column&& other) noexcept
    : component_(other.component_), element_size_(other.element_size_), alignment_(other.alignment_),
      data_(other.data_), default_element_(std::move(other.default_element_)),
      added_ticks_(std::move(other.added_ticks_)), changed_ticks_(std::move(other.changed_ticks_)),
      max_changed_tick_(other.max_changed_tick_), max_added_tick_(other.max_added_tick_) {
    other.data_ = nullptr;
}

void Column::mark_changed(std::uint32_t row, Tick tick) noexcept {
    changed_ticks_[row] = tick;
    max_changed_tick_ = std::max(max_changed_tick_, tick);
}

void Column::mark_added(std::uint32_t row, Tick tick) noexcept {
    added_ticks_[row] = tick;
    max_added_tick_ = std::max(max_added_tick_, tick);
    mark_changed(row, tick);
}

bool Column::reserve(std::uint32_t capacity, std::uint32_t rows) {
    added_ticks_.resize(capacity);
    changed_ticks_.resize(capacity);
    if (element_size_ == 0) return false;
    auto* fresh = static_cast<std::byte*>(::operator new(std::size_t(capacity) * element_size_, std::align_val_t(alignment_)));
    if (data_ != nullptr) {
        std::memcpy(fresh, data_, std::size_t(rows) * element_size_);
        ::operator delete(data_, std::align_val_t(alignment_));
    }
    data_ = fresh;
    return true;
}

void Column::init_row(std::uint32_t row, Tick tick) noexcept {
    if (element_size_ != 0) std::memcpy(element(row), default_element_.data(), element_size_);
    mark_added(row, tick);
}

void Column::copy_row_from(std::uint32_t row, const Column& source, std::uint32_t source_row) noexcept {
    if (element_size_ != 0) std::memcpy(element(row), source.element(source_row), element_size_);
    added_ticks_[row] = source.added_ticks_[source_row];
    changed_ticks_[row] = source.changed_ticks_[source_row];
    max_added_tick_ = std::max(max_added_tick_, added_ticks_[row]);
    max_changed_tick_ = std::max(max_changed_tick_, changed_ticks_[row]);
}

void Column::move_last_into(std::uint32_t row, std::uint32_t last) noexcept {
    if (row == last) return;
    if (element_size_ != 0) std::memcpy(element(row), element(last), element_size_);
    added_ticks_[row] = added_ticks_[last];
    changed_ticks_[row] = changed_ticks_[last];
}

}  // namespace ecsia
