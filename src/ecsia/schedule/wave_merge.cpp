#include "ecsia/schedule/wave_merge.hpp"

#include <string>

#include "ecsia/world/world.hpp"

namespace ecsia {

void WaveMerge::merge(World& world, std::vector<Batch*>& batches, std::span<const Tick> run_tick,
                      std::span<const SystemDesc> systems, bool merge_results) {
    buffers_.clear();
    reservations_.clear();
    for (Batch* batch : batches) {
        for (const std::string& note : batch->notes) {
            world.diagnostics().report("system '" + systems[batch->system].name + "' batch " + std::to_string(batch->id) +
                                       ": " + note);
        }
        // Most batches record nothing and reserve nothing: World::apply need not see them.
        if (!batch->failed && batch->commands.record_count() == 0 && batch->reservation.size() == 0) continue;
        reservations_.push_back(&batch->reservation);
        if (batch->failed) {
            world.diagnostics().report("system '" + systems[batch->system].name + "' failed in batch " +
                                       std::to_string(batch->id) + ": " + batch->error + "; its " +
                                       std::to_string(batch->commands.record_count()) + " command(s) were dropped");
        } else if (merge_results) {
            buffers_.push_back(&batch->commands);
        }
    }
    if (!merge_results && !batches.empty()) {
        world.diagnostics().report("the results of " + std::to_string(batches.size()) +
                                   " batch(es) of an unfinished wave were dropped");
    }
    if (merge_results) {
        logs_.clear();
        ticks_.clear();
        for (Batch* batch : batches) {
            logs_.push_back(&batch->log);
            ticks_.push_back(run_tick[batch->system]);
        }
        detail::WorldAccess::merge_write_logs(world, logs_, ticks_);
    }
    // Once apply starts, the reservations are its to return (also when it throws): nothing of
    // this wave may be merged a second time.
    merged_.swap(batches);
    batches.clear();
    world.apply(buffers_, reservations_);
}

std::size_t WaveMerge::drop(World& world, std::vector<Batch*>& batches) {
    reservations_.clear();
    for (Batch* batch : batches) reservations_.push_back(&batch->reservation);
    const std::size_t dropped = batches.size();
    batches.clear();
    world.apply({}, reservations_);
    return dropped;
}

}  // namespace ecsia
