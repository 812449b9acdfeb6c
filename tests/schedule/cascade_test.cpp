// Cascade systems (SystemDesc::cascade, parent_reads): rows run level after level in depth order,
// each row seeing its parent's value of this frame. World position = parent's world position +
// local position, checked exactly against a recursive model after every frame, with the forest
// built so that children come before their parents in their table (a level run before its
// parent level would read last frame's or zero values), re-parented, cut (subtree despawn) and
// grown between frames and by kernels; and the same state hash after every frame for the serial
// executor and 1, 2 and 4 workers.

#include <catch2/catch.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ecsia/schedule/scheduler.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "ecsia/world/world.hpp"
#include "support/captured_diagnostics.hpp"
#include "support/rng.hpp"
#include "support/world_checks.hpp"

namespace cascade_test {
struct Local {
    float x;
    float y;
};
struct WorldPos {
    float x;
    float y;
};
}  // namespace cascade_test

ECSIA_COMPONENT(cascade_test::Local, "cascade_local", x, y)
ECSIA_COMPONENT(cascade_test::WorldPos, "cascade_world", x, y)
namespace cascade_test {
struct Marked {};
}  // namespace cascade_test
ECSIA_TAG(cascade_test::Marked, "cascade_marked")

using namespace ecsia;
using cascade_test::Local;
using cascade_test::Marked;
using cascade_test::WorldPos;

namespace {

struct Forest {
    World world{WorldOptions{1u << 16, 22}};
    ComponentId local = world.component<Local>();
    ComponentId pos = world.component<WorldPos>();
    std::vector<Entity> nodes;
    std::size_t diagnostics = 0;

    Forest() { world.diagnostics().set_sink([this](const std::string&) { ++diagnostics; }); }

    std::uint32_t depth(Entity e) const {
        std::uint32_t d = 0;
        for (Entity p = world.target_of(e, World::kChildOf); !p.is_null(); p = world.target_of(p, World::kChildOf)) ++d;
        return d;
    }
    // The model: the sum of local positions up the chain, added root first as the levels do. A
    // node without a local position (an anchor: not one of the system's rows) keeps its own.
    WorldPos expected(Entity e) const {
        if (!world.has<Local>(e)) return world.get<WorldPos>(e);
        const Local& l = world.get<Local>(e);
        const Entity parent = world.target_of(e, World::kChildOf);
        if (parent.is_null()) return WorldPos{l.x, l.y};
        const WorldPos up = expected(parent);
        return WorldPos{up.x + l.x, up.y + l.y};
    }
    // `count` nodes; node i's parent (if any) has a LARGER index, so it was spawned later and sits
    // after its children in the table: row order is the reverse of depth order.
    void build(test::Rng& rng, std::uint32_t count) {
        for (std::uint32_t i = 0; i < count; ++i) {
            nodes.push_back(world.spawn(Local{float(rng.below(100)), float(rng.below(100))}, WorldPos{-1, -1}));
        }
        for (std::uint32_t i = 0; i + 1 < count; ++i) {
            if (rng.chance(15)) continue;  // a root
            const std::uint32_t parent = i + 1 + rng.below(std::min<std::uint32_t>(count - i - 1, 6));
            if (depth(nodes[parent]) < 7) world.add_pair(nodes[i], World::kChildOf, nodes[parent]);
        }
    }
    std::vector<Entity> alive() const {
        std::vector<Entity> out;
        for (Entity e : nodes) {
            if (world.is_alive(e)) out.push_back(e);
        }
        return out;
    }
    // Between frames: re-parent, cut a subtree, grow children, move some locals.
    // `count` random nodes get a random parent, or (one in `orphans` percent) none.
    void reparent(test::Rng& rng, const std::vector<Entity>& live, int count, std::uint32_t orphans) {
        for (int i = 0; i < count && live.size() > 2; ++i) {
            const Entity child = rng.pick(live);
            const Entity parent = rng.pick(live);
            try {
                if (rng.chance(orphans)) {
                    world.remove_pair(child, World::kChildOf, kAnyTarget);
                } else if (depth(parent) < 7) {
                    world.add_pair(child, World::kChildOf, parent);  // a cycle is refused: fine
                }
            } catch (const Error&) {
            }
        }
    }
    void churn(test::Rng& rng) {
        std::vector<Entity> live = alive();
        reparent(rng, live, 6, 20);
        if (live.size() > 20) world.despawn(rng.pick(live));  // its subtree goes with it (ChildOf deletes)
        live = alive();
        for (int i = 0; i < 4 && !live.empty(); ++i) {
            const Entity parent = rng.pick(live);
            const Entity child = world.spawn(Local{float(rng.below(10)), 1.0f}, WorldPos{-1, -1});
            nodes.push_back(child);
            if (depth(parent) < 7) world.add_pair(child, World::kChildOf, parent);
        }
        for (int i = 0; i < 4 && !live.empty(); ++i) world.set(rng.pick(live), Local{float(rng.below(50)), 2.0f});
    }

