// G4 for pending handles (the stand-ins a kernel gets for spawns beyond its batch's reservation):
// a pending handle names only a spawn of its own batch, in its own wave. Used anywhere else (another
// batch of the wave, a later wave or frame) it is refused with StaleEntity and a diagnostic, never
// resolved to another spawn, also after many more pending handles than the index layout has room
// for were handed out (the ring of names starts over, and says so). One a kernel writes in place
// into an entity field of its own rows holds the real handle after the merge, or null and a
// diagnostic when it names no spawn of the batch. Everything at small index layouts, at 0 (serial),
// 1, 2 and 3 workers, with the same state and the same pending handles at every worker count (G1).

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "ecsia/schedule/scheduler.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "ecsia/world/world_access.hpp"
#include "support/captured_diagnostics.hpp"
#include "support/rng.hpp"
#include "support/world_checks.hpp"

namespace pending_test {
struct Seed {
    std::uint32_t row;
};
// On every spawned entity: who spawned it, and whether a command through its own pending handle
// reached it (confirmed 1) or one through a stranger's did (confirmed kStranger).
struct Born {
    std::uint32_t tag;
    std::uint32_t confirmed;
};
struct Link {
    std::uint32_t weight;
    ecsia::Entity to;  // not the first field: the merge finds it by the component's description
};
}  // namespace pending_test

ECSIA_COMPONENT(pending_test::Seed, "pending_seed", row)
ECSIA_COMPONENT(pending_test::Born, "pending_born", tag, confirmed)
ECSIA_COMPONENT(pending_test::Link, "pending_link", weight, to)

using namespace ecsia;
namespace pending_test {

constexpr std::uint32_t kStranger = 999;
const char* const kRefused = "was not spawned by this batch: a pending handle";
const char* const kStartedOver = "pending handles started over";

// A world with `index_bits` index bits, `seeds` rows to iterate (each with a Link), and a
// scheduler cutting them into batches of `batch_rows`.
struct SmallWorld {
    SmallWorld(unsigned index_bits, std::uint32_t workers, std::uint32_t seeds, std::uint32_t batch_rows)
        : world(options(index_bits)), said(world) {
        seed = world.component<Seed>();
        born = world.component<Born>();
        link = world.component<Link>();
        for (std::uint32_t row = 0; row < seeds; ++row) world.spawn(Seed{row}, Link{0, kNullEntity});
        scheduler = std::make_unique<Scheduler>(world, test::with_workers(workers, batch_rows));
    }
    static WorldOptions options(unsigned index_bits) {
        WorldOptions o;
        o.index_bits = index_bits;
        o.max_entities = (1u << index_bits) - 1;
        return o;
    }
    SystemDesc system(std::string name, std::vector<ComponentId> writes, Kernel kernel) const {
        SystemDesc s;
        s.name = std::move(name);
        s.reads = {seed};
        s.writes = std::move(writes);
        s.kernel = std::move(kernel);
        return s;
    }
    std::uint32_t ring_size() const { return PendingNames::ring_size(world.entities().layout()); }
    // Despawns every spawned entity (between frames), so that the small layout never fills up.
    void clear_born() {
        std::vector<Entity> all;
        world.each<const Born>([&](Entity e, const Born&) { all.push_back(e); });
        for (Entity e : all) world.despawn(e);
    }

