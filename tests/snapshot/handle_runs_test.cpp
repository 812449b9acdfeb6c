// Rows stored as runs of consecutive handles (snapshot format 4, handle_runs.hpp): the scans agree
// with a plain model on random rows, the writer picks runs exactly when there are at most
// rows / 8 of them, and snapshots of either kind restore into the world they came from, into a
// changed one and into a fresh one, directly and through a restorer, to the same bytes. Hostile
// runs are refused in snapshot_errors_test.

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "ecsia/ecsia.hpp"
#include "ecsia/snapshot/handle_runs.hpp"
#include "support/rng.hpp"
#include "support/snapshot_checks.hpp"
#include "support/snapshot_layout.hpp"

using namespace ecsia;

namespace {

// Rows of runs of random lengths (some past a vector step, some past 1,024), each starting at a
// random handle; neighbouring runs may happen to continue each other.
std::vector<Entity> random_rows(test::Rng& rng) {
    std::vector<Entity> rows;
    const std::uint32_t runs = 1 + rng.below(6);
    for (std::uint32_t r = 0; r < runs; ++r) {
        const std::uint32_t length = rng.chance(30) ? 1 + rng.below(3000) : 1 + rng.below(40);
        const std::uint32_t first = rng.chance(20) && !rows.empty() ? rows.back().bits + 1 : static_cast<std::uint32_t>(rng.next());
        for (std::uint32_t i = 0; i < length; ++i) rows.push_back(Entity{first + i});
    }
    return rows;
}

// The model: every row whose handle is not one more than the one before starts a run.
std::vector<std::uint32_t> model_starts(const std::vector<Entity>& rows) {
    std::vector<std::uint32_t> starts;
    for (std::uint32_t i = 0; i < rows.size(); ++i) {
        if (i == 0 || rows[i].bits != rows[i - 1].bits + 1) starts.push_back(i);
    }
    return starts;
}

// The (first handle, length) pairs of those runs, as the format stores them.
std::vector<std::byte> model_runs(const std::vector<Entity>& rows) {
    const std::vector<std::uint32_t> starts = model_starts(rows);
    std::vector<std::byte> out(8 * starts.size());
    for (std::size_t r = 0; r < starts.size(); ++r) {
        const std::uint32_t end = r + 1 < starts.size() ? starts[r + 1] : static_cast<std::uint32_t>(rows.size());
        const std::uint32_t pair[2] = {rows[starts[r]].bits, end - starts[r]};
        std::memcpy(out.data() + 8 * r, pair, 8);
    }
    return out;
}

std::vector<std::uint32_t> bits_of(const std::vector<Entity>& rows) {
    std::vector<std::uint32_t> out;
    for (const Entity e : rows) out.push_back(e.bits);
    return out;
}

// The world's snapshot, once every table's rows in it are found stored as the model says: as runs
// exactly when there are at most rows / 8 of them (that many runs), listed otherwise, the same
// handles either way. Counts the tables with rows of each kind.
std::vector<std::byte> checked_snapshot(const World& world, int& as_runs, int& listed) {
    const std::vector<std::byte> bytes = snapshot(world);
    const test::SnapshotLayout layout = test::walk_snapshot(bytes);
    for (std::uint32_t t = 0; t < world.tables().table_count(); ++t) {
        const Table& table = world.tables().table(static_cast<TableIndex>(t));
        const std::vector<Entity> rows(table.entities(), table.entities() + table.size());
        const std::size_t runs = model_starts(rows).size();
        const bool expect_runs = table.size() > 0 && runs <= table.size() / 8;
        INFO("table " << t << ": " << table.size() << " rows, " << runs << " runs");
        REQUIRE(layout.tables[t].runs == expect_runs);
        if (expect_runs) REQUIRE(layout.tables[t].run_count == runs);
        REQUIRE(bits_of(rows) == test::row_handles(bytes, layout.tables[t]));
        if (table.size() > 0) ++(expect_runs ? as_runs : listed);
    }
    return bytes;
}

}  // namespace

TEST_CASE("the scans of runs of handles agree with a plain model on random rows", "[snapshot][property]") {
    test::Rng rng(0x4a11u);
    for (int trial = 0; trial < 400; ++trial) {
        INFO("trial " << trial);
        std::vector<Entity> rows = random_rows(rng);
        const auto n = static_cast<std::uint32_t>(rows.size());
        std::vector<std::uint32_t> starts;
        for (std::uint32_t start = 0; start < n; start = next_run_start(rows.data(), start + 1, n)) starts.push_back(start);
        REQUIRE(starts == model_starts(rows));

        const std::vector<std::byte> runs = model_runs(rows);
        const auto count = static_cast<std::uint32_t>(runs.size() / 8);
        std::vector<Entity> listed(rows.size());
        expand_runs(runs.data(), count, listed.data());
        CHECK(bits_of(listed) == bits_of(rows));
        const std::uint32_t known = starts.size() > 1 ? starts[1] : n;  // the first run's length
        CHECK(rows_follow_runs(rows.data(), 0, runs.data(), count));
        CHECK(rows_follow_runs(rows.data(), rng.below(known + 1), runs.data(), count));
        // Any one row other than the runs say is seen, wherever it lies (but among the rows said
        // to be known, which are not read again).
        const std::uint32_t row = rng.below(n);
        rows[row].bits ^= 1u << rng.below(32);
        CHECK_FALSE(rows_follow_runs(rows.data(), 0, runs.data(), count));
        // The known rows count up from the first row's handle: not if that is not the first run's.
        CHECK_FALSE(rows_follow_runs(rows.data(), row > 0 ? rng.below(row + 1) : known, runs.data(), count));
    }
}

