#include "ecsia/snapshot/same_bytes.hpp"

#include <cstdint>

#include "ecsia/base/u32x4.hpp"

namespace ecsia {

using simd::U32x4;

bool same_bytes(const std::byte* a, const std::byte* b, std::size_t size) noexcept {
    // 64 bytes (four vectors) a step, differences or-ed together without a branch; a difference
    // stops the scan at the end of the 1 KB run it lies in.
    constexpr std::size_t kStep = 64;
    constexpr std::size_t kRun = 1024;
    const std::size_t steps_end = size - size % kStep;
    std::size_t at = 0;
    while (at < steps_end) {
        const std::size_t end = steps_end - at < kRun ? steps_end : at + kRun;
        U32x4 differs = simd::splat_u32x4(0);
        for (; at < end; at += kStep) {
            for (std::size_t i = 0; i < kStep; i += 16) {
                const U32x4 x = simd::load_u32x4(a + at + i);
                const U32x4 y = simd::load_u32x4(b + at + i);
                differs |= x ^ y;
            }
        }
        if ((differs[0] | differs[1] | differs[2] | differs[3]) != 0) return false;
    }
    for (; at < size; ++at) {
        if (a[at] != b[at]) return false;
    }
    return true;
}

}  // namespace ecsia
