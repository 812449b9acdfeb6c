// Lookups (SystemDesc::lookups, KernelContext::lookup / target_of): a kernel reads any live
// entity's value of a declared component: a unit's target's position, a child's parent's. The
// values are those the earlier waves left (the plan puts writers of a looked-up component in
// other waves), so every worker count gives the same state hash; a dead, stale or pending handle
// gives nullptr, never another entity's data (G4); undeclared lookups fail the batch; bad
// declarations are refused at add_system.

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "ecsia/schedule/scheduler.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "ecsia/world/world.hpp"
#include "support/rng.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

namespace {

struct Units {
    World world{WorldOptions{1u << 14, 22}};
    ComponentId pos = world.component<test::Position>();
    ComponentId vel = world.component<test::Velocity>();
    ComponentId target = world.component<test::Target>();
    std::vector<Entity> units;
    std::vector<std::string> diagnostics;

    Units() { world.diagnostics().set_sink([this](const std::string& m) { diagnostics.push_back(m); }); }

    // `count` units at integer positions, each targeting a random other one (some none).
    void build(test::Rng& rng, std::uint32_t count) {
        for (std::uint32_t i = 0; i < count; ++i) {
            units.push_back(world.spawn(test::Position{float(rng.below(100)), float(rng.below(100))}, test::Velocity{0, 0},
                                        test::Target{kNullEntity}));
        }
        for (Entity e : units) {
            if (!rng.chance(10)) world.set(e, test::Target{rng.pick(units)});
        }
    }
};

// Velocity = the target's position - own position (0 without a live target).
SystemDesc aim(const Units& u) {
    SystemDesc system;
    system.name = "Aim";
    system.reads = {u.pos, u.target};
    system.writes = {u.vel};
    system.lookups = {u.pos};
    const ComponentId pos = u.pos, vel = u.vel, target = u.target;
    system.kernel = [pos, vel, target](KernelContext& ctx) {
        const test::Position* p = ctx.chunk.read<test::Position>(pos);
        const test::Target* t = ctx.chunk.read<test::Target>(target);
        test::Velocity* v = ctx.chunk.write<test::Velocity>(vel);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
            const test::Position* there = ctx.lookup<test::Position>(pos, t[i].who);
            v[i] = there == nullptr ? test::Velocity{0, 0} : test::Velocity{there->x - p[i].x, there->y - p[i].y};
        }
    };
    return system;
}

// Position += velocity / 4 (a writer of the looked-up component: another wave than Aim).
SystemDesc step(const Units& u) {
    SystemDesc system;
    system.name = "Step";
    system.reads = {u.vel};
    system.writes = {u.pos};
    system.after = {"Aim"};
    const ComponentId pos = u.pos, vel = u.vel;
    system.kernel = [pos, vel](KernelContext& ctx) {
        test::Position* p = ctx.chunk.write<test::Position>(pos);
        const test::Velocity* v = ctx.chunk.read<test::Velocity>(vel);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) p[i] = test::Position{p[i].x + v[i].dx / 4, p[i].y + v[i].dy / 4};
    };
    return system;
}

