#include "ecsia/threads/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "ecsia/base/error.hpp"
#include "ecsia/base/monotonic_clock.hpp"

namespace ecsia {

WorkerPool::WorkerPool(std::uint32_t workers) {
    workers_.reserve(workers);
    for (std::uint32_t i = 0; i < workers; ++i) workers_.push_back(std::make_unique<Worker>());
    try {
        for (std::uint32_t i = 0; i < workers; ++i) workers_[i]->thread = std::thread([this, i] { run(i); });
    } catch (const std::system_error& error) {
        dispose();
        throw Error(ErrorCode::WorkerFailure, "could not start worker threads: " + std::string(error.what()));
    }
}

WorkerPool::~WorkerPool() { dispose(); }

bool WorkerPool::ready() const noexcept {
    // acquire: a worker counted here has finished its start-up writes.
    return started_.load(std::memory_order_acquire) == workers_.size();
}

void WorkerPool::wait_ready(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!ready()) {
        if (std::chrono::steady_clock::now() > deadline) {
            // (the acquire load below is only for the message)
            throw Error(ErrorCode::WorkerFailure,
                        "worker pool start-up timed out after " + std::to_string(timeout.count()) + " ms: " +
                            std::to_string(started_.load(std::memory_order_acquire)) + " of " +
                            std::to_string(workers_.size()) + " workers reported ready");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

std::uint32_t WorkerPool::dispatch(std::uint32_t job_count, JobFn fn, void* context) {
    if (disposed_) throw Error(ErrorCode::Disposed, "the worker pool was disposed");
    if (!idle()) {
        throw Error(ErrorCode::WorkerFailure,
                    "a worker is still running a batch of wave " + std::to_string(last_epoch_) + " past its deadline");
    }
    job_fn_ = fn;
    job_context_ = context;
    job_count_ = job_count;
    // relaxed: published together with the job table by the release on each wake word below.
    next_job_.store(0, std::memory_order_relaxed);
    // A wave with fewer jobs than workers wakes only as many workers as it has jobs (the first
    // ones, which are then the warm ones): the others would only wake to find nothing to claim,
    // and the fence would wait for the slowest of them to arrive.
    const std::uint32_t participants = std::min<std::uint32_t>(size(), std::max<std::uint32_t>(job_count, 1));
    last_epoch_ = fence_.arm(participants);
    ++dispatch_count_;
    for (std::uint32_t i = 0; i < participants; ++i) {
        // release: the worker's acquire on its wake word makes the job table and the armed fence
        // visible before it claims a job.
        workers_[i]->wake.store(dispatch_count_, std::memory_order_release);
        wake(workers_[i]->wake);
    }
    return last_epoch_;
}

bool WorkerPool::help() {
    // relaxed: as in run(); the coordinator wrote the job table itself.
    const std::uint32_t job = next_job_.fetch_add(1, std::memory_order_relaxed);
    if (job >= job_count_ || disposed_) return false;
    job_fn_(job_context_, job, kCoordinator);
    return true;
}

void WorkerPool::run(std::uint32_t index) {
    Worker& self = *workers_[index];
    if (start_hook_ != nullptr) start_hook_(index);
    // release: pairs with the acquire in ready().
    started_.fetch_add(1, std::memory_order_release);
    std::uint32_t seen = 0;
    for (;;) {
        spin_before_sleep(self, seen);
        // acquire: see the job table and the fence that dispatch() published before this store.
        if (hooks_.wait != nullptr) {
            // The hook may return spuriously; the acquire load below decides.
            while (self.wake.load(std::memory_order_acquire) == seen) hooks_.wait(&self.wake, seen);
        } else {
            self.wake.wait(seen, std::memory_order_acquire);
        }
        // acquire: as above, for the value that ended the wait.
        seen = self.wake.load(std::memory_order_acquire);
        // acquire: pairs with the release in dispose(); a stopping pool runs nothing more.
        if (stopping_.load(std::memory_order_acquire)) return;
        const std::int64_t start = monotonic_ns();
        std::uint64_t jobs = 0;
        for (;;) {
            // relaxed: the counter only hands out distinct numbers; the job table is already
            // visible through the wake acquire.
            const std::uint32_t job = next_job_.fetch_add(1, std::memory_order_relaxed);
            if (job >= job_count_ || stopping_.load(std::memory_order_acquire)) break;
            job_fn_(job_context_, job, index);
            ++jobs;
        }
        const std::int64_t busy = monotonic_ns() - start;
        // relaxed: statistics, read by the coordinator after the fence or tolerated as slightly old.
        self.busy_ns.fetch_add(static_cast<std::uint64_t>(busy), std::memory_order_relaxed);
        self.jobs_run.fetch_add(jobs, std::memory_order_relaxed);
        fence_.arrive();
    }
}

void WorkerPool::spin_before_sleep(const Worker& self, std::uint32_t seen) noexcept {
    // The waves of a frame follow one another within microseconds: a worker that polls its wake
    // word for a moment after a wave is still awake for the next dispatch. Waking a sleeping one
    // costs a few µs natively and tens of µs in a browser's Web Worker. Kept short: a waiting
    // worker should not hold a core that the page or another worker needs.
    constexpr std::int64_t kSpinNs = 50'000;
    const std::int64_t until = monotonic_ns() + kSpinNs;
    // relaxed: only a hint to stop polling; the acquire load after the poll decides.
    while (self.wake.load(std::memory_order_relaxed) == seen && monotonic_ns() < until) {
        std::this_thread::yield();
    }
}

void WorkerPool::wake(std::atomic<std::uint32_t>& word) noexcept {
    if (hooks_.wake != nullptr) {
        hooks_.wake(&word);
    } else {
        word.notify_one();
    }
}

WorkerStats WorkerPool::stats(std::uint32_t worker) const noexcept {
    const Worker& w = *workers_[worker];
    // relaxed: monotonic counters; an approximate snapshot is all a busy-share display needs.
    return WorkerStats{w.busy_ns.load(std::memory_order_relaxed), w.jobs_run.load(std::memory_order_relaxed)};
}

void WorkerPool::dispose(bool may_block) {
    if (disposed_) return;
    disposed_ = true;
    if (!may_block) {
        // Detach while every worker is certain to be alive (none returns before it sees stopping_
        // below): detaching a thread that has already exited joins it, which Emscripten reports
        // as "Blocking on the main thread" even though that join would not wait.
        for (auto& worker : workers_) {
            if (worker->thread.joinable()) worker->thread.detach();
        }
    }
    // release: a worker that sees the flag also sees everything the coordinator did before it.
    stopping_.store(true, std::memory_order_release);
    for (auto& worker : workers_) {
        // release: wakes sleeping workers so they observe stopping_ and return.
        worker->wake.fetch_add(1, std::memory_order_release);
        wake(worker->wake);
    }
    for (auto& worker : workers_) {
        if (worker->thread.joinable()) worker->thread.join();
    }
}

}  // namespace ecsia
