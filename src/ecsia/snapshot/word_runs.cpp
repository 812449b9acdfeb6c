#include "ecsia/snapshot/word_runs.hpp"

#include "ecsia/base/u32x4.hpp"

namespace ecsia {

using simd::U32x4;

std::uint32_t count_word_runs(const std::uint32_t* words, std::uint32_t from, std::uint32_t count, std::uint32_t limit,
                              std::uint32_t increment) noexcept {
    const auto* w = reinterpret_cast<const unsigned char*>(words);
    constexpr std::uint32_t kStep = 16;
    constexpr std::uint32_t kCheck = 1024;
    const U32x4 step = simd::splat_u32x4(increment);
    std::uint32_t runs = 1;
    std::uint32_t at = from + 1;
    // Each word against the one before it (one load shifted by a word): a lane compare gives ~0
    // where a run starts, so subtracting the masks counts the starts.
    while (at + kStep <= count) {
        const std::uint32_t end = count - at < kCheck ? count - (count - at) % kStep : at + kCheck;
        U32x4 starts = simd::splat_u32x4(0);
        for (; at < end; at += kStep) {
            for (std::uint32_t i = 0; i < kStep; i += 4) {
                const U32x4 here = simd::load_u32x4(w + 4 * std::size_t(at + i));
                const U32x4 before = simd::load_u32x4(w + 4 * std::size_t(at + i - 1));
                starts -= reinterpret_cast<U32x4>(here != before + step);
            }
        }
        runs += starts[0] + starts[1] + starts[2] + starts[3];
        if (runs > limit) return limit + 1;
    }
    for (; at < count; ++at) runs += words[at] != words[at - 1] + increment ? 1u : 0u;
    return runs > limit ? limit + 1 : runs;
}

}  // namespace ecsia
