#pragma once
// Executor: the stage of a wave that runs its batches. The batches (batching.hpp) and their merge
// (wave_merge.hpp) are fixed outside it; an executor only chooses the thread each batch runs on,
// so every executor yields the same state (G1). The scheduler's frame calls this interface alone:
//
//   start(batches, runner)      Inline: every batch ran here, in batch-id order, and the wave is
//                               over; Pool / Shared: the wave is out on the workers
//   run_coordinator_share()     a Shared wave: the coordinator runs some batches itself (bounded)
//   done() / wait_until(...)    the dispatched wave's fence, polled (the page) or waited on
//   finish()                    after done(): the executor's own bookkeeping (costs seen)
//
// The siblings: SerialExecutor (serial_executor.hpp, the reference: everything inline, in order),
// PoolExecutor (pool_executor.hpp: everything on the workers) and DecidingExecutor
// (deciding_executor.hpp: per wave, one or the other or both, from measured costs).
// Thread rule: every member function is for the coordinator thread only.

#include <chrono>
#include <cstdint>
#include <span>

#include "ecsia/schedule/batch.hpp"
#include "ecsia/schedule/placement.hpp"
#include "ecsia/threads/worker_pool.hpp"

namespace ecsia {

// What an executor runs: the kernel of one batch (the scheduler's systems). Called on whichever
// thread the executor chose, one batch at a time per thread; it throws what the kernel throws,
// and the executor records that as the batch's failure.
class BatchRunner {
public:
    virtual void run_kernel(Batch& batch) = 0;
    // True once a batch run inline on the coordinator ended the frame's world (a kernel that
    // destroyed it): the coordinator starts none of the wave's remaining batches.
    virtual bool world_gone() const noexcept { return false; }

protected:
    ~BatchRunner() = default;
};

class Executor {
public:
    virtual ~Executor() = default;

    // Workers this executor can run batches on (0: the coordinator alone).
    virtual std::uint32_t workers() const noexcept = 0;
    // Runs or dispatches the wave's batches (ids = positions in `batches`; the list must stay as
    // it is until the wave is over). Returns where they run. Throws WorkerFailure when a worker
    // still holds a batch of an earlier wave that missed its deadline, Disposed after stop().
    virtual WavePlacement start(std::span<Batch* const> batches, BatchRunner& runner) = 0;
    // A dispatched Shared wave: the coordinator claims batches too instead of only waiting.
    virtual void run_coordinator_share() = 0;
    // A dispatched wave: every batch has returned (and its writes are visible here).
    virtual bool done() const noexcept = 0;
    // Blocks until done() or the deadline; returns done(). Never on the browser main thread.
    virtual bool wait_until(std::chrono::steady_clock::time_point deadline) = 0;
    // Right after done() turned true (the moment the coordinator saw the wave end).
    virtual void finish() = 0;

    // The word a coordinator that must not block awaits (Atomics.waitAsync in the browser) until
    // it equals epoch(); null without workers.
    virtual const std::int32_t* fence_word() const noexcept = 0;
    virtual std::uint32_t epoch() const noexcept = 0;
    // No worker is inside a batch (one that missed its deadline has returned).
    virtual bool idle() const noexcept = 0;
    // Precondition: worker < workers().
    virtual WorkerStats worker_stats(std::uint32_t worker) const = 0;
    // Stops the workers, also mid-wave; idempotent. join = false (a coordinator that must not
    // block) detaches them instead: a worker may then still be inside a batch, calling back into
    // this executor, so the executor must never be destroyed afterwards.
    virtual void stop(bool join) noexcept = 0;
};

}  // namespace ecsia
