// Runs of Spawn/Add/Remove records on one entity fold into one table move, with the result of
// applying them one by one. Each case runs the same records once in one buffer (folded) and once
// as one buffer per record (never folded), and compares the worlds.

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "support/captured_diagnostics.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "support/world_dump.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Enemy;
using test::Health;
using test::Position;
using test::Target;
using test::Velocity;

namespace {

struct Ids {
    ComponentId position, velocity, health, target, enemy;
};

Ids register_all(World& world) {
    return Ids{world.component<Position>(), world.component<Velocity>(), world.component<Health>(),
               world.component<Target>(), world.component<Enemy>()};
}

// Records into one CommandBuffer per record, so a test can apply them together or one at a time.
using Recorder = std::function<void(const Ids&, const EntityReservation&, std::vector<CommandBuffer>&)>;

struct Outcome {
    std::string entities, ticks;
    std::uint64_t hash;
    ApplyStats stats;
    std::uint32_t tables;
    std::vector<std::string> diagnostics;
};

// `setup` fills the world before the records; both runs see the same world and reservation.
Outcome run(const std::function<void(World&, const Ids&)>& setup, const Recorder& record, bool folded) {
    World world;
    test::CapturedDiagnostics said(world);
    const Ids ids = register_all(world);
    setup(world, ids);
    ecsia::detail::WorldAccess::advance_tick(world);
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 2);
    std::vector<CommandBuffer> records;
    record(ids, reservation, records);
    CommandBuffer joined;
    std::vector<CommandBuffer*> list;
    if (folded) {
        // Re-record into one buffer by decoding: the same bytes, one buffer.
        for (CommandBuffer& one : records) {
            CommandReader reader(one);
            CommandRecord r;
            while (reader.next(r)) {
                std::vector<ComponentValue> values;
                const std::uint32_t* at = r.body;
                switch (r.op) {
                    case CommandOp::Spawn:
                    case CommandOp::Add:
                        for (std::uint32_t i = 0; i < r.count; ++i) {
                            values.emplace_back();
                            at = CommandReader::read_value(at, values.back());
                        }
                        if (r.op == CommandOp::Spawn) joined.spawn(r.entity, values.data(), values.size());
                        else joined.add(r.entity, values.data(), values.size());
                        break;
                    case CommandOp::Instantiate:
                        at = r.body + 1;  // after the prefab handle
                        for (std::uint32_t i = 0; i < r.count; ++i) {
                            values.emplace_back();
                            at = CommandReader::read_value(at, values.back());
                        }
                        joined.instantiate(r.entity, Entity{r.body[0]}, values.data(), values.size());
                        break;
                    case CommandOp::Remove: joined.remove(r.entity, r.body, r.count); break;
                    case CommandOp::Despawn: joined.despawn(r.entity); break;
                    case CommandOp::Set: joined.set(r.entity, r.body[0], r.body[1], r.body + 3, r.body[2]); break;
                    default: FAIL("unexpected record");
                }
            }
        }
        list.push_back(&joined);
    } else {
        for (CommandBuffer& one : records) list.push_back(&one);
    }
    EntityReservation* reservations[] = {&reservation};
    Outcome out;
    out.stats = ecsia::detail::WorldAccess::apply(world, list, reservations);
    out.entities = test::dump_entities(world);
    out.ticks = test::dump_ticks(world);
    out.hash = state_hash(world);
    out.tables = world.tables().table_count();
    out.diagnostics = said.messages;
    return out;
}

void require_same(const Outcome& folded, const Outcome& stepwise) {
    CHECK(folded.entities == stepwise.entities);
    CHECK(folded.ticks == stepwise.ticks);
    CHECK(folded.hash == stepwise.hash);
    CHECK(folded.stats.applied == stepwise.stats.applied);
    CHECK(folded.stats.skipped_dead_target == stepwise.stats.skipped_dead_target);
}

CommandBuffer& next(std::vector<CommandBuffer>& records) { return records.emplace_back(); }

// An add with no bytes: default values (the only form a tag takes).
void add_default(CommandBuffer& buffer, Entity e, ComponentId id) {
    const ComponentValue value{id};
    buffer.add(e, &value, 1);
}

}  // namespace

