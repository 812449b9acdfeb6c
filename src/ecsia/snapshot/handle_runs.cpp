#include "ecsia/snapshot/handle_runs.hpp"

#include "ecsia/base/little_endian.hpp"
#include "ecsia/base/u32x4.hpp"

namespace ecsia {

namespace {

using simd::U32x4;

using little_endian::load_u32;

static_assert(sizeof(Entity) == 4, "rows of handles are read as u32 words");

// Whether the `n` handles at `rows` are first, first + 1, ...: 16 a step without a branch, a
// difference stopping the scan at the end of the 1,024 rows it lies in.
bool consecutive(const Entity* rows, std::uint32_t first, std::uint32_t n) noexcept {
    const auto* h = reinterpret_cast<const unsigned char*>(rows);
    constexpr std::uint32_t kStep = 16;
    constexpr std::uint32_t kRun = 1024;
    const U32x4 step = simd::splat_u32x4(4);
    U32x4 expect = {first, first + 1, first + 2, first + 3};
    const std::uint32_t steps_end = n - n % kStep;
    std::uint32_t at = 0;
    while (at < steps_end) {
        const std::uint32_t end = steps_end - at < kRun ? steps_end : at + kRun;
        U32x4 differs = simd::splat_u32x4(0);
        for (; at < end; at += kStep) {
            for (std::uint32_t i = 0; i < kStep; i += 4) {
                const U32x4 words = simd::load_u32x4(h + 4 * std::size_t(at + i));
                differs |= words ^ expect;
                expect += step;
            }
        }
        if ((differs[0] | differs[1] | differs[2] | differs[3]) != 0) return false;
    }
    for (; at < n; ++at) {
        if (rows[at].bits != first + at) return false;
    }
    return true;
}

}  // namespace

std::uint32_t next_run_start(const Entity* rows, std::uint32_t from, std::uint32_t rows_count) noexcept {
    const auto* h = reinterpret_cast<const unsigned char*>(rows);
    constexpr std::uint32_t kStep = 16;
    const U32x4 one = simd::splat_u32x4(1);
    std::uint32_t at = from;
    // Each row against the one before it (one load shifted by a row), 16 rows a step; the step
    // with a break is searched row by row below.
    for (; at + kStep <= rows_count; at += kStep) {
        U32x4 breaks = simd::splat_u32x4(0);
        for (std::uint32_t i = 0; i < kStep; i += 4) {
            const U32x4 here = simd::load_u32x4(h + 4 * std::size_t(at + i));
            const U32x4 before = simd::load_u32x4(h + 4 * std::size_t(at + i - 1));
            breaks |= here - before - one;  // zero where a row follows the one before it
        }
        if ((breaks[0] | breaks[1] | breaks[2] | breaks[3]) != 0) break;
    }
    for (; at < rows_count; ++at) {
        if (rows[at].bits != rows[at - 1].bits + 1) return at;
    }
    return rows_count;
}

bool rows_follow_runs(const Entity* rows, std::uint32_t known, const std::byte* runs, std::uint32_t count) noexcept {
    std::size_t row = 0;
    for (std::uint32_t r = 0; r < count; ++r) {
        const std::uint32_t first = load_u32(runs + 8 * std::size_t(r));
        const std::uint32_t length = load_u32(runs + 8 * std::size_t(r) + 4);
        // The first run's rows up to `known` hold first, first + 1, ... once the first row does.
        const std::uint32_t skip = r == 0 && length > 0 && rows[0].bits == first ? (known < length ? known : length) : 0;
        if (!consecutive(rows + row + skip, first + skip, length - skip)) return false;
        row += length;
    }
    return true;
}

void expand_runs(const std::byte* runs, std::uint32_t count, Entity* out) noexcept {
    for (std::uint32_t r = 0; r < count; ++r) {
        const std::uint32_t first = load_u32(runs + 8 * std::size_t(r));
        const std::uint32_t length = load_u32(runs + 8 * std::size_t(r) + 4);
        for (std::uint32_t i = 0; i < length; ++i) out[i].bits = first + i;
        out += length;
    }
}

}  // namespace ecsia