std::vector<std::uint64_t> run(std::uint32_t workers, std::uint64_t seed, bool check) {
    Units u;
    test::Rng rng(seed);
    u.build(rng, 500);
    SchedulerOptions options;
    options.workers = workers;
    options.batch_rows = 32;
    Scheduler scheduler(u.world, options);
    scheduler.add_system(aim(u));
    scheduler.add_system(step(u));
    std::vector<std::uint64_t> hashes;
    for (int frame = 0; frame < 20; ++frame) {
        // What Aim will see: the positions as the frame starts (Step runs in a later wave).
        std::vector<test::Velocity> expected;
        for (Entity e : u.units) {
            if (!u.world.is_alive(e)) continue;
            const Entity who = u.world.get<test::Target>(e).who;
            const test::Position& p = u.world.get<test::Position>(e);
            expected.push_back(u.world.is_alive(who) ? test::Velocity{u.world.get<test::Position>(who).x - p.x,
                                                                      u.world.get<test::Position>(who).y - p.y}
                                                     : test::Velocity{0, 0});
        }
        scheduler.update(0.016f);
        if (check) {
            std::size_t k = 0;
            for (Entity e : u.units) {
                if (!u.world.is_alive(e)) continue;
                const test::Velocity got = u.world.get<test::Velocity>(e);
                REQUIRE(got.dx == expected[k].dx);
                REQUIRE(got.dy == expected[k].dy);
                ++k;
            }
        }
        hashes.push_back(state_hash(u.world));
        // Between frames: some targets die (their handles go stale; the slots are reused by new
        // units, whose handles have another generation).
        for (int i = 0; i < 5; ++i) {
            const Entity victim = rng.pick(u.units);
            if (u.world.is_alive(victim)) u.world.despawn(victim);
            u.units.push_back(u.world.spawn(test::Position{float(rng.below(100)), 0.0f}, test::Velocity{0, 0},
                                            test::Target{rng.pick(u.units)}));
        }
    }
    REQUIRE(u.diagnostics.empty());
    return hashes;
}

}  // namespace

TEST_CASE("a kernel looks up other entities' values as the earlier waves left them; dead and stale handles give nullptr",
          "[schedule][lookup]") {
    for (std::uint64_t seed : {1ull, 2ull}) {
        INFO("seed " << seed);
        run(0, seed, true);
    }
}

TEST_CASE("lookups give the same state hash frame by frame for the serial executor and 1, 2 and 4 workers",
          "[schedule][lookup][threads]") {
    const std::vector<std::uint64_t> serial = run(0, 7, false);
    for (std::uint32_t workers : {1u, 2u, 4u}) {
        INFO(workers << " worker(s)");
        CHECK(run(workers, 7, false) == serial);
    }
}

TEST_CASE("the plan puts a writer of a looked-up component in another wave, and says why", "[schedule][lookup]") {
    Units u;
    Scheduler scheduler(u.world, SchedulerOptions{});
    SystemDesc chase;  // reads no position of its own rows: the lookup is the only conflict
    chase.name = "Chase";
    chase.reads = {u.target};
    chase.writes = {u.vel};
    chase.lookups = {u.pos};
    chase.kernel = [](KernelContext&) {};
    SystemDesc teleport;
    teleport.name = "Teleport";
    teleport.writes = {u.pos};
    teleport.kernel = [](KernelContext&) {};
    scheduler.add_system(chase);
    scheduler.add_system(teleport);
    const Plan& plan = scheduler.plan();
    CHECK(plan.wave_of[0] != plan.wave_of[1]);
    CHECK_THAT(scheduler.explain_plan(), Catch::Contains("'Teleport' writes 'position', which 'Chase' looks up"));
}

TEST_CASE("target_of in a kernel gives a child's parent, whose value a lookup reads", "[schedule][lookup]") {
    Units u;
    const Entity parent = u.world.spawn(test::Position{10, 20}, test::Velocity{0, 0}, test::Target{kNullEntity});
    const Entity child = u.world.spawn(test::Position{1, 1}, test::Velocity{0, 0}, test::Target{kNullEntity});
    const Entity orphan = u.world.spawn(test::Position{5, 5}, test::Velocity{0, 0}, test::Target{kNullEntity});
    u.world.add_pair(child, World::kChildOf, parent);
    const RelationId likes = u.world.define_relation("Likes");
    Scheduler scheduler(u.world, SchedulerOptions{});
    SystemDesc follow;
    follow.name = "Follow";
    follow.reads = {u.pos};
    follow.writes = {u.vel};
    follow.lookups = {u.pos};
    std::string refused;
    const ComponentId pos = u.pos, vel = u.vel;
    follow.kernel = [pos, vel, likes, &refused](KernelContext& ctx) {
        test::Velocity* v = ctx.chunk.write<test::Velocity>(vel);
        for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
            const test::Position* up = ctx.lookup<test::Position>(pos, ctx.target_of(ctx.chunk.entities()[i], World::kChildOf));
            v[i] = up == nullptr ? test::Velocity{-1, -1} : test::Velocity{up->x, up->y};
        }
        refused = test::thrown_message([&] { (void)ctx.target_of(ctx.chunk.entities()[0], likes); });
    };
    scheduler.add_system(follow);
    scheduler.update(0.016f);
    CHECK(u.world.get<test::Velocity>(child).dx == 10);
    CHECK(u.world.get<test::Velocity>(child).dy == 20);
    CHECK(u.world.get<test::Velocity>(parent).dx == -1);
    CHECK(u.world.get<test::Velocity>(orphan).dx == -1);
    CHECK_THAT(refused, Catch::Contains("'Likes' is not exclusive"));
}