    World world;
    test::CapturedDiagnostics said;
    ComponentId seed = 0, born = 0, link = 0;
    std::unique_ptr<Scheduler> scheduler;
};

// Laps of a ring of `size` positions that positions [0, end) touch.
std::uint64_t laps(std::uint64_t end, std::uint64_t size) { return end == 0 ? 0 : (end - 1) / size + 1; }

// The model of the ring: the positions a wave of `stride` batches takes when batch b names
// named[b] spawns (the furthest name's position, counted from the wave's first).
std::uint64_t wave_span(const std::vector<std::uint32_t>& named) {
    std::uint64_t span = 0;
    const auto stride = static_cast<std::uint64_t>(named.size());
    for (std::uint64_t b = 0; b < named.size(); ++b) {
        if (named[b] != 0) span = std::max(span, (named[b] - 1) * stride + b + 1);
    }
    return span;
}

// The test cases are in the namespace too: in a unity build, other test files' names are near.

TEST_CASE("pending names: distinct within a wave, never null, and each names only its own batch's spawn", "[command][entity]") {
    test::Rng rng(41);
    for (int round = 0; round < 300; ++round) {
        const unsigned bits = 2 + static_cast<unsigned>(rng.below(21));  // 2..22 index bits
        const HandleLayout layout(bits);
        const std::uint32_t size = PendingNames::ring_size(layout);
        const std::uint32_t stride = 1 + static_cast<std::uint32_t>(rng.below(12));
        const auto first = static_cast<std::uint32_t>(rng.below(size));
        CAPTURE(bits, stride, first);
        std::set<std::uint32_t> seen;
        for (std::uint32_t slot = 0; slot < stride; ++slot) {
            const PendingNames names = PendingNames::for_batch(first, stride, slot, layout);
            // Only the first 300 names of a big ring, to keep the test quick.
            const std::uint32_t count = std::min<std::uint32_t>(names.limit, 300);
            for (std::uint32_t k = 0; k < count; ++k) {
                const Entity name = names.name(k, layout);
                REQUIRE(layout.is_pending(name));
                REQUIRE_FALSE(name.is_null());
                REQUIRE(layout.index(name) >= PendingNames::ring_base(layout));
                REQUIRE(seen.insert(name.bits).second);
                REQUIRE(names.ordinal(name, layout) == k);
                // No other batch of the wave takes it for one of its own.
                const std::uint32_t other = (slot + 1) % stride;
                if (other != slot) REQUIRE(PendingNames::for_batch(first, stride, other, layout).ordinal(name, layout) == -1);
            }
            // Past the limit a batch gets null: its wave's names would wrap onto each other.
            REQUIRE(names.name(names.limit, layout).is_null());
            if (size <= 300 * stride) REQUIRE(std::uint64_t(names.limit) * stride + slot >= size);
        }
        // A self-numbered buffer never names a position of the ring.
        const Entity ring_name = PendingNames::for_batch(first, stride, 0, layout).name(0, layout);
        REQUIRE(PendingNames{}.ordinal(ring_name, layout) == -1);
    }
}

TEST_CASE("a stale pending handle is refused, never resolved, at every worker count and past the ring's wrap", "[schedule][threads]") {
    // 8 index bits: a ring of 128 names. Each frame the Spawner's 3 batches take up to 9 of them
    // (a claim of a 64-name block each under the old shared counter, which wrapped every 2 claims),
    // so 100 frames go round the ring several times.
    constexpr unsigned kBits = 8;
    constexpr int kFrames = 100;
    constexpr std::uint32_t kBatches = 3;
    const auto spawns_of = [](int frame, std::uint32_t batch) { return static_cast<std::uint32_t>((frame * 7 + batch * 3) % 4); };
    std::vector<std::vector<std::uint32_t>> runs;  // per worker count: hashes and pending handles
    for (std::uint32_t workers : {0u, 1u, 2u, 3u}) {
        INFO("workers " << workers);
        SmallWorld w(kBits, workers, kBatches, 1);
        std::vector<std::vector<Entity>> handed(kBatches);  // this frame's, by batch (each batch writes its own)
        std::vector<Entity> previous;                       // the last frame's, read by kernels
        int frame = 0;
        w.scheduler->add_system(w.system("Spawner", {}, [&](KernelContext& ctx) {
            const std::uint32_t b = ctx.batch_id;
            for (std::uint32_t k = 0; k < spawns_of(frame, b); ++k) {
                const Born value{static_cast<std::uint32_t>(frame) * 100 + b * 10 + k, 0};
                const ComponentValue v{w.born, &value, sizeof value};
                const Entity own = ctx.spawn(&v, 1);
                handed[b].push_back(own);
                ctx.commands.set(own, w.born, Born{value.tag, 1});
            }
            // The last frame's handles, and the first handle of every other batch of this wave
            // (the names are fixed by the plan, so a batch can work out another's).
            for (Entity stale : previous) ctx.commands.set(stale, w.born, Born{0, kStranger});
            for (std::uint32_t other = 0; other < kBatches; ++other) {
                if (other == b || spawns_of(frame, other) == 0) continue;
                PendingNames names = ctx.commands.pending_names();
                names = PendingNames::for_batch(names.first, names.stride, other, ctx.layout);
                ctx.commands.set(names.name(0, ctx.layout), w.born, Born{0, kStranger});
            }
        }));
        // A later wave of the same frame: every handle the Spawner handed out is stale here.
        SystemDesc meddler = w.system("Meddler", {}, [&](KernelContext& ctx) {
            for (const auto& list : handed) {
                for (Entity stale : list) ctx.commands.set(stale, w.born, Born{0, kStranger});
            }
        });
        meddler.after = {"Spawner"};
        w.scheduler->add_system(meddler);

        std::vector<std::uint32_t> run;
        std::size_t expected_refused = 0;
        std::uint64_t positions = 0;
        std::size_t expected_laps = 0;
        for (frame = 0; frame < kFrames; ++frame) {
            CAPTURE(frame);
            for (auto& list : handed) list.clear();
            REQUIRE_NOTHROW(w.scheduler->update(0.016f));
            // Say the repeats counted this frame (a diagnostic repeated frame after frame is
            // otherwise said once, then with its count), so each frame's reports can be counted.
            w.world.diagnostics().flush_repeats();
            std::vector<std::uint32_t> named;
            std::uint32_t spawned = 0, others = 0;
            for (std::uint32_t b = 0; b < kBatches; ++b) {
                named.push_back(spawns_of(frame, b));
                spawned += spawns_of(frame, b);
                others += spawns_of(frame, b) != 0 ? 1 : 0;
            }
            for (std::uint32_t b = 0; b < kBatches; ++b) {
                expected_refused += previous.size() + others - (spawns_of(frame, b) != 0 ? 1 : 0);
            }
            expected_refused += kBatches * spawned;  // the Meddler's batches
            const std::uint64_t after = positions + wave_span(named);
            if (laps(after, w.ring_size()) > laps(positions, w.ring_size()) && laps(after, w.ring_size()) >= 2) ++expected_laps;
            positions = after;
            // Every spawn happened and got only its own command; no stranger's reached anyone.
            std::uint32_t born = 0;
            w.world.each<const Born>([&](Entity, const Born& value) {
                ++born;
                CHECK(value.confirmed == 1);
            });
            CHECK(born == spawned);
            CHECK(w.said.occurrences(kRefused) == expected_refused);
            previous.clear();
            for (const auto& list : handed) {
                for (Entity e : list) {
                    CHECK(w.world.entities().layout().is_pending(e));
                    previous.push_back(e);
                    run.push_back(e.bits);
                }
            }
            const std::uint64_t hash = state_hash(w.world);
            run.push_back(static_cast<std::uint32_t>(hash));
            run.push_back(static_cast<std::uint32_t>(hash >> 32));
            w.clear_born();
        }
        CHECK(positions > 3 * w.ring_size());  // past the ring's wrap, several times
        CHECK(w.said.occurrences(kStartedOver) == expected_laps);
        CHECK(expected_laps >= 3);
        CHECK(w.said.occurrences("StaleEntity: pending handle 0x") == expected_refused);
        runs.push_back(run);
    }
    for (std::size_t i = 1; i < runs.size(); ++i) CHECK(runs[i] == runs[0]);
}

TEST_CASE("an entity field a kernel writes in place with a pending handle holds the real handle after the merge", "[schedule][threads]") {
    // 6 index bits: a ring of 32 names; 4 rows in 2 batches; 50 frames go round it several times.
    constexpr unsigned kBits = 6;
    constexpr int kFrames = 50;
    constexpr std::uint32_t kRows = 4;
    // Row r in frame f spawns and links to its own spawn, or (every third) links to a stranger:
    // the previous frame's handle of row r, or this frame's first handle of the other batch.
    const auto own_link = [](int frame, std::uint32_t row) { return (frame + static_cast<int>(row)) % 3 != 0; };
    std::vector<std::vector<std::uint32_t>> runs;
    for (std::uint32_t workers : {0u, 1u, 2u, 3u}) {
        INFO("workers " << workers);
        SmallWorld w(kBits, workers, kRows, 2);
        std::vector<Entity> handed(kRows, kNullEntity);    // this frame's, by row
        std::vector<Entity> previous(kRows, kNullEntity);  // the last frame's, by row
        int frame = 0;
        w.scheduler->add_system(w.system("Linker", {w.link}, [&](KernelContext& ctx) {
            const Seed* seeds = ctx.chunk.read<Seed>(w.seed);
            Link* links = ctx.chunk.write<Link>(w.link);
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
                const std::uint32_t row = seeds[i].row;
                links[i].weight = static_cast<std::uint32_t>(frame);
                if (own_link(frame, row)) {
                    const Born value{row * 1000 + static_cast<std::uint32_t>(frame), 1};
                    const ComponentValue v{w.born, &value, sizeof value};
                    handed[row] = ctx.spawn(&v, 1);
                    links[i].to = handed[row];
                } else if (frame % 2 == 0 && !previous[row].is_null()) {
                    links[i].to = previous[row];
                } else {
                    PendingNames names = ctx.commands.pending_names();
                    names = PendingNames::for_batch(names.first, names.stride, 1 - ctx.batch_id, ctx.layout);
                    links[i].to = names.name(0, ctx.layout);
                }
            }
        }));
        std::vector<std::uint32_t> run;
        std::size_t expected_null = 0;
        for (frame = 0; frame < kFrames; ++frame) {
            CAPTURE(frame);
            std::fill(handed.begin(), handed.end(), kNullEntity);
            REQUIRE_NOTHROW(w.scheduler->update(0.016f));
            // Say the repeats counted this frame (a diagnostic repeated frame after frame is
            // otherwise said once, then with its count), so each frame's reports can be counted.
            w.world.diagnostics().flush_repeats();
            w.world.each<const Seed, const Link>([&](Entity, const Seed& seed, const Link& link) {
                CAPTURE(seed.row);
                CHECK(link.weight == static_cast<std::uint32_t>(frame));
                CHECK_FALSE(w.world.entities().layout().is_pending(link.to));
                if (own_link(frame, seed.row)) {
                    REQUIRE(w.world.is_alive(link.to));
                    CHECK(w.world.get<Born>(link.to).tag == seed.row * 1000 + static_cast<std::uint32_t>(frame));
                    run.push_back(link.to.bits);
                } else {
                    CHECK(link.to.is_null());
                    ++expected_null;
                }
            });
            // Every frame links some row to a stranger (one of any 3 rows in a row): one report a frame.
            CHECK(w.said.occurrences("entity field(s) written in place by a kernel held a pending handle that names no spawn") ==
                  static_cast<std::size_t>(frame + 1));
            for (std::uint32_t row = 0; row < kRows; ++row) {
                if (!handed[row].is_null()) previous[row] = handed[row];
                run.push_back(handed[row].bits);
            }
            const std::uint64_t hash = state_hash(w.world);
            run.push_back(static_cast<std::uint32_t>(hash));
            w.clear_born();
        }
        CHECK(ecsia::detail::WorldAccess::cursors(w.world).pending_positions() > 3 * w.ring_size());
        CHECK(w.said.occurrences(kStartedOver) >= 3);
        CHECK(w.said.occurrences("'pending_link.to' of entity 0x") == static_cast<std::size_t>(kFrames));
        CHECK(expected_null > 0);
        runs.push_back(run);
    }
    for (std::size_t i = 1; i < runs.size(); ++i) CHECK(runs[i] == runs[0]);
}

