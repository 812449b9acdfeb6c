// World::add_many / remove_many against the simplest model there is: the same changes made one
// entity at a time on a twin world. Random lists of handles (from any tables, in any order; often
// every row of some tables, which moves them whole when no observer watches) must leave both
// worlds with the same state hash and the same observer events in the same order;
// a list with a dead or repeated handle, an unknown id or a call inside an observer must throw
// and leave the world exactly as it was (all or nothing).

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ecsia/snapshot/snapshot.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "ecsia/world/world_access.hpp"
#include "support/test_components.hpp"

using namespace ecsia;
using test::Enemy;
using test::Position;
using test::Velocity;

namespace {

struct Twin {
    World world{WorldOptions{.max_entities = 400}};
    ComponentId position = world.component<Position>();
    ComponentId velocity = world.component<Velocity>();
    ComponentId enemy = world.component<Enemy>();
    std::vector<std::string> events;

    explicit Twin(bool observed = true) {
        if (!observed) return;
        for (ComponentId id : {position, velocity, enemy}) {
            world.observe(ObserverEvent::OnAdd, id, [this, id](ObserverContext& ctx) {
                events.push_back("add " + std::to_string(id) + " " + std::to_string(ctx.entity.bits));
            });
            world.observe(ObserverEvent::OnRemove, id, [this, id](ObserverContext& ctx) {
                events.push_back("remove " + std::to_string(id) + " " + std::to_string(ctx.entity.bits));
            });
            world.observe(ObserverEvent::OnChange, id, [this, id](ObserverContext& ctx) {
                events.push_back("change " + std::to_string(id) + " " + std::to_string(ctx.entity.bits));
            });
        }
    }
};

}  // namespace

TEST_CASE("add_many and remove_many do what a loop of add and remove does", "[world][bulk]") {
    const std::uint32_t seed = GENERATE(1u, 2u, 3u, 4u, 5u);
    const bool observed = GENERATE(true, false);
    CAPTURE(seed, observed);
    std::mt19937 random(seed);
    Twin bulk(observed);
    Twin loop(observed);
    std::vector<Entity> alive;
    auto pick = [&](std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(random); };

    for (int step = 0; step < 300; ++step) {
        const std::uint32_t what = pick(10);
        if (what < 2 || alive.empty()) {  // spawn into one of several tables
            const std::uint32_t shape = pick(4);
            Entity a;
            Entity b;
            if (shape == 0) { a = bulk.world.spawn(); b = loop.world.spawn(); }
            else if (shape == 1) { a = bulk.world.spawn(Position{1, 2}); b = loop.world.spawn(Position{1, 2}); }
            else if (shape == 2) { a = bulk.world.spawn(Velocity{3, 4}, Enemy{}); b = loop.world.spawn(Velocity{3, 4}, Enemy{}); }
            else { a = bulk.world.spawn(Position{5, 6}, Enemy{}); b = loop.world.spawn(Position{5, 6}, Enemy{}); }
            REQUIRE(a == b);
            alive.push_back(a);
            continue;
        }
        if (what == 2) {  // despawn one, keeping its handle around as a dead one
            const std::uint32_t i = pick(static_cast<std::uint32_t>(alive.size()));
            bulk.world.despawn(alive[i]);
            loop.world.despawn(alive[i]);
            alive.erase(alive.begin() + i);
            continue;
        }
        std::vector<Entity> list;
        if (pick(2) == 0) {
            // A random subset of the alive entities, in random order.
            list = alive;
            std::shuffle(list.begin(), list.end(), random);
            list.resize(pick(static_cast<std::uint32_t>(list.size()) + 1));
        } else {
            // Some tables whole (each a run, in row order or shuffled), sometimes followed by
            // part of another table.
            std::map<TableIndex, std::vector<Entity>> by_table;
            for (const Entity e : alive) by_table[bulk.world.locate(e).table].push_back(e);
            std::vector<std::vector<Entity>> runs;
            for (auto& [table, rows] : by_table) runs.push_back(rows);
            std::shuffle(runs.begin(), runs.end(), random);
            for (std::vector<Entity>& rows : runs) {
                const std::uint32_t how = pick(4);
                if (how == 0) continue;  // left out
                if (how == 1) std::shuffle(rows.begin(), rows.end(), random);
                if (how == 2 && rows.size() > 1) rows.resize(pick(static_cast<std::uint32_t>(rows.size())));  // part of it
                list.insert(list.end(), rows.begin(), rows.end());
            }
        }
        const ComponentId ids[] = {bulk.position, bulk.velocity, bulk.enemy};
        const ComponentId id = ids[pick(3)];
        const bool adding = what < 7;
        std::vector<Position> values(list.size());
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = Position{float(step), float(i)};
        const bool with_values = id != bulk.enemy && pick(2) == 0;
        // Velocity has Position's layout: the same bytes serve both.
        const void* elements = with_values ? static_cast<const void*>(values.data()) : nullptr;

        const std::uint32_t spoil = list.empty() ? 0 : pick(6);
        if (spoil == 1 || spoil == 2) {  // a dead handle or a repeated one somewhere in the list: nothing changes
            const std::uint64_t before = state_hash(bulk.world);
            const std::size_t events = bulk.events.size();
            const std::uint64_t version = bulk.world.structure_version();
            const Entity bad = spoil == 1 ? Entity{alive.back().bits ^ 0x80000000u} : list[pick(static_cast<std::uint32_t>(list.size()))];
            list.insert(list.begin() + pick(static_cast<std::uint32_t>(list.size()) + 1), bad);
            const ErrorCode expected = spoil == 1 ? ErrorCode::StaleEntity : ErrorCode::BadValue;
            try {
                if (adding) bulk.world.add_many(list, id, nullptr);
                else bulk.world.remove_many(list, id);
                FAIL("a spoilt list was accepted");
            } catch (const Error& error) {
                CHECK(error.code() == expected);
                CHECK(std::string(error.what()).find("nothing was changed") != std::string::npos);
            }
            CHECK(state_hash(bulk.world) == before);
            CHECK(bulk.events.size() == events);
            CHECK(bulk.world.structure_version() == version);
            continue;
        }
        if (adding) {
            bulk.world.add_many(list, id, elements);
            for (std::size_t i = 0; i < list.size(); ++i) {
                const ComponentValue value{id, elements == nullptr ? nullptr : &values[i],
                                           elements == nullptr ? 0u : std::uint32_t(sizeof(Position))};
                loop.world.add(list[i], value);
            }
        } else {
            bulk.world.remove_many(list, id);
            for (const Entity e : list) loop.world.remove(e, id);
        }
        bulk.world.flush();
        loop.world.flush();
        REQUIRE(state_hash(bulk.world) == state_hash(loop.world));
        // The snapshot also carries what the hash leaves out: every row's added and changed ticks.
        REQUIRE(snapshot(bulk.world) == snapshot(loop.world));
        REQUIRE(bulk.events == loop.events);
        for (const Entity e : list) REQUIRE(bulk.world.has(e, id) == adding);
        // Rows moved at different ticks, so that their ticks differ from row to row.
        if (pick(3) == 0) {
            detail::WorldAccess::advance_tick(bulk.world);
            detail::WorldAccess::advance_tick(loop.world);
        }
        if (adding && with_values && id == bulk.position) {
            for (std::size_t i = 0; i < list.size(); ++i) {
                CHECK(bulk.world.get<Position>(list[i]).x == values[i].x);
                CHECK(bulk.world.get<Position>(list[i]).y == values[i].y);
            }
        }
    }
}

