#pragma once
// SchedulerBinding: the ecsia::Scheduler behind the JS API's Scheduler class (web/ecsia.js wraps
// it). The page's main thread never blocks on it: a frame is begin_and_step() then step() until it
// returns kDone; while step() returns kWaiting, JS awaits HEAP32[fence_address() >> 2] becoming
// waiting_epoch() with Atomics.waitAsync. C++ systems are added by their registered name; JS
// systems are main-thread systems whose body is a JS callback. Extracts are the Scheduler's own
// (it captures them when a frame completes); this forwards to them.
// Thread rule: the page's main thread.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <emscripten/val.h>

#include "ecsia/schedule/scheduler.hpp"
#include "query_binding.hpp"
#include "world_binding.hpp"

namespace ecsia::wasm {

class SchedulerBinding {
public:
    static constexpr int kDone = 0;
    static constexpr int kWaiting = 1;

    // workers == 0: the serial executor. Throws WorkerFailure when workers exceed the module's pool.
    // fence_poll_us: how long step() polls a just-dispatched wave before returning kWaiting.
    SchedulerBinding(WorldBinding& world, std::uint32_t workers, std::uint32_t batch_rows, double wave_deadline_ms,
                     double fence_poll_us);
    ~SchedulerBinding();

    // Adds the system registered under `name`; throws UnknownSystem naming the known ones.
    void add_system(const std::string& name);
    // `run(dt, chunks)` is called on the main thread in the serial slot; it must not throw (the JS
    // layer catches and reports). reads/writes/before/after: arrays of names. With a `query` (null:
    // none), the system is the Scheduler's main-thread system with chunks: the query's terms
    // select its rows as a kernel's (changed/added since the system's previous run), their records
    // are in `query` when `run` is called with their count, and its declared writes are tracked
    // over them; the query must outlive the system. `publishes` and `consumes`: topic names.
    // Without a query, `chunks` is 0. `cascade` (a
    // relation id, -1: none) and `parent_reads` (names) are SystemDesc's: with a cascade, `run` is
    // called once per level as run(dt, chunks, depth, parents), `parents` the address of uint32
    // words, parent_reads' count per chunk: the address of each chunk's parents' values of each
    // (0 at depth 0).
    void add_main_thread_system(const std::string& name, const emscripten::val& reads, const emscripten::val& writes,
                                const emscripten::val& before, const emscripten::val& after, const emscripten::val& run,
                                QueryBinding* query, int cascade, const emscripten::val& parent_reads,
                                const emscripten::val& publishes, const emscripten::val& consumes);
    // Scheduler::remove_system between frames (UnknownSystem, WrongPhase).
    void remove_system(const std::string& name) { scheduler_->remove_system(name); }

    int step();
    // Scheduler::begin_frame, then step(): one call from JS for a frame whose waves finish at once.
    int begin_and_step(float dt);
    std::uint32_t fence_address() const;
    std::uint32_t waiting_epoch() const { return scheduler_->waiting_epoch(); }
    bool in_frame() const { return scheduler_->in_frame(); }

    emscripten::val plan();         // [[name, ...], ...] per wave
    std::string explain();
    // Per wave, its systems: [[{ name, thread: 'main' | 'workers', reads, writes, parentReads,
    // lookups, publishes, consumes, cascade, after, why }, ...], ...] (names, not ids).
    emscripten::val describe_plan();
    // Scheduler::recover_from_trap: JS calls it when a frame's call ended in a trap.
    std::string recover_from_trap();
    // The last frame as doubles, for JS to decode (web/scheduler.js lastFrame()); the address is
    // valid until the next call: [waves, batches, workers, timeline recorded (0/1), frames(), systems], then per wave
    // [wave, batches, beginUs, endUs, placement (WavePlacement), serialEndUs, mergedUs], per
    // batch (with the timeline) [wave, system index, firstRow, rows, lane (-1: the page), beginUs,
    // endUs], per worker [busy ns since start, jobs run]. Numbers only: building JS objects here
    // cost ~10x more than the frame's timing is worth reading.
    std::uint32_t last_frame_record();
    // Names in system index order (a batch's system index names one).
    emscripten::val system_names() const;
    // User Timing's queue (web/internal/user_timing.js): while on, each frame that completes appends
    // [frames(), waves], then per wave [wave, placement (WavePlacement), beginUs, endUs], so that
    // the page reads the wave times of many frames in one call, where asking for each frame's
    // record cost the frame about 3% (docs/PERFORMANCE.md, Devtools).
    // Turned on, both buffers are sized for the page's batch of frames, so taking the queue does
    // not move the world's memory in use (which the devtools' World section shows).
    void set_timing_queue(bool on);
    // Hands the queue over and starts it again empty: the address of [count of doubles that
    // follow, the queue's doubles...], valid until the next call.
    std::uint32_t take_timing_queue();
    void set_record_timeline(bool on) { scheduler_->record_timeline(on); }
    bool records_timeline() const { return scheduler_->records_timeline(); }
    // Scheduler::add_extract of `components` over rows with `with` and none of `without` (arrays
    // of names); returns its id. Not during a frame (WrongPhase).
    std::uint32_t add_extract(const emscripten::val& components, const emscripten::val& with, const emscripten::val& without);
    // Holds the newest capture of extract `id` and returns the address of its record, uint32
    // words: [0] frame (low 32 bits), [1] frame (high), [2] rows, [3] entities' address, [4 + c]
    // component c's packed elements. The record and the buffers stay put until the next call.
    std::uint32_t acquire_extract(std::uint32_t id);
    void remove_extract(std::uint32_t id);
    std::uint32_t workers() const { return scheduler_->workers(); }
    // Frames completed over the world (World::frames(): every scheduler's, set by a
    // restore to the snapshot's count), not this scheduler's own Scheduler::frames().
    double frames() const { return static_cast<double>(world_.world().frames()); }
    void dispose();

    // For other binding areas (the built-in module's API in bind_builtins.cpp, JS kernel systems in bind_kernels.cpp).
    WorldBinding& world_binding() noexcept { return world_; }
    Scheduler& scheduler() noexcept { return *scheduler_; }

private:
    WorldBinding& world_;
    std::unique_ptr<Scheduler> scheduler_;
    // by extract id: what acquire_extract() returns the address of (empty once removed)
    std::vector<std::vector<std::uint32_t>> extract_records_;
    std::vector<double> frame_record_;  // what last_frame_record() returns the address of
    bool timing_queue_on_ = false;
    std::vector<double> timing_queue_;  // [count, then what step() appends while timing_queue_on_]
    std::vector<double> timing_taken_;  // what take_timing_queue() returns the address of
};

}  // namespace ecsia::wasm
