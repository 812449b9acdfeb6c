// Restoring in place, as a game's rewind key does: restore(world, saved) on the world a scheduler
// is running, then the SAME scheduler goes on. Property: restored at random frames (earlier or
// later than the current one) and run on for a random number of frames, every frame is the
// original run's frame of that number: state hash, what main-thread systems with a `changed`
// query were given, the frame number systems read, what observers saw, the frame's extract. For
// every kind of system: C++ kernels (the built-in scenario, `changed` filters among them), main-
// thread systems with and without queries, observers (with commands), an extract; serial, and 1
// and 2 workers with every wave pinned inline, to the pool and shared.

#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <set>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "builtin/scenario.hpp"
#include "ecsia/ecsia.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "support/rng.hpp"
#include "support/scheduler_testing.hpp"

using namespace ecsia;

namespace {

// What one frame showed: everything a replay must reproduce.
struct FrameRecord {
    std::uint64_t hash = 0;
    std::uint64_t frames_after = 0;          // world.frames() once the frame ended
    std::uint64_t nudge_read_frame = 0;      // the frame number the main-thread system Nudge read
    std::vector<std::uint32_t> watched;      // handles Watch's changed<velocity> query gave it
    std::vector<std::uint64_t> observed;     // the scenario's observers, in the order they fired
    std::uint64_t extract_frame = 0;
    std::vector<std::byte> extract_bytes;    // entities, then position values, as captured

    bool operator==(const FrameRecord&) const = default;
};

std::ostream& operator<<(std::ostream& out, const FrameRecord& r) {
    return out << "{hash " << r.hash << ", frames " << r.frames_after << ", nudge read " << r.nudge_read_frame << ", watched "
               << r.watched.size() << " rows, observed " << r.observed.size() << ", extract frame " << r.extract_frame
               << " (" << r.extract_bytes.size() << " bytes)}";
}

// The built-in scenario (C++ kernels and observers) plus two main-thread systems and an extract.
struct Rewindable {
    std::vector<std::uint64_t> observer_log;  // before world: its observers hold a reference to it
    World world{WorldOptions{1u << 16, 22}};
    Scheduler scheduler;
    ExtractId extract = 0;
    FrameRecord current;

    Rewindable(std::uint32_t workers, std::optional<WavePlacement> placement, std::uint64_t seed)
        : scheduler(world, options(workers)) {
        world.diagnostics().set_sink([](const std::string&) {});  // overflow spawns are expected
        builtin::setup_scenario(world, scheduler, seed, observer_log);
        const builtin::BuiltinIds ids = builtin::register_builtin_components(world);

        // No query: which movers it nudges depends on the frame number it reads.
        SystemDesc nudge;
        nudge.name = "Nudge";
        nudge.writes = {ids.velocity};
        QueryDesc movers;
        movers.with = {ids.velocity};
        nudge.main_thread = [this, movers_query = std::make_shared<Query>(world.query(movers))](World& w, float) {
            const std::uint64_t frame = w.frames();
            current.nudge_read_frame = frame;
            std::uint32_t k = 0;
            for (Entity e : movers_query->entities()) {
                if ((k++ * 7 + frame * 3) % 41 == 0) {
                    w.set(e, builtin::Velocity{static_cast<float>(frame % 5) - 2.0f, 1.0f});
                }
            }
        };
        scheduler.add_system(nudge);

        // A main-thread system with a changed<velocity> query: the scheduler selects its rows
        // against its own previous run (its cursor in the world, which a snapshot carries). Its
        // writes to `seen` fire the scenario's change observer.
        SystemDesc watch;
        watch.name = "Watch";
        watch.reads = {ids.velocity};
        watch.writes = {ids.seen};
        watch.after = {"Nudge"};
        watch.query.with = {ids.seen};
        watch.query.changed = {ids.velocity};
        watch.query_set = true;
        watch.main_thread_chunks = [this, ids](World&, float, std::span<Chunk> chunks) {
            for (Chunk& chunk : chunks) {
                auto* seen = chunk.write<builtin::Seen>(ids.seen);
                for (std::uint32_t i = 0; i < chunk.size(); ++i) {
                    current.watched.push_back(chunk.entities()[i].bits);
                    seen[i].count += 1;
                }
            }
        };
        scheduler.add_system(watch);

        // Captured by the scheduler at the end of every frame.
        extract = scheduler.add_extract({ids.position});
        if (placement) detail::SchedulerTesting::force_placement(scheduler, placement);
    }