    // Anchors: parents outside the system's rows (a world position, no local one), in a table
    // they share with fillers; `per_anchor` nodes hang under each.
    std::vector<Entity> anchors, fillers;
    void anchor(test::Rng& rng, std::uint32_t count, std::uint32_t per_anchor) {
        for (std::uint32_t a = 0; a < count; ++a) {
            fillers.push_back(world.spawn(WorldPos{0, 0}));
            anchors.push_back(world.spawn(WorldPos{float(a * 100), -float(a)}));
            for (std::uint32_t k = 0; k < per_anchor; ++k) {
                const Entity child = rng.pick(nodes);
                if (world.is_alive(child) && depth(child) == 0) world.add_pair(child, World::kChildOf, anchors.back());
            }
        }
    }
    // Between frames, structural changes that change no pair: nodes gain or lose a tag (they move
    // between the system's two tables), fillers come and go beside the anchors, anchors move
    // between two tables (their rows move under their children), and entities of a third table
    // appear. What the cascade found (the
    // depth order, the parents' addresses) must follow; no pair changes to make it recompute.
    // `rows`: the system's own rows move too (else only the anchors' and other tables change).
    void quiet_churn(test::Rng& rng, bool rows) {
        const std::vector<Entity> live = alive();
        for (int i = 0; rows && i < 5 && !live.empty(); ++i) {
            const Entity e = rng.pick(live);
            if (world.has<Marked>(e)) {
                world.remove<Marked>(e);
            } else {
                world.add<Marked>(e);
            }
        }
        for (int i = 0; i < 2 && fillers.size() > 1; ++i) {
            const std::size_t at = rng.below(static_cast<std::uint32_t>(fillers.size()));
            world.despawn(fillers[at]);
            fillers.erase(fillers.begin() + static_cast<std::ptrdiff_t>(at));
        }
        fillers.push_back(world.spawn(WorldPos{7, 7}));
        if (!anchors.empty()) {  // an anchor moves to the other anchors' table and back
            const Entity a = anchors[rng.below(static_cast<std::uint32_t>(anchors.size()))];
            if (world.has<Marked>(a)) {
                world.remove<Marked>(a);
            } else {
                world.add<Marked>(a);
            }
        }
        if (rng.chance(50)) {
            world.spawn(Local{1, 1});  // no world position: not a row of the system
        }
    }
};

// `in_place`: the kernel reads the parents through ParentView::column (no copy) instead of read().
SystemDesc propagate(const Forest& forest, bool in_place = false) {
    SystemDesc system;
    system.name = "Propagate";
    system.reads = {forest.local};
    system.writes = {forest.pos};
    system.cascade = World::kChildOf;
    system.parent_reads = {forest.pos};
    const ComponentId local = forest.local, pos = forest.pos;
    system.kernel = [local, pos, in_place](KernelContext& ctx) {
        const Local* l = ctx.chunk.read<Local>(local);
        WorldPos* w = ctx.chunk.write<WorldPos>(pos);
        const std::uint32_t n = ctx.chunk.size();
        if (const ParentView* parent = ctx.chunk.parent()) {
            if (in_place) {
                const ParentColumn<WorldPos> up = parent->column<WorldPos>(pos);
                for (std::uint32_t i = 0; i < n; ++i) w[i] = WorldPos{up[i].x + l[i].x, up[i].y + l[i].y};
                return;
            }
            const WorldPos* up = parent->read<WorldPos>(pos);
            for (std::uint32_t i = 0; i < n; ++i) w[i] = WorldPos{up[i].x + l[i].x, up[i].y + l[i].y};
        } else {
            for (std::uint32_t i = 0; i < n; ++i) w[i] = WorldPos{l[i].x, l[i].y};
        }
    };
    return system;
}

// The same propagation as a main-thread system: called once per level, with that level's chunks.
SystemDesc propagate_on_main_thread(const Forest& forest) {
    SystemDesc system = propagate(forest);
    const Kernel kernel = system.kernel;
    system.kernel = nullptr;
    system.query.with = {forest.local, forest.pos};
    system.query_set = true;
    system.main_thread_chunks = [kernel](World&, float dt, std::span<Chunk> chunks) {
        CommandBuffer commands;
        EntityReservation reservation;
        const HandleLayout layout{};
        for (Chunk& chunk : chunks) {
            KernelContext ctx{chunk, dt, commands, reservation, layout, 0, 0};
            kernel(ctx);
        }
    };
    return system;
}

// A kernel that re-parents and grows the forest from inside the frame (commands, a pending
// handle as a target), in a later wave than the propagation.
SystemDesc gardener(const Forest& forest) {
    SystemDesc system;
    system.name = "Gardener";
    system.reads = {forest.local};
    system.after = {"Propagate"};
    system.spawns_per_batch = 1;
    const ComponentId local = forest.local, pos = forest.pos;
    system.kernel = [local, pos](KernelContext& ctx) {
        const Entity* rows = ctx.chunk.entities();
        const std::uint32_t n = ctx.chunk.size();
        if (ctx.frame % 3 == 1 && n > 1) {
            ctx.commands.remove_pair(rows[n - 1], World::kChildOf, kAnyTarget);  // a new root
        }
        if (ctx.frame % 4 == 2) {
            const Local values[2] = {Local{3, 4}, Local{5, 6}};
            const WorldPos zero{0, 0};
            const ComponentValue first[] = {ComponentValue{local, &values[0]}, ComponentValue{pos, &zero}};
            const ComponentValue second[] = {ComponentValue{local, &values[1]}, ComponentValue{pos, &zero}};
            const Entity a = ctx.spawn(first, 2);   // reserved
            const Entity b = ctx.spawn(second, 2);  // pending: a target later in this batch
            ctx.commands.add_pair(a, World::kChildOf, rows[0]);
            ctx.commands.add_pair(b, World::kChildOf, a);
        }
    };
    return system;
}

// A cascade chunk holds rows of its depth only, with a parent view exactly below depth 0.
void check_level(const Forest& forest, const Chunk& chunk, std::vector<std::string>& problems) {
    if ((chunk.depth() == 0) != (chunk.parent() == nullptr)) problems.push_back("parent view at the wrong depth");
    for (std::uint32_t i = 0; i < chunk.size(); ++i) {
        if (forest.depth(chunk.entities()[i]) != chunk.depth()) problems.push_back("a row of another level");
    }
}

void check_model(const Forest& forest) {
    for (Entity e : forest.alive()) {
        const WorldPos got = forest.world.get<WorldPos>(e);
        const WorldPos want = forest.expected(e);
        if (got.x != want.x || got.y != want.y) {
            FAIL("entity " << e.bits << " at depth " << forest.depth(e) << ": world (" << got.x << ", " << got.y
                           << "), model (" << want.x << ", " << want.y << ")");
        }
    }
}

std::vector<std::uint64_t> run(std::uint32_t workers, std::uint64_t seed, bool with_gardener, bool check,
                               bool main_thread = false) {
    Forest forest;
    test::Rng rng(seed);
    forest.build(rng, 600);
    SchedulerOptions options;
    options.workers = workers;
    options.batch_rows = 16;  // several batches per level
    Scheduler scheduler(forest.world, options);
    scheduler.add_system(main_thread ? propagate_on_main_thread(forest) : propagate(forest));
    if (with_gardener) scheduler.add_system(gardener(forest));
    std::vector<std::uint64_t> hashes;
    for (int frame = 0; frame < 30; ++frame) {
        scheduler.update(0.016f);
        if (check && !with_gardener) check_model(forest);
        hashes.push_back(state_hash(forest.world));
        forest.churn(rng);
    }
    return hashes;
}

}  // namespace

