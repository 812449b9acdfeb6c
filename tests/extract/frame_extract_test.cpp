// FrameExtract: the copy equals the world at capture time (a property test against a model of the
// selected entities), the held buffer never changes while later frames are captured, and bad specs
// are refused. The scheduler cases capture after real frames at 0, 1 and 2 workers.
#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "builtin/builtin_systems.hpp"
#include "ecsia/extract/frame_extract.hpp"
#include "support/rng.hpp"
#include "support/scheduler_testing.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;
using test::Enemy;
using test::Health;
using test::Position;
using test::Velocity;

namespace {

// Entity bits -> the bytes of each extracted component, as the world holds them now (the model).
using ExtractModel = std::map<std::uint32_t, std::vector<std::vector<std::byte>>>;

ExtractModel model_of(const World& world, const std::vector<Entity>& candidates, const std::vector<ComponentId>& components,
                      const QueryDesc& query) {
    ExtractModel model;
    for (Entity e : candidates) {
        if (!world.is_alive(e)) continue;
        const auto has = [&](ComponentId id) { return world.tables().table(world.locate(e).table).has(id); };
        if (!std::all_of(components.begin(), components.end(), has)) continue;
        if (!std::all_of(query.with.begin(), query.with.end(), has)) continue;
        if (std::any_of(query.without.begin(), query.without.end(), has)) continue;
        std::vector<std::vector<std::byte>> values;
        for (ComponentId id : components) {
            const std::uint32_t size = world.components().desc(id).size;
            const std::byte* bytes = world.get_bytes(e, id);
            values.emplace_back(bytes, bytes + size);
        }
        model.emplace(e.bits, std::move(values));
    }
    return model;
}

ExtractModel model_of(const ExtractBuffer& buffer, const World& world, const std::vector<ComponentId>& components) {
    ExtractModel out;
    for (std::uint32_t i = 0; i < buffer.count(); ++i) {
        std::vector<std::vector<std::byte>> values;
        for (std::size_t c = 0; c < components.size(); ++c) {
            const std::uint32_t size = world.components().desc(components[c]).size;
            const std::byte* bytes = buffer.column(c) + std::size_t(i) * size;
            values.emplace_back(bytes, bytes + size);
        }
        const bool fresh = out.emplace(buffer.entities()[i].bits, std::move(values)).second;
        REQUIRE(fresh);  // no row twice
    }
    return out;
}

// The first column of a buffer, as bytes: what a reader holding it sees.
std::vector<std::byte> first_column(const ExtractBuffer& buffer, std::uint32_t element_size) {
    return {buffer.column(0), buffer.column(0) + std::size_t(buffer.count()) * element_size};
}

World& with_movers(World& world, std::uint32_t movers) {
    builtin::spawn_movers(world, movers, 3);
    return world;
}

// Movers under a serial scheduler running "Move", with an extract of their positions.
struct ExtractedMovers {
    World world;
    Scheduler scheduler;
    ComponentId position;
    ExtractId extract;
    explicit ExtractedMovers(std::uint32_t movers)
        : scheduler(with_movers(world, movers), test::with_workers(0, 64)),
          position(world.component_id("position")) {
        scheduler.add_system(builtin::make_builtin_system(world, "Move"));
        extract = scheduler.add_extract({position});
    }
};

}  // namespace

