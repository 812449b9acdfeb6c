// The *tracked* workload of DESIGN.md: the *move* system writes position through chunk write access
// (which marks the rows changed), then a second system drains a query with a changed<position>
// filter since its own last run, reading every changed row (it sums x). The world tick advances
// between the two system runs, as a schedule does. Reported against the untracked *move* system
// (the same move, no drainer) measured in the same run; the plain two-array loop is shown too.
//
// Build and run (see docs/PERFORMANCE.md):
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DECSIA_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target bench_tracked && ./build-bench/bench/bench_tracked

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "workloads/move_rows.hpp"
#include "builtin/components.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/ecsia.hpp"
#include "ecsia/world/world_access.hpp"

namespace {

// The *move* workload's components are the built-in ones (src/builtin/components.hpp).
using ecsia::builtin::Position;
using ecsia::builtin::Velocity;
using bench::Variant;
using bench::add_variant;
using bench::time_frames;
using bench::move_rows;

constexpr float kDt = 1.0f / 60.0f;
constexpr int kRepetitions = 21;
constexpr double kSampleSeconds = 0.02;

// What the drainer does with each changed row: sums x (the built-in SumMoved's code).
using ecsia::builtin::sum_position_x;


struct SizeResult {
    std::vector<Variant> variants;
    std::vector<double> tracked_over_move;   // per repetition
    std::vector<double> tracked_over_plain;  // per repetition
    bool drained_every_row = true;
};

SizeResult run_size(std::uint32_t entities) {
    std::vector<Position> plain_position(entities);
    std::vector<Velocity> plain_velocity(entities);
    ecsia::WorldOptions options;
    options.max_entities = std::max<std::uint32_t>(entities, 1024);
    ecsia::World world(options);
    const ecsia::ComponentId position_id = world.component<Position>();
    const ecsia::ComponentId velocity_id = world.component<Velocity>();
    for (std::uint32_t i = 0; i < entities; ++i) {
        const Position p = ecsia::builtin::move_workload_position(i);
        const Velocity v = ecsia::builtin::move_workload_velocity(i);
        plain_position[i] = p;
        plain_velocity[i] = v;
        world.spawn(p, v);
    }

    ecsia::QueryDesc move_desc;
    move_desc.with = {position_id, velocity_id};
    ecsia::Query movers = world.query(move_desc);
    ecsia::QueryDesc drain_desc;
    drain_desc.changed = {position_id};
    ecsia::Query changed_positions = world.query(drain_desc);

    SizeResult result;
    ecsia::Tick drain_last_run = world.tick();
    std::uint64_t drained_rows = 0;
    double drained_sum = 0;

    auto move_system = [&] {
        movers.for_each_chunk([&](ecsia::Chunk& chunk) {
            move_rows(chunk.write<Position>(position_id), chunk.read<Velocity>(velocity_id), chunk.size(), kDt);
        });
    };
    add_variant(result.variants, "plain loop", [&] {
                                   move_rows(plain_position.data(), plain_velocity.data(), entities, kDt);
                               });
    add_variant(result.variants, "untracked move (baseline)", [&] {
                                   move_system();
                                   ecsia::detail::WorldAccess::advance_tick(world);
                               });
    add_variant(result.variants, "tracked: move + changed drain", [&] {
                                   move_system();
                                   ecsia::detail::WorldAccess::advance_tick(world);
                                   std::uint32_t rows = 0;
                                   changed_positions.for_each_chunk(
                                       [&](ecsia::Chunk& chunk) {
                                           drained_sum += sum_position_x(chunk.read<Position>(position_id), chunk.size());
                                           rows += chunk.size();
                                       },
                                       drain_last_run);
                                   drain_last_run = world.tick();
                                   ecsia::detail::WorldAccess::advance_tick(world);
                                   drained_rows += rows;
                                   if (rows != entities) result.drained_every_row = false;
                               });
    // Diagnostic: the drain system alone (since 0, so every row is selected and nothing is written):
    // what the filter plus the read cost by themselves.
    add_variant(result.variants, "  (diag) drain only, since 0", [&] {
                                   changed_positions.for_each_chunk(
                                       [&](ecsia::Chunk& chunk) {
                                           drained_sum += sum_position_x(chunk.read<Position>(position_id), chunk.size());
                                       },
                                       0);
                               });

    for (Variant& v : result.variants) time_frames(v.frame, 3);
    const double one_frame = time_frames(result.variants[1].frame, 10).cpu / 10;
    const int frames = std::max(3, static_cast<int>(kSampleSeconds / std::max(one_frame, 1e-7)));

    const std::size_t count = result.variants.size();
    for (int rep = 0; rep < kRepetitions; ++rep) {
        std::vector<double> ns(count);
        for (std::size_t j = 0; j < count; ++j) {
            const std::size_t k = (j + static_cast<std::size_t>(rep)) % count;
            // The drainer must see exactly this frame's writes: catch up before timing it.
            if (k == 2) drain_last_run = world.tick() - 1;
            const bench::Timing t = time_frames(result.variants[k].frame, frames);
            ns[k] = t.cpu * 1e9 / (double(frames) * entities);
            result.variants[k].cpu_ns.push_back(ns[k]);
            result.variants[k].wall_ns.push_back(t.wall * 1e9 / (double(frames) * entities));
        }
        result.tracked_over_move.push_back(ns[2] / ns[1]);
        result.tracked_over_plain.push_back(ns[2] / ns[0]);
    }
    bench::consume(drained_sum + static_cast<double>(drained_rows) + plain_position[entities / 2].x);
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    std::vector<std::string> json_sizes;
    std::printf("tracked workload: move writes position through chunk write access; a second system drains\n"
                "changed<position> since its last run each frame (%d repetitions; ns/entity = median thread-CPU time\n"
                "per frame, min and max over repetitions, median wall time; ratios are medians of per-repetition\n"
                "CPU-time ratios)\n\n",
                kRepetitions);
    std::vector<bench::Verdict> verdicts;
    std::vector<std::string> names;
    names.reserve(2);
    bool all_drained = true;
    for (std::uint32_t entities : {50'000u, 1'000'000u}) {
        const SizeResult r = run_size(entities);
        all_drained = all_drained && r.drained_every_row;
        std::printf("%u entities\n", entities);
        std::printf("  %-34s %10s %8s %8s %10s\n", "variant", "ns/entity", "min", "max", "wall");
        for (const Variant& v : r.variants) {
            std::printf("  %-34s %10.3f %8.3f %8.3f %10.3f\n", v.name, bench::median(v.cpu_ns), bench::min_of(v.cpu_ns),
                        bench::max_of(v.cpu_ns), bench::median(v.wall_ns));
        }
        std::printf("  tracked / untracked move: %.3fx   tracked / plain loop: %.3fx   drained every row: %s\n\n",
                    bench::median(r.tracked_over_move), bench::median(r.tracked_over_plain),
                    r.drained_every_row ? "yes" : "NO");
        json_sizes.push_back(bench::json_object({bench::json_member("entities", std::to_string(entities)),
                                                     bench::json_member("ns_per_entity", bench::json_ns_per_entity(r.variants)),
                                                     bench::json_member("tracked_over_move", bench::json_number(bench::median(r.tracked_over_move))),
                                                     bench::json_member("drained_every_row", bench::json_bool(r.drained_every_row))}));
        names.push_back("tracked_" + std::to_string(entities) + "_over_untracked_move");
        verdicts.push_back({names.back().c_str(), bench::median(r.tracked_over_move), 2.0, true, "x"});
    }
    if (!all_drained) std::printf("ERROR: the drainer did not see exactly the rows written each frame\n");
    const bool written = bench::write_json(json_path, bench::json_object({bench::json_member("sizes", bench::json_array(json_sizes))}));
    return bench::report_targets(verdicts) == 0 && all_drained && written ? 0 : 1;
}
