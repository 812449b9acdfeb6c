#pragma once
// WorkerStats: what one pool worker has done since its pool started (Scheduler::worker_stats),
// apart from the pool itself so that a user reading them does not include the pool.

#include <cstdint>

namespace ecsia {

struct WorkerStats {
    std::uint64_t busy_ns = 0;   // time spent inside jobs since the pool started
    std::uint64_t jobs_run = 0;
};

}  // namespace ecsia
