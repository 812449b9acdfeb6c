// The *hierarchy* workload of DESIGN.md: world position = parent's world position + local
// position, every frame, through a 100,000-node forest (1,000 roots, depth up to 8, random
// fan-out, 2D float add). Compares a cascade system (SystemDesc::cascade = ChildOf, parent_reads =
// world position; a C++ kernel) on the serial executor and on 2 workers against a hand-written
// loop over the same nodes pre-sorted by depth with a parent-index array (the practical limit),
// measured in the same run. Then re-parents 10,000 nodes between frames and measures the frame
// (the cascade's depths, row order and parent locations are recomputed after any change) and the
// re-parenting calls themselves. Last, what a kernel's lookup of another entity costs
// (KernelContext::lookup): a C++ kernel summing each row's random target's position through
// ctx.lookup, against the same reads from the position column at a precomputed row (the same
// random memory traffic, no handle check) and against each row's own position, read in order.
//
// Build and run (on demand; never part of the tests):
//   cmake --preset native-bench && cmake --build --preset native-bench -j2 --target bench_hierarchy
//   build/bench/bench/bench_hierarchy [nodes] [repetitions]

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "ecsia/ecsia.hpp"

namespace hierarchy_bench {
struct Local {
    float x;
    float y;
};
struct WorldPos {
    float x;
    float y;
};
}  // namespace hierarchy_bench

namespace hierarchy_bench {
struct Target {
    ecsia::Entity who;
};
struct TargetRow {
    std::uint32_t row;  // the target's row in the one table of the lookup world
};
struct Sum {
    float v;
};
struct Marker {};
}  // namespace hierarchy_bench

ECSIA_COMPONENT(hierarchy_bench::Local, "hierarchy_local", x, y)
ECSIA_COMPONENT(hierarchy_bench::WorldPos, "hierarchy_world", x, y)
ECSIA_COMPONENT(hierarchy_bench::Target, "hierarchy_target", who)
ECSIA_COMPONENT(hierarchy_bench::TargetRow, "hierarchy_target_row", row)
ECSIA_COMPONENT(hierarchy_bench::Sum, "hierarchy_sum", v)
ECSIA_TAG(hierarchy_bench::Marker, "hierarchy_marker")

namespace {

using hierarchy_bench::Local;
using hierarchy_bench::WorldPos;
using Clock = std::chrono::steady_clock;

struct Rng {
    std::uint64_t state;
    std::uint32_t below(std::uint32_t n) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>((state >> 33) % n);
    }
};

struct Forest {
    std::vector<std::int32_t> parent;  // -1: a root
    std::vector<std::uint32_t> depth;
    std::vector<Local> local;
};

// Roots first, then each node under a random earlier node shallower than 8: random fan-out.
Forest make_forest(std::uint32_t nodes, std::uint32_t roots, Rng& rng) {
    Forest f;
    for (std::uint32_t i = 0; i < nodes; ++i) {
        f.local.push_back(Local{float(rng.below(100)) * 0.25f, float(rng.below(100)) * 0.5f});
        if (i < roots) {
            f.parent.push_back(-1);
            f.depth.push_back(0);
            continue;
        }
        std::uint32_t p = rng.below(i);
        while (f.depth[p] >= 7) p = rng.below(i);
        f.parent.push_back(static_cast<std::int32_t>(p));
        f.depth.push_back(f.depth[p] + 1);
    }
    return f;
}

// Out of line so the compiler cannot fold frames together.
[[gnu::noinline]] void hand_loop(const std::int32_t* parent, const Local* local, WorldPos* world, std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::int32_t p = parent[i];
        if (p < 0) {
            world[i] = WorldPos{local[i].x, local[i].y};
        } else {
            world[i] = WorldPos{world[p].x + local[i].x, world[p].y + local[i].y};
        }
    }
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <typename Fn>
double median_ms(int repetitions, int frames, Fn&& frame) {
    std::vector<double> samples;
    for (int r = 0; r < repetitions; ++r) {
        const auto start = Clock::now();
        for (int f = 0; f < frames; ++f) frame();
        samples.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count() / frames);
    }
    return median_of(samples);
}