TEST_CASE("add_many and remove_many refuse what the per-entity calls refuse, changing nothing", "[world][bulk]") {
    Twin w;
    World& world = w.world;
    const Entity a = world.spawn(Position{1, 2});
    const Entity b = world.spawn(Velocity{3, 4});
    const std::vector<Entity> list{a, b};
    const std::uint64_t before = state_hash(world);

    SECTION("an unknown component id") {
        CHECK_THROWS_MATCHES(world.add_many(list, 999), Error,
                             Catch::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::UnknownComponent; }));
        CHECK_THROWS_MATCHES(world.remove_many(list, 999), Error,
                             Catch::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::UnknownComponent; }));
    }
    SECTION("the position of the bad handle is named") {
        world.despawn(b);
        const std::uint64_t now = state_hash(world);
        CHECK_THROWS_WITH(world.add_many(list, w.enemy), Catch::Contains("entities[1]") && Catch::Contains("not alive"));
        CHECK(state_hash(world) == now);
        return;
    }
    SECTION("inside an observer") {
        const Entity c = world.spawn();
        bool threw = false;
        world.observe(ObserverEvent::OnAdd, w.enemy, [&](ObserverContext&) {
            try {
                world.add_many(list, w.velocity);
            } catch (const Error& e) {
                threw = e.code() == ErrorCode::WrongPhase;
            }
        });
        world.add(c, ComponentValue{w.enemy});
        CHECK(threw);
        CHECK_FALSE(world.has(a, w.velocity));
        return;
    }
    CHECK(state_hash(world) == before);
}

TEST_CASE("add_many of no entities and remove_many of a component nobody has change nothing", "[world][bulk]") {
    Twin w;
    const Entity a = w.world.spawn(Position{1, 2});
    w.events.clear();
    const std::uint64_t before = state_hash(w.world);
    w.world.add_many({}, w.enemy);
    w.world.remove_many(std::vector<Entity>{a}, w.enemy);
    CHECK(state_hash(w.world) == before);
    CHECK(w.events.empty());
}

