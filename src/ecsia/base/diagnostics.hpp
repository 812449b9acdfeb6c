#pragma once
// The diagnostic channel (G3): every fallback, clamp, overflow and dropped piece of work is reported
// here. The default sink writes to stderr; the wasm bindings route it to console.warn or to a JS
// callback. Reporting happens only on the serial slot (coordinator thread), so sinks need no locking.

#include <functional>
#include <string>

namespace ecsia {

using DiagnosticSink = std::function<void(const std::string& message)>;

class Diagnostics {
public:
    Diagnostics();
    // Serial phase only.
    void set_sink(DiagnosticSink sink);
    // Serial phase only. Counts every report so tests can tell "nothing was said" from "said once".
    void report(const std::string& message);
    std::size_t reported_count() const noexcept { return reported_count_; }

private:
    DiagnosticSink sink_;
    std::size_t reported_count_ = 0;
};

}  // namespace ecsia
