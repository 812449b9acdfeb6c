#pragma once
// Runs of consecutive entity handles, each one more than the one before: how the snapshot format
// stores a table's rows when they form few such runs (snapshot_format.hpp, docs/SNAPSHOT.md). A
// table spawned together holds one run until its rows are despawned or moved, so the rows of
// 100,000 movers take 16 bytes instead of 400 KB, which the snapshot would otherwise copy and
// checksum, and restore copy in from JS, checksum and compare. Runs are read as (u32 first handle,
// u32 length) pairs at any address. Compiled with wasm SIMD like the checksum
// (wasm/CMakeLists.txt). Any thread; each reads only what it is given and writes only to `out`.

#include <cstddef>
#include <cstdint>

#include "ecsia/entity/entity.hpp"

namespace ecsia {

// The first row at or after `from` (>= 1, <= rows) whose handle is not one more than the handle
// of the row before it, or `rows` when there is none.
std::uint32_t next_run_start(const Entity* rows, std::uint32_t from, std::uint32_t rows_count) noexcept;

// Whether `rows` (as many as the runs' lengths add up to) hold exactly the handles of the `count`
// runs at `runs`, in order. The first `known` rows are known to count up from the first row's
// handle (Table::counted_rows_) and are not read again.
bool rows_follow_runs(const Entity* rows, std::uint32_t known, const std::byte* runs, std::uint32_t count) noexcept;

// The handles of the `count` runs at `runs`, in order, written to `out` (room for as many as
// their lengths add up to). Handles wrap modulo 2^32, as the format counts them.
void expand_runs(const std::byte* runs, std::uint32_t count, Entity* out) noexcept;

}  // namespace ecsia