TEST_CASE("a spawn followed by adds on the same entity moves it once", "[command]") {
    auto nothing = [](World&, const Ids&) {};
    auto record = [](const Ids& c, const EntityReservation& r, std::vector<CommandBuffer>& out) {
        const Position p{1, 2};
        const ComponentValue v{c.position, &p, sizeof p};
        next(out).spawn(r.handles()[0], &v, 1);
        next(out).add(r.handles()[0], c.velocity, Velocity{3, 4});
        next(out).add(r.handles()[0], c.health, Health{5, true, 0.5});
        add_default(next(out), r.handles()[0], c.enemy);
    };
    const Outcome folded = run(nothing, record, true);
    const Outcome stepwise = run(nothing, record, false);
    require_same(folded, stepwise);
    // Folded: the empty table and the final one. One by one: every table on the way.
    CHECK(folded.tables == 2);
    CHECK(stepwise.tables == 5);
}

TEST_CASE("removes followed by adds on one entity fold into one move", "[command]") {
    Entity e;
    auto setup = [&](World& world, const Ids&) { e = world.spawn(Position{1, 2}, Velocity{3, 4}, Health{5, true, 0.5}); };
    auto record = [&](const Ids& c, const EntityReservation&, std::vector<CommandBuffer>& out) {
        next(out).remove(e, c.velocity);
        next(out).remove(e, c.health);
        add_default(next(out), e, c.enemy);
        next(out).add(e, c.target, Target{e});
    };
    const Outcome folded = run(setup, record, true);
    const Outcome stepwise = run(setup, record, false);
    require_same(folded, stepwise);
}

TEST_CASE("a remove after an add of the same component in one flush leaves it removed", "[command]") {
    Entity e;
    auto setup = [&](World& world, const Ids&) { e = world.spawn(Position{1, 2}); };
    auto record = [&](const Ids& c, const EntityReservation&, std::vector<CommandBuffer>& out) {
        next(out).add(e, c.velocity, Velocity{3, 4});
        next(out).remove(e, c.velocity);
        next(out).add(e, c.health, Health{1, false, 2});
        next(out).remove(e, c.position);
    };
    const Outcome folded = run(setup, record, true);
    const Outcome stepwise = run(setup, record, false);
    require_same(folded, stepwise);
    CHECK(folded.entities.find("velocity") == std::string::npos);
    CHECK(folded.entities.find("position") == std::string::npos);
}

TEST_CASE("a component removed and added again in one flush starts over with the new values", "[command]") {
    Entity e;
    auto setup = [&](World& world, const Ids&) { e = world.spawn(Position{1, 2}, Velocity{3, 4}); };
    auto record = [&](const Ids& c, const EntityReservation&, std::vector<CommandBuffer>& out) {
        next(out).remove(e, c.position);
        add_default(next(out), e, c.position);  // default values, not the old ones
        next(out).add(e, c.velocity, Velocity{7, 8});  // already there: overwritten, not re-added
    };
    const Outcome folded = run(setup, record, true);
    const Outcome stepwise = run(setup, record, false);
    require_same(folded, stepwise);
    CHECK(folded.entities.find("position{x=0, y=0}") != std::string::npos);
    CHECK(folded.entities.find("velocity{dx=7, dy=8}") != std::string::npos);
    // Position was added again at tick 2; Velocity keeps its added tick 1 and changed at 2.
    CHECK(folded.ticks.find("position added@2 changed@2") != std::string::npos);
    CHECK(folded.ticks.find("velocity added@1 changed@2") != std::string::npos);
}