TEST_CASE("a cascade system propagates parent before child in one frame, as a recursive model says", "[schedule][cascade]") {
    for (std::uint64_t seed : {1ull, 2ull, 3ull}) {
        INFO("seed " << seed);
        run(0, seed, false, true);
    }
}

TEST_CASE("structural changes that change no pair keep the cascade right: rows moved between its tables, parents' rows moved",
          "[schedule][cascade][threads]") {
    // Every other frame changes only rows, never a pair: the cascade keeps its depths and
    // re-finds only what moved. The kernel reads parents in place (column) on odd seeds and as a
    // copy (read) on even ones; the model is checked after every frame, serial and on 2 workers.
    for (std::uint64_t seed : {31ull, 32ull}) {
        for (std::uint32_t workers : {0u, 2u}) {
            INFO("seed " << seed << ", workers " << workers);
            Forest forest;
            test::Rng rng(seed);
            forest.build(rng, 500);
            forest.anchor(rng, 6, 10);
            Scheduler scheduler(forest.world, SchedulerOptions{.workers = workers, .batch_rows = 16});
            scheduler.add_system(propagate(forest, seed % 2 == 1));
            for (int frame = 0; frame < 40; ++frame) {
                scheduler.update(0.016f);
                check_model(forest);
                if (frame % 2 == 0) {
                    forest.quiet_churn(rng, frame % 4 == 0);
                } else if (frame % 6 == 5) {
                    forest.churn(rng);
                }
            }
            CHECK(forest.diagnostics == 0);
        }
    }
}

