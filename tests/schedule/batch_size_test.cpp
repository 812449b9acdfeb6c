#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "support/scheduler_testing.hpp"

using namespace ecsia;

namespace {

// Batches of one frame of the built-in Move system over `rows` entities, and the rows each had.
std::vector<std::uint32_t> batch_sizes(std::uint32_t rows, std::uint32_t workers, std::uint32_t batch_rows = 0) {
    World world;
    builtin::spawn_move_workload(world, rows);
    SchedulerOptions options;
    options.workers = workers;
    if (batch_rows != 0) options.batch_rows = batch_rows;
    Scheduler scheduler(world, options);
    auto sizes = std::make_shared<std::vector<std::uint32_t>>();
    auto lock = std::make_shared<std::mutex>();
    SystemDesc probe = builtin::make_builtin_system(world, "Move");
    probe.name = "Probe";
    const Kernel move = probe.kernel;
    probe.kernel = [move, sizes, lock](KernelContext& ctx) {
        move(ctx);
        const std::lock_guard<std::mutex> guard(*lock);
        if (sizes->size() <= ctx.batch_id) sizes->resize(ctx.batch_id + 1);
        (*sizes)[ctx.batch_id] = ctx.chunk.size();
    };
    scheduler.add_system(probe);
    scheduler.update(1.0f / 60);
    REQUIRE(scheduler.last_frame_waves().size() == 1);
    CHECK(scheduler.last_frame_waves()[0].batches == sizes->size());
    return *sizes;
}

}  // namespace

TEST_CASE("a system's rows are cut into about 16 batches, at least 256 rows, at most batch_rows", "[schedule][threads]") {
    // 50,000 rows: 16 batches of 3,136 (a sixteenth, rounded up to a multiple of 16 rows).
    std::vector<std::uint32_t> sixteenth(15, 3'136);
    sixteenth.push_back(50'000 - 15 * 3'136);
    CHECK(batch_sizes(50'000, 0) == sixteenth);
    // 1,000 rows: the 256-row floor gives 4 batches.
    CHECK(batch_sizes(1'000, 0) == std::vector<std::uint32_t>{256, 256, 256, 232});
    // 1,000,000 rows: the default batch_rows (16,384) caps the size.
    const std::vector<std::uint32_t> big = batch_sizes(1'000'000, 0);
    CHECK(big.size() == 62);
    CHECK(big.front() == 16'384);
    CHECK(big.back() == 1'000'000 - 61 * 16'384);
    // A batch_rows below the floor wins: 100 rows per batch.
    CHECK(batch_sizes(1'000, 0, 100) == std::vector<std::uint32_t>{100, 100, 100, 100, 100, 100, 100, 100, 100, 100});
}

TEST_CASE("batch boundaries do not depend on the worker count", "[schedule][threads]") {
    for (std::uint32_t rows : {1u, 700u, 50'000u}) {
        const std::vector<std::uint32_t> serial = batch_sizes(rows, 0);
        for (std::uint32_t workers : {1u, 2u, 4u}) {
            INFO("rows " << rows << ", workers " << workers);
            CHECK(batch_sizes(rows, workers) == serial);
        }
    }
}

TEST_CASE("a column written whole in many batches keeps one bulk change stamp", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        World world;
        builtin::spawn_move_workload(world, 50'000);
        SchedulerOptions options;
        options.workers = workers;
        Scheduler scheduler(world, options);
        scheduler.add_system(builtin::make_builtin_system(world, "Move"));
        const ComponentId position = world.components().find("position");
        for (int frame = 0; frame < 3; ++frame) scheduler.update(1.0f / 60);
        REQUIRE(scheduler.last_frame_waves()[0].batches == 16);
        QueryDesc desc;
        desc.with = {position};
        int tables = 0;
        world.query(desc).for_each_chunk([&](Chunk& chunk) {
            ++tables;
            const Column& column = *chunk.table().column(position);
            // The 16 batches' ranges merged into one O(1) stamp covering every row, not a per-row fill.
            CHECK(column.bulk_changed_rows() == 50'000);
            CHECK(column.bulk_changed_tick() == column.max_changed_tick());
            CHECK(column.own_changed_ticks()[25'000] < column.bulk_changed_tick());
        });
        CHECK(tables == 1);
    }
}

TEST_CASE("a wave with fewer jobs than workers wakes only as many workers", "[schedule][threads]") {
    World world;
    builtin::spawn_move_workload(world, 10);  // one batch
    SchedulerOptions options;
    options.workers = 4;
    Scheduler scheduler(world, options);
    scheduler.add_system(builtin::make_builtin_system(world, "Move"));
    // On the pool, workers only: left to decide, a one-batch wave runs on the coordinator.
    detail::SchedulerTesting::force_placement(scheduler, WavePlacement::Pool);
    for (int frame = 0; frame < 20; ++frame) scheduler.update(1.0f / 60);
    CHECK(scheduler.worker_stats(0).jobs_run == 20);
    for (std::uint32_t w = 1; w < 4; ++w) CHECK(scheduler.worker_stats(w).jobs_run == 0);
}

TEST_CASE("the tracked workload's drainer reads exactly the rows Move wrote, every frame", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        World world;
        builtin::spawn_move_workload(world, 20'000);
        SchedulerOptions options;
        options.workers = workers;
        Scheduler scheduler(world, options);
        scheduler.add_system(builtin::make_builtin_system(world, "Move"));
        SystemDesc drain = builtin::make_builtin_system(world, "SumMoved");
        const Kernel sum = drain.kernel;
        auto rows = std::make_shared<std::atomic<std::uint32_t>>(0);
        drain.kernel = [sum, rows](KernelContext& ctx) {
            sum(ctx);
            // relaxed: read after the frame; the wave fence orders it.
            rows->fetch_add(ctx.chunk.size(), std::memory_order_relaxed);
        };
        scheduler.add_system(drain);
        for (int frame = 0; frame < 4; ++frame) {
            rows->store(0, std::memory_order_relaxed);
            scheduler.update(1.0f / 60);
            CHECK(rows->load(std::memory_order_relaxed) == 20'000);
        }
        // A frame in which nothing writes position: nothing to drain.
        Scheduler drain_only(world, options);
        SystemDesc again = drain;
        drain_only.add_system(again);
        drain_only.update(1.0f / 60);  // its first run sees every row as changed since tick 0
        rows->store(0, std::memory_order_relaxed);
        drain_only.update(1.0f / 60);
        CHECK(rows->load(std::memory_order_relaxed) == 0);
    }
}