TEST_CASE("a malformed record in a run is skipped alone as it would be one by one", "[command]") {
    auto nothing = [](World&, const Ids&) {};
    auto record = [](const Ids& c, const EntityReservation& r, std::vector<CommandBuffer>& out) {
        const Position p{1, 2};
        const ComponentValue v{c.position, &p, sizeof p};
        next(out).spawn(r.handles()[0], &v, 1);
        const std::uint8_t three_bytes[3] = {1, 2, 3};
        const ComponentValue wrong_size{c.velocity, three_bytes, 3};
        next(out).add(r.handles()[0], &wrong_size, 1);
        next(out).add(r.handles()[0], c.health, Health{5, true, 0.5});
        const ComponentValue twice[] = {ComponentValue{c.enemy}, ComponentValue{c.enemy}};
        next(out).add(r.handles()[0], twice, 2);
        const ComponentId unknown = 999;
        next(out).remove(r.handles()[0], unknown);
        next(out).add(r.handles()[0], c.target, Target{kNullEntity});
    };
    const Outcome folded = run(nothing, record, true);
    const Outcome stepwise = run(nothing, record, false);
    require_same(folded, stepwise);
    CHECK(folded.stats.applied == 3);
    CHECK(folded.entities.find("health") != std::string::npos);
    CHECK(folded.entities.find("target") != std::string::npos);
    CHECK(folded.entities.find("velocity") == std::string::npos);
    CHECK(folded.diagnostics.size() == 3);
    CHECK(folded.diagnostics == stepwise.diagnostics);
}

TEST_CASE("a rejected spawn leaves no half-spawned entity", "[command]") {
    World world;
    test::CapturedDiagnostics said(world);
    const Ids c = register_all(world);
    const HandleLayout& layout = world.entities().layout();
    const std::uint64_t empty_hash = state_hash(world);
    EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world, 1);
    const Entity reserved = reservation.take();

    CommandBuffer buffer;
    const Position p{1, 2};
    const ComponentValue twice[] = {ComponentValue{c.position, &p, sizeof p}, ComponentValue{c.position, &p, sizeof p}};
    buffer.spawn(reserved, twice, 2);
    buffer.add(reserved, c.velocity, Velocity{1, 1});  // its spawn failed: a dead target
    const std::uint8_t three_bytes[3] = {1, 2, 3};
    const ComponentValue wrong_size{c.velocity, three_bytes, 3};
    buffer.spawn(kNullEntity, &wrong_size, 1);
    buffer.add(layout.pending(0), c.health, Health{1, true, 1});  // its spawn failed too
    CommandBuffer* buffers[] = {&buffer};
    EntityReservation* reservations[] = {&reservation};
    const ApplyStats stats = ecsia::detail::WorldAccess::apply(world, buffers, reservations);

    CHECK(stats.applied == 0);
    CHECK(stats.skipped_dead_target == 2);
    CHECK(world.alive_count() == 0);
    CHECK_FALSE(world.is_alive(reserved));
    CHECK(state_hash(world) == empty_hash);
    CHECK(test::dump_entities(world).empty());
    CHECK(said.count("command skipped: BadValue") == 2);
    // The reserved handle was taken, so it comes back one generation on.
    CHECK(world.spawn() == layout.make(layout.index(reserved), layout.generation(reserved) + 1));
}

TEST_CASE("a record naming a pending handle no spawn of the buffer has is refused alone, not with its run", "[command]") {
    // Its refusal comes from the run's pending-handle check; folded, it took the valid spawn and
    // adds of the same entity down with it.
    Entity e;
    auto setup = [&](World& world, const Ids&) { e = world.spawn(Position{1, 2}); };
    auto record = [&](const Ids& c, const EntityReservation& r, std::vector<CommandBuffer>& out) {
        const Entity unknown = HandleLayout{}.pending(5);  // no buffer spawned it
        const Position p{1, 2};
        const ComponentValue v{c.position, &p, sizeof p};
        next(out).spawn(r.handles()[0], &v, 1);
        next(out).add(r.handles()[0], c.target, Target{unknown});
        next(out).add(r.handles()[0], c.velocity, Velocity{3, 4});
        next(out).add(e, c.velocity, Velocity{5, 6});
        next(out).add(e, c.target, Target{unknown});
        next(out).add(e, c.health, Health{7, true, 0.5});
    };
    const Outcome folded = run(setup, record, true);
    const Outcome stepwise = run(setup, record, false);
    require_same(folded, stepwise);
    CHECK(folded.stats.applied == 4);
    CHECK(folded.entities.find("target") == std::string::npos);
    CHECK(folded.entities.find("velocity{dx=3, dy=4}") != std::string::npos);
    CHECK(folded.entities.find("health") != std::string::npos);
}