TEST_CASE("spawn_many and despawn_many do what a loop of spawn_with and despawn does", "[world][bulk]") {
    const std::uint32_t seed = GENERATE(1u, 2u, 3u);
    CAPTURE(seed);
    std::mt19937 random(seed);
    auto pick = [&](std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(random); };
    Twin bulk;
    Twin loop;
    // Despawning a target takes its subjects with it: a list may name one of them after it.
    const RelationOptions deletes{false, OnDeleteTarget::Delete, false};
    const RelationId owns = bulk.world.define_relation("Owns", {}, deletes);
    REQUIRE(loop.world.define_relation("Owns", {}, deletes) == owns);
    std::vector<Entity> alive;
    for (int step = 0; step < 200; ++step) {
        if (pick(3) != 0 || alive.empty()) {
            const auto count = pick(12);
            std::vector<Position> positions(count);
            for (std::uint32_t i = 0; i < count; ++i) positions[i] = Position{float(step), float(i)};
            const Velocity velocity{float(step), -1};
            std::vector<ComponentRows> rows;
            if (pick(2) == 0) rows.push_back({bulk.position, positions.data(), sizeof(Position), sizeof(Position)});
            if (pick(2) == 0) rows.push_back({bulk.velocity, &velocity, sizeof(Velocity), 0});  // the same for all
            if (pick(2) == 0) rows.push_back({bulk.enemy, nullptr, 0, 0});
            if (pick(2) == 0) std::reverse(rows.begin(), rows.end());
            const std::vector<Entity> made = bulk.world.spawn_many(count, rows);
            for (std::uint32_t i = 0; i < count; ++i) {
                std::vector<ComponentValue> values;
                for (const ComponentRows& r : rows) {
                    values.push_back({r.id, r.bytes == nullptr ? nullptr : static_cast<const std::byte*>(r.bytes) + i * r.stride, r.size});
                }
                REQUIRE(loop.world.spawn_with(values) == made[i]);
            }
            for (const Entity e : made) {
                if (!alive.empty() && pick(4) == 0) {
                    const Entity owner = alive[pick(static_cast<std::uint32_t>(alive.size()))];
                    bulk.world.add_pair(e, owns, owner);
                    loop.world.add_pair(e, owns, owner);
                }
                alive.push_back(e);
            }
        } else {
            std::vector<Entity> list = alive;
            std::shuffle(list.begin(), list.end(), random);
            list.resize(pick(static_cast<std::uint32_t>(list.size()) + 1));
            if (!list.empty() && pick(5) == 0) {  // a repeated handle: nothing changes
                const std::uint64_t before = state_hash(bulk.world);
                list.push_back(list[pick(static_cast<std::uint32_t>(list.size()))]);
                CHECK_THROWS_WITH(bulk.world.despawn_many(list), Catch::Contains("appears twice; nothing was despawned"));
                CHECK(state_hash(bulk.world) == before);
                continue;
            }
            bulk.world.despawn_many(list);
            for (const Entity e : list) {
                if (loop.world.is_alive(e)) loop.world.despawn(e);
            }
            std::erase_if(alive, [&](Entity e) { return !bulk.world.is_alive(e); });
        }
        bulk.world.flush();
        loop.world.flush();
        REQUIRE(state_hash(bulk.world) == state_hash(loop.world));
        REQUIRE(snapshot(bulk.world) == snapshot(loop.world));
        REQUIRE(bulk.events == loop.events);
        if (pick(3) == 0) {
            detail::WorldAccess::advance_tick(bulk.world);
            detail::WorldAccess::advance_tick(loop.world);
        }
    }
}

TEST_CASE("spawn_many and despawn_many refuse what the per-entity calls refuse, changing nothing", "[world][bulk]") {
    Twin w{false};
    World& world = w.world;
    const Entity a = world.spawn(Position{1, 2});
    const Entity gone = world.spawn();
    world.despawn(gone);
    const std::uint64_t before = state_hash(world);
    const Position positions[2] = {{1, 1}, {2, 2}};
    const ComponentRows narrow[] = {{w.position, positions, sizeof(Position), 4}};
    CHECK_THROWS_WITH(world.spawn_many(2, narrow), Catch::Contains("stride 4, less than their size 8"));
    const ComponentRows twice[] = {{w.enemy, nullptr, 0, 0}, {w.enemy, nullptr, 0, 0}};
    CHECK_THROWS_WITH(world.spawn_many(2, twice), Catch::Contains("given twice"));
    const ComponentRows unknown[] = {{ComponentId{999}, nullptr, 0, 0}};
    CHECK_THROWS_AS(world.spawn_many(2, unknown), Error);
    CHECK_THROWS_WITH(world.spawn_many(400, {}), Catch::Contains("spawn_many of 400 entities does not fit"));
    const Entity dead_second[] = {a, gone};
    CHECK_THROWS_WITH(world.despawn_many(dead_second), Catch::Contains("entities[1]") && Catch::Contains("not alive"));
    CHECK(state_hash(world) == before);
    CHECK(world.is_alive(a));
}
