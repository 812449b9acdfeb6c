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
#include "ecsia/ecsia.hpp"

namespace {

struct Position {
    float x, y;
};
struct Velocity {
    float dx, dy;
};

}  // namespace

ECSIA_COMPONENT(Position, "position", x, y)
ECSIA_COMPONENT(Velocity, "velocity", dx, dy)

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr int kRepetitions = 21;
constexpr double kSampleSeconds = 0.02;  // each sample runs enough frames to last about this long

// Out of line so that the plain loop and every engine path run the identical machine code.
[[gnu::noinline]] void move_rows(Position* position, const Velocity* velocity, std::uint32_t rows, float dt) {
    for (std::uint32_t i = 0; i < rows; ++i) {
        position[i].x += velocity[i].dx * dt;
        position[i].y += velocity[i].dy * dt;
    }
}

Position initial_position(std::uint32_t i) { return {static_cast<float>(i % 1000), static_cast<float>(i / 1000)}; }
Velocity initial_velocity(std::uint32_t i) {
    return {static_cast<float>(i % 7) * 0.25f - 0.75f, static_cast<float>(i % 5) * 0.5f - 1.0f};
}

struct Variant {
    const char* name;
    std::function<void()> frame;
    std::vector<double> ns_per_entity;
};

struct SizeResult {
    std::uint32_t entities;
    std::vector<Variant> variants;
    std::vector<double> chunk_ratio;  // per repetition: chunk / plain, measured back to back
    std::vector<double> each_ratio;
};

double time_frames(const std::function<void()>& frame, int frames) {
    const auto start = bench::Clock::now();
    for (int f = 0; f < frames; ++f) frame();
    return bench::seconds_since(start);
}

SizeResult run_size(std::uint32_t entities) {
    // Plain baseline: two arrays of {x, y} structs.
    std::vector<Position> plain_position(entities);
    std::vector<Velocity> plain_velocity(entities);
    for (std::uint32_t i = 0; i < entities; ++i) {
        plain_position[i] = initial_position(i);
        plain_velocity[i] = initial_velocity(i);
    }

    ecsia::WorldOptions options;
    options.max_entities = std::max<std::uint32_t>(entities, 1024);
    ecsia::World world(options);
    const ecsia::ComponentId position_id = world.component<Position>();
    const ecsia::ComponentId velocity_id = world.component<Velocity>();
    for (std::uint32_t i = 0; i < entities; ++i) world.spawn(initial_position(i), initial_velocity(i));
    ecsia::QueryDesc desc;
    desc.with = {position_id, velocity_id};
    ecsia::Query query = world.query(desc);

    SizeResult result{entities, {}, {}, {}};
    result.variants.push_back({"plain loop (baseline)", [&] {
                                   move_rows(plain_position.data(), plain_velocity.data(), entities, kDt);
                               },
                               {}});
    result.variants.push_back({"ecsia for_each_chunk", [&] {
                                   query.for_each_chunk([&](ecsia::Chunk& chunk) {
                                       move_rows(chunk.write<Position>(position_id),
                                                 chunk.read<Velocity>(velocity_id), chunk.size(), kDt);
                                   });
                               },
                               {}});
    result.variants.push_back({"ecsia World::each", [&] {
                                   world.each<Position, const Velocity>(
                                       [](ecsia::Entity, Position& p, const Velocity& v) {
                                           p.x += v.dx * kDt;
                                           p.y += v.dy * kDt;
                                       });
                               },
                               {}});
    // Diagnostic only: the chunk path with the change stamp left out (read access cast to mutable),
    // to show how much of the chunk path's cost is change tracking. Not an API a kernel should use.
    result.variants.push_back({"  (diag) chunk, no change stamp", [&] {
                                   query.for_each_chunk([&](ecsia::Chunk& chunk) {
                                       move_rows(const_cast<Position*>(chunk.read<Position>(position_id)),
                                                 chunk.read<Velocity>(velocity_id), chunk.size(), kDt);
                                   });
                               },
                               {}});

    // Warm up every variant (page faults, first-touch, query cache) and size the samples.
    for (Variant& v : result.variants) time_frames(v.frame, 3);
    const double one_frame = time_frames(result.variants[0].frame, 10) / 10;
    const int frames = std::max(3, static_cast<int>(kSampleSeconds / std::max(one_frame, 1e-7)));

    // Interleave the variants inside each repetition, rotating which goes first, so that drift on
    // a shared machine and cache state left by the previous variant hit them all alike.
    const std::size_t count = result.variants.size();
    for (int rep = 0; rep < kRepetitions; ++rep) {
        std::vector<double> ns(count);
        for (std::size_t j = 0; j < count; ++j) {
            const std::size_t k = (j + static_cast<std::size_t>(rep)) % count;
            ns[k] = time_frames(result.variants[k].frame, frames) * 1e9 / (double(frames) * entities);
            result.variants[k].ns_per_entity.push_back(ns[k]);
            world.advance_tick();
        }
        result.chunk_ratio.push_back(ns[1] / ns[0]);
        result.each_ratio.push_back(ns[2] / ns[0]);
    }

    // Both sides did the same arithmetic; keep the results alive.
    double sum = 0;
    for (std::uint32_t i = 0; i < entities; i += 97) sum += plain_position[i].x;
    for (std::uint32_t i = 0; i < entities; i += 97) sum += world.get<Position>(world.entities().alive_at(i)).x;
    bench::consume(sum);
    return result;
}

}  // namespace

int main() {
    std::printf("move workload: x += dx*dt; y += dy*dt   (%d repetitions, medians; ratio = median of per-repetition "
                "ratios against the plain loop run back to back)\n\n",
                kRepetitions);
    std::vector<bench::Verdict> verdicts;
    static std::vector<std::string> names;  // Verdict keeps the name pointer
    names.reserve(4);
    for (std::uint32_t entities : {50'000u, 1'000'000u}) {
        const SizeResult r = run_size(entities);
        std::printf("%u entities\n", entities);
        std::printf("  %-34s %12s %10s %10s %8s\n", "variant", "ns/entity", "min", "max", "ratio");
        const std::vector<double> ratios[] = {{}, r.chunk_ratio, r.each_ratio, {}};
        for (std::size_t k = 0; k < r.variants.size(); ++k) {
            const Variant& v = r.variants[k];
            const double ratio = k == 0 ? 1.0 : bench::median(v.ns_per_entity) / bench::median(r.variants[0].ns_per_entity);
            const double shown = k < 3 && !ratios[k].empty() ? bench::median(ratios[k]) : ratio;
            std::printf("  %-34s %12.3f %10.3f %10.3f %7.3fx\n", v.name, bench::median(v.ns_per_entity),
                        bench::min_of(v.ns_per_entity), bench::max_of(v.ns_per_entity), shown);
        }
        std::printf("\n");
        names.push_back("move_" + std::to_string(entities) + "_chunk_over_plain");
        verdicts.push_back({names.back().c_str(), bench::median(r.chunk_ratio), 1.2, true, "x"});
    }
    return bench::report_targets(verdicts) == 0 ? 0 : 1;
}
