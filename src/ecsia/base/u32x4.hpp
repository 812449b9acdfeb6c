#pragma once
// U32x4: four 32-bit lanes as one value, GCC's and Clang's vector extension. It becomes SSE2
// natively and wasm SIMD in the files the browser build compiles with -msimd128 (the list is in
// wasm/CMakeLists.txt), scalar code elsewhere. The engine's scans use it where plain loops over
// the lanes did not vectorise well; each keeps a scalar tail for what is not a whole vector.

#include <cstdint>
#include <cstring>

namespace ecsia::simd {

typedef std::uint32_t U32x4 __attribute__((vector_size(16)));

// Sixteen bytes at `from`, which need not be aligned (memcpy is how to say so: one load).
inline U32x4 load_u32x4(const void* from) noexcept {
    U32x4 lanes;
    std::memcpy(&lanes, from, sizeof lanes);
    return lanes;
}

inline U32x4 splat_u32x4(std::uint32_t value) noexcept { return U32x4{value, value, value, value}; }

}  // namespace ecsia::simd
