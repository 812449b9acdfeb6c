#pragma once
// The monotonic clock of the hot paths (fence polls, workers' busy time, frame timing), in
// nanoseconds: std::chrono::steady_clock unless a platform installs a cheaper source. The wasm
// build installs performance.timeOrigin + now(): one call into JS, where libc++'s steady_clock
// costs two round trips (clock_gettime through an exception trampoline) at ~0.5 µs or more per
// read. Threads' readings may be offset from each other (by milliseconds in some browsers);
// durations on one thread are exact.
// Deadlines keep using steady_clock: they are read once per wave, off the fast path.

#include <atomic>
#include <chrono>
#include <cstdint>

namespace ecsia {

// noexcept: in wasm, with JS-based exceptions, a call that may throw made inside a try block (a
// frame's step is one) goes out to JS and back through an invoke_ trampoline.
using MonotonicSource = std::int64_t (*)() noexcept;

namespace detail {
inline std::atomic<MonotonicSource> monotonic_source{nullptr};
}  // namespace detail

// Call once, before any scheduler or worker starts (values from two sources never mix then).
inline void install_monotonic_source(MonotonicSource source) noexcept {
    // relaxed: installed before the threads that read it are created; thread creation orders it.
    detail::monotonic_source.store(source, std::memory_order_relaxed);
}

inline std::int64_t monotonic_ns() noexcept {
    // relaxed: see install_monotonic_source.
    if (const MonotonicSource source = detail::monotonic_source.load(std::memory_order_relaxed)) return source();
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace ecsia
