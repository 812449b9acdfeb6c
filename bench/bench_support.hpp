#pragma once
// Small helpers shared by the native benchmarks: a monotonic clock, medians, a sink the optimiser
// cannot see through, and the one-line target verdicts the programs end with.
// Benchmarks run on demand only; they are never part of the test suite.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// CPU time of the calling thread: unlike the wall clock it does not count time the thread spent
// descheduled, which on a shared, loaded machine can dominate a sample.
// A browser has no per-thread CPU clock: there it is the wall clock.
inline double thread_cpu_seconds() {
#ifdef __EMSCRIPTEN__
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
#else
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
#endif
}

// Both clocks around one piece of work. The benchmarks judge by CPU time (see PERFORMANCE.md:
// the machines are shared and often oversubscribed) and print wall time beside it.
struct Timing {
    double wall = 0;
    double cpu = 0;
};

template <typename Fn>
Timing time_both(Fn&& fn) {
    const auto wall_start = Clock::now();
    const double cpu_start = thread_cpu_seconds();
    fn();
    const double cpu = thread_cpu_seconds() - cpu_start;
    return Timing{seconds_since(wall_start), cpu};
}

// Median of a copy: the benchmarks keep their raw samples for the min/max columns.
inline double median(std::vector<double> samples) {
    if (samples.empty()) return 0.0;
    std::sort(samples.begin(), samples.end());
    const std::size_t mid = samples.size() / 2;
    return samples.size() % 2 == 1 ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
}

inline double min_of(const std::vector<double>& samples) {
    return samples.empty() ? 0.0 : *std::min_element(samples.begin(), samples.end());
}

inline double max_of(const std::vector<double>& samples) {
    return samples.empty() ? 0.0 : *std::max_element(samples.begin(), samples.end());
}

// One measured variant of a workload (move, tracked): how to run a frame, and its samples.
struct Variant {
    const char* name;
    std::function<void()> frame;
    std::vector<double> cpu_ns;         // per repetition, ns per entity, thread CPU time
    std::vector<double> wall_ns;        // the same samples by the wall clock
    std::vector<double> over_baseline;  // per repetition: cpu_ns / the baseline's, where computed
};

inline void add_variant(std::vector<Variant>& variants, const char* name, std::function<void()> frame) {
    Variant v;
    v.name = name;
    v.frame = std::move(frame);
    variants.push_back(std::move(v));
}

template <typename Fn>
Timing time_frames(const Fn& frame, int frames) {
    return time_both([&] {
        for (int f = 0; f < frames; ++f) frame();
    });
}

// Results flow here so the compiler cannot drop the work that produced them.
inline volatile double g_sink = 0.0;
inline void consume(double value) { g_sink = g_sink + value; }

struct Verdict {
    const char* name;
    double measured;
    double limit;
    bool at_most;  // true: measured must be <= limit; false: measured must be >= limit
    const char* unit;
};

// Prints `target <name>: <measured> vs <limit> -> met|MISSED` per verdict; returns how many missed.
inline int report_targets(const std::vector<Verdict>& verdicts) {
    int missed = 0;
    std::printf("\n");
    for (const Verdict& v : verdicts) {
        const bool met = v.at_most ? v.measured <= v.limit : v.measured >= v.limit;
        if (!met) ++missed;
        std::printf("target %s: %.3g%s vs %s%.3g%s -> %s\n", v.name, v.measured, v.unit, v.at_most ? "<= " : ">= ",
                    v.limit, v.unit, met ? "met" : "MISSED");
    }
    return missed;
}

// ---- machine-readable results for scripts/bench (bench/report.mjs reads them)

// Takes `--json PATH` out of argv (so positional arguments keep their places); "" when absent.
inline std::string take_json_path(int& argc, char** argv) {
    std::string path;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    return path;
}

inline std::string json_number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

// Names here are the programs' own labels: no quotes or backslashes to escape.
inline std::string json_string(const std::string& text) { return "\"" + text + "\""; }

inline std::string json_bool(bool value) { return value ? "true" : "false"; }

// Joins already-formatted members or elements.
inline std::string json_join(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : ",") + item;
    return out;
}

inline std::string json_object(const std::vector<std::string>& members) {
    std::string out = "{";
    out += json_join(members);
    out += "}";
    return out;
}

inline std::string json_array(const std::vector<std::string>& elements) {
    std::string out = "[";
    out += json_join(elements);
    out += "]";
    return out;
}

inline std::string json_member(const std::string& key, const std::string& value) { return json_string(key) + ":" + value; }

// {"<variant name>": median ns per entity, ...}
inline std::string json_ns_per_entity(const std::vector<Variant>& variants) {
    std::vector<std::string> members;
    for (const Variant& v : variants) members.push_back(json_member(v.name, json_number(median(v.cpu_ns))));
    return json_object(members);
}

// Writes `json` to `path` when a path was given; returns false (and says so) when it cannot.
inline bool write_json(const std::string& path, const std::string& json) {
    if (path.empty()) return true;
    std::FILE* file = std::fopen(path.c_str(), "w");
    if (file == nullptr) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        return false;
    }
    std::fprintf(file, "%s\n", json.c_str());
    return std::fclose(file) == 0;
}

}  // namespace bench
