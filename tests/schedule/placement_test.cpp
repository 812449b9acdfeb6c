// Where a wave runs: the cost model's decisions (pure, no threads), and G1 across every placement:
// the executor's choice changes where batches run, never what they are or what they produce.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "builtin/scenario.hpp"
#include "ecsia/schedule/placement.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "support/scheduler_testing.hpp"
#include "ecsia/snapshot/state_hash.hpp"

using namespace ecsia;

namespace {

WaveShape wave_shape(double work_ns, std::uint32_t batches, std::uint32_t workers, double budget_ns = -1) {
    WaveShape wave;
    wave.work_ns = work_ns;
    wave.known = true;
    wave.batches = batches;
    wave.workers = workers;
    wave.coordinator_budget_ns = budget_ns;
    return wave;
}

}  // namespace

TEST_CASE("placement: no pool or no batches runs inline; unmeasured costs go to the workers to be measured", "[schedule][placement]") {
    PlacementModel model;
    model.resize(1);
    CHECK(model.decide(wave_shape(1e9, 16, 0)) == WavePlacement::Inline);
    CHECK(model.decide(wave_shape(1e9, 0, 4)) == WavePlacement::Inline);
    WaveShape unknown = wave_shape(10, 16, 2);
    unknown.known = false;
    // On the workers alone: a kernel not yet seen to return runs where the wave deadline holds.
    CHECK(model.decide(unknown) == WavePlacement::Pool);
    CHECK(model.decide(wave_shape(10, 16, 2)) == WavePlacement::Pool);  // known rows, unknown pool
    model.observe_dispatch(50'000);
    CHECK(model.decide(unknown) == WavePlacement::Pool);
    CHECK(model.decide(wave_shape(10, 16, 2)) == WavePlacement::Inline);
}

TEST_CASE("placement: per-row costs and the pool's overhead follow their samples", "[schedule][placement]") {
    PlacementModel model;
    model.resize(2);
    CHECK(model.ns_per_row(0) < 0);
    model.observe_system(0, 1000, 5000.0);
    CHECK(model.ns_per_row(0) == Approx(5.0));
    for (int i = 0; i < 60; ++i) model.observe_system(0, 100, 2000.0);
    CHECK(model.ns_per_row(0) == Approx(20.0).epsilon(0.001));
    model.observe_system(1, 0, 100.0);  // no rows: no sample
    CHECK(model.ns_per_row(1) < 0);
    model.observe_dispatch(-10.0);  // a sample below zero is noise: clamped
    CHECK(model.dispatch_overhead_ns() == 0.0);
    for (int i = 0; i < 60; ++i) model.observe_dispatch(30'000.0);
    CHECK(model.dispatch_overhead_ns() == Approx(30'000.0).epsilon(0.001));
}

TEST_CASE("placement: with a fixed overhead the choice flips once, from inline to shared, as work grows", "[schedule][placement][model]") {
    std::mt19937 random(15);
    for (int trial = 0; trial < 200; ++trial) {
        const double overhead = std::uniform_real_distribution<double>(1e3, 2e5)(random);
        const std::uint32_t workers = 1 + random() % 8;
        const std::uint32_t batches = 1 + random() % 32;
        const bool bounded = random() % 2 == 0;
        const double budget = bounded ? std::uniform_real_distribution<double>(5e4, 5e6)(random) : -1;
        PlacementModel model;
        model.resize(1);
        model.observe_dispatch(overhead);  // best == current: no re-tries, a pure threshold
        int flips = 0;
        WavePlacement last = WavePlacement::Inline;
        for (double work = 100; work < 1e9; work *= 1.1) {
            const WaveShape wave = wave_shape(work, batches, workers, budget);
            const WavePlacement now = model.decide(wave);
            INFO("overhead " << overhead << " workers " << workers << " batches " << batches << " budget " << budget
                             << " work " << work);
            REQUIRE(now != WavePlacement::Pool);  // the coordinator never idles by choice (batches fit its budget)
            if (now == WavePlacement::Inline) {
                // Inline only when the pool is not predicted clearly faster, and never past the budget.
                REQUIRE(model.predict_shared(wave, overhead) >= 0.85 * model.predict_inline(wave));
                if (bounded) REQUIRE(work <= budget);
            } else {
                REQUIRE((model.predict_shared(wave, overhead) < 0.85 * work || (bounded && work > budget)));
            }
            flips += now != last;
            last = now;
        }
        if (batches == 1 && !bounded) REQUIRE(flips == 0);  // one batch can never be shared
        REQUIRE(flips <= 1);
    }
}

TEST_CASE("placement: a dispatched wave's overhead is its wall time beyond an even share of its work", "[schedule][placement]") {
    // 2 ms of batches over 1 worker and the coordinator: an even share is 1 ms each.
    const WaveShape ran = wave_shape(2e6, 16, 1);
    PlacementModel model;
    model.resize(1);
    CHECK(model.predict_shared(ran, 0) == Approx(1e6));
    CHECK(model.predict_pool(ran, 0) == Approx(2e6));  // the worker alone
    CHECK(model.predict_pool(wave_shape(2e6, 1, 4), 0) == Approx(2e6));  // one batch: one runner
    // The share happened: 1.05 ms of wall time is 50 µs of overhead, and sharing such a wave pays.
    model.observe_dispatched_wave(ran, WavePlacement::Shared, 1.05e6);
    CHECK(model.dispatch_overhead_ns() == Approx(50e3));
    CHECK(model.decide(ran) == WavePlacement::Shared);
    // It did not (the worker never got a core; the coordinator ran nearly everything): 2 ms of wall
    // time is 1 ms of overhead, however little the busiest runner waited, and the waves go inline.
    PlacementModel loaded;
    loaded.resize(1);
    loaded.observe_dispatched_wave(ran, WavePlacement::Shared, 2e6);
    CHECK(loaded.dispatch_overhead_ns() == Approx(1e6));
    CHECK(loaded.decide(ran) == WavePlacement::Inline);
    // On the workers alone the even share is theirs: 2 ms of wall time on one worker is no overhead.
    PlacementModel pool;
    pool.resize(1);
    pool.observe_dispatched_wave(ran, WavePlacement::Pool, 2e6);
    CHECK(pool.dispatch_overhead_ns() == Approx(0).margin(1e-6));
}

TEST_CASE("placement: a page's thread never claims a batch longer than its budget", "[schedule][placement]") {
    PlacementModel model;
    model.resize(1);
    model.observe_dispatch(10'000);
    WaveShape wave = wave_shape(80e6, 32, 2, 2e6);  // 80 ms of work in 32 batches of 2.5 ms
    wave.largest_batch_ns = 2.5e6;
    CHECK(model.decide(wave) == WavePlacement::Pool);
    wave.largest_batch_ns = 1.5e6;
    CHECK(model.decide(wave) == WavePlacement::Shared);
    wave.coordinator_budget_ns = -1;  // a coordinator that may block has no budget
    wave.largest_batch_ns = 2.5e6;
    CHECK(model.decide(wave) == WavePlacement::Shared);
}

TEST_CASE("placement: a wave kept inline re-tries the pool at growing intervals when the best overhead would pay", "[schedule][placement]") {
    PlacementModel model;
    model.resize(1);
    model.observe_dispatch(1'000);  // the best seen
    for (int i = 0; i < 40; ++i) model.observe_dispatch(1'000'000);  // now the pool is slow
    const WaveShape wave = wave_shape(200'000, 16, 4);
    std::vector<int> retries;
    for (int i = 1; i <= 16 + 32 + 64 + 128; ++i) {
        if (model.decide(wave) == WavePlacement::Shared) retries.push_back(i);
    }
    CHECK(retries == std::vector<int>{16, 48, 112, 240});
    // A wave the pool could not pay for even at its best is never re-tried.
    const WaveShape tiny = wave_shape(500, 16, 4);
    for (int i = 0; i < 10'000; ++i) REQUIRE(model.decide(tiny) == WavePlacement::Inline);
}

TEST_CASE("placement: a wave settled inline is one decide() keeps inline without moving the model", "[schedule][placement][model]") {
    // Property, over random models and waves: settled_inline(w) means decide(w) is Inline every
    // time, and calling it changes nothing a later decision sees (the re-try counters stay put),
    // so an executor may skip deciding w. And it is not vacuous: it holds only far from the flip.
    std::mt19937 random(151);
    int settled = 0, unsettled_inline = 0;
    for (int trial = 0; trial < 400; ++trial) {
        PlacementModel model;
        model.resize(1);
        const double best = std::uniform_real_distribution<double>(1e3, 2e5)(random);
        model.observe_dispatch(best);
        for (int i = 0, n = static_cast<int>(random() % 6); i < n; ++i) {
            model.observe_dispatch(best * std::uniform_real_distribution<double>(1, 20)(random));  // a slower pool now
        }
        const std::uint32_t workers = 1 + random() % 8;
        const std::uint32_t batches = 1 + random() % 32;
        const double budget = random() % 2 == 0 ? std::uniform_real_distribution<double>(5e3, 5e6)(random) : -1;
        const double work = std::exp(std::uniform_real_distribution<double>(std::log(50.0), std::log(5e6))(random));
        const WaveShape wave = wave_shape(work, batches, workers, budget);
        // A wave near the flip that re-tries the pool: the witness of hidden state.
        const WaveShape witness = wave_shape(std::uniform_real_distribution<double>(1e4, 1e7)(random), 16, workers);
        INFO("trial " << trial << " best " << best << " workers " << workers << " batches " << batches << " budget " << budget
                      << " work " << work);
        PlacementModel untouched = model;
        if (!model.settled_inline(wave)) {
            unsettled_inline += model.decide(wave) == WavePlacement::Inline;
            continue;
        }
        ++settled;
        REQUIRE(model.predict_shared(wave, model.best_overhead_ns()) >= 2 * work);
        if (budget >= 0) REQUIRE(work <= budget);
        for (int i = 0; i < 5000; ++i) REQUIRE(model.decide(wave) == WavePlacement::Inline);
        for (int i = 0; i < 300; ++i) REQUIRE(model.decide(witness) == untouched.decide(witness));
    }
    CHECK(settled > 40);
    CHECK(unsettled_inline > 10);  // inline, but too close to the flip to settle
    // Nothing to settle before the pool and the rows are measured, or without a pool.
    PlacementModel fresh;
    fresh.resize(1);
    CHECK_FALSE(fresh.settled_inline(wave_shape(10, 1, 2)));
    WaveShape unknown = wave_shape(10, 1, 2);
    unknown.known = false;
    fresh.observe_dispatch(1e5);
    CHECK_FALSE(fresh.settled_inline(unknown));
    CHECK(fresh.settled_inline(wave_shape(10, 1, 2)));
    CHECK_FALSE(fresh.settled_inline(wave_shape(10, 1, 0)));
    CHECK_FALSE(fresh.settled_inline(wave_shape(10, 0, 2)));
    CHECK_FALSE(fresh.settled_inline(wave_shape(10, 1, 2, 5)));  // over a bounded coordinator's budget
}

namespace {

struct PlacedRun {
    std::vector<std::uint64_t> frame_hashes;
    std::vector<std::uint64_t> observer_log;
    std::vector<WavePlacement> placements;  // of every wave with batches, every frame
};

// pinned empty: the executor decides every wave; otherwise the waves with batches take the pinned
// placements in turn (the scenario's frames have two such waves, so a 3-cycle gives every wave
// every placement over three frames, and frames that mix them).
PlacedRun run_placed_scenario(std::uint32_t workers, std::uint32_t extra_movers, const std::vector<WavePlacement>& pinned,
                              std::uint32_t frames) {
    PlacedRun run;
    World world(WorldOptions{1u << 17, 22});
    world.diagnostics().set_sink([](const std::string&) {});
    SchedulerOptions options;
    options.workers = workers;
    options.batch_rows = 256;
    Scheduler scheduler(world, options);
    builtin::setup_scenario(world, scheduler, 9, run.observer_log);
    builtin::spawn_movers(world, extra_movers, 11);
    detail::SchedulerTesting::force_placements(scheduler, pinned);
    for (std::uint32_t f = 0; f < frames; ++f) {
        scheduler.update(1.0f / 60);
        run.frame_hashes.push_back(state_hash(world));
        for (const WaveTiming& wave : scheduler.last_frame_waves()) {
            if (wave.batches > 0) run.placements.push_back(wave.placement);
        }
    }
    return run;
}

}  // namespace

TEST_CASE("every placement, pinned or decided, hashes like the serial executor at several sizes", "[schedule][threads][determinism][placement]") {
    // Six frames: the first measures (the pool), the next five decide; a pinned 3-cycle gives every
    // wave every placement. Sizes: the scenario alone (its waves usually stay inline), and with extra
    // movers that make Move's wave long enough for the pool to pay (natively the choice flips
    // between the two; under TSan, whose per-row costs are higher, it flips earlier).
    constexpr std::uint32_t kFrames = 6;
    constexpr WavePlacement kInline = WavePlacement::Inline, kPool = WavePlacement::Pool, kShared = WavePlacement::Shared;
    const std::vector<std::vector<WavePlacement>> cycles{{kInline, kPool, kShared}, {kPool, kShared, kInline},
                                                         {kShared, kInline, kPool}};
    std::vector<WavePlacement> decided;
    for (std::uint32_t extra : {0u, 4000u, 30000u}) {
        const PlacedRun serial = run_placed_scenario(0, extra, {}, kFrames);
        REQUIRE(serial.observer_log.size() > 20);
        for (WavePlacement p : serial.placements) REQUIRE(p == WavePlacement::Inline);
        const std::uint32_t worker_counts[] = {1u, 2u, 4u};
        for (std::size_t w = 0; w < 3; ++w) {
            const std::uint32_t workers = worker_counts[w];
            INFO("extra movers " << extra << ", workers " << workers);
            const PlacedRun decide = run_placed_scenario(workers, extra, {}, kFrames);
            REQUIRE(decide.frame_hashes == serial.frame_hashes);
            REQUIRE(decide.observer_log == serial.observer_log);
            decided.insert(decided.end(), decide.placements.begin(), decide.placements.end());
            // Each worker count starts the cycle at another placement, so each is also a first frame's.
            const std::vector<WavePlacement>& cycle = cycles[w];
            const PlacedRun pinned = run_placed_scenario(workers, extra, cycle, kFrames);
            REQUIRE(pinned.frame_hashes == serial.frame_hashes);
            REQUIRE(pinned.observer_log == serial.observer_log);
            REQUIRE(pinned.placements.size() == serial.placements.size());
            for (std::size_t i = 0; i < pinned.placements.size(); ++i) REQUIRE(pinned.placements[i] == cycle[i % 3]);
        }
    }
    // The decided runs measured on the pool first. Where they went after that depends on the costs
    // this machine measured (on a loaded 2-core CI machine under TSan, the pool can pay at every
    // size), so this case asserts only the hashes; the choice itself is tested on fixed models above
    // and, for one-batch waves, by the next case.
    CHECK(std::count(decided.begin(), decided.end(), kPool) > 0);
}

TEST_CASE("the executor dispatches to the workers to measure first, then keeps one-batch waves inline", "[schedule][threads][placement]") {
    World world(WorldOptions{1u << 12, 20});
    world.diagnostics().set_sink([](const std::string&) {});
    SchedulerOptions options;
    options.workers = 2;
    Scheduler scheduler(world, options);
    builtin::spawn_movers(world, 100, 1);  // 100 rows: one batch
    scheduler.add_system(builtin::make_builtin_system(world, "Move"));
    scheduler.update(1.0f / 60);
    REQUIRE(scheduler.last_frame_waves().size() == 1);
    CHECK(scheduler.last_frame_waves()[0].placement == WavePlacement::Pool);  // costs unknown
    CHECK(detail::SchedulerTesting::model(scheduler).ns_per_row(0) >= 0);
    CHECK(detail::SchedulerTesting::model(scheduler).dispatch_overhead_ns() >= 0);
    for (int f = 0; f < 50; ++f) {
        scheduler.update(1.0f / 60);
        // Sharing one batch can only add the round trip: never chosen, re-tries included.
        REQUIRE(scheduler.last_frame_waves()[0].placement == WavePlacement::Inline);
    }
}
