// The memos that let a snapshot store a tick array as the same as another without comparing them
// (Column::TicksMatch: a column's per-row changed ticks equal its added ticks; a column's added
// ticks equal its table's reference column's): after every step of random structural changes,
// writes, bulk calls, frames of a scheduler, snapshots and restores, every memo that says two
// arrays are equal is true of the arrays, and a snapshot taken with the memos is byte for byte
// the one a world without them writes (a restored copy, whose memos a restore forgets).

#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "ecsia/ecsia.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "ecsia/snapshot/snapshot_access.hpp"
#include "support/rng.hpp"

using namespace ecsia;

namespace {

struct Pos {
    float x, y;
};
struct Hp {
    std::uint32_t v;
};
struct Mark {};
struct Heat {
    float t;
};

}  // namespace

ECSIA_COMPONENT(Pos, "pos", x, y)
ECSIA_COMPONENT(Hp, "hp", v)
ECSIA_TAG(Mark, "mark")
ECSIA_COMPONENT(Heat, "heat", t)

namespace {

// Every memo that claims two arrays are equal, checked against the arrays; returns how many held.
std::uint32_t check_memos(const World& world) {
    std::uint32_t claims = 0;
    const TableGraph& graph = world.tables();
    for (TableIndex t = 0; t < graph.table_count(); ++t) {
        const Table& table = graph.table(t);
        const std::uint32_t rows = table.size();
        const std::vector<Column>& columns = table.columns();
        for (std::size_t k = 0; k < columns.size(); ++k) {
            const Column& column = columns[k];
            const std::vector<Tick>& added = SnapshotAccess::added_ticks(column);
            if (SnapshotAccess::changed_matches_added(column)) {
                ++claims;
                const std::vector<Tick>& changed = SnapshotAccess::own_changed_ticks(column);
                for (std::uint32_t r = 0; r < rows; ++r) {
                    INFO("table " << t << ", column " << k << ", row " << r << " of " << rows);
                    REQUIRE(changed[r] == added[r]);
                }
            }
            if (k != table.ticks_reference() && SnapshotAccess::added_matches(column, columns[table.ticks_reference()])) {
                ++claims;
                const std::vector<Tick>& first = SnapshotAccess::added_ticks(columns[table.ticks_reference()]);
                for (std::uint32_t r = 0; r < rows; ++r) {
                    INFO("table " << t << ", column " << k << " against the reference column, row " << r << " of " << rows);
                    REQUIRE(added[r] == first[r]);
                }
            }
        }
    }
    return claims;
}

}  // namespace

TEST_CASE("every memo of equal tick arrays is true after random changes, and snapshots with them are the bytes without them",
          "[snapshot][world]") {
    std::uint64_t claims_seen = 0;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        INFO("seed " << seed);
        test::Rng rng(seed);
        World world;
        const ComponentId pos = world.component<Pos>();
        const ComponentId hp = world.component<Hp>();
        const ComponentId mark = world.component<Mark>();
        const ComponentId heat = world.component<Heat>();
        const ComponentId ids[] = {pos, hp, mark, heat};
        // Frames that write whole tables (the bulk stamp) and rows (per-row ticks) of pos and heat.
        SchedulerOptions options;
        options.workers = seed % 3 == 0 ? 2 : 0;
        Scheduler scheduler(world, options);
        SystemDesc mover;
        mover.name = "Move";
        mover.writes = {pos};
        mover.kernel = [pos](KernelContext& ctx) {
            Pos* p = ctx.chunk.write<Pos>(pos);
            for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) p[r].x += 1.f;
        };
        scheduler.add_system(std::move(mover));
        SystemDesc warmer;
        warmer.name = "Warm";
        warmer.writes = {heat};
        warmer.main_thread_chunks = [heat](World& w, float, std::span<Chunk> chunks) {
            for (Chunk& chunk : chunks) {
                for (std::uint32_t r = 0; r < chunk.size(); r += 3) w.mark_changed(chunk.entities()[r], heat);
            }
        };
        warmer.query.with = {heat};
        warmer.query_set = true;
        scheduler.add_system(std::move(warmer));

        std::vector<Entity> alive;
        std::vector<std::byte> saved;
        for (int step = 0; step < 400; ++step) {
            INFO("step " << step);
            const std::uint32_t op = rng.below(100);
            const Pos p{float(step), 1.f};
            const Hp h{std::uint32_t(step)};
            const Heat t{0.5f};
            if (op < 25 || alive.empty()) {
                std::vector<ComponentValue> values;
                if (rng.chance(80)) values.push_back({pos, &p, sizeof p});
                if (rng.chance(50)) values.push_back({hp, &h, sizeof h});
                if (rng.chance(30)) values.push_back({mark, nullptr, 0});
                if (rng.chance(40)) values.push_back({heat, &t, sizeof t});
                const std::uint32_t count = rng.chance(20) ? 1 + rng.below(20) : 1;
                for (std::uint32_t i = 0; i < count; ++i) alive.push_back(world.spawn_with(values));
            } else if (op < 35) {
                const std::uint32_t i = rng.below(alive.size());
                world.despawn(alive[i]);
                alive.erase(alive.begin() + i);
            } else if (op < 50) {
                const Entity e = rng.pick(alive);
                const ComponentId id = rng.pick(std::vector<ComponentId>(std::begin(ids), std::end(ids)));
                const ComponentValue value = id == pos ? ComponentValue{pos, &p, sizeof p}
                                             : id == hp ? ComponentValue{hp, &h, sizeof h}
                                             : id == heat ? ComponentValue{heat, &t, sizeof t} : ComponentValue{mark, nullptr, 0};
                world.add(e, value);
            } else if (op < 60) {
                world.remove(rng.pick(alive), rng.pick(std::vector<ComponentId>(std::begin(ids), std::end(ids))));
            } else if (op < 68) {
                const Entity e = rng.pick(alive);
                if (world.has(e, hp)) world.set_bytes(e, hp, 0, &h, sizeof h);
            } else if (op < 73) {
                // Removed and added again in one change: the component starts over at this tick.
                const Entity e = rng.pick(alive);
                const ComponentValue again{pos, &p, sizeof p};
                const ComponentId removed[] = {pos};
                world.change_components(e, {&again, 1}, removed);
            } else if (op < 80) {
                std::vector<Entity> some;
                for (Entity e : alive) {
                    if (rng.chance(40)) some.push_back(e);
                }
                if (rng.chance(50)) world.add_many(some, mark);
                else world.remove_many(some, mark);
            } else if (op < 90) {
                scheduler.update(0.016f);
            } else if (op < 96) {
                saved = snapshot(world);
            } else if (!saved.empty()) {
                restore(world, saved);
                alive.clear();
                const TableGraph& graph = world.tables();
                for (TableIndex i = 0; i < graph.table_count(); ++i) {
                    const Table& table = graph.table(i);
                    alive.insert(alive.end(), table.entities(), table.entities() + table.size());
                }
            }
            claims_seen += check_memos(world);
            if (step % 20 == 19) {
                // The memos' snapshot against a full comparison's: a restored copy has none.
                const std::vector<std::byte> with_memos = snapshot(world);
                World copy;
                copy.component<Pos>();
                copy.component<Hp>();
                copy.component<Mark>();
                copy.component<Heat>();
                restore(copy, with_memos);
                REQUIRE(snapshot(copy) == with_memos);
                claims_seen += check_memos(world);
            }
        }
    }
    // The memos were used, not merely never recorded.
    CHECK(claims_seen > 1000);
}
