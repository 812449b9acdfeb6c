#pragma once
// WorkerPool: N threads (Web Workers under Emscripten pthreads) that sleep on their wake word and,
// when a wave is dispatched, claim numbered jobs until none are left, then arrive at the fence.
// Which worker runs which job depends on timing; callers make results independent of that by
// giving every job its own output (the scheduler's per-batch buffers).
//
// Per-worker control block: wake word (a copy of the dispatch count the worker waits on), busy
// time and jobs run (for the demo's busy share). Shared: the job table of the current wave, the
// claim counter and the fence.
// Thread rule: every member function is for the coordinator thread only.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "ecsia/threads/wave_fence.hpp"
#include "ecsia/threads/worker_stats.hpp"

namespace ecsia {

// How an idle worker sleeps on its wake word and how dispatch wakes it. The default (both null) is
// std::atomic wait/notify, a futex natively; Emscripten's libc++ implements that wait as a poll
// with backoff sleeps of up to 8 ms, so the wasm build plugs in its real futex here.
struct WakeWordHooks {
    void (*wait)(std::atomic<std::uint32_t>* word, std::uint32_t seen) = nullptr;
    void (*wake)(std::atomic<std::uint32_t>* word) = nullptr;
};

class WorkerPool {
public:
    // Set once, before any pool exists.
    static void set_wake_word_hooks(WakeWordHooks hooks) noexcept { hooks_ = hooks; }
    // Runs in every worker before it reports ready: lets tests make start-up slow. Set only
    // while no pool exists.
    static void set_start_hook(void (*hook)(std::uint32_t worker)) noexcept { start_hook_ = hook; }

    // Runs job `job` on worker `worker` (kCoordinator when the coordinator runs it, see help()).
    // A job records its own failure in its own output: the pool only hands out numbers.
    using JobFn = void (*)(void* context, std::uint32_t job, std::uint32_t worker);
    static constexpr std::uint32_t kCoordinator = 0xffffffffu;

    // Starts `workers` threads and returns without waiting for them (see wait_ready / ready).
    explicit WorkerPool(std::uint32_t workers);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(workers_.size()); }
    // True once every worker has started and is waiting for work (the bootstrap handshake).
    bool ready() const noexcept;
    // Blocks until ready() or the deadline; throws WorkerFailure naming how many started.
    void wait_ready(std::chrono::milliseconds timeout);

    // Hands out jobs [0, job_count) and wakes min(workers, job_count) of the workers; returns the
    // fence epoch to wait for.
    // Throws WorkerFailure if the previous wave has not completed (a stalled worker), or Disposed.
    std::uint32_t dispatch(std::uint32_t job_count, JobFn fn, void* context);
    // Coordinator thread, after dispatch: claims the next unclaimed job of the wave and runs it
    // here, as the workers do; false once none is left. The wave is complete when the fence is
    // done AND the coordinator's own jobs have returned (they are not counted by the fence).
    bool help();
    WaveFence& fence() noexcept { return fence_; }
    bool idle() const noexcept { return fence_.done(last_epoch_); }

    WorkerStats stats(std::uint32_t worker) const noexcept;
    // Stops claiming new jobs and wakes every worker. Safe mid-wave; idempotent. With `may_block`
    // it joins the threads; without (the browser main thread, which must never block) it detaches
    // them, and the caller must then never destroy the pool: a detached worker may still be
    // finishing a job, or waking to see the stop flag, when dispose returns.
    void dispose(bool may_block = true);
    bool disposed() const noexcept { return disposed_; }

private:
    struct alignas(64) Worker {  // one cache line each: workers write their own stats only
        std::atomic<std::uint32_t> wake{0};
        std::atomic<std::uint64_t> busy_ns{0};
        std::atomic<std::uint64_t> jobs_run{0};
        std::thread thread;
    };
    void run(std::uint32_t index);
    static void spin_before_sleep(const Worker& self, std::uint32_t seen) noexcept;
    static void wake(std::atomic<std::uint32_t>& word) noexcept;
    static inline WakeWordHooks hooks_{};
    static inline void (*start_hook_)(std::uint32_t worker) = nullptr;

    std::vector<std::unique_ptr<Worker>> workers_;
    WaveFence fence_;
    std::atomic<std::uint32_t> started_{0};
    std::atomic<bool> stopping_{false};
    // The current wave's job table: written before dispatch, read-only while it runs.
    JobFn job_fn_ = nullptr;
    void* job_context_ = nullptr;
    std::uint32_t job_count_ = 0;
    std::atomic<std::uint32_t> next_job_{0};
    std::uint32_t dispatch_count_ = 0;
    std::uint32_t last_epoch_ = 0;
    bool disposed_ = false;
};

}  // namespace ecsia