TEST_CASE("a command of the batch that rewrites a field holding an in-place pending handle wins", "[schedule][threads]") {
    // The kernel's in-place write happens in the wave, its commands at the merge, after it: the
    // merge puts the real handle only where the field still holds the pending one.
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        SmallWorld w(8, workers, 3, 3);
        Entity spawned = kNullEntity;
        w.scheduler->add_system(w.system("Linker", {w.link}, [&](KernelContext& ctx) {
            Link* links = ctx.chunk.write<Link>(w.link);
            const Entity own = ctx.spawn(nullptr, 0);
            spawned = own;
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) links[i] = Link{1, own};
            const Entity* rows = ctx.chunk.entities();
            ctx.commands.set(rows[1], w.link, Link{7, kNullEntity});  // a whole component
            const Entity null_bits = kNullEntity;
            ctx.commands.set(rows[2], w.link, static_cast<std::uint32_t>(offsetof(Link, to)), &null_bits.bits, 4);  // the field
        }));
        REQUIRE_NOTHROW(w.scheduler->update(0.016f));
        std::vector<Link> links(3);
        w.world.each<const Seed, const Link>([&](Entity, const Seed& seed, const Link& link) { links[seed.row] = link; });
        REQUIRE(w.world.is_alive(links[0].to));
        CHECK(links[0].weight == 1);
        CHECK(links[1].to == kNullEntity);
        CHECK(links[1].weight == 7);
        CHECK(links[2].to == kNullEntity);
        CHECK(links[2].weight == 1);
        CHECK(w.said.count("written in place") == 0);  // nothing was refused
        CHECK(w.world.entities().layout().is_pending(spawned));
    }
}