TEST_CASE("a table's rows are stored as runs exactly when there are at most rows / 8 of them, and restore everywhere",
          "[snapshot]") {
    test::Rng rng(0x7a61e5u);
    const auto define = [](World& world) { world.define_component("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}}); };
    int as_runs = 0, listed = 0;
    for (int trial = 0; trial < 40; ++trial) {
        INFO("trial " << trial);
        World world;
        define(world);
        const ComponentId pos = world.component_id("pos");
        std::vector<Entity> live;
        const std::uint32_t spawned = 8 + rng.below(3000);
        for (std::uint32_t i = 0; i < spawned; ++i) {
            const float p[2] = {float(i), float(trial)};
            live.push_back(world.spawn_with(std::vector<ComponentValue>{{pos, p, 8}}));
        }
        // Despawns move the last row into the hole, so a few keep few runs and many make the rows listed.
        const std::uint32_t despawns = rng.chance(30) ? 0 : rng.below(spawned / (rng.chance(50) ? 40 : 2) + 1);
        for (std::uint32_t i = 0; i < despawns && live.size() > 1; ++i) {
            const std::uint32_t at = rng.below(live.size());
            world.despawn(live[at]);
            live.erase(live.begin() + at);
        }
        world.flush();
        const std::vector<std::byte> bytes = checked_snapshot(world, as_runs, listed);
        const std::uint64_t hash = state_hash(world);

        // Into a fresh world, directly and through a restorer.
        World fresh;
        define(fresh);
        restore(fresh, bytes);
        CHECK(state_hash(fresh) == hash);
        CHECK(snapshot(fresh) == bytes);
        World pulled;
        define(pulled);
        SnapshotRestorer restorer;
        test::restore_pulled(restorer, pulled, bytes);
        CHECK(state_hash(pulled) == hash);
        CHECK(snapshot(pulled) == bytes);
        // Back into the world it came from after values changed (its own rows) and after its rows
        // changed (a despawn and a spawn: rebuilt).
        const float moved[2] = {-1, -2};
        world.set_bytes(live.front(), pos, 0, moved, 8);
        world.flush();
        test::restore_pulled(restorer, world, bytes);
        CHECK(snapshot(world) == bytes);
        world.despawn(live.back());
        world.spawn_with(std::vector<ComponentValue>{{pos, moved, 8}});
        world.flush();
        restore(world, bytes);
        CHECK(state_hash(world) == hash);
        CHECK(snapshot(world) == bytes);
    }
    CHECK(as_runs >= 10);
    CHECK(listed >= 5);
}

TEST_CASE("the rows a table knows count up follow every spawn, despawn and restore between snapshots", "[snapshot][property]") {
    // Table::counted_rows_ lets a snapshot skip scanning rows and a restore skip comparing them: a
    // stale count would store wrong runs, or take the world's rows for the snapshot's. Random
    // changes between snapshots of one world; every snapshot must store what a fresh scan finds.
    test::Rng rng(0xc0047u);
    World world;
    world.define_component("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
    world.define_component("tag", {});
    const ComponentId pos = world.component_id("pos"), tag = world.component_id("tag");
    std::vector<std::vector<std::byte>> taken;
    std::vector<Entity> live;
    int as_runs = 0, listed = 0;
    for (int step = 0; step < 300; ++step) {
        INFO("step " << step);
        const std::uint32_t action = rng.below(10);
        if (action < 4) {  // a batch of spawns, into the pos table or the pos+tag one
            const float p[2] = {float(step), 1};
            const bool tagged = rng.chance(30);
            for (std::uint32_t i = 1 + rng.below(200); i > 0; --i) {
                std::vector<ComponentValue> values{{pos, p, 8}};
                if (tagged) values.push_back({tag, nullptr, 0});
                live.push_back(world.spawn_with(values));
            }
        } else if (action < 6 && !live.empty()) {  // a few despawns anywhere
            for (std::uint32_t i = 1 + rng.below(4); i > 0 && !live.empty(); --i) {
                const std::uint32_t at = rng.below(live.size());
                world.despawn(live[at]);
                live.erase(live.begin() + at);
            }
        } else if (action < 7 && !live.empty()) {  // a row moved to another table
            const Entity e = live[rng.below(live.size())];
            if (world.has(e, tag)) world.remove(e, tag); else world.add(e, ComponentValue{tag, nullptr, 0});
        } else if (action < 8 && !taken.empty()) {  // back to an earlier snapshot
            const std::vector<std::byte>& bytes = taken[rng.below(taken.size())];
            restore(world, bytes);
            REQUIRE(snapshot(world) == bytes);
            live.clear();
            for (std::uint32_t t = 0; t < world.tables().table_count(); ++t) {
                const Table& table = world.tables().table(static_cast<TableIndex>(t));
                live.insert(live.end(), table.entities(), table.entities() + table.size());
            }
        }
        world.flush();
        const std::vector<std::byte> bytes = checked_snapshot(world, as_runs, listed);
        if (rng.chance(30)) taken.push_back(bytes);
    }
    CHECK(taken.size() > 40);
    CHECK(as_runs > 100);
    CHECK(listed > 30);
}