TEST_CASE("an extract copies exactly the selected rows' components as the world holds them", "[extract]") {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
        CAPTURE(seed);
        test::Rng rng(seed);
        World world;
        const ComponentId position = world.component<Position>();
        const ComponentId velocity = world.component<Velocity>();
        const ComponentId health = world.component<Health>();
        const ComponentId enemy = world.component<Enemy>();
        const std::vector<ComponentId> all{position, velocity, health};
        // The spec: one or two of the data components, sometimes a with or a without term.
        std::vector<ComponentId> components{rng.pick(all)};
        if (rng.chance(50) && components[0] != health) components.push_back(health);
        QueryDesc query;
        if (rng.chance(40)) query.without.push_back(enemy);
        else if (rng.chance(40)) query.with.push_back(enemy);
        FrameExtract extract(world, components, query);

        std::vector<Entity> spawned;
        for (int round = 0; round < 4; ++round) {
            const std::uint32_t ops = 50 + rng.below(400);
            for (std::uint32_t op = 0; op < ops; ++op) {
                const std::uint32_t kind = spawned.empty() ? 0 : rng.below(5);
                const float v = static_cast<float>(rng.below(100000)) * 0.25f;
                if (kind <= 1) {
                    const Entity e = world.spawn(Position{v, -v});
                    if (rng.chance(60)) world.add(e, Velocity{v + 1, v + 2});
                    if (rng.chance(40)) world.add(e, Health{static_cast<std::int32_t>(op), rng.chance(50), v * 0.5});
                    if (rng.chance(30)) world.add(e, Enemy{});
                    spawned.push_back(e);
                    continue;
                }
                const Entity e = rng.pick(spawned);
                if (!world.is_alive(e)) continue;
                if (kind == 2) world.despawn(e);
                else if (kind == 3) world.set(e, Position{v, v});
                else if (world.has<Enemy>(e)) world.remove<Enemy>(e);
                else world.add(e, Enemy{});
            }
            extract.capture(world, static_cast<std::uint64_t>(round));
            REQUIRE(extract.captured());
            const ExtractBuffer& buffer = extract.acquire();
            CHECK(buffer.frame() == static_cast<std::uint64_t>(round));
            QueryDesc selected = query;
            selected.with.insert(selected.with.end(), components.begin(), components.end());
            CHECK(buffer.count() == world.count(selected));
            CHECK(model_of(buffer, world, components) == model_of(world, spawned, components, query));
        }
    }
}

TEST_CASE("the buffer a reader holds is never written by later captures", "[extract]") {
    World world;
    const ComponentId position = world.component<Position>();
    std::vector<Entity> entities;
    for (int i = 0; i < 100; ++i) entities.push_back(world.spawn(Position{float(i), 0}));
    FrameExtract extract(world, {position}, {});
    extract.capture(world, 1);
    const ExtractBuffer& held = extract.acquire();
    const ExtractModel at_one = model_of(held, world, {position});
    const std::byte* held_column = held.column(0);

    // Frames 2 and 3 change every value and the row count; the held frame-1 copy stays as it was.
    for (std::uint64_t frame = 2; frame <= 3; ++frame) {
        for (Entity e : entities) world.set(e, Position{float(frame) * 1000, float(frame)});
        entities.push_back(world.spawn(Position{-1, -1}));
        extract.capture(world, frame);
        CHECK(held.frame() == 1);
        CHECK(held.count() == 100);
        CHECK(held.column(0) == held_column);
        CHECK(model_of(held, world, {position}) == at_one);
    }
    // The next acquire gets the newest capture (frame 3), never the one it held.
    const ExtractBuffer& newest = extract.acquire();
    CHECK(&newest != &held);
    CHECK(newest.frame() == 3);
    CHECK(model_of(newest, world, {position}) == model_of(world, entities, {position}, {}));
    // Holding frame 3 now, frame 4 goes into the buffer frame 1 was in.
    world.set(entities[0], Position{7, 7});
    extract.capture(world, 4);
    CHECK(newest.frame() == 3);
    CHECK(extract.acquire().frame() == 4);
}

TEST_CASE("an extract of an empty selection has no rows, and picks tables up as they appear", "[extract]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId velocity = world.component<Velocity>();
    FrameExtract extract(world, {velocity}, {});
    extract.capture(world, 0);
    CHECK(extract.acquire().count() == 0);
    const Entity a = world.spawn(Position{1, 2}, Velocity{3, 4});
    world.spawn(Position{5, 6});
    extract.capture(world, 1);
    const ExtractBuffer& buffer = extract.acquire();
    REQUIRE(buffer.count() == 1);
    CHECK(buffer.entities()[0] == a);
    Velocity v;
    std::memcpy(&v, buffer.column(0), sizeof v);
    CHECK(v.dx == 3);
    CHECK(v.dy == 4);
    (void)position;
}

TEST_CASE("bad extract specs are refused, naming the problem", "[extract]") {
    World world;
    const ComponentId position = world.component<Position>();
    const ComponentId enemy = world.component<Enemy>();
    const auto refused = [&](std::vector<ComponentId> components, QueryDesc query, const char* text) {
        try {
            FrameExtract extract(world, std::move(components), std::move(query));
            FAIL("accepted");
        } catch (const Error& error) {
            CHECK(error.code() == ErrorCode::BadValue);
            CHECK_THAT(error.what(), Catch::Contains(text));
        }
    };
    refused({}, {}, "at least one component");
    refused({enemy}, {}, "'enemy' is a tag");
    refused({position, position}, {}, "'position' is listed twice in components");
    refused({position}, test::query_terms({}, {position}), "'position' is in without and also in components");
    refused({position}, test::query_terms({enemy}, {enemy}), "'enemy' is in without and also in with");
    refused({position}, test::query_terms({enemy, enemy}, {}), "'enemy' is listed twice in with");
    refused({position}, test::query_terms({}, {enemy, enemy}), "'enemy' is listed twice in without");
    QueryDesc changed;
    changed.changed.push_back(position);
    refused({position}, changed, "with/without terms only");
    CHECK_THROWS_AS(FrameExtract(world, {ComponentId{999}}, {}), Error);
}

