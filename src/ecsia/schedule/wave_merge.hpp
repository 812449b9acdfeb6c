#pragma once
// WaveMerge: the last stage of a wave. Once every batch has returned, their results go into the
// world in batch-id order, never in the order threads finished: write logs first (change ticks
// stamped at each system's run tick, change observers queued), then command buffers and the
// reservations they took handles from (spawns beyond a reservation get real handles here, in
// order; unused handles return). A failed batch's commands are dropped with a diagnostic naming
// its system; its handles still return. What a system's commands cause is reported in its name.
// Notes a kernel left (KernelContext::note) become diagnostics in the same batch-id order.
// Because the order is the plan's, every executor merges
// to the same state (G1).
// Thread rule: coordinator thread, serial phase.

#include <span>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/schedule/batch.hpp"
#include "ecsia/schedule/system.hpp"

namespace ecsia {

class World;

class WaveMerge {
public:
    // Merges the wave's `batches` (by batch id) into `world`; `run_tick` and `systems` are by
    // system. Without `merge_results` (a wave abandoned or left behind by a stall) only the
    // reservations return and the batches are reported dropped. The batches leave `batches`
    // before anything is applied, so a merge that throws part way (an allocation failure) is
    // never merged again; merged() lists them until the next merge.
    void merge(World& world, std::vector<Batch*>& batches, std::span<const Tick> run_tick,
               std::span<const SystemDesc> systems, bool merge_results);
    const std::vector<Batch*>& merged() const noexcept { return merged_; }

    // Batches prepared but never merged (a frame ended by an error): their handles return, their
    // results are dropped. Returns how many there were; `batches` is left empty.
    std::size_t drop(World& world, std::vector<Batch*>& batches);

private:
    // Moves the world's pending-name ring past the names the wave's batches handed out, and says
    // when the ring starts over (PendingNames).
    void retire_pending_names(World& world, const std::vector<Batch*>& batches);
    // Finds the pending handles the batches wrote in place into entity fields of their rows: for
    // a batch whose commands apply, noted in its buffer (the apply writes the real handle there);
    // otherwise set to null at once, with a diagnostic.
    void collect_in_place_pending(World& world, const std::vector<Batch*>& batches, bool merge_results);

    // Reused from wave to wave so that a merge does not allocate.
    std::vector<CommandBuffer*> buffers_;
    std::vector<std::uint32_t> buffer_systems_;  // the system of each of buffers_
    std::vector<EntityReservation*> reservations_;
    std::vector<const WriteLog*> logs_;
    std::vector<Tick> ticks_;
    std::vector<Batch*> merged_;
};

}  // namespace ecsia