TEST_CASE("bad lookups are refused when the system is added", "[schedule][lookup]") {
    Units u;
    const ComponentId tag = u.world.component<test::Enemy>();
    Scheduler scheduler(u.world, SchedulerOptions{});
    auto with_lookups = [&](std::vector<ComponentId> lookups, bool main_thread = false) {
        SystemDesc s = aim(u);
        s.lookups = std::move(lookups);
        if (main_thread) {
            s.kernel = nullptr;
            s.main_thread = [](World&, float) {};
        }
        return s;
    };
    CHECK_THAT(test::thrown_message([&] { scheduler.add_system(with_lookups({u.vel})); }),
               Catch::Contains("lookups 'velocity', which it also writes"));
    CHECK_THAT(test::thrown_message([&] { scheduler.add_system(with_lookups({tag})); }), Catch::Contains("which has no fields"));
    CHECK_THAT(test::thrown_message([&] { scheduler.add_system(with_lookups({World::kChildOf})); }),
               Catch::Contains("which is a relation"));
    CHECK_THAT(test::thrown_message([&] { scheduler.add_system(with_lookups({u.pos, u.pos})); }),
               Catch::Contains("twice in lookups"));
    CHECK_THAT(test::thrown_message([&] { scheduler.add_system(with_lookups({u.pos}, true)); }),
               Catch::Contains("declares lookups but has no kernel"));
    CHECK_THAT(test::thrown_message([&] { scheduler.add_system(with_lookups({ComponentId{999}})); }),
               Catch::Contains("999"));
    CHECK(scheduler.plan().waves.empty());
}