    static SchedulerOptions options(std::uint32_t workers) {
        SchedulerOptions o;
        o.workers = workers;
        o.batch_rows = 96;  // several batches per system
        return o;
    }

    FrameRecord frame() {
        current = FrameRecord{};
        const std::size_t log_at = observer_log.size();
        scheduler.update(1.0f / 30);
        current.hash = state_hash(world);
        current.frames_after = world.frames();
        current.observed.assign(observer_log.begin() + static_cast<std::ptrdiff_t>(log_at), observer_log.end());
        const ExtractBuffer& buffer = scheduler.acquire_extract(extract);
        current.extract_frame = buffer.frame();
        const auto* entities = reinterpret_cast<const std::byte*>(buffer.entities());
        current.extract_bytes.assign(entities, entities + buffer.count() * sizeof(Entity));
        current.extract_bytes.insert(current.extract_bytes.end(), buffer.column(0),
                                     buffer.column(0) + buffer.count() * sizeof(builtin::Position));
        return current;
    }
};

const char* placement_name(std::optional<WavePlacement> placement) {
    if (!placement) return "decided";
    switch (*placement) {
        case WavePlacement::Inline: return "inline";
        case WavePlacement::Pool: return "pool";
        case WavePlacement::Shared: return "shared";
    }
    return "?";
}

}  // namespace

TEST_CASE("restoring in place at random frames replays every later frame exactly, for every kind of system",
          "[snapshot][schedule][threads][determinism][property]") {
    constexpr std::uint32_t kFrames = 36;
    struct Setting {
        std::uint32_t workers;
        std::optional<WavePlacement> placement;
    };
    const std::vector<Setting> settings = {
        {0, std::nullopt},
        {1, WavePlacement::Inline}, {1, WavePlacement::Pool}, {1, WavePlacement::Shared},
        {2, WavePlacement::Inline}, {2, WavePlacement::Pool}, {2, WavePlacement::Shared},
    };
    std::vector<FrameRecord> serial;  // the first setting's original run: every other must match it (G1)
    for (const Setting& setting : settings) {
        for (std::uint64_t seed : {1u, 2u}) {
            INFO("workers " << setting.workers << ", placement " << placement_name(setting.placement) << ", seed " << seed);
            Rewindable run(setting.workers, setting.placement, seed);
            // saved[f]: the snapshot after frame f (0: before the first).
            std::vector<std::vector<std::byte>> saved{snapshot(run.world)};
            std::vector<FrameRecord> original{FrameRecord{}};  // original[f]: frame f; [0] unused
            for (std::uint32_t f = 1; f <= kFrames; ++f) {
                original.push_back(run.frame());
                saved.push_back(snapshot(run.world));
            }
            // The scenario does what the property needs: Watch is given changed rows, how many
            // depends on the frame, and the observers fire.
            std::set<std::size_t> watched_counts;
            std::size_t observed = 0;
            for (std::uint32_t f = 1; f <= kFrames; ++f) {
                watched_counts.insert(original[f].watched.size());
                observed += original[f].observed.size();
                REQUIRE(original[f].frames_after == f);
                REQUIRE(original[f].nudge_read_frame == f - 1);
                REQUIRE(original[f].extract_frame == f);
            }
            REQUIRE(watched_counts.size() > 2);
            REQUIRE(*watched_counts.rbegin() > 0);
            REQUIRE(observed > 0);
            if (seed == 1) {
                if (serial.empty()) serial = original;
                CHECK(original == serial);
            }

            test::Rng rng(seed * 1000 + setting.workers * 10 + (setting.placement ? static_cast<std::uint32_t>(*setting.placement) + 1 : 0));
            for (int restore_count = 0; restore_count < 4; ++restore_count) {
                const std::uint32_t at = rng.below(kFrames);  // 0 .. kFrames - 1
                const std::uint32_t run_for = 1 + rng.below(kFrames - at);
                INFO("restore " << restore_count << ": frame " << at << ", then " << run_for << " frames");
                restore(run.world, saved[at]);
                REQUIRE(run.world.frames() == at);
                for (std::uint32_t f = at + 1; f <= at + run_for; ++f) {
                    INFO("frame " << f);
                    REQUIRE(run.frame() == original[f]);
                }
            }
        }
    }
}
