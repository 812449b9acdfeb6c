#pragma once
// Whether an array of handles holds a pending one (HandleLayout::is_pending): the merge asks it of
// every entity field of the messages it appends, and a kernel seldom names a handle its own batch
// spawned, so the answer is mostly no and the scan is the cost. Four handles a step without a
// branch: SSE2 natively, wasm SIMD in the browser (wasm/CMakeLists.txt). Any thread.

#include <cstdint>

#include "ecsia/entity/entity.hpp"

namespace ecsia {

bool any_pending(const HandleLayout& layout, const std::uint32_t* handles, std::uint32_t count) noexcept;

}  // namespace ecsia