TEST_CASE("a lookup in a later wave of the frame finds targets that an earlier wave's merge moved to new tables",
          "[schedule][lookup]") {
    // The looked-up columns by table are refreshed before each wave, not each frame: the merge of
    // Hop's wave moves every unit into a table made there and spawns enough to move the columns,
    // and Aim, the next wave, must read the positions where they now are.
    for (const bool reader : {false, true}) {
        for (const std::uint32_t workers : {0u, 2u}) {
            Units u;
            test::Rng rng(5);
            u.build(rng, 300);
            std::vector<ComponentId> hops;
            for (int k = 0; k < 4; ++k) hops.push_back(u.world.define_component("hop" + std::to_string(k), {}));
            SchedulerOptions options;
            options.workers = workers;
            options.batch_rows = 32;
            Scheduler scheduler(u.world, options);
            const ComponentId pos = u.pos, vel = u.vel, target = u.target;
            SystemDesc hop;
            hop.name = "Hop";
            hop.reads = {u.target};
            std::uint32_t frame = 0;
            hop.kernel = [&frame, hops, pos](KernelContext& ctx) {
                const ComponentId tag = hops[frame % hops.size()];
                for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
                    const ComponentValue value{tag};
                    ctx.commands.add(ctx.chunk.entities()[i], &value, 1);
                    const test::Position p{float(i), 0.0f};
                    const ComponentValue born{pos, &p, sizeof p};
                    for (int k = 0; k < 4; ++k) ctx.spawn(&born, 1);
                }
            };
            SystemDesc look;
            look.name = "Aim";
            look.reads = {u.pos, u.target};
            look.writes = {u.vel};
            look.lookups = {u.pos};
            look.after = {"Hop"};
            look.kernel = [pos, vel, target, reader](KernelContext& ctx) {
                const test::Position* p = ctx.chunk.read<test::Position>(pos);
                const test::Target* t = ctx.chunk.read<test::Target>(target);
                test::Velocity* v = ctx.chunk.write<test::Velocity>(vel);
                Lookup<test::Position> positions = ctx.lookup_of<test::Position>(pos);
                for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
                    const test::Position* there = reader ? positions.get(t[i].who) : ctx.lookup<test::Position>(pos, t[i].who);
                    v[i] = there == nullptr ? test::Velocity{0, 0} : test::Velocity{there->x - p[i].x, there->y - p[i].y};
                }
            };
            scheduler.add_system(std::move(hop));
            scheduler.add_system(std::move(look));
            REQUIRE(scheduler.plan().waves.size() == 2);
            for (frame = 0; frame < 4; ++frame) {
                const std::uint32_t tables_before = u.world.tables().table_count();
                scheduler.update(0.016f);
                REQUIRE(u.world.tables().table_count() > tables_before);
                for (Entity e : u.units) {
                    const Entity who = u.world.get<test::Target>(e).who;
                    const test::Position& p = u.world.get<test::Position>(e);
                    const test::Velocity want = u.world.is_alive(who)
                                                    ? test::Velocity{u.world.get<test::Position>(who).x - p.x,
                                                                     u.world.get<test::Position>(who).y - p.y}
                                                    : test::Velocity{0, 0};
                    const test::Velocity got = u.world.get<test::Velocity>(e);
                    REQUIRE(got.dx == want.dx);
                    REQUIRE(got.dy == want.dy);
                }
            }
            // Hop's spawns outnumber its batches' reservations (they get handles at the merge):
            // that is the only note.
            for (const std::string& m : u.diagnostics) REQUIRE(m.find("exceeded their batch's reservation") != std::string::npos);
        }
    }
}

