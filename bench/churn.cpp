// The *churn* workload of DESIGN.md: spawn (from a reservation), despawn, add and remove recorded in
// a CommandBuffer and applied with World::apply, as a mixed sequence: the four kinds interleave,
// each record targets a different entity (nothing folds), and the population stays level (10,000
// and 100,000 entities by default). Reports records applied per second of World::apply alone (by
// thread-CPU time, wall time beside it), and the whole cycle (reserve + record + apply).
//
// Build and run (see docs/PERFORMANCE.md):
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DECSIA_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target bench_churn && ./build-bench/bench/bench_churn

#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
struct Health {
    std::int32_t hp;
    float regen;
};

}  // namespace

ECSIA_COMPONENT(Position, "position", x, y)
ECSIA_COMPONENT(Velocity, "velocity", dx, dy)
ECSIA_COMPONENT(Health, "health", hp, regen)

namespace {

// Each frame records population / 20 of each kind (spawn, add, despawn, remove): a fifth of the
// population gets a record per frame.
constexpr std::uint32_t kOpsDivisor = 20;
constexpr int kRepetitions = 15;
constexpr double kSampleSeconds = 0.05;

// Deterministic and cheap: the benchmark should time the engine, not the random numbers.
struct XorShift {
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    std::uint32_t below(std::uint32_t bound) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return static_cast<std::uint32_t>((state >> 32) * bound >> 32);
    }
};

// Removes and returns a random element (order is irrelevant: these are just pools of targets).
ecsia::Entity take_random(std::vector<ecsia::Entity>& pool, XorShift& rng) {
    const std::uint32_t at = rng.below(static_cast<std::uint32_t>(pool.size()));
    const ecsia::Entity e = pool[at];
    pool[at] = pool.back();
    pool.pop_back();
    return e;
}

class Churn {
public:
    explicit Churn(std::uint32_t population) : world_(options()), ops_per_kind_(population / kOpsDivisor) {
        position_ = world_.component<Position>();
        velocity_ = world_.component<Velocity>();
        health_ = world_.component<Health>();
        for (std::uint32_t i = 0; i < population; ++i) {
            const Position p{float(i), 0};
            const Velocity v{1, 1};
            if (i % 2 == 0) {
                without_health_.push_back(world_.spawn(p, v));
            } else {
                with_health_.push_back(world_.spawn(p, v, Health{100, 0.5f}));
            }
        }
    }

    // One frame: reserve, record the mixed sequence, apply. Adds the phases' times to the totals.
    void frame() {
        ecsia::EntityReservation reservation;
        const bench::Timing record = bench::time_both([&] { record_frame(reservation); });
        ecsia::ApplyStats stats;
        const bench::Timing apply = bench::time_both([&] {
            ecsia::CommandBuffer* buffers[] = {&commands_};
            ecsia::EntityReservation* reservations[] = {&reservation};
            stats = world_.apply(buffers, reservations);
        });
        record_.wall += record.wall;
        record_.cpu += record.cpu;
        apply_.wall += apply.wall;
        apply_.cpu += apply.cpu;
        records_ += commands_.record_count();
        applied_ += stats.applied;
        skipped_ += stats.skipped_dead_target + stats.overflow_spawns;
        without_health_.insert(without_health_.end(), lost_.begin(), lost_.end());
        with_health_.insert(with_health_.end(), gained_.begin(), gained_.end());
    }

    void reset_totals() {
        record_ = apply_ = {};
        records_ = applied_ = skipped_ = 0;
    }
    bench::Timing record_time() const { return record_; }
    bench::Timing apply_time() const { return apply_; }
    std::uint64_t records() const { return records_; }
    std::uint64_t applied() const { return applied_; }
    std::uint64_t skipped() const { return skipped_; }
    std::uint32_t alive() const { return world_.alive_count(); }
    std::size_t diagnostics() { return world_.diagnostics().reported_count(); }

private:
    // Reserves this frame's spawn handles and records the mixed sequence into commands_.
    void record_frame(ecsia::EntityReservation& reservation) {
        reservation = world_.reserve(ops_per_kind_);
        commands_.clear();
        // Targets leave their pool when picked and rejoin after the apply, so no entity gets two
        // records in one frame. Spawns and despawns alternate between the with- and without-health
        // sets, which keeps both pools level.
        std::vector<ecsia::Entity>& gained = gained_;
        std::vector<ecsia::Entity>& lost = lost_;
        gained.clear();
        lost.clear();
        const Health health{100, 0.5f};
        for (std::uint32_t i = 0; i < ops_per_kind_; ++i) {
            const Position p{float(i), 1};
            const Velocity v{0.5f, -0.5f};
            const ecsia::ComponentValue values[] = {
                {position_, &p, sizeof p}, {velocity_, &v, sizeof v}, {health_, &health, sizeof health}};
            const ecsia::Entity fresh = reservation.take();
            const bool healthy = i % 2 == 1;
            commands_.spawn(fresh, values, healthy ? 3 : 2);
            (healthy ? gained : lost).push_back(fresh);

            const ecsia::Entity gaining = take_random(without_health_, rng_);
            commands_.add(gaining, health_, health);
            gained.push_back(gaining);

            commands_.despawn(take_random(i % 2 == 0 ? with_health_ : without_health_, rng_));

            const ecsia::Entity losing = take_random(with_health_, rng_);
            commands_.remove(losing, health_);
            lost.push_back(losing);
        }
    }

