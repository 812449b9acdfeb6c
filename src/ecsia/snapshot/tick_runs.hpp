#pragma once
// Runs of equal change ticks in a column's per-row tick array: how the snapshot format stores
// a tick array whose rows form few of them (snapshot_format.hpp, docs/SNAPSHOT.md). Rows spawned
// in one frame lie together, and a system writes its rows in one frame, so a column of tens of
// thousands of rows has a few hundred runs until despawns and moves shuffle its rows. Compiled
// with wasm SIMD like the checksum (wasm/CMakeLists.txt): a snapshot counts the runs of every
// per-row array it writes. Any thread; reads only what it is given.

#include <cstdint>

#include "ecsia/base/ids.hpp"

namespace ecsia {

// How many runs of equal ticks the `rows` (> 0) ticks at `ticks` make, or `limit` + 1 as soon as
// they make more than `limit`: 16 rows a step without a branch, the limit checked every 1,024.
std::uint32_t count_tick_runs(const Tick* ticks, std::uint32_t rows, std::uint32_t limit) noexcept;

}  // namespace ecsia
