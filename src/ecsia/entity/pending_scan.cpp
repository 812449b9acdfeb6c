#include "ecsia/entity/pending_scan.hpp"

#include <cstring>

namespace ecsia {

namespace {

// Four 32-bit lanes: the vector extension, SSE2 natively and wasm SIMD with -msimd128.
typedef std::uint32_t U32x4 __attribute__((vector_size(16)));

}  // namespace

bool any_pending(const HandleLayout& layout, const std::uint32_t* handles, std::uint32_t count) noexcept {
    // is_pending's one unsigned compare, lane by lane: the pending handles are the `span` values
    // from pending(0) on.
    const std::uint32_t first = layout.pending(0).bits;
    const std::uint32_t span = layout.index_mask();
    const U32x4 firsts = {first, first, first, first};
    const U32x4 spans = {span, span, span, span};
    U32x4 found = {0, 0, 0, 0};
    std::uint32_t i = 0;
    for (; i + 4 <= count; i += 4) {
        U32x4 words;
        std::memcpy(&words, handles + i, 16);
        found |= reinterpret_cast<U32x4>(words - firsts < spans);
    }
    bool any = (found[0] | found[1] | found[2] | found[3]) != 0;
    for (; i < count; ++i) any |= layout.is_pending(Entity{handles[i]});
    return any;
}

}  // namespace ecsia
