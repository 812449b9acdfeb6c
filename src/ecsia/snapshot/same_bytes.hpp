#pragma once
// same_bytes(): whether two byte ranges are equal, at about the speed of reading them. Restore's
// rollback check compares a snapshot's entity rows with the world's own (snapshot_reader.cpp);
// memcmp in wasm (musl's) goes byte by byte, and a scalar loop of 8-byte words still cost a
// quarter of the restore of 100,000 entities there. Compiled with wasm SIMD like the checksum
// (wasm/CMakeLists.txt). Any thread; reads only.

#include <cstddef>

namespace ecsia {

bool same_bytes(const std::byte* a, const std::byte* b, std::size_t size) noexcept;

}  // namespace ecsia
