#pragma once
// Little-endian integers at any address in a byte buffer: how the snapshot format (snapshot/)
// and its checksum read and write their words. One helper so the byte order is decided in one
// place. Both targets (x86-64 and wasm32) are little-endian, so each call is one unaligned load or
// store (memcpy, which compilers turn into a plain move); a big-endian port fails to compile here
// instead of silently reading byte-swapped words.

#include <bit>
#include <cstdint>
#include <cstring>

namespace ecsia::little_endian {

static_assert(std::endian::native == std::endian::little, "little_endian.hpp loads and stores words as they lie in memory");

inline std::uint32_t load_u32(const void* p) noexcept {
    std::uint32_t value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

inline std::uint64_t load_u64(const void* p) noexcept {
    std::uint64_t value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

inline void store_u32(void* p, std::uint32_t value) noexcept { std::memcpy(p, &value, sizeof value); }

inline void store_u64(void* p, std::uint64_t value) noexcept { std::memcpy(p, &value, sizeof value); }

}  // namespace ecsia::little_endian
