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
//      in batch-id order; then observers. Failures become diagnostics naming the system;
//   6. extract (after a whole frame's last wave, ecsia/extract/): every extract copies its rows.
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
#include <string_view>
#include <vector>

#include "ecsia/extract/extract_buffer.hpp"
#include "ecsia/schedule/plan.hpp"
#include "ecsia/schedule/system.hpp"
#include "ecsia/schedule/wave_placement.hpp"
#include "ecsia/threads/worker_stats.hpp"

namespace ecsia {

class World;
class Executor;

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
    double end_us;    // its last batch finished (its merge follows)
    WavePlacement placement = WavePlacement::Inline;  // where its batches ran (see placement.hpp)
    // With the timeline recorded (Scheduler::record_timeline), else 0: when its serial slot (the
    // main-thread systems) ended and when its merge ended.
    double serial_end_us = 0;
    double merged_us = 0;
};

// One batch of the last frame, with the timeline recorded (Scheduler::record_timeline): which
// system's rows it ran, on which thread, and when (µs since the frame began, like WaveTiming).
struct BatchTiming {
    static constexpr std::uint32_t kCoordinator = 0xFFFFFFFFu;  // runner: the coordinator's thread
    std::uint32_t wave;
    std::uint32_t system;     // index in systems()
    std::uint32_t first_row;  // of its table
    std::uint32_t rows;
    std::uint32_t runner;     // worker index, or kCoordinator
    // µs since the frame began, on the coordinator's clock: a worker's readings are shifted by
    // its clock's offset as causality bounds it (inside the wave's dispatch and end).
    double begin_us;
    double end_us;
};

// Names an extract of one scheduler (add_extract); never reused by it.
using ExtractId = std::uint32_t;

namespace detail {
// Tests and benchmarks only: pins placements, reads the cost model (tests/support/scheduler_testing.hpp).
struct SchedulerTesting;
}  // namespace detail

class Scheduler final {
public:
    // The scheduler attaches to the world: if the world is destroyed first, the scheduler stops
    // its workers and every later call throws Disposed ("its world was destroyed").
    Scheduler(World& world, SchedulerOptions options = {});
    // Not from inside this scheduler's own frame (a main-thread system, an observer or a serial
    // kernel it runs): that frame is still on the stack. Call dispose() there instead.
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    // Throws UnknownComponent, DuplicateName, BadDefinition (no body, or more than one of a
    // kernel, a main-thread function and a main-thread chunk function), WrongPhase during a frame.
    void add_system(SystemDesc system);
    // Removes the system named `name` between frames (UnknownSystem when there is none, WrongPhase
    // during a frame). Its topic cursors go with it: messages only it had left to read are dropped.
    void remove_system(std::string_view name);
    const std::vector<SystemDesc>& systems() const noexcept;
    // Throws BadPlan for cycles and unknown names.
    const Plan& plan();
    std::string explain_plan();

    // A whole frame, waiting with a blocking wait. Native, Node, or any worker thread.
    void update(float dt);
    // The resumable frame. begin_frame, then call step() until it returns Done; while it returns
    // Waiting, wait for *fence_word() to equal waiting_epoch() (Atomics.waitAsync in a browser).
    void begin_frame(float dt);
    FrameStatus step();
    bool in_frame() const noexcept;
    FrameState state() const noexcept;
    const std::int32_t* fence_word() const noexcept;
    std::uint32_t waiting_epoch() const noexcept;

    std::uint32_t workers() const noexcept;
    // Frames this scheduler completed. (Kernels see the world's count, world.frames().)
    std::uint64_t frames() const noexcept;
    const std::vector<WaveTiming>& last_frame_waves() const noexcept;
    // The timeline: off by default, when a frame costs nothing extra. On, each frame also records
    // its batches (two clock reads each) and its waves' serial slots and merges, for a profiler
    // to draw. Takes effect at the next frame's start; the last frame's batches, in wave then
    // batch-id order, stay until the next frame ends (empty when that frame ran without it).
    void record_timeline(bool on) noexcept;
    bool records_timeline() const noexcept;
    const std::vector<BatchTiming>& last_frame_batches() const noexcept;
    // Whether the last frame ran with the timeline. Said here, since its times cannot say it: a
    // browser's coarse clock can read 0 for a whole short frame.
    bool last_frame_timed() const noexcept;
    // Throws BadValue unless worker < workers() (a serial scheduler has none).
    WorkerStats worker_stats(std::uint32_t worker) const;

    // ---- extracts (ecsia/extract/): copies of some components of some rows, taken at the end
    // of every whole frame (not one a dispose or an error cut short) into buffers the reader
    // owns, so a reader can use frame N's values while frame N+1 runs. Coordinator thread.
    //
    // Copies `components` (each with data: a tag is BadValue; none twice) of the rows that have
    // them all plus rows.with and none of rows.without (only those terms: an extract copies
    // state, not changes; BadValue otherwise). Captures the state now, until the first frame
    // ends. Throws WrongPhase during a frame, UnknownComponent for an id the world lacks.
    ExtractId add_extract(std::vector<ComponentId> components, QueryDesc rows = {});
    // The newest capture of the extract, held by the caller until its next acquire_extract(id):
    // later frames write the other buffer, so what it returns stays unchanged until then.
    // Throws Disposed for a removed or unknown id.
    const ExtractBuffer& acquire_extract(ExtractId id);
    // Stops capturing it and frees its buffers. Throws Disposed for a removed or unknown id.
    void remove_extract(ExtractId id);

    // Stops and joins the workers, also mid-frame (the frame's remaining work is dropped with a
    // diagnostic). Idempotent; afterwards update() throws Disposed. Called from inside the frame
    // (a main-thread system, an observer, a serial kernel), it takes effect when that call
    // returns: the frame ends there and update() returns. With wait_for_workers false and a wave
    // out on the workers, it takes effect once the wave is back (or missed its deadline): the
    // next step() that sees it returns Done, and until then the world stays in its wave, since
    // the batches still write into it. Destroying the scheduler or the world meanwhile waits for
    // the wave, up to its deadline.
    void dispose();
    // For bindings of a wasm build, after a trap (`unreachable`, a stack overflow) unwound out of
    // begin_frame() or step() on this thread without running any C++ cleanup: ends the frame as
    // one that failed, so that the next begin_frame() runs. Unmerged results are dropped and
    // their reserved handles given back; a wave still out on the workers (the trap was in the
    // coordinator's share of it) is dropped once they return, as a stalled wave is. Returns the
    // wave and its systems ("wave 1 (systems A, B)"), or "" when no frame was interrupted.
    // Natively a trap ends the process; this has no other use. Coordinator thread.
    std::string recover_from_trap();

private:
    friend struct detail::SchedulerTesting;
    // The executor the frame calls (for the testing hooks, which pin its placements).
    Executor& executor() const noexcept;

    // Executors, plan, batches, merge and extracts live behind one pointer: this header stays
    // short, and the frame pays one indirection per call, none per batch or row.
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace ecsia
