#pragma once
// detail::SchedulerTesting: the test and benchmark hooks of a Scheduler, outside its public
// header (Scheduler only names it a friend). Tests, bench/ and the browser test hook
// (web/test/modules/test_hooks.cpp, the test module's forcePlacement) use it
// to pin where waves run, so a check that needs batches on the workers gets them; the results do
// not depend on it (G1).
// Thread rule: coordinator thread, between frames.

#include <optional>
#include <utility>
#include <vector>

#include "ecsia/schedule/deciding_executor.hpp"
#include "ecsia/schedule/placement.hpp"
#include "ecsia/schedule/scheduler.hpp"

namespace ecsia::detail {

struct SchedulerTesting {
    // Every later wave runs where `placement` says (nullopt: the executor decides again). A
    // scheduler without workers always runs inline, pinned or not.
    static void force_placement(Scheduler& scheduler, std::optional<WavePlacement> placement) {
        if (auto* deciding = dynamic_cast<DecidingExecutor*>(&scheduler.executor())) force_placement(*deciding, placement);
    }
    static void force_placement(DecidingExecutor& executor, std::optional<WavePlacement> placement) {
        force_placements(executor, placement ? std::vector<WavePlacement>{*placement} : std::vector<WavePlacement>{});
    }
    // The waves that have batches take these placements in turn, cycling (empty: decide again).
    static void force_placements(Scheduler& scheduler, std::vector<WavePlacement> sequence) {
        if (auto* deciding = dynamic_cast<DecidingExecutor*>(&scheduler.executor())) force_placements(*deciding, std::move(sequence));
    }
    static void force_placements(DecidingExecutor& executor, std::vector<WavePlacement> sequence) {
        executor.forced_ = std::move(sequence);
        executor.forced_next_ = 0;
    }
    // The threaded executor's cost model; an empty one for a scheduler without workers.
    static const PlacementModel& model(const Scheduler& scheduler) noexcept {
        static const PlacementModel none;
        const auto* deciding = dynamic_cast<const DecidingExecutor*>(&scheduler.executor());
        return deciding != nullptr ? deciding->model() : none;
    }
};

}  // namespace ecsia::detail