TEST_CASE("a cascade catches up with a few changed pairs, and with more than the relation keeps a list of", "[schedule][cascade]") {
    // A few re-parentings between frames forget only their subtrees' depths; a burst of 1,500
    // changes outgrows the relation's change list (1,024 for this forest) and recomputes all.
    Forest forest;
    test::Rng rng(41);
    forest.build(rng, 600);
    Scheduler scheduler(forest.world, SchedulerOptions{.workers = 0, .batch_rows = 16});
    scheduler.add_system(propagate(forest, true));
    for (int frame = 0; frame < 12; ++frame) {
        scheduler.update(0.016f);
        check_model(forest);
        forest.reparent(rng, forest.alive(), frame % 4 == 3 ? 1500 : 3, 30);
    }
}

TEST_CASE("a main-thread cascade call that grows the parents' table still reads a later chunk's parents as they were",
          "[schedule][cascade]") {
    // Level 1 has two chunks (children with and without a tag); after the first the call despawns
    // half the parents (rows of their table move) and spawns 1,000 entities into that table (its
    // columns move). The second chunk's parents, in place and as a copy, are still the values the
    // levels above left.
    World world;
    const ComponentId local = world.component<Local>(), pos = world.component<WorldPos>();
    std::vector<Entity> parents;
    for (int i = 0; i < 16; ++i) parents.push_back(world.spawn(Local{float(i), 0}, WorldPos{}));
    for (int i = 0; i < 16; ++i) {
        const Entity child = i < 8 ? world.spawn(Local{0, 1}, WorldPos{}) : world.spawn(Local{0, 1}, WorldPos{}, Marked{});
        world.add_pair(child, World::kChildOf, parents[std::size_t(i)]);
    }
    SystemDesc system;
    system.name = "Place";
    system.reads = {local};
    system.writes = {pos};
    system.cascade = World::kChildOf;
    system.parent_reads = {pos};
    system.query.with = {local, pos};
    system.query_set = true;
    std::vector<std::string> problems;
    int checked = 0;
    system.main_thread_chunks = [&](World& w, float, std::span<Chunk> chunks) {
        for (std::size_t c = 0; c < chunks.size(); ++c) {
            Chunk& chunk = chunks[c];
            const ParentView* parent = chunk.parent();
            if (parent == nullptr) {  // the roots: their own position
                WorldPos* out = chunk.write<WorldPos>(pos);
                const Local* own = chunk.read<Local>(local);
                for (std::uint32_t i = 0; i < chunk.size(); ++i) out[i] = WorldPos{own[i].x, own[i].y};
                continue;
            }
            const ParentColumn<WorldPos> in_place = parent->column<WorldPos>(pos);
            const WorldPos* copy = parent->read<WorldPos>(pos);
            for (std::uint32_t i = 0; i < chunk.size(); ++i, ++checked) {
                const float want = w.get<Local>(w.target_of(chunk.entities()[i], World::kChildOf)).x;
                if (in_place[i].x != want || copy[i].x != want) problems.push_back("chunk " + std::to_string(c) + " row " + std::to_string(i));
            }
            if (c == 0) {  // after its last use of chunk 0: the parents' rows move, then their columns
                for (std::size_t k = 0; k < 8; ++k) w.despawn(parents[k]);
                for (int i = 0; i < 1000; ++i) w.spawn(Local{}, WorldPos{});
            }
        }
    };
    Scheduler scheduler(world, SchedulerOptions{.workers = 0});
    scheduler.add_system(system);
    scheduler.update(0.016f);
    CHECK(problems.empty());
    CHECK(checked == 16);
    CHECK(world.alive_count() == 8 + 8 + 1000);
}