TEST_CASE("lookups of targets in many tables, dead, stale, pending, null or out of range give exactly the world's answer",
          "[schedule][lookup]") {
    // A kernel's lookups find a target's column by its table (LookupMemo, LookupColumns): targets
    // spread over tables (one lacking the component), in random order, and every kind of bad
    // handle, against what the world says of each target before the frame; between frames
    // targets die, move between tables and are born into reused slots. The kernel also looks up
    // the handles it spawns (reserved, not yet alive: often in a slot whose dead occupant's
    // location is still there). With one generation bit (31 index bits) every despawn retires its slot, whose last
    // handle then still matches the slot's generation: only the slot's state refuses it. A slot's
    // location holds its table in the bits above the row's, or an escape to a second array for a
    // table too large for them: with 22 index bits every table here fits, with 30 the first three
    // do, with 31 only the first. Each run looks up through ctx.lookup or through a Lookup<T>
    // reader (its own copy of the memo).
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        for (const unsigned index_bits : {22u, 30u, 31u}) {
        for (const std::uint32_t workers : {0u, 2u}) {
        for (const bool reader : {false, true}) {
            INFO("seed " << seed << ", index bits " << index_bits << ", workers " << workers << ", reader " << reader);
            test::Rng rng(seed);
            World world{WorldOptions{1u << 12, index_bits}};
            const ComponentId pos = world.component<test::Position>();
            const ComponentId vel = world.component<test::Velocity>();
            const ComponentId target = world.component<test::Target>();
            std::vector<Entity> targets;
            auto spawn_target = [&] {
                const float x = float(rng.below(1000));
                const float y = float(rng.below(1000));
                switch (rng.below(5)) {
                    case 0: return world.spawn(test::Position{x, y});
                    case 1: return world.spawn(test::Position{x, y}, test::Enemy{});
                    case 2: return world.spawn(test::Position{x, y}, test::Health{1, true, 0});
                    case 3: return world.spawn(test::Frozen{}, test::Position{x, y}, test::Counter{1, 1});
                    default: return world.spawn(test::Health{1, true, 0});  // no position: nullptr
                }
            };
            for (int i = 0; i < 300; ++i) targets.push_back(spawn_target());
            const HandleLayout layout = world.entities().layout();
            auto pick_handle = [&] {
                switch (rng.below(10)) {
                    case 0: return kNullEntity;
                    case 1: return layout.pending(rng.below(8));
                    case 2: return layout.make(layout.max_slots() - 1 - rng.below(8), 0);  // beyond every slot
                    default: return rng.pick(targets);  // alive, or dead once despawned below
                }
            };
            std::vector<Entity> lookers;
            for (int i = 0; i < 400; ++i) lookers.push_back(world.spawn(test::Target{pick_handle()}, test::Velocity{0, 0}));

            SchedulerOptions options;
            options.workers = workers;
            options.batch_rows = 16;
            Scheduler scheduler(world, options);
            SystemDesc look;
            look.name = "Look";
            look.reads = {target};
            look.writes = {vel};
            look.lookups = {pos};
            look.spawns_per_batch = 2;
            std::atomic<std::uint32_t> spawned_found{0};  // lookups of this wave's own spawns that answered
            look.kernel = [pos, vel, target, reader, &spawned_found](KernelContext& ctx) {
                const test::Target* t = ctx.chunk.read<test::Target>(target);
                test::Velocity* v = ctx.chunk.write<test::Velocity>(vel);
                Lookup<test::Position> positions = ctx.lookup_of<test::Position>(pos);
                auto find = [&](Entity e) { return reader ? positions.get(e) : ctx.lookup<test::Position>(pos, e); };
                for (std::uint32_t i = 0; i < ctx.chunk.size(); ++i) {
                    const test::Position* p = find(t[i].who);
                    v[i] = p == nullptr ? test::Velocity{-1, -1} : test::Velocity{p->x, p->y};
                    if (i % 8 == 7) {
                        // A handle from the batch's reservation (or pending): not alive until the merge.
                        const test::Position at{1, 1};
                        const ComponentValue value{pos, &at, sizeof at};
                        const Entity fresh = ctx.spawn(&value, 1);
                        // relaxed: a count read after update() returns, which joins the workers.
                        if (find(fresh) != nullptr) spawned_found.fetch_add(1, std::memory_order_relaxed);
                    }
                }
            };
            scheduler.add_system(look);
            std::uint32_t wrong = 0;
            for (int frame = 0; frame < 8; ++frame) {
                std::vector<test::Velocity> expected;
                for (Entity e : lookers) {
                    const Entity who = world.get<test::Target>(e).who;
                    const bool found = world.is_alive(who) && world.has(who, pos);
                    expected.push_back(found ? test::Velocity{world.get<test::Position>(who).x, world.get<test::Position>(who).y}
                                             : test::Velocity{-1, -1});
                }
                scheduler.update(0.016f);
                for (std::size_t i = 0; i < lookers.size(); ++i) {
                    const test::Velocity got = world.get<test::Velocity>(lookers[i]);
                    if (got.dx != expected[i].dx || got.dy != expected[i].dy) ++wrong;
                }
                // Between frames: deaths (stale handles; their slots reused by the births),
                // moves between tables, new values, new targets.
                for (int k = 0; k < 30; ++k) {
                    const Entity t = rng.pick(targets);
                    if (!world.is_alive(t)) continue;
                    switch (rng.below(4)) {
                        case 0: world.despawn(t); break;
                        case 1:
                            if (world.has(t, world.component<test::Enemy>())) {
                                world.remove<test::Enemy>(t);
                            } else {
                                world.add(t, test::Enemy{});
                            }
                            break;
                        case 2:
                            if (world.has(t, pos)) world.set(t, test::Position{float(rng.below(1000)), 1});
                            break;
                        default:
                            if (world.has(t, pos)) world.remove<test::Position>(t);
                            break;
                    }
                }
                for (int k = 0; k < 20; ++k) targets.push_back(spawn_target());
                for (int k = 0; k < 40; ++k) world.set(rng.pick(lookers), test::Target{pick_handle()});
            }
            CHECK(wrong == 0);
            CHECK(spawned_found.load() == 0);
        }
        }
        }
    }
}

