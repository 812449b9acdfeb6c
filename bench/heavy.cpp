// The *heavy* workload (DESIGN.md): 8 groups of 1,024 entities, each its own component, one
// system per group doing `steps` sub-steps of sin/cos/exp per entity per frame; the 8 systems
// share a wave. Also the one-system variant over all 8,192 entities (parallelism inside a system).
// Reports wall time per frame and speedup against the serial executor for 1, 2, 4 and 8 workers,
// and whether each run's state hash equals the serial run's.
//
//   ./bench_heavy [frames=20] [steps=512] [--json PATH]

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_support.hpp"
#include "builtin/builtin_systems.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "ecsia/snapshot/state_hash.hpp"

using namespace ecsia;

namespace {

struct Result {
    double ms_per_frame;
    std::uint64_t hash;
};

Result run(bool one_system, std::uint32_t workers, int frames, std::uint32_t steps) {
    World world;
    const auto ids = builtin::register_builtin_components(world);
    SchedulerOptions options;
    options.workers = workers;
    options.batch_rows = 256;
    Scheduler scheduler(world, options);
    if (one_system) {
        builtin::spawn_heavy_group(world, 0, 8 * 1024, 0);
        scheduler.add_system(builtin::make_heavy_system("Heavy0", ids.heavy[0], steps));
    } else {
        builtin::spawn_heavy(world, 1024, 0);
        builtin::BuiltinConfig config;
        config.heavy_steps = steps;
        for (int g = 0; g < 8; ++g) scheduler.add_system(builtin::make_builtin_system(world, "Heavy" + std::to_string(g), config));
    }
    scheduler.update(1.0f / 60);  // warm-up: first touch of the columns and the threads
    std::vector<double> samples;
    for (int f = 0; f < frames; ++f) {
        const auto start = bench::Clock::now();
        scheduler.update(1.0f / 60);
        samples.push_back(bench::seconds_since(start) * 1e3);
    }
    return Result{bench::median(samples), state_hash(world)};
}

std::string hex(std::uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    std::vector<std::string> json_variants;
    const int frames = argc > 1 ? std::atoi(argv[1]) : 20;
    const std::uint32_t steps = argc > 2 ? static_cast<std::uint32_t>(std::atoi(argv[2])) : 512;
    std::vector<bench::Verdict> verdicts;
    static std::string names[2];
    for (int variant = 0; variant < 2; ++variant) {
        const bool one_system = variant == 1;
        std::printf("\nheavy (%s), %d frames, %u steps, median ms/frame\n", one_system ? "one system, 8192 entities" : "8 systems x 1024 entities",
                    frames, steps);
        std::printf("%-8s %10s %9s %s\n", "workers", "ms/frame", "speedup", "hash");
        const Result serial = run(one_system, 0, frames, steps);
        std::printf("%-8s %10.2f %9s %016llx\n", "serial", serial.ms_per_frame, "1.00", (unsigned long long)serial.hash);
        std::vector<std::string> json_runs = {bench::json_object({bench::json_member("workers", "0"),
                                                                      bench::json_member("ms_per_frame", bench::json_number(serial.ms_per_frame)),
                                                                      bench::json_member("speedup", "1"),
                                                                      bench::json_member("hash", bench::json_string(hex(serial.hash))),
                                                                      bench::json_member("hash_equals_serial", "true")})};
        for (std::uint32_t workers : {1u, 2u, 4u, 8u}) {
            const Result r = run(one_system, workers, frames, steps);
            const double speedup = serial.ms_per_frame / r.ms_per_frame;
            std::printf("%-8u %10.2f %9.2f %016llx %s\n", workers, r.ms_per_frame, speedup, (unsigned long long)r.hash,
                        r.hash == serial.hash ? "same as serial" : "DIFFERS FROM SERIAL");
            json_runs.push_back(bench::json_object({bench::json_member("workers", std::to_string(workers)),
                                                         bench::json_member("ms_per_frame", bench::json_number(r.ms_per_frame)),
                                                         bench::json_member("speedup", bench::json_number(speedup)),
                                                         bench::json_member("hash", bench::json_string(hex(r.hash))),
                                                         bench::json_member("hash_equals_serial", bench::json_bool(r.hash == serial.hash))}));
            if (r.hash != serial.hash) verdicts.push_back({"heavy hash equals serial", 0, 1, false, ""});
            if (workers == 2) {
                names[variant] = one_system ? "heavy one-system speedup at 2 workers" : "heavy 8-system speedup at 2 workers";
                verdicts.push_back({names[variant].c_str(), speedup, 1.8, false, "x"});
            }
        }
        json_variants.push_back(bench::json_object({bench::json_member("name", bench::json_string(one_system ? "1 system x 8192" : "8 systems x 1024")),
                                                         bench::json_member("runs", bench::json_array(json_runs))}));
    }
    const bool written = bench::write_json(
        json_path, bench::json_object({bench::json_member("frames", std::to_string(frames)), bench::json_member("steps", std::to_string(steps)),
                                            bench::json_member("variants", bench::json_array(json_variants))}));
    if (!written) return 1;
    return bench::report_targets(verdicts) == 0 ? 0 : 1;
}