TEST_CASE("a parent view reads the same values in place and as a copy, and nothing for a component it was not given",
          "[schedule][cascade]") {
    Forest forest;
    test::Rng rng(8);
    forest.build(rng, 200);
    Scheduler scheduler(forest.world, SchedulerOptions{.workers = 0, .batch_rows = 16});
    SystemDesc system = propagate(forest);
    const Kernel inner = system.kernel;
    const ComponentId pos = forest.pos, local = forest.local;
    std::vector<std::string> problems;
    std::uint32_t compared = 0;
    system.kernel = [&](KernelContext& ctx) {
        if (const ParentView* parent = ctx.chunk.parent()) {
            const ParentColumn<WorldPos> in_place = parent->column<WorldPos>(pos);
            const WorldPos* copy = parent->read<WorldPos>(pos);
            if (!in_place || copy == nullptr) problems.push_back("a parent read is missing");
            for (std::uint32_t i = 0; in_place && copy != nullptr && i < ctx.chunk.size(); ++i, ++compared) {
                if (in_place[i].x != copy[i].x || in_place[i].y != copy[i].y) problems.push_back("the copy differs");
            }
            if (parent->column<Local>(local) || parent->read<Local>(local) != nullptr) problems.push_back("an undeclared parent read");
        }
        inner(ctx);
    };
    scheduler.add_system(system);
    scheduler.update(0.016f);
    scheduler.update(0.016f);
    CHECK(problems.empty());
    CHECK(compared > 100);
    check_model(forest);
}

TEST_CASE("a cascade system's chunks hold one depth level each, with a parent view above level 0", "[schedule][cascade]") {
    Forest forest;
    test::Rng rng(9);
    forest.build(rng, 300);
    Scheduler scheduler(forest.world, SchedulerOptions{.workers = 0, .batch_rows = 16});
    SystemDesc system = propagate(forest);
    const Kernel inner = system.kernel;
    std::vector<std::string> problems;
    std::vector<std::uint32_t> order;  // depth of each chunk, in the order they ran
    system.kernel = [&](KernelContext& ctx) {
        order.push_back(ctx.chunk.depth());
        check_level(forest, ctx.chunk, problems);
        inner(ctx);
    };
    scheduler.add_system(system);
    scheduler.update(0.016f);
    CHECK(problems.empty());
    CHECK(std::is_sorted(order.begin(), order.end()));
    CHECK(order.back() >= 3);
    check_model(forest);
}

TEST_CASE("cascade systems hash the same after every frame for the serial executor and 1, 2 and 4 workers",
          "[schedule][cascade][threads][determinism]") {
    for (std::uint64_t seed : {4ull, 5ull}) {
        const std::vector<std::uint64_t> serial = run(0, seed, true, false);
        for (std::uint32_t workers : {1u, 2u, 4u}) {
            INFO("seed " << seed << ", workers " << workers);
            CHECK(run(workers, seed, true, false) == serial);
        }
    }
}

TEST_CASE("threaded cascade propagation matches the model every frame", "[schedule][cascade][threads]") {
    run(2, 11, false, true);
    run(4, 12, false, true);
}

TEST_CASE("a main-thread system with a cascade propagates as the kernel does, and hashes the same at any worker count",
          "[schedule][cascade][threads]") {
    run(0, 21, false, true, true);  // the model after every frame
    const std::vector<std::uint64_t> kernel = run(0, 22, true, false);
    CHECK(run(0, 22, true, false, true) == kernel);
    CHECK(run(2, 22, true, false, true) == kernel);
}

