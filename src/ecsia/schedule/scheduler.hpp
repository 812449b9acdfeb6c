#pragma once
// Scheduler: runs the plan, frame by frame. A frame, per wave, one stage per file:
//   1. serial slot: main-thread systems of the wave run on the coordinator;
//   2. batching (batching.hpp): each worker system's matched rows are cut into batches, a
//      function of the rows and batch_rows alone; batch ids follow system order then chunk order;
//      each batch (batch.hpp) gets its own command buffer, write log and reservation (reserved
//      in batch-id order);
//   3. execution (executor.hpp): phase = wave; the executor runs the batches: SerialExecutor
//      (workers == 0, the reference semantics) inline in batch-id order, or DecidingExecutor,
//      which chooses per wave from measured costs (placement.hpp) between inline on the
//      coordinator and the pool, with the coordinator claiming a bounded share;
//   4. wait: blocking (update) or resumable (step + the fence word, for Atomics.waitAsync);
//   5. merge (wave_merge.hpp): phase = serial; write logs, then command buffers and reservations,
//      in batch-id order; then observers. Failures become diagnostics naming the system.
// Timing decides only where step 3 runs a batch, never what 2, 3 and 5 produce: every executor and
// worker count yields the same state (G1).
//
// Nothing wedges: whatever throws inside a frame ends only that work. A kernel marks its batch
// failed; a main-thread system is reported and the frame goes on; an observer is reported by the
// world; anything that escapes the merge ends the frame (its unmerged results dropped, reserved
// handles returned, the world back in the serial phase) and is rethrown from update()/step().
// Either way the next update() runs a complete frame, and no work of a frame runs twice.
// Thread rule: every member function is for the coordinator thread only.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ecsia/query/query_cache.hpp"
#include "ecsia/schedule/batch.hpp"
#include "ecsia/schedule/batching.hpp"
#include "ecsia/schedule/executor.hpp"
#include "ecsia/schedule/placement.hpp"
#include "ecsia/schedule/plan.hpp"
#include "ecsia/schedule/serial_executor.hpp"
#include "ecsia/schedule/system.hpp"
#include "ecsia/schedule/wave_merge.hpp"
#include "ecsia/threads/worker_pool.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

struct SchedulerOptions {
    std::uint32_t workers = 0;        // 0 = serial executor
    std::uint32_t batch_rows = 16384;  // upper bound of rows per batch; part of the plan, not of timing
    std::chrono::milliseconds wave_deadline{30000};
    std::chrono::milliseconds startup_deadline{10000};
    // step() only: after dispatching a wave, poll the fence this long before reporting Waiting.
    // For a coordinator that cannot block (the browser's main thread): a short wave then costs
    // the workers' round trip, not an event-loop turn of Atomics.waitAsync (tens of µs).
    std::chrono::microseconds step_poll{0};
    bool wait_for_workers = true;     // false on the browser main thread, which must never block
    // Only when wait_for_workers is false: the most the coordinator runs batches in one go, so the
    // page stays live (G2). A wave predicted longer than this always goes to the pool, and the
    // coordinator's share of a dispatched wave stops here. (A blocking coordinator is unbounded.)
    std::chrono::microseconds coordinator_slice{2000};
};

enum class FrameStatus { Done, Waiting };

// Where the scheduler is between and inside frames. One value, so no mix of flags can disagree.
enum class FrameState : std::uint8_t {
    Idle,        // between frames: begin_frame may start one
    Running,     // in a frame, nothing out on the pool: step() runs the next wave
    Dispatched,  // the current wave is out on the pool: step() checks its fence
    Stalled,     // a wave missed its deadline and may still run; dropped once its worker returns
    Disposed,    // workers stopped; every frame call throws Disposed
};

struct WaveTiming {
    std::uint32_t wave;
    std::uint32_t batches;
    double begin_us;  // since the frame began
    double end_us;
    WavePlacement placement = WavePlacement::Inline;  // where its batches ran (see placement.hpp)
};

namespace detail {
// Tests and benchmarks only: pins placements, reads the cost model (tests/support/scheduler_testing.hpp).
struct SchedulerTesting;
}  // namespace detail

class Scheduler final : public WorldDependent, private BatchRunner {
public:
    // The scheduler attaches to the world: if the world is destroyed first, the scheduler stops
    // its workers and every later call throws Disposed ("its world was destroyed").
    Scheduler(World& world, SchedulerOptions options = {});
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    // Throws UnknownComponent, DuplicateName, BadDefinition (no body, or both a kernel and a
    // main-thread function), WrongPhase during a frame.
    void add_system(SystemDesc system);
    const std::vector<SystemDesc>& systems() const noexcept { return systems_; }
    // Throws BadPlan for cycles and unknown names.
    const Plan& plan();
    std::string explain_plan() { return plan().explain(systems_); }

