#pragma once
// What the world's C exports (world_fast.cpp, world_pairs.cpp) share: JS passes wasm heap
// addresses as numbers, and a disposed world's calls arrive with a null binding.

#include <cstddef>
#include <cstdint>

#include "js_error.hpp"

namespace ecsia::wasm {

// The bytes at a wasm heap address JS passed in (0: none).
inline const std::byte* heap_bytes(std::uint32_t address) noexcept {
    return reinterpret_cast<const std::byte*>(static_cast<std::uintptr_t>(address));
}

// A disposed world's call (web/internal/world_core.js passes a null binding): stashes the
// Disposed error for JS to throw, and gives the export's failure status. Out of line, so the
// exports' fast paths stay small.
[[gnu::noinline]] inline bool world_disposed() {
    detail::stash_error("Disposed", "Disposed: the world was disposed");
    return false;
}

}  // namespace ecsia::wasm
