#include "ecsia/entity/pending_scan.hpp"

#include "ecsia/base/u32x4.hpp"

namespace ecsia {

using simd::U32x4;

bool any_pending(const HandleLayout& layout, const std::uint32_t* handles, std::uint32_t count) noexcept {
    // is_pending's one unsigned compare, lane by lane: the pending handles are the `span` values
    // from pending(0) on.
    const std::uint32_t first = layout.pending(0).bits;
    const std::uint32_t span = layout.index_mask();
    const U32x4 firsts = simd::splat_u32x4(first);
    const U32x4 spans = simd::splat_u32x4(span);
    U32x4 found = simd::splat_u32x4(0);
    std::uint32_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const U32x4 words = simd::load_u32x4(handles + i);
        found |= reinterpret_cast<U32x4>(words - firsts < spans);
    }
    bool any = (found[0] | found[1] | found[2] | found[3]) != 0;
    for (; i < count; ++i) any |= layout.is_pending(Entity{handles[i]});
    return any;
}

}  // namespace ecsia
