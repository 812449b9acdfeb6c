// The *calls* workload natively: the per-entity calls of the browser's calls table
// (web/bench/smallworld.js) made on the C++ World directly, at 1,000 entities, so the page's ns
// per call can be set beside what the same core work costs without the wasm/JS boundary. The
// world is the page's: components a { v: f32 }, b { v: f32 } and the tag `tag`, defined at run
// time as the page defines them; values given as the page's calls give them (a ComponentValue of
// encoded bytes). One cycle runs every operation over the population in the page's order (spawn
// then despawn, add then remove); ns per call is a cycle's thread CPU time over the calls made,
// the median over cycles.
//
//   ./bench_calls [population=1000] [cycles=300] [--json PATH]

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "ecsia/world/world.hpp"

using namespace ecsia;

namespace {

// The page's operations, in the order a cycle runs them (smallworld.js CALL_OPS).
constexpr const char* kOps[] = {"spawn", "despawn", "addTag", "removeTag", "addValue", "removeValue", "has", "getSet"};
constexpr int kOpCount = 8;

// A cycle leaves the world as it found it: `population` entities with `a` only.
bool back_as_before(const World& world, ComponentId a, ComponentId b, ComponentId tag, const std::vector<Entity>& entities) {
    if (world.alive_count() != entities.size()) return false;
    for (const Entity e : entities) {
        if (!world.has(e, a) || world.has(e, b) || world.has(e, tag)) return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    const std::uint32_t population = argc > 1 ? static_cast<std::uint32_t>(std::atoi(argv[1])) : 1000;
    const int cycles = argc > 2 ? std::atoi(argv[2]) : 300;

    // A spawn/despawn cycle reuses the same slots; a slot retires after 2^(32 - index bits)
    // generations, so a fresh world serves every 500 cycles (the page does the same).
    std::vector<double> ns[kOpCount];
    int done = 0;
    while (done < cycles) {
        World world(WorldOptions{4 * population + 1024, 22});
        const ComponentId a = world.define_component("a", {{"v", FieldType::F32}});
        const ComponentId b = world.define_component("b", {{"v", FieldType::F32}});
        const ComponentId tag = world.define_component("tag", {});
        std::vector<Entity> entities(population);
        for (std::uint32_t i = 0; i < population; ++i) {
            const float v = float(i);
            const ComponentValue value{a, &v, sizeof v};
            entities[i] = world.spawn_with({&value, 1});
        }
        std::vector<Entity> spawned(population);
        double sink = 0;
        const auto per_call = [&](auto&& work) { return bench::time_both(work).cpu * 1e9 / population; };
        for (int c = 0; c < 500 && done < cycles; ++c, ++done) {
            const double times[kOpCount] = {
                per_call([&] {
                    for (std::uint32_t i = 0; i < population; ++i) {
                        const float v = float(i);
                        const ComponentValue value{a, &v, sizeof v};
                        spawned[i] = world.spawn_with({&value, 1});
                    }
                }),
                per_call([&] { for (const Entity e : spawned) world.despawn(e); }),
                per_call([&] { for (const Entity e : entities) world.add(e, ComponentValue{tag}); }),
                per_call([&] { for (const Entity e : entities) world.remove(e, tag); }),
                per_call([&] {
                    for (std::uint32_t i = 0; i < population; ++i) {
                        const float v = float(i);
                        world.add(entities[i], ComponentValue{b, &v, sizeof v});
                    }
                }),
                per_call([&] { for (const Entity e : entities) world.remove(e, b); }),
                per_call([&] { for (const Entity e : entities) sink += world.has(e, a) ? 1 : 0; }),
                per_call([&] {
                    for (const Entity e : entities) {
                        float v;
                        std::memcpy(&v, world.get_bytes(e, a), sizeof v);
                        v += 1;
                        world.set_bytes(e, a, 0, &v, sizeof v);
                    }
                }),
            };
            for (int op = 0; op < kOpCount; ++op) ns[op].push_back(times[op]);
        }
        bench::consume(sink);
        if (!back_as_before(world, a, b, tag, entities)) {
            std::fprintf(stderr, "calls bench: a cycle did not leave %u entities with only 'a'\n", population);
            return 1;
        }
    }

    std::printf("calls: %u entities, %d cycles, median thread CPU ns per call (the C++ World, no boundary)\n", population, cycles);
    std::vector<std::string> members;
    for (int op = 0; op < kOpCount; ++op) {
        const double median = bench::median(ns[op]);
        std::printf("%-12s %8.2f\n", kOps[op], median);
        members.push_back(bench::json_member(kOps[op], bench::json_number(median)));
    }
    const bool written = bench::write_json(
        json_path, bench::json_object({bench::json_member("population", std::to_string(population)),
                                       bench::json_member("cycles", std::to_string(cycles)),
                                       bench::json_member("ns_per_call", bench::json_object(members))}));
    return written ? 0 : 1;
}
