#pragma once
// Column: one component's elements for every row of a table, contiguous, laid out as the
// component's descriptor says, plus per-row change ticks. Type-erased: it moves bytes, never calls
// constructors (components are trivially copyable by definition).
// Serial phase only, except element and tick writes to distinct rows, which workers may make in a
// wave because the plan gives each row range of a written component to exactly one batch.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/schema/component_desc.hpp"

namespace ecsia {

class Column {
public:
    explicit Column(const ComponentDesc& desc);
    ~Column();
    Column(Column&& other) noexcept;
    Column& operator=(Column&&) = delete;
    Column(const Column&) = delete;

    ComponentId component() const noexcept { return component_; }
    std::uint32_t element_size() const noexcept { return element_size_; }
    std::byte* data() noexcept { return data_; }
    const std::byte* data() const noexcept { return data_; }
    std::byte* element(std::uint32_t row) noexcept { return data_ + std::size_t(row) * element_size_; }
    const std::byte* element(std::uint32_t row) const noexcept { return data_ + std::size_t(row) * element_size_; }

    // When each row got this component, and when its value last changed.
    //
    // Changed ticks have two parts: a per-row array, and a bulk stamp that raises rows
    // [0, bulk_changed_rows()) to at least bulk_changed_tick(). The bulk stamp is how a write of a
    // whole table (the common kernel case) costs O(1) instead of a fill of one tick per row.
    // changed_tick(row) and the filters read both parts as they are. changed_ticks() first folds
    // the bulk stamp into the array (O(rows) once per stamp), so its values are exact; like every
    // other structural access it is serial-phase only, the const overload included.
    Tick* added_ticks() noexcept { return added_ticks_.data(); }
    const Tick* added_ticks() const noexcept { return added_ticks_.data(); }
    Tick* changed_ticks() noexcept {
        settle_bulk_from(0);
        return changed_ticks_.data();
    }
    const Tick* changed_ticks() const noexcept {
        settle_bulk_from(0);
        return changed_ticks_.data();
    }
    // The per-row part alone, without folding in the bulk stamp: for readers that apply it.
    const Tick* own_changed_ticks() const noexcept { return changed_ticks_.data(); }
    Tick changed_tick(std::uint32_t row) const noexcept {
        const Tick own = changed_ticks_[row];
        return row < bulk_changed_rows_ && bulk_changed_tick_ > own ? bulk_changed_tick_ : own;
    }
    std::uint32_t bulk_changed_rows() const noexcept { return bulk_changed_rows_; }
    Tick bulk_changed_tick() const noexcept { return bulk_changed_tick_; }
    // The newest changed tick of any row: lets a `changed` filter skip a whole table in O(1).
    Tick max_changed_tick() const noexcept { return max_changed_tick_; }
    Tick max_added_tick() const noexcept { return max_added_tick_; }
    void mark_changed(std::uint32_t row, Tick tick) noexcept;
    // Marks rows [begin, end) changed at `tick`. A prefix range (begin == 0) becomes the bulk stamp
    // in O(1) when ticks have not gone backwards; any other range is stamped row by row.
    void mark_changed_range(std::uint32_t begin, std::uint32_t end, Tick tick) noexcept;
    void mark_added(std::uint32_t row, Tick tick) noexcept;

    // Reallocates to hold `capacity` rows, keeping the first `rows`. Returns true if data moved.
    bool reserve(std::uint32_t capacity, std::uint32_t rows);
    // Writes the component's default element: zero bytes, entity fields null.
    void init_row(std::uint32_t row, Tick tick) noexcept;
    void copy_row_from(std::uint32_t row, const Column& source, std::uint32_t source_row) noexcept;
    // Moves row `last` into `row` (swap-remove); `last` is the table's last row, which then leaves.
    void move_last_into(std::uint32_t row, std::uint32_t last) noexcept;

private:
    // Folds the bulk stamp of rows [from, bulk_changed_rows_) into their per-row ticks and shrinks
    // the stamp to [0, from): needed before a row from outside the stamp moves under it. Const
    // because it never changes any row's changed tick, only where it is stored.
    void settle_bulk_from(std::uint32_t from) const noexcept;

    ComponentId component_;
    std::uint32_t element_size_;
    std::uint32_t alignment_;
    std::byte* data_ = nullptr;
    std::vector<std::byte> default_element_;
    std::vector<Tick> added_ticks_;
    mutable std::vector<Tick> changed_ticks_;  // mutable: settle_bulk_from (see changed_ticks())
    Tick max_changed_tick_ = 0;
    Tick max_added_tick_ = 0;
    // Invariant: bulk_changed_rows_ <= the table's row count, so rows appended later are never
    // covered by a stamp they did not receive.
    mutable std::uint32_t bulk_changed_rows_ = 0;
    Tick bulk_changed_tick_ = 0;
};

}  // namespace ecsia
