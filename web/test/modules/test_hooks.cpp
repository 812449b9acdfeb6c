// EMSCRIPTEN_BINDINGS(ecsia_test_hooks): the browser tests' hooks, compiled only into the test
// modules (wasm/CMakeLists.txt: ecsia_test, g2_stress), never into the engine's own module or a
// user's. web/builtins.js's forcePlacement(scheduler, placement) wraps it.
//
//   testForcePlacement(scheduler, placement)   every later wave runs 'inline', on the 'pool',
//                                              'shared', or '' where the executor decides again
//
// A check that needs batches on the workers pins them there; results never depend on where a
// wave runs (G1). Thread rule: the page's main thread, between frames.
#include <emscripten/bind.h>

#include <optional>
#include <string>

#include "ecsia/schedule/placement.hpp"
#include "js_error.hpp"
#include "scheduler_binding.hpp"
// The hooks of a Scheduler that tests and benchmarks share (detail::SchedulerTesting, a friend of
// Scheduler). Named by its path from here, so no module's include path has tests/ on it.
#include "../../../tests/support/scheduler_testing.hpp"

namespace {

void force_placement(ecsia::wasm::SchedulerBinding& scheduler, const std::string& placement) {
    ecsia::wasm::rethrow_as_js([&] {
        std::optional<ecsia::WavePlacement> pinned;
        for (ecsia::WavePlacement p : {ecsia::WavePlacement::Inline, ecsia::WavePlacement::Pool, ecsia::WavePlacement::Shared}) {
            if (placement == ecsia::placement_name(p)) pinned = p;
        }
        if (!pinned && !placement.empty()) {
            throw ecsia::Error(ecsia::ErrorCode::BadValue,
                               "forcePlacement: '" + placement + "' is not 'inline', 'pool', 'shared' or ''");
        }
        ecsia::detail::SchedulerTesting::force_placement(scheduler.scheduler(), pinned);
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ecsia_test_hooks) {
    emscripten::function("testForcePlacement", &force_placement);
}