TEST_CASE("a scheduler captures its extracts after each frame, the same bytes serial and on the pool",
          "[extract][schedule][threads]") {
    std::vector<std::vector<std::byte>> first_run;
    const std::vector<std::pair<std::uint32_t, std::optional<WavePlacement>>> settings = {
        {0, std::nullopt}, {1, WavePlacement::Pool}, {2, WavePlacement::Pool}, {2, WavePlacement::Shared}, {2, std::nullopt}};
    for (const auto& [workers, placement] : settings) {
        CAPTURE(workers);
        World world;
        builtin::spawn_movers(world, 3000, 5);
        Scheduler scheduler(world, test::with_workers(workers, 256));
        scheduler.add_system(builtin::make_builtin_system(world, "Move"));
        scheduler.add_system(builtin::make_builtin_system(world, "Bounce"));
        if (placement) detail::SchedulerTesting::force_placement(scheduler, placement);
        const ComponentId position = world.component_id("position");
        const ExtractId extract = scheduler.add_extract({position});
        const std::vector<Entity> everyone = world.query(test::query_terms({position})).entities();
        CHECK(scheduler.acquire_extract(extract).frame() == 0);  // the state when it was added
        std::vector<std::vector<std::byte>> run;
        for (int frame = 0; frame < 5; ++frame) {
            scheduler.update(1.0f / 60);
            const ExtractBuffer& buffer = scheduler.acquire_extract(extract);
            CHECK(buffer.frame() == scheduler.frames());
            CHECK(model_of(buffer, world, {position}) == model_of(world, everyone, {position}, {}));
            run.push_back(first_column(buffer, world.components().desc(position).size));
        }
        // Same rows in the same order with the same bytes whatever the executor (G1).
        if (workers == 0) first_run = run;
        else CHECK(run == first_run);
    }
}

TEST_CASE("a scheduler's extract held by its reader stays as it was while later frames run", "[extract][schedule]") {
    ExtractedMovers movers(500);
    movers.scheduler.update(1.0f / 60);
    const ExtractBuffer& held = movers.scheduler.acquire_extract(movers.extract);
    REQUIRE(held.frame() == 1);
    const std::vector<std::byte> bytes = first_column(held, sizeof(builtin::Position));
    for (int frame = 0; frame < 3; ++frame) movers.scheduler.update(1.0f / 60);
    CHECK(held.frame() == 1);
    CHECK(first_column(held, sizeof(builtin::Position)) == bytes);
    CHECK(movers.scheduler.acquire_extract(movers.extract).frame() == 4);
}

TEST_CASE("only whole frames are extracted, and extracts are refused mid-frame and once removed", "[extract][schedule]") {
    ExtractedMovers movers(100);
    Scheduler& scheduler = movers.scheduler;
    const ComponentId position = movers.position;
    const ExtractId extract = movers.extract;
    bool dispose = false;
    bool added_mid_frame = false;
    SystemDesc late;
    late.name = "Late";
    late.after = {"Move"};
    late.main_thread = [&](World&, float) {
        try {
            scheduler.add_extract({position});
            added_mid_frame = true;
        } catch (const Error& error) {
            CHECK(error.code() == ErrorCode::WrongPhase);
        }
        if (dispose) scheduler.dispose();
    };
    scheduler.add_system(late);
    scheduler.update(1.0f / 60);
    CHECK_FALSE(added_mid_frame);
    CHECK(scheduler.acquire_extract(extract).frame() == 1);
    // A frame that a dispose from inside cuts short is not captured.
    dispose = true;
    scheduler.update(1.0f / 60);
    CHECK(scheduler.acquire_extract(extract).frame() == 1);

    World other;
    Scheduler fresh(other);
    const ExtractId id = fresh.add_extract({other.component<test::Position>()});
    fresh.remove_extract(id);
    CHECK_THROWS_AS(fresh.acquire_extract(id), Error);
    CHECK_THROWS_AS(fresh.remove_extract(id), Error);
    CHECK_THROWS_AS(fresh.acquire_extract(id + 1), Error);
}
