#pragma once
// The diagnostic channel (G3): every fallback, clamp, overflow and dropped piece of work is reported
// here. The default sink writes to stderr; the wasm bindings route it to console.warn or to a JS
// callback. Reporting happens only on the serial slot (coordinator thread), so sinks need no locking.
//
// Naming: while a system's code or its results are handled (its main-thread body, the observers
// that body sets off, its commands at the merge), a `Diagnostics::Source` names it, and every
// report() then begins "system '<name>': ". Messages that name their system themselves use
// report_for().
//
// Repeats: between begin_frame() and end_frame() (a scheduler's frame), a diagnostic that was
// already said in the previous frame, from the same system, with the same text up to its numbers,
// is not said again: it is counted. The count is said, with the last such message, when a frame
// passes without it, every kRepeatSummaryFrames frames while it goes on, and at flush_repeats()
// (a scheduler's dispose). Within the frame a run of repeats starts in, every occurrence is said.
// Outside frames everything is said. So a diagnostic a system causes every frame is said once and
// then with its count a few times a minute, never sixty times a second, and never dropped.

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ecsia {

using DiagnosticSink = std::function<void(const std::string& message)>;

class Diagnostics {
public:
    // A run of repeats still going is summarized this often (5 s at 60 frames a second).
    static constexpr std::uint64_t kRepeatSummaryFrames = 300;

    // Names the system whose work is being done while it lives; restores the previous name after.
    class Source {
    public:
        Source(Diagnostics& diagnostics, const std::string& system) noexcept
            : diagnostics_(diagnostics), previous_(diagnostics.source_) {
            diagnostics.source_ = &system;
        }
        ~Source() {
            if (!dismissed_) diagnostics_.source_ = previous_;
        }
        // The diagnostics are gone (their world was destroyed while the source was current).
        void dismiss() noexcept { dismissed_ = true; }
        Source(const Source&) = delete;
        Source& operator=(const Source&) = delete;

    private:
        Diagnostics& diagnostics_;
        const std::string* previous_;
        bool dismissed_ = false;
    };

    Diagnostics();
    // Serial phase only.
    void set_sink(DiagnosticSink sink);
    // Serial phase only. Prefixed with the current Source's system, if any.
    void report(const std::string& message);
    // Serial phase only. A message that already names `system`: not prefixed, but its repeats are
    // counted as that system's.
    void report_for(const std::string& system, const std::string& message);

    // A scheduler's frame: repeats are counted between these. begin_frame() ends a frame left
    // open (one that failed part way).
    void begin_frame();
    void end_frame();
    // Says every count not yet said and forgets every run (a scheduler is disposed).
    void flush_repeats();

    // Messages handed to the sink, summaries included.
    std::size_t reported_count() const noexcept { return reported_count_; }
    // Reports counted instead of said, so far (each is in a summary once it is said).
    std::size_t repeats_counted() const noexcept { return repeats_counted_; }

private:
    struct Run {
        std::string key;           // system + text with its numbers blanked
        std::string last_message;  // as it would have been said
        std::uint64_t first_frame = 0;
        std::uint64_t last_frame = 0;
        std::uint64_t counting_since = 0;  // first frame of the repeats not yet said
        std::uint64_t repeats = 0;         // counted, not yet said
    };

    void route(const std::string& system, std::string message);
    void say(const std::string& message);
    void summarize(Run& run, bool still_going, std::vector<std::string>& out);
    void say_all(const std::vector<std::string>& messages);
    void close_frame();

    DiagnosticSink sink_;
    const std::string* source_ = nullptr;
    bool in_frame_ = false;
    std::uint64_t frame_ = 0;
    std::vector<Run> runs_;  // in order of first appearance, so summaries come out in a fixed order
    std::unordered_map<std::string, std::size_t> run_of_key_;
    std::size_t reported_count_ = 0;
    std::size_t repeats_counted_ = 0;
};

}  // namespace ecsia
