#pragma once
// ParentView: in a cascade system's batch (schedule/system.hpp, SystemDesc::cascade), the values
// of its rows' parents (each row's target of the cascade relation) for the components it declared
// in parent_reads. Shaped like the chunk's own column access: read<T>(id)[i] is the parent's value
// for the chunk's row i, as earlier depth levels left it this frame.
//
// The values are a copy gathered for the batch when it starts (after the levels above it
// finished), so the kernel reads a plain array; writing the parents is not possible through it.
// A parent that lacks the component gives the component's default value (zero bytes).
// Thread rule: made and read by the one thread that runs the batch.

#include <cstddef>
#include <span>

#include "ecsia/base/ids.hpp"

namespace ecsia {

class ParentView {
public:
    ParentView() = default;
    // ids[k]'s gathered values are at data[k] (one element per row of the chunk).
    ParentView(std::span<const ComponentId> ids, std::span<const std::byte* const> data) noexcept
        : ids_(ids), data_(data) {}

    // The parents' values of `id`, one per row of the chunk; nullptr when `id` is not one of the
    // system's parent reads (in every build: declaring it is what makes the batch gather it).
    template <typename T>
    const T* read(ComponentId id) const noexcept {
        return reinterpret_cast<const T*>(raw(id));
    }
    const std::byte* raw(ComponentId id) const noexcept {
        for (std::size_t k = 0; k < ids_.size(); ++k) {
            if (ids_[k] == id) return data_[k];
        }
        return nullptr;
    }
    std::span<const ComponentId> ids() const noexcept { return ids_; }

private:
    std::span<const ComponentId> ids_;
    std::span<const std::byte* const> data_;
};

}  // namespace ecsia
