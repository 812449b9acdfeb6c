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
    Tick* added_ticks() noexcept { return added_ticks_.data(); }
    Tick* changed_ticks() noexcept { return changed_ticks_.data(); }
    const Tick* added_ticks() const noexcept { return added_ticks_.data(); }
    const Tick* changed_ticks() const noexcept { return changed_ticks_.data(); }
    // The newest changed tick of any row: lets a `changed` filter skip a whole table in O(1).
    Tick max_changed_tick() const noexcept { return max_changed_tick_; }
    Tick max_added_tick() const noexcept { return max_added_tick_; }
    void mark_changed(std::uint32_t row, Tick tick) noexcept;
    void mark_added(std::uint32_t row, Tick tick) noexcept;

    // Reallocates to hold `capacity` rows, keeping the first `rows`. Returns true if data moved.
    bool reserve(std::uint32_t capacity, std::uint32_t rows);
    // Writes the component's default element: zero bytes, entity fields null.
    void init_row(std::uint32_t row, Tick tick) noexcept;
    void copy_row_from(std::uint32_t row, const Column& source, std::uint32_t source_row) noexcept;
    void move_last_into(std::uint32_t row, std::uint32_t last) noexcept;

private:
    ComponentId component_;
    std::uint32_t element_size_;
    std::uint32_t alignment_;
    std::byte* data_ = nullptr;
    std::vector<std::byte> default_element_;
    std::vector<Tick> added_ticks_;
    std::vector<Tick> changed_ticks_;
    Tick max_changed_tick_ = 0;
    Tick max_added_tick_ = 0;
};

}  // namespace ecsia
