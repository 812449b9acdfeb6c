#include "ecsia/snapshot/tick_runs.hpp"

#include <cstring>

namespace ecsia {

namespace {

// Four 32-bit lanes: the vector extension, SSE2 natively and wasm SIMD with -msimd128.
typedef std::uint32_t U32x4 __attribute__((vector_size(16)));

}  // namespace

std::uint32_t count_tick_runs(const Tick* ticks, std::uint32_t rows, std::uint32_t limit) noexcept {
    const auto* t = reinterpret_cast<const unsigned char*>(ticks);
    constexpr std::uint32_t kStep = 16;
    constexpr std::uint32_t kCheck = 1024;
    std::uint32_t runs = 1;
    std::uint32_t at = 1;
    // Each row against the one before it (one load shifted by a row): a lane compare gives ~0
    // where a run starts, so subtracting the masks counts the starts, 16 rows a step.
    while (at + kStep <= rows) {
        const std::uint32_t end = rows - at < kCheck ? rows - (rows - at) % kStep : at + kCheck;
        U32x4 starts = {0, 0, 0, 0};
        for (; at < end; at += kStep) {
            for (std::uint32_t i = 0; i < kStep; i += 4) {
                U32x4 here, before;
                std::memcpy(&here, t + 4 * std::size_t(at + i), 16);
                std::memcpy(&before, t + 4 * std::size_t(at + i - 1), 16);
                starts -= reinterpret_cast<U32x4>(here != before);
            }
        }
        runs += starts[0] + starts[1] + starts[2] + starts[3];
        if (runs > limit) return limit + 1;
    }
    for (; at < rows; ++at) runs += ticks[at] != ticks[at - 1] ? 1u : 0u;
    return runs > limit ? limit + 1 : runs;
}

}  // namespace ecsia
