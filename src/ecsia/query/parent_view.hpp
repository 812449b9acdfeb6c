#pragma once
// ParentView: in a cascade system's batch (schedule/system.hpp, SystemDesc::cascade), the values
// of its rows' parents (each row's target of the cascade relation) for the components it declared
// in parent_reads, as earlier depth levels left them this frame. Two ways to read them:
//
//   column<T>(id)[i]  the parent's value for the chunk's row i, read where the parent's row is:
//                     no copy, one indirection per read. The fast way in a C++ kernel.
//   read<T>(id)[i]    the same values as one contiguous array, copied for the chunk by the first
//                     read of `id` (one pass over its rows): for code that wants a plain array
//                     (SIMD, a function taking a pointer, the JS views).
//
// Writing the parents is not possible through either. A parent that lacks the component gives the
// component's default value (zero bytes). Both are valid while the kernel runs (nothing moves rows
// during a wave). A main-thread cascade system's views are copies made when its call begins, so
// they stay valid for the whole call, whatever structural changes it makes.
// Thread rule: made and read by the one thread that runs the batch (read() fills its copy then:
// not from threads of the kernel's own).

#include <cstddef>
#include <cstdint>
#include <span>

#include "ecsia/base/ids.hpp"

namespace ecsia {

// The parents' values of one component for a chunk's rows, indexed by the chunk's row.
template <typename T>
class ParentColumn {
public:
    ParentColumn() = default;
    explicit ParentColumn(const std::byte* const* parents) noexcept : parents_(parents) {}

    const T& operator[](std::size_t row) const noexcept { return *reinterpret_cast<const T*>(parents_[row]); }
    // False when the component is not one of the system's parent reads.
    explicit operator bool() const noexcept { return parents_ != nullptr; }

private:
    const std::byte* const* parents_ = nullptr;
};

class ParentView {
public:
    // One parent read of a chunk, as the scheduler sets it up before the chunk runs.
    struct Read {
        ComponentId id = kNoComponent;
        std::uint32_t size = 0;                   // bytes per element
        const std::byte* const* parents = nullptr;  // parents[i]: the element of the chunk's row i's parent
        std::byte* copy = nullptr;                // room for `rows` elements: read()'s array
        bool copied = false;                      // copy holds this frame's values
    };

    ParentView() = default;
    ParentView(std::span<Read> reads, std::uint32_t rows) noexcept : reads_(reads), rows_(rows) {}

    // The parents' values of `id`, read in place; a false column when `id` is not one of the
    // system's parent reads (in every build: declaring it is what makes the batch find them).
    template <typename T>
    ParentColumn<T> column(ComponentId id) const noexcept {
        const Read* read = find(id);
        return ParentColumn<T>(read != nullptr ? read->parents : nullptr);
    }
    // The parents' values of `id` as one array (copied on the first call); nullptr when `id` is
    // not one of the system's parent reads.
    template <typename T>
    const T* read(ComponentId id) const noexcept {
        return reinterpret_cast<const T*>(raw(id));
    }
    const std::byte* raw(ComponentId id) const noexcept;
    // Copies the parents' elements of `read` into read.copy (its `rows` rows) and marks it copied:
    // what read() does on its first call; the scheduler's, for views copied ahead.
    static void copy_parents(Read& read, std::uint32_t rows) noexcept;

private:
    const Read* find(ComponentId id) const noexcept {
        for (const Read& read : reads_) {
            if (read.id == id) return &read;
        }
        return nullptr;
    }

    std::span<Read> reads_;  // the scheduler's: raw() fills their copies
    std::uint32_t rows_ = 0;
};

}  // namespace ecsia