TEST_CASE("an undeclared lookup, or a reader of another size, fails its batch naming the component; the next frame runs",
          "[schedule][lookup]") {
    struct Wide {
        float x, y, z;
    };
    const char* const expected[] = {"lookup of 'position': the system does not declare it in its lookups",
                                    "lookup_of of 'position': the system does not declare it in its lookups",
                                    "lookup_of of 'position': its values are 8 bytes, the type asked for is 12"};
    for (const int bad : {0, 1, 2}) {
        Units u;
        const Entity a = u.world.spawn(test::Position{1, 2}, test::Velocity{0, 0}, test::Target{kNullEntity});
        Scheduler scheduler(u.world, SchedulerOptions{});
        SystemDesc s;
        s.name = "Sneaky";
        s.reads = {u.pos};
        s.writes = {u.vel};
        if (bad == 2) s.lookups = {u.pos};
        const ComponentId pos = u.pos;
        std::atomic<int> runs{0};
        s.kernel = [pos, bad, &runs](KernelContext& ctx) {
            runs.fetch_add(1, std::memory_order_relaxed);  // relaxed: read after update() joins the workers
            if (bad == 0) (void)ctx.lookup<test::Position>(pos, ctx.chunk.entities()[0]);
            if (bad == 1) (void)ctx.lookup_of<test::Position>(pos);
            if (bad == 2) (void)ctx.lookup_of<Wide>(pos);
        };
        scheduler.add_system(s);
        scheduler.update(0.016f);
        scheduler.update(0.016f);
        CHECK(runs.load() == 2);  // the next frame ran
        REQUIRE_FALSE(u.diagnostics.empty());
        CHECK_THAT(u.diagnostics[0], Catch::Contains(expected[bad]));
        CHECK(u.world.is_alive(a));
    }
}

namespace {
struct UnwiredHit {
    std::uint32_t damage;
};
}  // namespace

ECSIA_TOPIC(UnwiredHit, "hit", damage)

// A context made without the scheduler's wiring (a main-thread system calling a kernel on its own
// chunks) has no lookups, topics or world: each call that needs them refuses, naming what it was
// asked, and note() keeps nothing.
TEST_CASE("a kernel context made without the scheduler's wiring refuses lookups, topics and target_of", "[schedule][lookup]") {
    test::Rng rng(5);
    Units u;
    u.build(rng, 40);
    const TopicId hit = u.world.topic<UnwiredHit>();
    int chunks = 0;
    QueryDesc positions;
    positions.with = {u.pos};
    u.world.query(positions).for_each_chunk([&](Chunk& chunk) {
        CommandBuffer commands;
        EntityReservation reservation;
        KernelContext ctx{chunk, 0.0f, commands, reservation, u.world.entities().layout(), 0, 0};
        const Entity someone = chunk.entities()[0];
        CHECK_THROWS_MATCHES(ctx.lookup<test::Position>(u.pos, someone), Error,
                             Catch::Matchers::Predicate<Error>([](const Error& e) {
                                 return e.code() == ErrorCode::BadValue &&
                                        std::string(e.what()).find("does not declare it in its lookups") != std::string::npos;
                             }));
        CHECK_THROWS_AS(ctx.lookup_of<test::Position>(u.pos), Error);
        CHECK_THROWS_MATCHES(ctx.target_of(someone, World::kChildOf), Error,
                             Catch::Matchers::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::BadValue; }));
        CHECK_THROWS_MATCHES(ctx.publish(hit, UnwiredHit{1}), Error,
                             Catch::Matchers::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::UnknownTopic; }));
        CHECK_THROWS_MATCHES(ctx.messages(hit), Error,
                             Catch::Matchers::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::UnknownTopic; }));
        ctx.note("kept nowhere");
        CHECK(commands.empty());
        ++chunks;
    });
    CHECK(chunks > 0);
}
