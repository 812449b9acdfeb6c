#pragma once
// Batch: one batch of a wave with everything its kernel produces. Each batch has its own outputs
// (command buffer, write log, reserved handles, failure), so the thread that runs it never shares
// a write with another batch, and the merge reads them in batch-id order whoever ran them.
// Thread rule: filled by the coordinator before the wave; written by the one thread that runs the
// batch while it runs; read by the coordinator after the wave's fence (or inline run).

#include <cstdint>
#include <string>
#include <vector>

#include "ecsia/command/command_buffer.hpp"
#include "ecsia/entity/entity_reservation.hpp"
#include "ecsia/query/parent_view.hpp"
#include "ecsia/schedule/batching.hpp"
#include "ecsia/storage/write_log.hpp"
#include "ecsia/threads/worker_pool.hpp"

namespace ecsia {

// What a batch's error says when its kernel threw something that is not a std::exception.
inline constexpr const char* kNonStandardException = "a non-standard exception";

struct Batch {
    std::uint32_t system = 0;
    std::uint32_t id = 0;  // its index in the wave's batch list (batching.hpp)
    TableIndex table = 0;
    std::uint32_t row_begin = 0;
    std::uint32_t row_end = 0;
    CommandBuffer commands;
    WriteLog log;
    EntityReservation reservation;
    bool failed = false;
    std::string error;
    std::vector<std::string> notes;  // KernelContext::note: diagnostics the merge reports
    // Its run time (a dispatched batch), or its system's whole inline run (on the system's last
    // inline batch; 0 on the others), when the executor times batches; and who ran it.
    std::int64_t ns = 0;
    std::uint32_t runner = WorkerPool::kCoordinator;
    // With the timeline recorded (Scheduler::record_timeline): when its kernel began and returned
    // (monotonic_ns; end 0 when the kernel threw).
    std::int64_t begin_ns = 0;
    std::int64_t end_ns = 0;
    // A cascade system's batch: its rows' depth level (they run after every batch of the levels
    // above) and, above level 0, its parent reads for the ParentView, each with room for its rows'
    // values as one array (sized before the wave; filled by the thread that runs it, if asked).
    std::uint32_t depth = 0;
    std::vector<ParentView::Read> parent_reads;
    std::vector<std::vector<std::byte>> parent_copies;

    // Makes it batch `id` of a new wave over `bounds`, with empty outputs (its buffers keep their
    // capacity: batches are reused across waves and frames). The reservation is set afterwards.
    void reset(const BatchBounds& bounds, std::uint32_t batch_id) {
        system = bounds.system;
        id = batch_id;
        table = bounds.table;
        row_begin = bounds.row_begin;
        row_end = bounds.row_end;
        commands.clear();
        log.clear();
        reservation = EntityReservation{};
        failed = false;
        error.clear();
        notes.clear();
        ns = 0;
        runner = WorkerPool::kCoordinator;
        begin_ns = 0;
        end_ns = 0;
        depth = 0;
    }
    // Rows the cost model counts for it: a batch over no rows (a system without query terms) is one.
    std::uint32_t cost_rows() const noexcept { return row_end > row_begin ? row_end - row_begin : 1; }
    void fail(const char* why) {
        failed = true;
        error = why;
    }
};

}  // namespace ecsia
