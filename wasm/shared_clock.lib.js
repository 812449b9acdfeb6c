// The clock of the engine's hot paths in the browser (ecsia::monotonic_ns, installed by
// bind_scheduler.cpp), as an Emscripten JS library function rather than an EM_JS one, so that its
// C++ declaration can say noexcept: calls into it are then plain wasm calls even inside a try
// block, where a call that may throw goes out to JS and back through an invoke_ trampoline.
//
// The time in ms on a clock every thread shares: performance.timeOrigin + performance.now() is
// comparable across a page and its workers (High Resolution Time), where emscripten_get_now()'s
// correction of a worker's clock is off by the latency of the message that started the worker
// (hundreds of µs: a batch on a worker then seemed to start before its wave). Less a fixed recent
// instant, so that the nanoseconds keep a double's precision (about 16 ns). Both the origin and
// the global `performance` (a getter of the page's or worker's global object, about 100 ns in
// Chromium: more than now() itself) are read once per thread, when its module starts.
mergeInto(LibraryManager.library, {
  ecsia_shared_clock_ms__postset: 'var ecsiaPerformance = performance; var ecsiaClockBaseMs = ecsiaPerformance.timeOrigin - 1.7e12;',
  ecsia_shared_clock_ms: function() {
    return ecsiaClockBaseMs + ecsiaPerformance.now();
  },
});
