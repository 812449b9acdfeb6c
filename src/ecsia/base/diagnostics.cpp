#include "ecsia/base/diagnostics.hpp"

#include <cstdio>

namespace ecsia {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// The text with every number (decimal or 0x-hex) replaced by '#': "failed in batch 3" and
// "failed in batch 7" are the same diagnostic repeated, as are two entities' handles.
std::string without_numbers(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '0' && i + 2 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X') && is_hex_digit(text[i + 2])) {
            i += 2;
            while (i < text.size() && is_hex_digit(text[i])) ++i;
            out += '#';
        } else if (is_digit(text[i])) {
            while (i < text.size() && is_digit(text[i])) ++i;
            out += '#';
        } else {
            out += text[i++];
        }
    }
    return out;
}

}  // namespace

Diagnostics::Diagnostics()
    : sink_([](const std::string& message) { std::fprintf(stderr, "[ecsia] %s\n", message.c_str()); }) {}

void Diagnostics::set_sink(DiagnosticSink sink) {
    if (sink) sink_ = std::move(sink);
}

void Diagnostics::report(const std::string& message) {
    if (source_ == nullptr) {
        route({}, message);
        return;
    }
    route(*source_, "system '" + *source_ + "': " + message);
}

void Diagnostics::report_for(const std::string& system, const std::string& message) { route(system, message); }

void Diagnostics::route(const std::string& system, std::string message) {
    if (!in_frame_) {
        say(message);
        return;
    }
    // The system's name cannot contain a newline in any message that matters; it only separates.
    std::string key = system + '\n' + without_numbers(message);
    const auto found = run_of_key_.find(key);
    if (found == run_of_key_.end()) {
        run_of_key_.emplace(key, runs_.size());
        runs_.push_back(Run{std::move(key), message, frame_, frame_, 0, 0});
        say(message);
        return;
    }
    Run& run = runs_[found->second];
    run.last_frame = frame_;
    if (run.first_frame == frame_) {
        say(message);  // the frame a run starts in says everything: one frame's details are all useful
        return;
    }
    if (run.repeats == 0) run.counting_since = frame_;
    ++run.repeats;
    ++repeats_counted_;
    run.last_message = std::move(message);
}

void Diagnostics::say(const std::string& message) {
    ++reported_count_;
    sink_(message);
}

void Diagnostics::summarize(Run& run, bool still_going, std::vector<std::string>& out) {
    if (run.repeats == 0) return;
    const std::uint64_t frames = run.last_frame - run.counting_since + 1;
    out.push_back(run.last_message + " (repeated: " + std::to_string(run.repeats) + " more like it in " +
                  std::to_string(frames) + " later frame(s)" + (still_going ? ", still going on" : "") + ")");
    run.repeats = 0;
}

void Diagnostics::say_all(const std::vector<std::string>& messages) {
    // After the bookkeeping is done: a sink may report again.
    for (const std::string& message : messages) say(message);
}

void Diagnostics::begin_frame() {
    if (in_frame_) close_frame();
    in_frame_ = true;
    ++frame_;
}

void Diagnostics::end_frame() {
    if (in_frame_) close_frame();
}

void Diagnostics::close_frame() {
    in_frame_ = false;
    std::vector<std::string> summaries;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        Run& run = runs_[i];
        if (run.last_frame != frame_) {
            summarize(run, false, summaries);  // the run ended: this frame did not repeat it
            continue;
        }
        if (run.repeats > 0 && frame_ - run.counting_since + 1 >= kRepeatSummaryFrames) summarize(run, true, summaries);
        if (kept != i) runs_[kept] = std::move(run);
        ++kept;
    }
    if (kept != runs_.size()) {
        runs_.resize(kept);
        run_of_key_.clear();
        for (std::size_t i = 0; i < runs_.size(); ++i) run_of_key_.emplace(runs_[i].key, i);
    }
    say_all(summaries);
}

void Diagnostics::flush_repeats() {
    in_frame_ = false;
    std::vector<std::string> summaries;
    for (Run& run : runs_) summarize(run, false, summaries);
    runs_.clear();
    run_of_key_.clear();
    say_all(summaries);
}

}  // namespace ecsia