// ns per row of a serial frame that reads each row's target's position: through ctx.lookup, at a
// precomputed row of the position column, and the row's own position.
struct LookupCost {
    double lookup_ns = 0;
    double lookup_of_ns = 0;  // the same through a Lookup<T> reader (KernelContext::lookup_of)
    double direct_random_ns = 0;
    double own_ns = 0;
    std::uint64_t wrong = 0;  // rows whose sums differ between the lookup and the direct read
};

LookupCost lookup_cost(std::uint32_t entities, int repetitions) {
    using hierarchy_bench::Sum;
    using hierarchy_bench::Target;
    using hierarchy_bench::TargetRow;
    ecsia::World world;
    const ecsia::ComponentId position = world.component<WorldPos>();
    const ecsia::ComponentId target = world.component<Target>();
    const ecsia::ComponentId target_row = world.component<TargetRow>();
    const ecsia::ComponentId sum = world.component<Sum>();
    Rng rng{7};
    std::vector<ecsia::Entity> handles;
    for (std::uint32_t i = 0; i < entities; ++i) {
        handles.push_back(world.spawn(WorldPos{float(rng.below(100)), float(rng.below(100))}, Target{}, TargetRow{0}, Sum{0}));
    }
    for (std::uint32_t i = 0; i < entities; ++i) {
        const std::uint32_t t = rng.below(entities);
        world.get_mut<Target>(handles[i]).who = handles[t];
        world.get_mut<TargetRow>(handles[i]).row = t;  // spawned together: row = spawn order
    }
    // One table, its rows in spawn order: the position column from the first row's element.
    const WorldPos* column = &world.get<WorldPos>(handles[0]);
    ecsia::SchedulerOptions options;
    options.workers = 0;
    auto make = [&](const char* name, std::vector<ecsia::ComponentId> reads, bool lookups, ecsia::Kernel kernel) {
        auto scheduler = std::make_unique<ecsia::Scheduler>(world, options);
        ecsia::SystemDesc system;
        system.name = name;
        system.reads = std::move(reads);
        system.writes = {sum};
        if (lookups) system.lookups = {position};
        system.kernel = std::move(kernel);
        scheduler->add_system(std::move(system));
        return scheduler;
    };
    auto by_lookup = make("LookupEach", {target}, true, [=](ecsia::KernelContext& ctx) {
        const Target* t = ctx.chunk.read<Target>(target);
        Sum* out = ctx.chunk.write<Sum>(sum);
        for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) {
            const WorldPos* p = ctx.lookup<WorldPos>(position, t[r].who);
            out[r].v = p == nullptr ? 0.f : p->x + p->y;
        }
    });
    auto by_reader = make("LookupOf", {target}, true, [=](ecsia::KernelContext& ctx) {
        const Target* t = ctx.chunk.read<Target>(target);
        Sum* out = ctx.chunk.write<Sum>(sum);
        ecsia::Lookup<WorldPos> positions = ctx.lookup_of<WorldPos>(position);
        for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) {
            const WorldPos* p = positions.get(t[r].who);
            out[r].v = p == nullptr ? 0.f : p->x + p->y;
        }
    });
    auto direct = make("DirectRandom", {position, target_row}, false, [=](ecsia::KernelContext& ctx) {
        const TargetRow* t = ctx.chunk.read<TargetRow>(target_row);
        Sum* out = ctx.chunk.write<Sum>(sum);
        for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) out[r].v = column[t[r].row].x + column[t[r].row].y;
    });
    auto own = make("Own", {position}, false, [=](ecsia::KernelContext& ctx) {
        const WorldPos* p = ctx.chunk.read<WorldPos>(position);
        Sum* out = ctx.chunk.write<Sum>(sum);
        for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) out[r].v = p[r].x + p[r].y;
    });
    LookupCost cost;
    // The lookup's sums against the direct read's, row by row.
    by_lookup->update(0.016f);
    std::vector<float> looked;
    for (ecsia::Entity e : handles) looked.push_back(world.get<Sum>(e).v);
    direct->update(0.016f);
    for (std::uint32_t i = 0; i < entities; ++i) cost.wrong += world.get<Sum>(handles[i]).v != looked[i] ? 1 : 0;
    by_reader->update(0.016f);
    for (std::uint32_t i = 0; i < entities; ++i) cost.wrong += world.get<Sum>(handles[i]).v != looked[i] ? 1 : 0;
    const int frames = 10;
    std::vector<double> lookup_ms, lookup_of_ms, direct_ms, own_ms;
    for (int r = 0; r < repetitions; ++r) {
        lookup_ms.push_back(median_ms(1, frames, [&] { by_lookup->update(0.016f); }));
        lookup_of_ms.push_back(median_ms(1, frames, [&] { by_reader->update(0.016f); }));
        direct_ms.push_back(median_ms(1, frames, [&] { direct->update(0.016f); }));
        own_ms.push_back(median_ms(1, frames, [&] { own->update(0.016f); }));
    }
    cost.lookup_ns = median_of(lookup_ms) * 1e6 / entities;
    cost.lookup_of_ns = median_of(lookup_of_ms) * 1e6 / entities;
    cost.direct_random_ns = median_of(direct_ms) * 1e6 / entities;
    cost.own_ns = median_of(own_ms) * 1e6 / entities;
    return cost;
}

