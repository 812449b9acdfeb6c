// What declared-access checks cost: the *move* workload through the scheduler (the path the checks
// are in: each batch's chunk checks its reads and writes), serial executor and 2 workers, 1,000,000
// entities, next to a plain loop in the same run. scripts/bench builds this program twice, with
// ECSIA_ACCESS_CHECKS off (build/bench, the release configuration: the checks are compiled out,
// so that build's code is the unchecked code) and on (build/bench-checked), and reports both.
//
//   ./build/bench/bench/bench_access_checks [--json out.json]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "workloads/move_rows.hpp"
#include "builtin/builtin_systems.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/ecsia.hpp"

namespace {

using ecsia::builtin::Position;
using ecsia::builtin::Velocity;
using bench::move_rows;

constexpr std::uint32_t kEntities = 1'000'000;
constexpr int kRepetitions = 11;
constexpr int kFrames = 10;

}  // namespace

int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    std::vector<Position> plain_position(kEntities);
    std::vector<Velocity> plain_velocity(kEntities);
    for (std::uint32_t i = 0; i < kEntities; ++i) {
        plain_position[i] = ecsia::builtin::move_workload_position(i);
        plain_velocity[i] = ecsia::builtin::move_workload_velocity(i);
    }
    std::vector<bench::Variant> variants;
    bench::add_variant(variants, "plain loop (baseline)", [&] {
        move_rows(plain_position.data(), plain_velocity.data(), kEntities, 1.0f / 60);
    });
    std::vector<std::unique_ptr<ecsia::World>> worlds;
    std::vector<std::unique_ptr<ecsia::Scheduler>> schedulers;
    for (std::uint32_t workers : {0u, 2u}) {
        ecsia::WorldOptions options;
        options.max_entities = kEntities;
        auto& world = worlds.emplace_back(std::make_unique<ecsia::World>(options));
        ecsia::builtin::spawn_move_workload(*world, kEntities);
        ecsia::SchedulerOptions scheduler_options;
        scheduler_options.workers = workers;
        auto& scheduler = schedulers.emplace_back(std::make_unique<ecsia::Scheduler>(*world, scheduler_options));
        scheduler->add_system(ecsia::builtin::make_builtin_system(*world, "Move"));
        ecsia::Scheduler* s = scheduler.get();
        bench::add_variant(variants, workers == 0 ? "scheduler Move, serial" : "scheduler Move, 2 workers",
                           [s] { s->update(1.0f / 60); });
    }
    for (bench::Variant& v : variants) bench::time_frames(v.frame, 2);
    for (int rep = 0; rep < kRepetitions; ++rep) {
        for (std::size_t j = 0; j < variants.size(); ++j) {
            bench::Variant& v = variants[(j + static_cast<std::size_t>(rep)) % variants.size()];
            const bench::Timing t = bench::time_frames(v.frame, kFrames);
            v.cpu_ns.push_back(t.cpu * 1e9 / (double(kFrames) * kEntities));
            v.wall_ns.push_back(t.wall * 1e9 / (double(kFrames) * kEntities));
        }
        for (bench::Variant& v : variants) v.over_baseline.push_back(v.wall_ns.back() / variants[0].wall_ns.back());
    }
    std::printf("access checks %s: move through the scheduler, %u entities (%d repetitions of %d frames;\n"
                "ns/entity = median wall time; ratio = median of per-repetition ratios to the plain loop)\n",
                ECSIA_ACCESS_CHECKS ? "ON" : "OFF (compiled out)", kEntities, kRepetitions, kFrames);
    std::printf("  %-30s %10s %8s %8s %8s\n", "variant", "ns/entity", "min", "max", "ratio");
    std::vector<std::string> members;
    for (const bench::Variant& v : variants) {
        std::printf("  %-30s %10.3f %8.3f %8.3f %7.3fx\n", v.name, bench::median(v.wall_ns), bench::min_of(v.wall_ns),
                    bench::max_of(v.wall_ns), bench::median(v.over_baseline));
        members.push_back(bench::json_member(v.name, bench::json_object({
            bench::json_member("ns_per_entity", bench::json_number(bench::median(v.wall_ns))),
            bench::json_member("over_plain", bench::json_number(bench::median(v.over_baseline)))})));
    }
    double sum = 0;
    for (std::uint32_t i = 0; i < kEntities; i += 997) sum += plain_position[i].x;
    bench::consume(sum);
    const bool written = bench::write_json(
        json_path, bench::json_object({bench::json_member("access_checks", bench::json_bool(ECSIA_ACCESS_CHECKS != 0)),
                                       bench::json_member("variants", bench::json_object(members))}));
    return written ? 0 : 1;
}
