#include "ecsia/query/parent_view.hpp"

#include <cstring>

namespace ecsia {

namespace {

template <std::size_t Size>
void copy_elements(const std::byte* const* from, std::uint32_t rows, std::byte* out) noexcept {
    for (std::uint32_t i = 0; i < rows; ++i) std::memcpy(out + std::size_t(i) * Size, from[i], Size);
}

}  // namespace

void ParentView::copy_parents(Read& read, std::uint32_t rows) noexcept {
    // Fixed sizes make each copy a load and a store (the common 2D/3D/4D vectors).
    switch (read.size) {
        case 4: copy_elements<4>(read.parents, rows, read.copy); break;
        case 8: copy_elements<8>(read.parents, rows, read.copy); break;
        case 12: copy_elements<12>(read.parents, rows, read.copy); break;
        case 16: copy_elements<16>(read.parents, rows, read.copy); break;
        default:
            for (std::uint32_t i = 0; i < rows; ++i) std::memcpy(read.copy + std::size_t(i) * read.size, read.parents[i], read.size);
    }
    read.copied = true;
}

const std::byte* ParentView::raw(ComponentId id) const noexcept {
    // The span's elements are the scheduler's, not this view's: filling a copy is allowed here.
    for (Read& read : reads_) {
        if (read.id != id) continue;
        if (!read.copied) copy_parents(read, rows_);
        return read.copy;
    }
    return nullptr;
}

}  // namespace ecsia
