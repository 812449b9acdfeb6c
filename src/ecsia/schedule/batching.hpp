#pragma once
// Batching: the first stage of a wave. A pure function of the rows a system's query matched (runs
// of rows of its tables, in chunk order) and `batch_rows`: it says where the batches are, and
// nothing else. No worker count, no timing and no world go in, which is why batch ids, the rows
// of each batch, its reservation and the merge order are the same for every executor (G1).
//
// The rule: a system's rows are cut into about a sixteenth of its matched rows each (rounded up
// to a multiple of 16 rows), at least 256 rows (or batch_rows if smaller), at most batch_rows;
// each run is cut on its own (a batch never spans two tables or two runs), its last batch taking
// the rest. Batch ids are positions in the wave's list: system order, then chunk order.
// Thread rule: pure functions, any thread.

#include <cstdint>
#include <span>
#include <vector>

#include "ecsia/base/ids.hpp"

namespace ecsia {

// Rows [begin, end) of one matched table.
struct RowRun {
    TableIndex table = 0;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
};

// One batch of a wave: the system it runs and its rows. Its id is its index in the wave's list.
struct BatchBounds {
    std::uint32_t system = 0;
    TableIndex table = 0;
    std::uint32_t row_begin = 0;
    std::uint32_t row_end = 0;  // == row_begin for the one batch of a system without query terms

    friend bool operator==(const BatchBounds&, const BatchBounds&) = default;
};

// The rows per batch of a system that matched `rows` rows in all (batch_rows >= 1; 0 counts as 1).
std::uint32_t rows_per_batch(std::uint64_t rows, std::uint32_t batch_rows) noexcept;

// Appends the batches of `system`'s matched `runs` to `wave` (none when no row matched).
void append_batches(std::uint32_t system, std::span<const RowRun> runs, std::uint32_t batch_rows,
                    std::vector<BatchBounds>& wave);

// Appends the one batch of a system without query terms: it runs once a frame, over no rows.
void append_single_batch(std::uint32_t system, std::vector<BatchBounds>& wave);

}  // namespace ecsia