TEST_CASE("a main-thread cascade system is called once per level with that level's chunks; without rows once, without chunks",
          "[schedule][cascade]") {
    Forest forest;
    test::Rng rng(13);
    forest.build(rng, 300);
    Scheduler scheduler(forest.world, SchedulerOptions{.workers = 0, .batch_rows = 16});
    SystemDesc system = propagate_on_main_thread(forest);
    const MainThreadChunksFn inner = system.main_thread_chunks;
    std::vector<std::string> problems;
    std::vector<std::uint32_t> calls;  // each call's level (its chunks' depth; none: ~0u)
    system.main_thread_chunks = [&](World& world, float dt, std::span<Chunk> chunks) {
        calls.push_back(chunks.empty() ? ~0u : chunks[0].depth());
        for (const Chunk& chunk : chunks) {
            if (chunk.depth() != calls.back()) problems.push_back("chunks of two levels in one call");
            check_level(forest, chunk, problems);
        }
        inner(world, dt, chunks);
    };
    scheduler.add_system(system);
    scheduler.update(0.016f);
    CHECK(problems.empty());
    REQUIRE(calls.size() >= 4);
    for (std::uint32_t level = 0; level < calls.size(); ++level) CHECK(calls[level] == level);
    check_model(forest);

    for (Entity e : forest.alive()) forest.world.despawn(e);
    calls.clear();
    scheduler.update(0.016f);
    CHECK(calls == std::vector<std::uint32_t>{~0u});
}

TEST_CASE("a main-thread cascade system's own structural changes are placed by the levels still to come", "[schedule][cascade]") {
    Forest forest;
    test::Rng rng(17);
    forest.build(rng, 200);
    Scheduler scheduler(forest.world);
    SystemDesc system = propagate_on_main_thread(forest);
    const MainThreadChunksFn inner = system.main_thread_chunks;
    const ComponentId pos = forest.pos;
    system.main_thread_chunks = [&, pos](World& world, float dt, std::span<Chunk> chunks) {
        inner(world, dt, chunks);  // first, as the rule for direct structural changes asks
        if (chunks.empty() || chunks[0].depth() != 0) return;
        // At level 0: despawn a root (its subtree goes) and give another root a new child, which
        // level 1 must then place under its parent's position of this frame.
        const Entity gone = chunks[0].entities()[0];
        const Entity root = chunks.back().entities()[chunks.back().size() - 1];
        const Entity child = world.spawn(Local{7, 8}, WorldPos{-1, -1});
        world.add_pair(child, World::kChildOf, root);
        forest.nodes.push_back(child);
        world.despawn(gone);
        (void)pos;
    };
    scheduler.add_system(system);
    for (int frame = 0; frame < 5; ++frame) {
        scheduler.update(0.016f);
        check_model(forest);
        forest.churn(rng);
    }
    CHECK(forest.diagnostics == 0);
}

TEST_CASE("the planner treats parent reads as reads; a cascade's own writes of them are no conflict", "[schedule][cascade]") {
    Forest forest;
    Scheduler scheduler(forest.world);
    scheduler.add_system(propagate(forest));
    SystemDesc writer;
    writer.name = "Teleport";
    writer.writes = {forest.pos};
    writer.query = QueryDesc{};
    writer.query.with = {forest.local};
    writer.query_set = true;
    writer.kernel = [](KernelContext&) {};
    scheduler.add_system(writer);
    const Plan& plan = scheduler.plan();
    CHECK(plan.wave_of[0] == 0);
    CHECK(plan.wave_of[1] == 1);
    CHECK(scheduler.explain_plan().find("both write") != std::string::npos);
    // Reading parents' positions alone conflicts with a writer of them too.
    SystemDesc reader = propagate(forest);
    reader.name = "Follow";
    reader.writes = {};
    reader.reads = {forest.local};
    CHECK(conflict_between(reader, writer, forest.world.components()).find("reads of parents") != std::string::npos);
}

TEST_CASE("cascade declarations are checked when the system is added", "[schedule][cascade][g5]") {
    Forest forest;
    Scheduler scheduler(forest.world);
    const RelationId likes = forest.world.define_relation("Likes");
    SystemDesc shared = propagate(forest);
    shared.cascade = likes;  // not exclusive
    CHECK(test::thrown_code([&] { scheduler.add_system(shared); }) == std::string("BadDefinition"));
    SystemDesc stray = propagate(forest);
    stray.cascade = kNoComponent;
    CHECK(test::thrown_code([&] { scheduler.add_system(stray); }) == std::string("BadDefinition"));
    SystemDesc component = propagate(forest);
    component.cascade = forest.pos;  // a component, not a relation
    CHECK(test::thrown_code([&] { scheduler.add_system(component); }) == std::string("BadValue"));
    SystemDesc main = propagate(forest);
    main.kernel = nullptr;
    main.main_thread = [](World&, float) {};
    CHECK(test::thrown_code([&] { scheduler.add_system(main); }) == std::string("BadDefinition"));
    SystemDesc relation_read = propagate(forest);
    relation_read.parent_reads = {forest.world.define_relation("Weighs", {{"kg", FieldType::F32}})};  // pair data, not a value
    CHECK(test::thrown_message([&] { scheduler.add_system(relation_read); }) ==
          "BadValue: system '" + relation_read.name + "' reads parents' 'Weighs', which is a relation, not a component: parents' values are components'");
    CHECK(scheduler.systems().empty());
}