    static ecsia::WorldOptions options() {
        ecsia::WorldOptions o;
        o.max_entities = 1u << 20;
        return o;
    }

    ecsia::World world_;
    std::uint32_t ops_per_kind_;
    ecsia::ComponentId position_ = 0, velocity_ = 0, health_ = 0;
    ecsia::CommandBuffer commands_;
    std::vector<ecsia::Entity> with_health_, without_health_;
    XorShift rng_;
    std::vector<ecsia::Entity> gained_, lost_;  // this frame's targets, back into the pools after apply
    bench::Timing record_, apply_;
    std::uint64_t records_ = 0, applied_ = 0, skipped_ = 0;
};

struct Measured {
    // Per repetition, in million records per second.
    std::vector<double> apply_cpu_rate, apply_wall_rate, cycle_cpu_rate;
    std::uint64_t applied = 0, records = 0, skipped = 0;
    std::uint32_t alive_at_end = 0;
    std::size_t diagnostics = 0;
    int frames = 0;
};

Measured run_population(std::uint32_t population) {
    Churn churn(population);
    for (int i = 0; i < 5; ++i) churn.frame();  // warm up: tables, edges, buffer capacity
    churn.reset_totals();
    for (int i = 0; i < 5; ++i) churn.frame();
    const double one_frame = (churn.apply_time().cpu + churn.record_time().cpu) / 5;
    Measured m;
    m.frames = std::max(2, static_cast<int>(kSampleSeconds / std::max(one_frame, 1e-6)));
    for (int rep = 0; rep < kRepetitions; ++rep) {
        churn.reset_totals();
        for (int f = 0; f < m.frames; ++f) churn.frame();
        const double applied = double(churn.applied()) / 1e6;
        m.apply_cpu_rate.push_back(applied / churn.apply_time().cpu);
        m.apply_wall_rate.push_back(applied / churn.apply_time().wall);
        m.cycle_cpu_rate.push_back(applied / (churn.apply_time().cpu + churn.record_time().cpu));
        m.applied += churn.applied();
        m.records += churn.records();
        m.skipped += churn.skipped();
    }
    m.alive_at_end = churn.alive();
    m.diagnostics = churn.diagnostics();
    return m;
}

void print_row(const char* label, const std::vector<double>& samples) {
    std::printf("  %-44s %9.2f %9.2f %9.2f\n", label, bench::median(samples), bench::min_of(samples),
                bench::max_of(samples));
}

}  // namespace

// Optional arguments: populations to run instead of the default 10,000 and 100,000.
int main(int argc, char** argv) {
    std::vector<std::uint32_t> populations = {10'000u, 100'000u};
    if (argc > 1) {
        populations.clear();
        for (int i = 1; i < argc; ++i) populations.push_back(static_cast<std::uint32_t>(std::strtoul(argv[i], nullptr, 10)));
    }
    std::printf("churn workload: mixed spawn (from a reservation) / add / despawn / remove records through one\n"
                "CommandBuffer per frame, population/%u of each kind per frame, each on a different random entity\n"
                "(%d repetitions; million records per second of World::apply, by thread-CPU time unless noted)\n\n",
                kOpsDivisor, kRepetitions);
    std::vector<bench::Verdict> verdicts;
    std::vector<std::string> names;
    names.reserve(populations.size());  // Verdict keeps the name pointer
    bool all_applied = true;
    for (std::uint32_t population : populations) {
        const Measured m = run_population(population);
        std::printf("population %u, %u records per frame, %d frames per repetition\n", population,
                    population / kOpsDivisor * 4, m.frames);
        std::printf("  %-44s %9s %9s %9s\n", "million records/s", "median", "min", "max");
        print_row("World::apply", m.apply_cpu_rate);
        print_row("World::apply, by wall clock", m.apply_wall_rate);
        print_row("reserve + record + World::apply", m.cycle_cpu_rate);
        std::printf("  World::apply median: %.1f ns per record\n", 1e3 / bench::median(m.apply_cpu_rate));
        std::printf("  records recorded %llu, applied %llu, skipped %llu; alive at end %u; diagnostics %zu\n\n",
                    static_cast<unsigned long long>(m.records), static_cast<unsigned long long>(m.applied),
                    static_cast<unsigned long long>(m.skipped), m.alive_at_end, m.diagnostics);
        const bool ok = m.applied == m.records && m.skipped == 0 && m.diagnostics == 0;
        if (!ok) std::printf("ERROR: not every record applied cleanly\n");
        all_applied = all_applied && ok;
        names.push_back("churn_" + std::to_string(population) + "_records_applied_per_second");
        verdicts.push_back({names.back().c_str(), bench::median(m.apply_cpu_rate), 10.0, false, "M/s"});
    }
    return bench::report_targets(verdicts) == 0 && all_applied ? 0 : 1;
}