// ns per row of the same lookups when the targets lie in four tables at random (the lookers in a
// fifth): most lookups then find another table than the last one's (a branch on the table would
// mispredict; LookupMemo reads the table's column from an array instead).
double lookup_spread_ns(std::uint32_t entities, int repetitions) {
    using hierarchy_bench::Marker;
    using hierarchy_bench::Sum;
    using hierarchy_bench::Target;
    ecsia::World world;
    const ecsia::ComponentId position = world.component<WorldPos>();
    const ecsia::ComponentId target = world.component<Target>();
    const ecsia::ComponentId sum = world.component<Sum>();
    Rng rng{11};
    std::vector<ecsia::Entity> targets;
    for (std::uint32_t i = 0; i < entities; ++i) {
        const WorldPos p{float(rng.below(100)), float(rng.below(100))};
        switch (i % 4) {
            case 0: targets.push_back(world.spawn(p)); break;
            case 1: targets.push_back(world.spawn(p, Local{0, 0})); break;
            case 2: targets.push_back(world.spawn(p, Marker{})); break;
            default: targets.push_back(world.spawn(p, Local{0, 0}, Marker{})); break;
        }
    }
    for (std::uint32_t i = 0; i < entities; ++i) world.spawn(Target{targets[rng.below(entities)]}, Sum{0});
    ecsia::SchedulerOptions options;
    options.workers = 0;
    ecsia::Scheduler scheduler(world, options);
    ecsia::SystemDesc system;
    system.name = "LookupSpread";
    system.reads = {target};
    system.writes = {sum};
    system.lookups = {position};
    system.kernel = [=](ecsia::KernelContext& ctx) {
        const Target* t = ctx.chunk.read<Target>(target);
        Sum* out = ctx.chunk.write<Sum>(sum);
        for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) {
            const WorldPos* p = ctx.lookup<WorldPos>(position, t[r].who);
            out[r].v = p == nullptr ? 0.f : p->x + p->y;
        }
    };
    scheduler.add_system(std::move(system));
    scheduler.update(0.016f);
    std::vector<double> ms;
    for (int r = 0; r < repetitions; ++r) ms.push_back(median_ms(1, 10, [&] { scheduler.update(0.016f); }));
    return median_of(ms) * 1e6 / entities;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    std::vector<std::string> json_runs;
    const std::uint32_t nodes = argc > 1 ? static_cast<std::uint32_t>(std::atoi(argv[1])) : 100000;
    const int repetitions = argc > 2 ? std::atoi(argv[2]) : 15;
    const std::uint32_t roots = std::max<std::uint32_t>(1, nodes / 100);
    const std::uint32_t reparents = nodes / 10;
    Rng rng{42};
    const Forest forest = make_forest(nodes, roots, rng);

    // The practical limit: nodes sorted by depth (stable), parents re-indexed.
    std::vector<std::uint32_t> order(nodes);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return forest.depth[a] < forest.depth[b]; });
    std::vector<std::uint32_t> position(nodes);
    for (std::uint32_t i = 0; i < nodes; ++i) position[order[i]] = i;
    std::vector<std::int32_t> sorted_parent(nodes);
    std::vector<Local> sorted_local(nodes);
    std::vector<WorldPos> sorted_world(nodes);
    for (std::uint32_t i = 0; i < nodes; ++i) {
        const std::int32_t p = forest.parent[order[i]];
        sorted_parent[i] = p < 0 ? -1 : static_cast<std::int32_t>(position[static_cast<std::uint32_t>(p)]);
        sorted_local[i] = forest.local[order[i]];
    }
    const int frames = 20;
    auto hand_frame = [&] {
        hand_loop(sorted_parent.data(), sorted_local.data(), sorted_world.data(), nodes);
        bench::consume(sorted_world[nodes / 2].x);
    };
    hand_frame();

    // One world and scheduler per executor, all built first, so that the steady frames of every
    // variant and the hand loop run interleaved in each repetition (rotating which goes first):
    // the ratios compare frames taken under the same machine conditions.
    struct Variant {
        std::uint32_t workers;
        std::unique_ptr<ecsia::World> world;
        std::unique_ptr<ecsia::Scheduler> scheduler;
        std::vector<ecsia::Entity> handles;
        double first_ms = 0;
        std::vector<double> steady, ratios;
    };
    std::vector<Variant> variants;
    for (std::uint32_t workers : {0u, 1u, 2u}) {
        Variant& v = variants.emplace_back();
        v.workers = workers;
        ecsia::WorldOptions options;
        options.max_entities = nodes + 1024;
        v.world = std::make_unique<ecsia::World>(options);
        ecsia::World& world = *v.world;
        const ecsia::ComponentId local_id = world.component<Local>();
        const ecsia::ComponentId world_id = world.component<WorldPos>();
        v.handles.resize(nodes);
        // Spawned in node order (parents before children), so rows start out not sorted by depth.
        for (std::uint32_t i = 0; i < nodes; ++i) v.handles[i] = world.spawn(forest.local[i], WorldPos{0, 0});
        for (std::uint32_t i = 0; i < nodes; ++i) {
            if (forest.parent[i] >= 0) world.add_pair(v.handles[i], ecsia::World::kChildOf, v.handles[static_cast<std::uint32_t>(forest.parent[i])]);
        }
        ecsia::SchedulerOptions scheduler_options;
        scheduler_options.workers = workers;
        v.scheduler = std::make_unique<ecsia::Scheduler>(world, scheduler_options);
        ecsia::SystemDesc system;
        system.name = "Propagate";
        system.reads = {local_id};
        system.writes = {world_id};
        system.cascade = ecsia::World::kChildOf;
        system.parent_reads = {world_id};
        system.kernel = [local_id, world_id](ecsia::KernelContext& ctx) {
            const Local* local = ctx.chunk.read<Local>(local_id);
            WorldPos* out = ctx.chunk.write<WorldPos>(world_id);
            const std::uint32_t n = ctx.chunk.size();
            if (const ecsia::ParentView* parent = ctx.chunk.parent()) {
                const ecsia::ParentColumn<WorldPos> up = parent->column<WorldPos>(world_id);
                for (std::uint32_t i = 0; i < n; ++i) out[i] = WorldPos{up[i].x + local[i].x, up[i].y + local[i].y};
            } else {
                for (std::uint32_t i = 0; i < n; ++i) out[i] = WorldPos{local[i].x, local[i].y};
            }
        };
        v.scheduler->add_system(system);
        const auto first = Clock::now();
        v.scheduler->update(0.016f);  // the first frame sorts the rows by depth and finds the parents
        v.first_ms = std::chrono::duration<double, std::milli>(Clock::now() - first).count();
    }

    auto frames_ms = [&](auto&& frame) {
        const auto start = Clock::now();
        for (int f = 0; f < frames; ++f) frame();
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count() / frames;
    };
    std::vector<double> hand_samples;
    for (int r = 0; r < repetitions; ++r) {
        const std::size_t runs = variants.size() + 1;
        std::vector<double> ms(runs);
        for (std::size_t k = 0; k < runs; ++k) {
            const std::size_t which = (k + std::size_t(r)) % runs;  // 0: the hand loop
            ms[which] = which == 0 ? frames_ms(hand_frame) : frames_ms([&] { variants[which - 1].scheduler->update(0.016f); });
        }
        hand_samples.push_back(ms[0]);
        for (std::size_t k = 0; k < variants.size(); ++k) {
            variants[k].steady.push_back(ms[k + 1]);
            variants[k].ratios.push_back(ms[k + 1] / ms[0]);
        }
    }
    const double hand_ms = median_of(hand_samples);

    std::printf("hierarchy: %u nodes, %u roots, max depth %u; medians of %d interleaved repetitions of %d frames (wall ms per frame)\n",
                nodes, roots, *std::max_element(forest.depth.begin(), forest.depth.end()), repetitions, frames);
    std::printf("  hand-written loop (sorted by depth, parent indices)  %8.3f ms  (%.2f ns/node)\n", hand_ms, hand_ms * 1e6 / nodes);

    for (Variant& v : variants) {
        ecsia::World& world = *v.world;
        ecsia::Scheduler& scheduler = *v.scheduler;
        const double steady_ms = median_of(v.steady);
        const double over_hand = median_of(v.ratios);

        // Check against the hand loop's result: every node's world position.
        std::size_t wrong = 0;
        for (std::uint32_t i = 0; i < nodes; ++i) {
            const WorldPos& got = world.get<WorldPos>(v.handles[i]);
            const WorldPos& want = sorted_world[position[i]];
            if (got.x != want.x || got.y != want.y) ++wrong;
        }

        // Re-parenting: `reparents` nodes a frame get a new parent (an acyclic one: a node of
        // smaller index and depth < 7 whose chain cannot reach it, as in the generator), then a frame.
        Rng churn{7};
        std::vector<double> reparent_ms, frame_ms, few_frame_ms;
        auto reparent = [&](std::uint32_t count) {
            for (std::uint32_t k = 0; k < count; ++k) {
                const std::uint32_t node = roots + churn.below(nodes - roots);
                const std::uint32_t p = churn.below(node);
                // A parent of smaller index keeps the forest acyclic; its depth bounds the subtree's.
                if (forest.depth[p] >= 7) continue;
                world.add_pair(v.handles[node], ecsia::World::kChildOf, v.handles[p]);
            }
        };
        for (int r = 0; r < repetitions; ++r) {
            const auto start = Clock::now();
            reparent(reparents);
            const auto between = Clock::now();
            scheduler.update(0.016f);
            const auto end = Clock::now();
            reparent_ms.push_back(std::chrono::duration<double, std::milli>(between - start).count());
            frame_ms.push_back(std::chrono::duration<double, std::milli>(end - between).count());
            // And a game's usual case: a few re-parented (only their subtrees' depths are walked again).
            reparent(10);
            const auto few = Clock::now();
            scheduler.update(0.016f);
            few_frame_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - few).count());
        }
        const double steady_after_ms = median_ms(repetitions, frames, [&] { scheduler.update(0.016f); });

        // A structural change that touches no pair: 100 entities spawned elsewhere (a game's
        // bullets), then the frame; they are despawned after it.
        // And 100 new rows of the system without a parent (new roots): depths are kept, the rows'
        // order and parent addresses are found again.
        std::vector<double> spawn_frame_ms, roots_frame_ms;
        std::vector<ecsia::Entity> spawned;
        for (int r = 0; r < repetitions; ++r) {
            for (const bool rows : {false, true}) {
                spawned.clear();
                for (int k = 0; k < 100; ++k) spawned.push_back(rows ? world.spawn(Local{1, 1}, WorldPos{0, 0}) : world.spawn(Local{1, 1}));
                const auto start = Clock::now();
                scheduler.update(0.016f);
                (rows ? roots_frame_ms : spawn_frame_ms).push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
                for (ecsia::Entity e : spawned) world.despawn(e);
                scheduler.update(0.016f);
            }
        }

        std::printf("  cascade system, %s%-10s steady %8.3f ms (%.2f ns/node, %.2fx the hand loop); first frame %.3f ms; %zu nodes differ from the hand loop\n",
                    v.workers == 0 ? "serial" : "workers ", v.workers == 0 ? "" : std::to_string(v.workers).c_str(), steady_ms,
                    steady_ms * 1e6 / nodes, over_hand, v.first_ms, wrong);
        std::printf("      re-parenting %u nodes/frame: add_pair calls %.3f ms, then the frame %.3f ms (%.2fx a steady frame); steady again %.3f ms\n",
                    reparents, median_of(reparent_ms), median_of(frame_ms), median_of(frame_ms) / steady_ms, steady_after_ms);
        std::printf("      re-parenting 10 nodes: the frame %.3f ms\n", median_of(few_frame_ms));
        std::printf("      no pair changed: 100 entities spawned elsewhere, the frame %.3f ms; 100 new roots among the rows, the frame %.3f ms\n",
                    median_of(spawn_frame_ms), median_of(roots_frame_ms));
        json_runs.push_back(bench::json_object({bench::json_member("workers", std::to_string(v.workers)),
                                                bench::json_member("steady_ms", bench::json_number(steady_ms)),
                                                bench::json_member("over_hand_loop", bench::json_number(over_hand)),
                                                bench::json_member("first_frame_ms", bench::json_number(v.first_ms)),
                                                bench::json_member("nodes_differing", std::to_string(wrong)),
                                                bench::json_member("reparent_calls_ms", bench::json_number(median_of(reparent_ms))),
                                                bench::json_member("frame_after_reparent_ms", bench::json_number(median_of(frame_ms))),
                                                bench::json_member("frame_after_few_reparents_ms", bench::json_number(median_of(few_frame_ms))),
                                                bench::json_member("frame_after_spawn_ms", bench::json_number(median_of(spawn_frame_ms))),
                                                bench::json_member("frame_after_roots_ms", bench::json_number(median_of(roots_frame_ms)))}));
    }
    const LookupCost lookup = lookup_cost(nodes, repetitions);
    // The same at 20,000 rows, whose entity table and column (480 kB together) stay in a core's L2
    // cache: at 100,000 (2 MB) a lookup's second array costs misses the precomputed read does not.
    const std::uint32_t in_cache_rows = std::min(nodes, 20000u);
    const LookupCost in_cache = lookup_cost(in_cache_rows, repetitions);
    const double spread_ns = lookup_spread_ns(nodes, repetitions);
    std::printf("lookup: %u rows with a random target each, serial frames, ns per row: ctx.lookup %.2f, the same reads at a precomputed row %.2f "
                "(%.2fx), the row's own position %.2f (%.2fx); %llu rows' sums differ\n",
                nodes, lookup.lookup_ns, lookup.direct_random_ns, lookup.lookup_ns / lookup.direct_random_ns, lookup.own_ns,
                lookup.lookup_ns / lookup.own_ns, static_cast<unsigned long long>(lookup.wrong));
    std::printf("lookup: through a Lookup<T> reader (ctx.lookup_of) %.2f ns per row (%.2fx the precomputed row's)\n", lookup.lookup_of_ns,
                lookup.lookup_of_ns / lookup.direct_random_ns);
    std::printf("lookup: the targets in four tables at random: ctx.lookup %.2f ns per row\n", spread_ns);
    std::printf("lookup at %u rows: ctx.lookup %.2f ns per row (%.2fx the precomputed row's %.2f), Lookup<T> %.2f (%.2fx)\n", in_cache_rows,
                in_cache.lookup_ns, in_cache.lookup_ns / in_cache.direct_random_ns, in_cache.direct_random_ns, in_cache.lookup_of_ns,
                in_cache.lookup_of_ns / in_cache.direct_random_ns);
    const std::string lookup_json =
        bench::json_object({bench::json_member("ns_per_row_lookup", bench::json_number(lookup.lookup_ns)),
                            bench::json_member("ns_per_row_lookup_of", bench::json_number(lookup.lookup_of_ns)),
                            bench::json_member("ns_per_row_direct_random", bench::json_number(lookup.direct_random_ns)),
                            bench::json_member("ns_per_row_own", bench::json_number(lookup.own_ns)),
                            bench::json_member("ns_per_row_lookup_four_tables", bench::json_number(spread_ns)),
                            bench::json_member("rows_differing", std::to_string(lookup.wrong + in_cache.wrong)),
                            bench::json_member("in_cache", bench::json_object({
                                bench::json_member("rows", std::to_string(in_cache_rows)),
                                bench::json_member("ns_per_row_lookup", bench::json_number(in_cache.lookup_ns)),
                                bench::json_member("ns_per_row_lookup_of", bench::json_number(in_cache.lookup_of_ns)),
                                bench::json_member("ns_per_row_direct_random", bench::json_number(in_cache.direct_random_ns))}))});
    const bool written = bench::write_json(
        json_path, bench::json_object({bench::json_member("nodes", std::to_string(nodes)), bench::json_member("roots", std::to_string(roots)),
                                       bench::json_member("lookup", lookup_json),
                                       bench::json_member("reparented", std::to_string(reparents)),
                                       bench::json_member("hand_loop_ms", bench::json_number(hand_ms)),
                                       bench::json_member("runs", bench::json_array(json_runs))}));
    return written ? 0 : 1;
}