TEST_CASE("pending handles a failed batch wrote in place become null, with a diagnostic", "[schedule][threads]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        SmallWorld w(8, workers, 4, 2);
        w.scheduler->add_system(w.system("Linker", {w.link}, [&](KernelContext& ctx) {
            Link* links = ctx.chunk.write<Link>(w.link);
            for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) links[i].to = ctx.spawn(nullptr, 0);
            if (ctx.batch_id == 1) throw std::runtime_error("gave up");
        }));
        REQUIRE_NOTHROW(w.scheduler->update(0.016f));
        std::uint32_t linked = 0, cut = 0;
        w.world.each<const Seed, const Link>([&](Entity, const Seed& seed, const Link& link) {
            CAPTURE(seed.row);
            if (seed.row < 2) {
                CHECK(w.world.is_alive(link.to));
                ++linked;
            } else {
                CHECK(link.to.is_null());
                ++cut;
            }
        });
        CHECK(linked == 2);
        CHECK(cut == 2);
        CHECK(w.said.count("2 entity field(s) written in place held a pending handle of a batch whose commands were dropped") == 1);
        CHECK(w.world.alive_count() == 4 + 2);  // the seeds and batch 0's spawns
    }
}

TEST_CASE("a batch that spawns more than its wave has pending names for gets null handles, and says so", "[schedule]") {
    // 6 index bits: a ring of 32 names; one batch may name 32 spawns, each of 2 batches 16.
    for (std::uint32_t seeds : {1u, 2u}) {
        INFO("batches " << seeds);
        SmallWorld w(6, 0, seeds, 1);
        const std::uint32_t limit = w.ring_size() / seeds;
        std::vector<std::vector<Entity>> handed(seeds);
        w.scheduler->add_system(w.system("Flood", {}, [&](KernelContext& ctx) {
            for (std::uint32_t k = 0; k < limit + 5; ++k) {
                const Born value{ctx.batch_id * 100 + k, 0};
                const ComponentValue v{w.born, &value, sizeof value};
                const Entity e = ctx.spawn(&v, 1);
                handed[ctx.batch_id].push_back(e);
                if (!e.is_null()) ctx.commands.set(e, w.born, Born{value.tag, 1});
            }
        }));
        REQUIRE_NOTHROW(w.scheduler->update(0.016f));
        for (std::uint32_t b = 0; b < seeds; ++b) {
            for (std::uint32_t k = 0; k < handed[b].size(); ++k) CHECK(handed[b][k].is_null() == (k >= limit));
        }
        std::uint32_t confirmed = 0, born = 0;
        w.world.each<const Born>([&](Entity, const Born& value) {
            ++born;
            confirmed += value.confirmed;
        });
        CHECK(born == seeds * (limit + 5));  // every spawn happened
        CHECK(confirmed == seeds * limit);    // the named ones got their commands
        CHECK(w.said.count("5 spawn(s) beyond the " + std::to_string(limit) +
                           " pending handles a batch of its wave can have got the null handle") == seeds);
        CHECK(w.said.count("command skipped") == 0);
    }
}

}  // namespace pending_test
