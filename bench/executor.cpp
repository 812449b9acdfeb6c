// Threads must never make a frame slower: *move* through the Scheduler at 1,000 to
// 1,000,000 entities, and a frame of the determinism scenario, on the serial executor and at 1, 2,
// 4 and 8 workers, with the executor deciding where each wave runs ("decide") and, for the
// before/after curve, with every wave forced onto the workers ("pool", what the threaded executor
// did before it decided). Ratio = serial wall time / threaded wall time for the same frames (>= 1
// is faster than serial). Samples of every executor are interleaved within each repetition, so
// drift on a shared machine hits them alike; medians over repetitions.
//
//   bench_executor [repetitions] [--json PATH]

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "builtin/builtin_systems.hpp"
#include "builtin/scenario.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/ecsia.hpp"
#include "support/scheduler_testing.hpp"

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr double kSampleSeconds = 0.01;

struct Executor {
    std::string label;
    std::uint32_t workers;
    std::optional<ecsia::WavePlacement> forced;  // nullopt = the executor decides
    std::vector<double> wall;                    // per repetition, seconds for the sample's frames
};

std::vector<Executor> executors() {
    std::vector<Executor> list{{"serial", 0, std::nullopt, {}}};
    for (std::uint32_t w : {1u, 2u, 4u, 8u}) {
        list.push_back({"decide", w, std::nullopt, {}});
        list.push_back({"pool", w, ecsia::WavePlacement::Pool, {}});
    }
    return list;
}

// Runs `frame(i)` for executor i, interleaved; returns nothing, fills each executor's samples.
template <typename Frame>
void measure(std::vector<Executor>& list, int repetitions, const Frame& frame) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        for (int f = 0; f < 5; ++f) frame(i);  // warm up: caches, pages, and the cost model
    }
    const bench::Timing one = bench::time_both([&] { frame(0); });
    const int frames = std::max(2, static_cast<int>(kSampleSeconds / std::max(one.wall, 1e-7)));
    for (int rep = 0; rep < repetitions; ++rep) {
        for (std::size_t j = 0; j < list.size(); ++j) {
            const std::size_t i = (j + static_cast<std::size_t>(rep)) % list.size();
            list[i].wall.push_back(bench::time_both([&] {
                                       for (int f = 0; f < frames; ++f) frame(i);
                                   }).wall);
        }
    }
}

double ratio(const Executor& serial, const Executor& e) {
    std::vector<double> ratios;
    for (std::size_t r = 0; r < e.wall.size(); ++r) ratios.push_back(serial.wall[r] / e.wall[r]);
    return bench::median(ratios);
}

std::string runs_json(const std::vector<Executor>& list, double serial_frame_ns) {
    std::vector<std::string> runs;
    for (std::size_t i = 1; i < list.size(); ++i) {
        runs.push_back(bench::json_object({bench::json_member("workers", std::to_string(list[i].workers)),
                                           bench::json_member("mode", bench::json_string(list[i].label)),
                                           bench::json_member("ratio", bench::json_number(ratio(list[0], list[i])))}));
    }
    return bench::json_object({bench::json_member("serial_frame_ns", bench::json_number(serial_frame_ns)),
                               bench::json_member("runs", bench::json_array(runs))});
}

void print_row(const char* what, const std::vector<Executor>& list, double serial_frame_ns) {
    std::printf("  %-22s %10.1f µs", what, serial_frame_ns * 1e-3);
    for (std::size_t i = 1; i < list.size(); ++i) std::printf(" %7.2fx", ratio(list[0], list[i]));
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
    std::printf("executor: serial wall time / threaded wall time per frame (>= 1 = faster than serial;\n"
                "%d interleaved repetitions, median). decide = the executor chooses per wave; pool = every\n"
                "wave on the workers (the executor before it decided).\n\n",
                repetitions);
    std::printf("  %-22s %13s", "workload", "serial frame");
    for (const Executor& e : executors()) {
        if (e.workers > 0) std::printf(" %4s %-3u", e.label == "decide" ? "dec" : "pool", e.workers);
    }
    std::printf("\n");

    std::vector<bench::Verdict> verdicts;
    std::vector<std::string> names;
    names.reserve(64);  // Verdict keeps the name pointer
    std::vector<std::string> move_json;
    auto judge = [&](const std::string& what, const std::vector<Executor>& list) {
        for (std::size_t i = 1; i < list.size(); ++i) {
            if (list[i].label != "decide") continue;
            names.push_back("executor_" + what + "_w" + std::to_string(list[i].workers) + "_over_serial");
            verdicts.push_back({names.back().c_str(), ratio(list[0], list[i]), 0.95, false, "x"});
        }
    };

    for (std::uint32_t entities : {1'000u, 10'000u, 50'000u, 200'000u, 1'000'000u}) {
        ecsia::World world(ecsia::WorldOptions{std::max<std::uint32_t>(entities, 1024), 22});
        ecsia::builtin::spawn_move_workload(world, entities);
        std::vector<Executor> list = executors();
        std::vector<std::unique_ptr<ecsia::Scheduler>> schedulers;
        for (const Executor& e : list) {
            ecsia::SchedulerOptions options;
            options.workers = e.workers;
            auto scheduler = std::make_unique<ecsia::Scheduler>(world, options);
            scheduler->add_system(ecsia::builtin::make_builtin_system(world, "Move"));
            ecsia::detail::SchedulerTesting::force_placement(*scheduler, e.forced);
            schedulers.push_back(std::move(scheduler));
        }
        measure(list, repetitions, [&](std::size_t i) { schedulers[i]->update(kDt); });
        const double serial_frame_ns = bench::time_both([&] { schedulers[0]->update(kDt); }).wall * 1e9;
        const std::string what = "move_" + std::to_string(entities);
        print_row(what.c_str(), list, serial_frame_ns);
        judge(what, list);
        move_json.push_back(bench::json_object({bench::json_member("entities", std::to_string(entities)),
                                                bench::json_member("result", runs_json(list, serial_frame_ns))}));
    }

    // A frame of the determinism scenario: one world per executor (the scenario changes its world).
    std::vector<Executor> list = executors();
    std::vector<std::unique_ptr<ecsia::World>> worlds;
    std::vector<std::unique_ptr<ecsia::Scheduler>> schedulers;
    std::vector<std::vector<std::uint64_t>> logs(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        worlds.push_back(std::make_unique<ecsia::World>(ecsia::WorldOptions{1u << 16, 22}));
        worlds.back()->diagnostics().set_sink([](const std::string&) {});
        ecsia::SchedulerOptions options;
        options.workers = list[i].workers;
        schedulers.push_back(std::make_unique<ecsia::Scheduler>(*worlds.back(), options));
        ecsia::builtin::setup_scenario(*worlds.back(), *schedulers.back(), 1, logs[i]);
        ecsia::detail::SchedulerTesting::force_placement(*schedulers.back(), list[i].forced);
    }
    measure(list, repetitions, [&](std::size_t i) {
        schedulers[i]->update(kDt);
        if (logs[i].size() > 1'000'000) logs[i].clear();
    });
    const double scenario_ns = bench::time_both([&] { schedulers[0]->update(kDt); }).wall * 1e9;
    print_row("scenario frame", list, scenario_ns);
    judge("scenario", list);

    const bool written = bench::write_json(
        json_path, bench::json_object({bench::json_member("move", bench::json_array(move_json)),
                                       bench::json_member("scenario", runs_json(list, scenario_ns))}));
    return bench::report_targets(verdicts) == 0 && written ? 0 : 1;
}
