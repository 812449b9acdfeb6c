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
    {
        // The mutex orders the store against a blocking waiter that is about to sleep, so the
        // notify cannot fall between its check and its wait (no lost wake-up).
        std::lock_guard<std::mutex> lock(mutex_);
        // relaxed load: epoch_ was written before dispatch, which happens-before this arrival.
        // release store: pairs with the acquire in done().
        done_epoch_.store(epoch_.load(std::memory_order_relaxed), std::memory_order_release);
    }
    completed_.notify_all();
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
    return completed_.wait_until(lock, deadline, [&] { return done(epoch); });
}

}  // namespace ecsia
