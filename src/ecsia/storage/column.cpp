#include "ecsia/storage/column.hpp"

#include <algorithm>
#include <cstring>
#include <new>

namespace ecsia {

Column::Column(const ComponentDesc& desc)
    : component_(desc.id), element_size_(desc.size), alignment_(std::max<std::uint32_t>(desc.alignment, kColumnAlignment)),
      default_element_(default_element(desc)) {}

Column::~Column() {
    if (data_ != nullptr) ::operator delete(data_, std::align_val_t(alignment_));
}

Column::Column(Column&& other) noexcept
    : component_(other.component_), element_size_(other.element_size_), alignment_(other.alignment_),
      data_(other.data_), default_element_(std::move(other.default_element_)),
      added_ticks_(std::move(other.added_ticks_)), changed_ticks_(std::move(other.changed_ticks_)),
      max_changed_tick_(other.max_changed_tick_), max_added_tick_(other.max_added_tick_),
      bulk_changed_rows_(other.bulk_changed_rows_), bulk_changed_tick_(other.bulk_changed_tick_),
      uniform_added_(other.uniform_added_), uniform_changed_(other.uniform_changed_),
      added_version_(other.added_version_), changed_version_(other.changed_version_),
      changed_matches_added_(other.changed_matches_added_), added_matches_reference_(other.added_matches_reference_) {
    other.data_ = nullptr;
}

void Column::mark_changed_range(std::uint32_t begin, std::uint32_t end, Tick tick) noexcept {
    if (begin >= end) return;
    // No row has a newer tick than `tick`, so raising rows to it equals writing it into each. A
    // range from row 0 replaces the stamp; a range that continues the stamp at the same tick
    // extends it, which is how a table written in row batches (the scheduler's merge, in batch
    // order) still ends up as one stamp.
    const bool from_start = begin == 0;
    const bool continues = begin <= bulk_changed_rows_ && tick == bulk_changed_tick_;
    if ((from_start || continues) && end >= bulk_changed_rows_ && tick >= max_changed_tick_) {
        bulk_changed_rows_ = end;
        bulk_changed_tick_ = tick;
        max_changed_tick_ = tick;
        return;
    }
    if (begin < bulk_changed_rows_ && tick < bulk_changed_tick_) settle_bulk_from(begin);
    std::fill(changed_ticks_.begin() + begin, changed_ticks_.begin() + end, tick);
    ++changed_version_;
    uniform_changed_.known = false;
    max_changed_tick_ = std::max(max_changed_tick_, tick);
}

void Column::settle_bulk_from(std::uint32_t from) const noexcept {
    if (from < bulk_changed_rows_) {
        uniform_changed_.known = false;
        ++changed_version_;
    }
    for (std::uint32_t row = from; row < bulk_changed_rows_; ++row) {
        changed_ticks_[row] = std::max(changed_ticks_[row], bulk_changed_tick_);
    }
    bulk_changed_rows_ = std::min(bulk_changed_rows_, from);
}

void Column::copy_rows_from(std::uint32_t row, const Column& source, std::uint32_t source_row, std::uint32_t count) noexcept {
    if (count == 0) return;
    if (element_size_ != 0) std::memcpy(element(row), source.element(source_row), std::size_t(count) * element_size_);
    bool matched = changed_matches_added() && row >= bulk_changed_rows_;
    if (row < bulk_changed_rows_) settle_bulk_from(row);
    std::memcpy(added_ticks_.data() + row, source.added_ticks_.data() + source_row, std::size_t(count) * sizeof(Tick));
    Tick newest_added = max_added_tick_;
    Tick newest_changed = max_changed_tick_;
    for (std::uint32_t i = 0; i < count; ++i) {
        const Tick changed = source.changed_tick(source_row + i);  // the source's bulk stamp included
        changed_ticks_[row + i] = changed;
        matched = matched && changed == added_ticks_[row + i];
        newest_changed = std::max(newest_changed, changed);
        newest_added = std::max(newest_added, added_ticks_[row + i]);
    }
    max_added_tick_ = newest_added;
    max_changed_tick_ = newest_changed;
    ++added_version_;
    ++changed_version_;
    if (matched) record_changed_matches_added();
    uniform_added_.known = false;
    uniform_changed_.known = false;
}

void Column::init_rows(std::uint32_t row, std::uint32_t count, Tick tick) noexcept {
    if (count == 0) return;
    for (std::uint32_t i = 0; i < count; ++i) detail::copy_element(element(row + i), default_element_.data(), element_size_);
    const bool matched = changed_matches_added() && !(row < bulk_changed_rows_ && tick < bulk_changed_tick_);
    if (row < bulk_changed_rows_ && tick < bulk_changed_tick_) settle_bulk_from(row);
    std::fill(added_ticks_.begin() + row, added_ticks_.begin() + row + count, tick);
    std::fill(changed_ticks_.begin() + row, changed_ticks_.begin() + row + count, tick);
    ++added_version_;
    ++changed_version_;
    if (matched) record_changed_matches_added();
    uniform_added_.known = false;
    uniform_changed_.known = false;
    max_added_tick_ = std::max(max_added_tick_, tick);
    max_changed_tick_ = std::max(max_changed_tick_, tick);
}

void Column::permute_rows(const std::vector<std::uint32_t>& order, std::vector<std::byte>& scratch) {
    const auto rows = static_cast<std::uint32_t>(order.size());
    if (rows == 0) return;
    // The bulk stamp covers a prefix of rows; after a reorder its rows are elsewhere, so fold it
    // into the per-row ticks first. A permutation keeps a uniform-tick memo true (same ticks).
    settle_bulk_from(0);
    // Both arrays are permuted alike, but the memos of matching arrays are forgotten all the same:
    // reorders are rare, and a memo kept wrong would make a snapshot store wrong ticks.
    ++added_version_;
    ++changed_version_;
    if (element_size_ != 0) {
        scratch.resize(std::size_t(rows) * element_size_);
        std::memcpy(scratch.data(), data_, scratch.size());
        for (std::uint32_t row = 0; row < rows; ++row) {
            detail::copy_element(element(row), scratch.data() + std::size_t(order[row]) * element_size_, element_size_);
        }
    }
    for (std::vector<Tick>* ticks : {&added_ticks_, &changed_ticks_}) {
        scratch.resize(std::size_t(rows) * sizeof(Tick));
        std::memcpy(scratch.data(), ticks->data(), scratch.size());
        const auto* old = reinterpret_cast<const Tick*>(scratch.data());
        for (std::uint32_t row = 0; row < rows; ++row) (*ticks)[row] = old[order[row]];
    }
}

bool Column::reserve(std::uint32_t capacity, std::uint32_t rows, RetiredStorage* retired) {
    added_ticks_.resize(capacity);
    changed_ticks_.resize(capacity);
    if (element_size_ == 0) return false;
    const bool keep = retired != nullptr && data_ != nullptr;
    if (keep) retired->kept_.reserve(retired->kept_.size() + 1);  // the push below cannot throw
    auto* fresh = static_cast<std::byte*>(::operator new(std::size_t(capacity) * element_size_, std::align_val_t(alignment_)));
    if (data_ != nullptr) {
        std::memcpy(fresh, data_, std::size_t(rows) * element_size_);
        if (keep) {
            retired->kept_.emplace_back(data_, alignment_);
        } else {
            ::operator delete(data_, std::align_val_t(alignment_));
        }
    }
    data_ = fresh;
    return true;
}

void RetiredStorage::release_kept() noexcept {
    for (const auto& [data, alignment] : kept_) ::operator delete(data, std::align_val_t(alignment));
    kept_.clear();
}

}  // namespace ecsia