TEST_CASE("a cycle in a cascade's relation fails that system alone, named, and it runs again once the cycle is gone",
          "[schedule][cascade]") {
    Forest forest;
    test::CapturedDiagnostics said(forest.world);
    RelationOptions options;
    options.exclusive = true;  // not acyclic: the world accepts the cycle, the cascade cannot order it
    const RelationId follows = forest.world.define_relation("Follows", {}, options);
    const Entity a = forest.world.spawn(Local{1, 2}, WorldPos{-1, -1});
    const Entity b = forest.world.spawn(Local{10, 20}, WorldPos{-1, -1});
    const Entity c = forest.world.spawn(Local{100, 200}, WorldPos{-1, -1});
    forest.world.add_pair(a, follows, b);
    forest.world.add_pair(b, follows, a);
    forest.world.add_pair(c, follows, a);
    Scheduler scheduler(forest.world);
    // As a kernel system and as a main-thread one. It consumes a topic: the messages of the
    // frames it did not run wait for the run that comes.
    const bool main_thread = GENERATE(false, true);
    CAPTURE(main_thread);
    SystemDesc system = main_thread ? propagate_on_main_thread(forest) : propagate(forest);
    system.cascade = follows;
    struct Ping {
        std::uint32_t n;
    };
    const TopicId ping = forest.world.define_topic("ping", {{"n", FieldType::U32}});
    system.consumes = {ping};
    auto seen = std::make_shared<std::vector<std::uint32_t>>();
    if (main_thread) {
        const auto run_levels = system.main_thread_chunks;
        system.main_thread_chunks = [run_levels, ping, seen](World& world, float dt, std::span<Chunk> chunks) {
            run_levels(world, dt, chunks);
            if (chunks.empty() || chunks.front().depth() != 0) return;  // once a frame: its first level
            for (const Ping m : world.messages(ping).as<Ping>()) seen->push_back(m.n);
        };
    } else {
        const Kernel propagate_kernel = system.kernel;
        system.kernel = [propagate_kernel, ping, seen](KernelContext& ctx) {
            propagate_kernel(ctx);
            if (ctx.chunk.depth() != 0) return;  // once a frame: the roots' level is one batch here
            for (const Ping m : ctx.messages(ping).as<Ping>()) seen->push_back(m.n);
        };
    }
    scheduler.add_system(system);
    // Another system of the same wave and one after it: the frame goes on without the cascade.
    int beside = 0, after = 0;
    SystemDesc other;
    other.name = "Beside";
    other.main_thread = [&](World&, float) { ++beside; };
    scheduler.add_system(other);
    SystemDesc later;
    later.name = "Later";
    later.after = {system.name};
    later.main_thread = [&](World&, float) { ++after; };
    scheduler.add_system(later);
    for (std::uint32_t frame = 0; frame < 3; ++frame) {
        forest.world.publish(ping, Ping{frame});
        CHECK(test::thrown_code([&] { scheduler.update(1.0f / 60); }) == "no error");
    }
    CHECK(seen->empty());
    CHECK(beside == 3);
    CHECK(after == 3);
    CHECK(forest.world.frames() == 3);
    CHECK(forest.world.get<WorldPos>(c).x == -1);  // the cascade did not run
    // Said once (the world's diagnostics fold the same message repeated in later frames).
    CHECK(said.count("system '" + system.name + "' did not run this frame: BadValue: cascade over 'Follows': its pairs form a cycle") == 1);
    forest.world.remove_pair(b, follows, a);  // b is a root now: b <- a <- c
    scheduler.update(1.0f / 60);
    CHECK(forest.world.get<WorldPos>(b).x == 10);
    CHECK(forest.world.get<WorldPos>(a).x == 11);
    CHECK(forest.world.get<WorldPos>(c).y == 222);
    CHECK(after == 4);
    CHECK(*seen == std::vector<std::uint32_t>{0, 1, 2});  // each once, none lost to the frames it missed
}
