// The *fence* workload (DESIGN.md): waves whose kernels do nothing; the cost of one wave round trip
// (dispatch, wake, claim, arrive, notify, merge) in µs, median and p99, for 1 and 2 workers, and
// the serial executor's per-wave overhead as the baseline. Two statistics: per wave, and over
// groups of 20 waves (a group's mean), which is what the browser can time (its clock ticks in
// 5 µs steps); scripts/bench compares the group figures.
//
// The system is the built-in Idle over max(workers, 1) entities of the move workload, as on the
// browser page (web/bench/workloads.js).
//
//   ./bench_fence [waves=20000] [--json PATH]

#include <cstdio>
#include <cstdlib>

#include "bench_support.hpp"
#include "builtin/builtin_systems.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/schedule/scheduler.hpp"

using namespace ecsia;

namespace {

struct Samples {
    std::vector<double> per_wave;   // µs
    std::vector<double> per_group;  // µs, mean of kGroup consecutive waves
};

constexpr int kGroup = 20;

Samples measure(std::uint32_t workers, int waves) {
    World world;
    SchedulerOptions options;
    options.workers = workers;
    Scheduler scheduler(world, options);
    builtin::spawn_move_workload(world, std::max<std::uint32_t>(workers, 1));
    scheduler.add_system(builtin::make_builtin_system(world, "Idle"));
    for (int w = 0; w < 200; ++w) scheduler.update(0);  // warm-up, as the browser's
    Samples samples;
    samples.per_wave.reserve(waves);
    for (int g = 0; g < waves / kGroup; ++g) {
        const auto group_start = bench::Clock::now();
        for (int w = 0; w < kGroup; ++w) {
            const auto start = bench::Clock::now();
            scheduler.update(0);
            samples.per_wave.push_back(bench::seconds_since(start) * 1e6);
        }
        samples.per_group.push_back(bench::seconds_since(group_start) * 1e6 / kGroup);
    }
    return samples;
}

double percentile(std::vector<double> samples, double p) {
    std::sort(samples.begin(), samples.end());
    return samples[static_cast<std::size_t>(p * (samples.size() - 1))];
}

}  // namespace

int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    std::vector<std::string> json_runs;
    const int waves = argc > 1 ? std::atoi(argv[1]) : 20000;
    std::printf("fence: %d one-wave frames whose kernel does nothing, µs per frame (per wave; and the mean of\n"
                "each group of %d waves)\n", waves, kGroup);
    std::printf("%-8s %10s %10s %10s %14s %14s\n", "workers", "median", "p99", "max", "group median", "group p99");
    for (std::uint32_t workers : {0u, 1u, 2u}) {
        const Samples samples = measure(workers, waves);
        const std::vector<double>& one = samples.per_wave;
        const std::vector<double>& group = samples.per_group;
        std::printf("%-8s %10.2f %10.2f %10.2f %14.2f %14.2f\n", workers == 0 ? "serial" : std::to_string(workers).c_str(),
                    bench::median(one), percentile(one, 0.99), bench::max_of(one), bench::median(group), percentile(group, 0.99));
        json_runs.push_back(bench::json_object({bench::json_member("workers", std::to_string(workers)),
                                                 bench::json_member("median_us", bench::json_number(bench::median(group))),
                                                 bench::json_member("p99_us", bench::json_number(percentile(group, 0.99))),
                                                 bench::json_member("wave_median_us", bench::json_number(bench::median(one))),
                                                 bench::json_member("wave_p99_us", bench::json_number(percentile(one, 0.99))),
                                                 bench::json_member("wave_max_us", bench::json_number(bench::max_of(one)))}));
    }
    const bool written = bench::write_json(json_path, bench::json_object({bench::json_member("waves", std::to_string(waves)), bench::json_member("group", std::to_string(kGroup)),
                                                                              bench::json_member("runs", bench::json_array(json_runs))}));
    return written ? 0 : 1;
}
