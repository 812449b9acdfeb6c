#include "ecsia/snapshot/word_runs.hpp"

#include "ecsia/base/little_endian.hpp"
#include "ecsia/base/u32x4.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ecsia {

using simd::U32x4;

namespace {

// Whether any lane is non-zero: one instruction where there is one for it. Defined here, not in
// u32x4.hpp: this file alone is compiled with -msimd128 among its includers, and an inline
// function of a header must be the same in every file.
bool any_lane(U32x4 lanes) noexcept {
#if defined(__wasm_simd128__)
    return wasm_v128_any_true(reinterpret_cast<v128_t>(lanes));
#elif defined(__SSE2__)
    return _mm_movemask_epi8(reinterpret_cast<__m128i>(lanes)) != 0;
#else
    return (lanes[0] | lanes[1] | lanes[2] | lanes[3]) != 0;
#endif
}

}  // namespace

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

std::uint32_t write_equal_word_runs(const std::uint32_t* words, std::uint32_t count, unsigned char* out) noexcept {
    return write_equal_word_runs_within(words, count, count, out);
}

std::uint32_t write_equal_word_runs_within(const std::uint32_t* words, std::uint32_t count, std::uint32_t limit,
                                           unsigned char* out) noexcept {
    const auto* w = reinterpret_cast<const unsigned char*>(words);
    std::uint32_t runs = 0;
    for (std::uint32_t start = 0; start < count; ++runs) {
        if (runs == limit) return limit + 1;
        const std::uint32_t word = words[start];
        const U32x4 same = simd::splat_u32x4(word);
        std::uint32_t end = start + 1;
        // Sixteen words a step through a long run, then four, then one to find where it ends.
        auto differs = [&](std::uint32_t at) { return reinterpret_cast<U32x4>(simd::load_u32x4(w + 4 * std::size_t(at)) != same); };
        while (end + 16 <= count && !any_lane(differs(end) | differs(end + 4) | differs(end + 8) | differs(end + 12))) end += 16;
        while (end + 4 <= count && !any_lane(differs(end))) end += 4;
        while (end < count && words[end] == word) ++end;
        little_endian::store_u32(out, word);
        little_endian::store_u32(out + 4, end - start);
        out += 8;
        start = end;
    }
    return runs;
}

}  // namespace ecsia
