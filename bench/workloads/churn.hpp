#pragma once
// The *churn* workload (DESIGN.md), shared by the native benchmark (bench/churn.cpp) and the
// browser one (bench/wasm/bench_exports.cpp): spawn (from a reservation), despawn, add and remove
// recorded in one CommandBuffer per frame and applied with World::apply. The four kinds
// interleave, each record targets a different entity (nothing folds), and the population stays
// level. Each frame records population / 20 of each kind: a fifth of the population.

#include <cstdint>
#include <vector>

#include "bench_support.hpp"
#include "ecsia/ecsia.hpp"
#include "ecsia/world/world_access.hpp"

namespace churn {

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

}  // namespace churn

ECSIA_COMPONENT(churn::Position, "position", x, y)
ECSIA_COMPONENT(churn::Velocity, "velocity", dx, dy)
ECSIA_COMPONENT(churn::Health, "health", hp, regen)

namespace churn {

// Each frame records population / 20 of each kind (spawn, add, despawn, remove).
constexpr std::uint32_t kOpsDivisor = 20;

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
inline ecsia::Entity take_random(std::vector<ecsia::Entity>& pool, XorShift& rng) {
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
            stats = ecsia::detail::WorldAccess::apply(world_, buffers, reservations);
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
        reservation = ecsia::detail::WorldAccess::reserve(world_, ops_per_kind_);  // the engine's own per-batch reservation
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

}  // namespace churn
