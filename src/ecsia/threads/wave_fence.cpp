#include "ecsia/threads/wave_fence.hpp"

#include <thread>

namespace ecsia {

std::uint32_t WaveFence::arm(std::uint32_t participants) noexcept {
    // relaxed: these stores are published to workers by the release on their wake word.
    remaining_.store(participants, std::memory_order_relaxed);
    return epoch_.fetch_add(1, std::memory_order_relaxed) + 1;
}

void WaveFence::arrive() noexcept {
    // acq_rel: the release publishes this worker's writes to the last arriver; the acquire lets the
    // last arriver carry every worker's writes into its release store of done_epoch below.
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    // relaxed load: epoch_ was written before dispatch, which happens-before this arrival.
    // seq_cst store (a release for done()'s acquire): with the seq_cst accesses of
    // blocking_waiters_ here and in wait_until, either this load sees a waiter that registered,
    // or that waiter's check of done_epoch (after it registered) sees this store.
    done_epoch_.store(epoch_.load(std::memory_order_relaxed), std::memory_order_seq_cst);
    if (blocking_waiters_.load(std::memory_order_seq_cst) != 0) {
        // Taking the mutex once the waiter holds it no more: a waiter between its check and its
        // sleep holds it, so the notify cannot fall in between (no lost wake-up).
        { std::lock_guard<std::mutex> lock(mutex_); }
        completed_.notify_all();
    }
    if (wake_hook_ != nullptr) wake_hook_(&done_epoch_);
}

bool WaveFence::wait_until(std::uint32_t epoch, std::chrono::steady_clock::time_point deadline) {
    // Short waves usually finish within microseconds: poll briefly before paying for a sleep and
    // a wake-up (tens of µs). Kept short so a waiting coordinator does not take a core from the
    // workers for long.
    const auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
    while (std::chrono::steady_clock::now() < spin_until) {
        if (done(epoch)) return true;
        std::this_thread::yield();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    // seq_cst: see arrive(); registered before the check of done_epoch below.
    blocking_waiters_.fetch_add(1, std::memory_order_seq_cst);
    const bool completed = completed_.wait_until(
        lock, deadline, [&] { return done_epoch_.load(std::memory_order_seq_cst) == epoch; });
    // relaxed: only a count; arrive() needs to see registrations, not departures.
    blocking_waiters_.fetch_sub(1, std::memory_order_relaxed);
    return completed;
}

}  // namespace ecsia
