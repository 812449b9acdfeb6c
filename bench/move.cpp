// The *move* workload of DESIGN.md: x += dx * dt; y += dy * dt over every entity with position and
// velocity, at 50,000 and 1,000,000 entities. Compares ecsia's chunk path (Query::for_each_chunk
// with chunk.write<Position> / chunk.read<Velocity>, which stamps change ticks as any kernel's write
// does) and World::each against a plain loop over two arrays of {x, y} structs, measured in the
// same run. Every variant calls the same out-of-line kernel, so the ratio is the engine's overhead
// and not a difference in code generation.
//
// Build and run (see docs/PERFORMANCE.md):
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DECSIA_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target bench_move && ./build-bench/bench/bench_move

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
constexpr double kSampleSeconds = 0.02;  // each sample runs enough frames to last about this long

struct SizeResult {
    std::uint32_t entities;
    std::vector<Variant> variants;  // [0] is the plain loop, [1] the chunk path
};

SizeResult run_size(std::uint32_t entities) {
    // Plain baseline: two arrays of {x, y} structs.
    std::vector<Position> plain_position(entities);
    std::vector<Velocity> plain_velocity(entities);
    for (std::uint32_t i = 0; i < entities; ++i) {
        plain_position[i] = ecsia::builtin::move_workload_position(i);
        plain_velocity[i] = ecsia::builtin::move_workload_velocity(i);
    }

    ecsia::WorldOptions options;
    options.max_entities = std::max<std::uint32_t>(entities, 1024);
    ecsia::World world(options);
    const ecsia::ComponentId position_id = world.component<Position>();
    const ecsia::ComponentId velocity_id = world.component<Velocity>();
    for (std::uint32_t i = 0; i < entities; ++i) world.spawn(ecsia::builtin::move_workload_position(i), ecsia::builtin::move_workload_velocity(i));
    ecsia::QueryDesc desc;
    desc.with = {position_id, velocity_id};
    ecsia::Query query = world.query(desc);

    SizeResult result{entities, {}};
    add_variant(result.variants, "plain loop (baseline)", [&] {
                                   move_rows(plain_position.data(), plain_velocity.data(), entities, kDt);
                               });
    add_variant(result.variants, "ecsia for_each_chunk", [&] {
                                   query.for_each_chunk([&](ecsia::Chunk& chunk) {
                                       move_rows(chunk.write<Position>(position_id),
                                                 chunk.read<Velocity>(velocity_id), chunk.size(), kDt);
                                   });
                               });
    add_variant(result.variants, "ecsia World::each", [&] {
                                   world.each<Position, const Velocity>(
                                       [](ecsia::Entity, Position& p, const Velocity& v) {
                                           p.x += v.dx * kDt;
                                           p.y += v.dy * kDt;
                                       });
                               });
    // Diagnostic only: the chunk path with the change stamp left out (read access cast to mutable),
    // to show how much of the chunk path's cost is change tracking. Not an API a kernel should use.
    add_variant(result.variants, "  (diag) chunk, no change stamp", [&] {
                                   query.for_each_chunk([&](ecsia::Chunk& chunk) {
                                       move_rows(const_cast<Position*>(chunk.read<Position>(position_id)),
                                                 chunk.read<Velocity>(velocity_id), chunk.size(), kDt);
                                   });
                               });

    // Warm up every variant (page faults, first-touch, query cache) and size the samples.
    for (Variant& v : result.variants) time_frames(v.frame, 3);
    const double one_frame = time_frames(result.variants[0].frame, 10).cpu / 10;
    const int frames = std::max(3, static_cast<int>(kSampleSeconds / std::max(one_frame, 1e-7)));

    // Interleave the variants inside each repetition, rotating which goes first, so that drift on
    // a shared machine and cache state left by the previous variant hit them all alike.
    const std::size_t count = result.variants.size();
    for (int rep = 0; rep < kRepetitions; ++rep) {
        const double per_entity = 1e9 / (double(frames) * entities);
        for (std::size_t j = 0; j < count; ++j) {
            Variant& v = result.variants[(j + static_cast<std::size_t>(rep)) % count];
            const bench::Timing t = time_frames(v.frame, frames);
            v.cpu_ns.push_back(t.cpu * per_entity);
            v.wall_ns.push_back(t.wall * per_entity);
            ecsia::detail::WorldAccess::advance_tick(world);
        }
        for (Variant& v : result.variants) v.over_baseline.push_back(v.cpu_ns.back() / result.variants[0].cpu_ns.back());
    }

    // Both sides did the same arithmetic; keep the results alive.
    double sum = 0;
    for (std::uint32_t i = 0; i < entities; i += 97) sum += plain_position[i].x;
    for (std::uint32_t i = 0; i < entities; i += 97) sum += world.get<Position>(world.entities().alive_at(i)).x;
    bench::consume(sum);
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    std::vector<std::string> json_sizes;
    std::printf("move workload: x += dx*dt; y += dy*dt   (%d repetitions; ns/entity = median thread-CPU time,\n"
                "min and max over repetitions, median wall time; ratio = median of per-repetition ratios to the\n"
                "plain loop run back to back)\n\n",
                kRepetitions);
    std::vector<bench::Verdict> verdicts;
    std::vector<std::string> names;
    names.reserve(2);  // Verdict keeps the name pointer
    for (std::uint32_t entities : {50'000u, 1'000'000u}) {
        const SizeResult r = run_size(entities);
        std::printf("%u entities\n", entities);
        std::printf("  %-34s %10s %8s %8s %10s %8s\n", "variant", "ns/entity", "min", "max", "wall", "ratio");
        for (const Variant& v : r.variants) {
            std::printf("  %-34s %10.3f %8.3f %8.3f %10.3f %7.3fx\n", v.name, bench::median(v.cpu_ns),
                        bench::min_of(v.cpu_ns), bench::max_of(v.cpu_ns), bench::median(v.wall_ns),
                        bench::median(v.over_baseline));
        }
        std::printf("\n");
        json_sizes.push_back(bench::json_object({bench::json_member("entities", std::to_string(entities)),
                                                     bench::json_member("ns_per_entity", bench::json_ns_per_entity(r.variants)),
                                                     bench::json_member("chunk_over_plain", bench::json_number(bench::median(r.variants[1].over_baseline)))}));
        names.push_back("move_" + std::to_string(entities) + "_chunk_over_plain");
        verdicts.push_back({names.back().c_str(), bench::median(r.variants[1].over_baseline), 1.2, true, "x"});
    }
    const bool written = bench::write_json(json_path, bench::json_object({bench::json_member("sizes", bench::json_array(json_sizes))}));
    return bench::report_targets(verdicts) == 0 && written ? 0 : 1;
}
