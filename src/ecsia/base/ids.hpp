#pragma once
// Dense ids shared by every layer. A ComponentId indexes the registry; a Tick orders changes.

#include <cstdint>
#include <limits>

namespace ecsia {

using ComponentId = std::uint32_t;
inline constexpr ComponentId kNoComponent = std::numeric_limits<ComponentId>::max();

// World ticks start at 1 so that 0 means "before anything happened": a system that never ran has
// last_run_tick 0 and sees every row as added and changed.
using Tick = std::uint32_t;

using TableIndex = std::uint32_t;
inline constexpr TableIndex kNoTable = std::numeric_limits<TableIndex>::max();

}  // namespace ecsia