    // A whole frame, waiting with a blocking wait. Native, Node, or any worker thread.
    void update(float dt);
    // The resumable frame. begin_frame, then call step() until it returns Done; while it returns
    // Waiting, wait for *fence_word() to equal waiting_epoch() (Atomics.waitAsync in a browser).
    void begin_frame(float dt);
    FrameStatus step();
    bool in_frame() const noexcept { return state_ == FrameState::Running || state_ == FrameState::Dispatched; }
    FrameState state() const noexcept { return state_; }
    const std::int32_t* fence_word() const noexcept;
    std::uint32_t waiting_epoch() const noexcept { return executor_->epoch(); }

    std::uint32_t workers() const noexcept { return executor_->workers(); }
    // Frames this scheduler completed. (Kernels see the world's count, world.cursors().frames().)
    std::uint64_t frames() const noexcept { return frames_; }
    const std::vector<WaveTiming>& last_frame_waves() const noexcept { return last_waves_; }
    // Throws BadValue unless worker < workers() (a serial scheduler has none).
    WorkerStats worker_stats(std::uint32_t worker) const;
    // Stops and joins the workers, also mid-frame (the frame's remaining work is dropped with a
    // diagnostic). Idempotent; afterwards update() throws Disposed. Called from inside the frame
    // (a main-thread system, an observer, a serial kernel), it takes effect when that call
    // returns: the frame ends there and update() returns.
    void dispose();
    // For bindings of a wasm build, after a trap (`unreachable`, a stack overflow) unwound out of
    // begin_frame() or step() on this thread without running any C++ cleanup: ends the frame as
    // one that failed, so that the next begin_frame() runs. Unmerged results are dropped and
    // their reserved handles given back; a wave still out on the workers (the trap was in the
    // coordinator's share of it) is dropped once they return, as a stalled wave is. Returns the
    // wave and its systems ("wave 1 (systems A, B)"), or "" when no frame was interrupted.
    // Natively a trap ends the process; this has no other use. Coordinator thread.
    std::string recover_from_trap();

    void on_world_destroyed() noexcept override;

private:
    friend struct detail::SchedulerTesting;
    void run_kernel(Batch& batch) override;  // BatchRunner: the executors call it
    void poll_fence() const;
    void run_main_thread_systems(const std::vector<std::uint32_t>& wave);
    void prepare_batches(const std::vector<std::uint32_t>& wave);
    FrameStatus run_waves();
    void finish_wave(bool merge_results);
    void fail_frame() noexcept;
    void abandon_frame(const std::string& why);
    void set_state(FrameState state) noexcept;  // also tells the world whether a frame runs (snapshots are refused mid-frame)
    void recover_from_stall();
    void dispose_now();
    World& world() const;
    double now_us() const;

    World* world_;  // null once the world is destroyed
    SchedulerOptions options_;
    std::vector<SystemDesc> systems_;
    std::vector<std::unique_ptr<QueryCache>> queries_;  // by system
    std::vector<bool> runs_once_;                       // by system: no query terms, one batch a frame
    // by system: its slot in world_.cursors(), which holds the tick of its previous run (in the
    // world, so that a snapshot carries it and a fresh scheduler resumes from it)
    std::vector<std::uint32_t> cursor_slots_;
    std::vector<Tick> run_tick_;                        // by system: tick of its run this frame
#if ECSIA_ACCESS_CHECKS
    std::vector<std::unique_ptr<DeclaredAccess>> access_;  // by system: what its chunks may touch
#endif
    Plan plan_;
    bool plan_valid_ = false;
    // The executor the frame calls: serial_ without workers (or when they could not start),
    // otherwise threaded_, a DecidingExecutor.
    SerialExecutor serial_;
    std::unique_ptr<Executor> threaded_;
    Executor* executor_ = &serial_;
    WaveMerge merge_;

    // The frame in progress.
    FrameState state_ = FrameState::Idle;
    int stepping_ = 0;               // > 0 while step() runs: a dispose() from inside waits for it
    bool dispose_requested_ = false;  // dispose() was called from inside step()
    float dt_ = 0;
    std::size_t wave_ = 0;
    std::chrono::steady_clock::time_point deadline_;  // of the dispatched wave
    std::int64_t frame_start_ns_ = 0;  // monotonic_ns()
    std::uint64_t frames_ = 0;
    // Batches of the current wave by batch id; the storage is reused across waves and frames.
    std::vector<std::unique_ptr<Batch>> batch_pool_;
    std::vector<Batch*> batches_;
    std::vector<RowRun> runs_;          // prepare_batches: one system's matched row runs (reused)
    std::vector<BatchBounds> bounds_;   // prepare_batches: the wave's batches as batching cut them (reused)
    std::vector<WaveTiming> waves_;
    std::vector<WaveTiming> last_waves_;
};

}  // namespace ecsia
