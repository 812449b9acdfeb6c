#pragma once
// The threads layer: a fixed pool of worker threads and the fence a wave ends on. It knows nothing
// about entities or systems; it runs numbered jobs and says when they are done.
//
// WaveFence memory, as 32-bit words (JS reads `done_epoch` through HEAP32 for Atomics.waitAsync):
//   remaining   workers still running in the armed wave; the one that takes it to 0 completes it
//   epoch       number of the armed wave (coordinator writes, before dispatch)
//   done_epoch  number of the last completed wave: the word every waiter watches
// (A failing job records its failure in its own output, not here.)
// Waiting styles: wait_until() blocks (native, Node, any worker); done() + done_epoch_address()
// let the browser main thread await the same word with Atomics.waitAsync and never block.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace ecsia {

class WaveFence {
public:
    // Called after done_epoch changes, with its address: the wasm build plugs in a futex wake so
    // that a JS Atomics.waitAsync on the same word resolves. Set once before any wave.
    using WakeHook = void (*)(const void* address);
    static void set_wake_hook(WakeHook hook) noexcept { wake_hook_ = hook; }

    // Coordinator thread. Arms the next wave for `participants` arrivals; returns its epoch.
    std::uint32_t arm(std::uint32_t participants) noexcept;
    // Any worker. The last arrival of the armed wave completes it and wakes every waiter.
    void arrive() noexcept;

    // Any thread. True once the wave numbered `epoch` has completed.
    bool done(std::uint32_t epoch) const noexcept {
        // acquire: pairs with the release in arrive(), so every write the workers made in the wave
        // happens-before whatever the caller does after seeing the wave done.
        return done_epoch_.load(std::memory_order_acquire) == epoch;
    }
    // Blocks until `epoch` is done or the deadline passes; returns done(epoch). Never call it on
    // the browser main thread.
    bool wait_until(std::uint32_t epoch, std::chrono::steady_clock::time_point deadline);

    const std::int32_t* done_epoch_address() const noexcept {
        return reinterpret_cast<const std::int32_t*>(&done_epoch_);
    }

private:
    std::atomic<std::uint32_t> remaining_{0};
    std::atomic<std::uint32_t> epoch_{0};
    std::atomic<std::uint32_t> done_epoch_{0};
    // Threads inside wait_until(). The last arrival touches the mutex and the condition variable
    // only when there is one, so where nobody blocks (the browser: the page awaits done_epoch with
    // Atomics.waitAsync) a worker completing a wave holds no lock the page could then wait on when
    // it is the last arrival of the next (shared) wave: G2.
    std::atomic<std::uint32_t> blocking_waiters_{0};
    std::mutex mutex_;  // only for the blocking waiters' condition variable
    std::condition_variable completed_;
    static inline WakeHook wake_hook_ = nullptr;
};

}  // namespace ecsia
