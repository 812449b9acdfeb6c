#include "ecsia/schedule/batching.hpp"

#include <algorithm>

namespace ecsia {

std::uint32_t rows_per_batch(std::uint64_t rows, std::uint32_t batch_rows) noexcept {
    // About a sixteenth of the system's rows, so that a small system still spreads over the
    // workers; at least kMinBatchRows, so per-batch bookkeeping (~0.1-0.2 µs in wasm) stays small
    // next to even the lightest kernel; at most batch_rows.
    constexpr std::uint64_t kTargetBatches = 16;
    constexpr std::uint32_t kMinBatchRows = 256;
    constexpr std::uint64_t kRowMultiple = 16;  // batches start on cache lines of 4-byte fields
    batch_rows = std::max<std::uint32_t>(batch_rows, 1);
    const std::uint64_t share = ((rows + kTargetBatches - 1) / kTargetBatches + kRowMultiple - 1) / kRowMultiple * kRowMultiple;
    const std::uint32_t floor = std::min(kMinBatchRows, batch_rows);
    return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(share, floor, batch_rows));
}

void append_batches(std::uint32_t system, std::span<const RowRun> runs, std::uint32_t batch_rows,
                    std::vector<BatchBounds>& wave) {
    std::uint64_t rows = 0;
    for (const RowRun& run : runs) rows += run.end > run.begin ? run.end - run.begin : 0;
    const std::uint32_t size = rows_per_batch(rows, batch_rows);
    for (const RowRun& run : runs) {
        // Written so that begin + size cannot overflow near the top of the row range.
        for (std::uint32_t begin = run.begin; begin < run.end;) {
            const std::uint32_t end = run.end - begin > size ? begin + size : run.end;
            wave.push_back(BatchBounds{system, run.table, begin, end});
            begin = end;
        }
    }
}

void append_single_batch(std::uint32_t system, std::vector<BatchBounds>& wave) {
    wave.push_back(BatchBounds{system, 0, 0, 0});
}

}  // namespace ecsia
