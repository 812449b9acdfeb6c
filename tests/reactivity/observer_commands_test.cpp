// What an observer may do: read values (remove observers too, even during a despawn), write
// values, and record structural changes into its command buffer, which flush() applies. A direct
// structural change inside an observer is rejected with WrongPhase.

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/captured_diagnostics.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Health;
using test::Position;
using test::Velocity;

namespace {

struct ObserverCommandScene {
    World world;
    ComponentId position = world.component<Position>();
    ComponentId velocity = world.component<Velocity>();
    ComponentId health = world.component<Health>();
};

}  // namespace

TEST_CASE("remove observers can read the entity's values during a despawn", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    std::vector<float> seen;
    world.observe(ObserverEvent::OnRemove, s.position, [&](ObserverContext& ctx) {
        seen.push_back(ctx.world.get<Position>(ctx.entity).x);
        seen.push_back(ctx.world.get<Velocity>(ctx.entity).dy);  // the other components are still there
    });
    world.observe(ObserverEvent::OnRemove, s.velocity, [&](ObserverContext& ctx) {
        seen.push_back(ctx.world.get<Velocity>(ctx.entity).dx);
        seen.push_back(ctx.world.get<Position>(ctx.entity).y);
    });
    const Entity direct = world.spawn(Position{1, 2}, Velocity{3, 4});
    const Entity buffered = world.spawn(Position{5, 6}, Velocity{7, 8});
    world.despawn(direct);
    CommandBuffer buffer;
    buffer.despawn(buffered);
    CommandBuffer* buffers[] = {&buffer};
    ecsia::detail::WorldAccess::apply(world, buffers);
    CHECK(seen == std::vector<float>{1, 4, 3, 2, 5, 8, 7, 6});
    CHECK(world.alive_count() == 0);
}

TEST_CASE("a remove observer can read the value being removed", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    std::vector<std::int32_t> seen;
    world.observe(ObserverEvent::OnRemove, s.health,
                  [&](ObserverContext& ctx) { seen.push_back(ctx.world.get<Health>(ctx.entity).hp); });
    const Entity e = world.spawn(Position{1, 2}, Health{42, true, 0});
    world.remove<Health>(e);
    CHECK(seen == std::vector<std::int32_t>{42});
}

TEST_CASE("add observers see the values the component was added with", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    std::vector<float> seen;
    world.observe(ObserverEvent::OnAdd, s.velocity,
                  [&](ObserverContext& ctx) { seen.push_back(ctx.world.get<Velocity>(ctx.entity).dx); });
    const Entity e = world.spawn(Velocity{1, 0});
    world.remove<Velocity>(e);
    world.add(e, Velocity{2, 0});
    CommandBuffer buffer;
    buffer.add(e, s.velocity, Velocity{3, 0});  // already there: a change, not an add
    buffer.remove(e, s.velocity);
    buffer.add(e, s.velocity, Velocity{4, 0});
    CommandBuffer* buffers[] = {&buffer};
    ecsia::detail::WorldAccess::apply(world, buffers);
    CHECK(seen == std::vector<float>{1, 2, 4});
}

TEST_CASE("structural changes an observer records are applied at the next flush", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    world.diagnostics().set_sink([](const std::string&) {});
    std::vector<std::string> log;
    // On add of position: give the entity a velocity and spawn a companion.
    world.observe(ObserverEvent::OnAdd, s.position, [&](ObserverContext& ctx) {
        log.push_back("add position");
        ctx.commands.add(ctx.entity, s.velocity, Velocity{1, 1});
        const Health h{9, true, 0};
        const ComponentValue v{s.health, &h, sizeof h};
        ctx.commands.spawn(kNullEntity, &v, 1);
    });
    world.observe(ObserverEvent::OnAdd, s.velocity, [&](ObserverContext&) { log.push_back("add velocity"); });
    // On change of velocity: despawn the entity.
    world.observe(ObserverEvent::OnChange, s.velocity, [&](ObserverContext& ctx) {
        log.push_back("change velocity");
        ctx.commands.despawn(ctx.entity);
    });

    const Entity e = world.spawn(Position{0, 0});
    CHECK(log == std::vector<std::string>{"add position"});
    CHECK_FALSE(world.has<Velocity>(e));
    CHECK(world.alive_count() == 1);

    world.flush();
    CHECK(log == std::vector<std::string>{"add position", "add velocity"});
    CHECK(world.has<Velocity>(e));
    CHECK(world.alive_count() == 2);

    world.set(e, Velocity{2, 2});
    CHECK(world.is_alive(e));  // the change observer has not run yet
    world.flush();
    CHECK(log.back() == "change velocity");
    CHECK_FALSE(world.is_alive(e));
    CHECK(world.alive_count() == 1);
}

TEST_CASE("a direct structural change inside an observer throws WrongPhase", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    std::vector<std::string> codes;
    auto attempt_all = [&](ObserverContext& ctx) {
        codes.push_back(test::thrown_code([&] { ctx.world.spawn(); }));
        codes.push_back(test::thrown_code([&] { ctx.world.despawn(ctx.entity); }));
        codes.push_back(test::thrown_code([&] { ctx.world.add(ctx.entity, Health{}); }));
        codes.push_back(test::thrown_code([&] { ctx.world.remove<Position>(ctx.entity); }));
        codes.push_back(test::thrown_code([&] { ecsia::detail::WorldAccess::reserve(ctx.world, 1); }));
    };
    world.observe(ObserverEvent::OnAdd, s.position, attempt_all);
    world.observe(ObserverEvent::OnRemove, s.velocity, attempt_all);
    world.observe(ObserverEvent::OnChange, s.position, attempt_all);

    const Entity e = world.spawn(Position{1, 2}, Velocity{3, 4});  // add observer
    world.remove<Velocity>(e);                                      // remove observer
    world.set(e, Position{5, 6});
    world.flush();  // change observer
    REQUIRE(codes.size() == 15);
    for (const std::string& code : codes) CHECK(code == "WrongPhase");
    // Nothing the observers attempted happened.
    CHECK(world.alive_count() == 1);
    CHECK(world.has<Position>(e));
    CHECK_FALSE(world.has<Health>(e));
    // Once the observers are done, direct changes work again.
    const Entity other = world.spawn();
    CHECK(world.is_alive(other));
}

TEST_CASE("the WrongPhase error of an observer's direct change is a diagnostic and the change stands", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    test::CapturedDiagnostics said(world);
    world.observe(ObserverEvent::OnAdd, s.velocity, [](ObserverContext& ctx) { ctx.world.despawn(ctx.entity); });
    const Entity e = world.spawn(Position{1, 2});
    // The add is complete when its observers run: it neither throws nor is undone.
    CHECK(test::thrown_code([&] { world.add(e, Velocity{1, 1}); }) == "no error");
    CHECK(world.has<Velocity>(e));
    CHECK(said.count("an on-add observer of 'velocity' threw for entity 0x00000000: WrongPhase: despawn inside an observer") == 1);
    // The rejection must not leave the world thinking an observer is still running.
    CHECK(test::thrown_code([&] { world.spawn(Position{3, 4}); }) == "no error");
    CHECK(test::thrown_code([&] { world.despawn(e); }) == "no error");
}

TEST_CASE("an exception thrown by a change observer is a diagnostic, its commands are dropped, later observers run", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    test::CapturedDiagnostics said(world);
    std::vector<int> ran;
    world.observe(ObserverEvent::OnChange, s.position, [&](ObserverContext& ctx) {
        ran.push_back(1);
        ctx.commands.add(ctx.entity, s.health, Health{5, true, 1});  // dropped with the throw
        throw std::runtime_error("observer");
    });
    world.observe(ObserverEvent::OnChange, s.position, [&](ObserverContext& ctx) {
        ran.push_back(2);
        ctx.commands.add(ctx.entity, s.velocity, Velocity{7, 7});
    });
    const Entity e = world.spawn(Position{1, 2});
    world.set(e, Position{3, 4});
    CHECK(test::thrown_code([&] { world.flush(); }) == "no error");
    CHECK(ran == std::vector<int>{1, 2});
    CHECK(said.count("an on-change observer of 'position' threw for entity 0x00000000: observer; the change it "
                     "observed stands, and the 1 command(s) it recorded were dropped") == 1);
    CHECK(world.get<Position>(e).x == 3);
    CHECK_FALSE(world.has<Health>(e));
    CHECK(world.get<Velocity>(e).dx == 7);
    CHECK(test::thrown_code([&] { world.add(e, Health{1, true, 1}); }) == "no error");
}

TEST_CASE("observers that keep causing changes are cut off at flush with a diagnostic", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    test::CapturedDiagnostics said(world);
    const ObserverId forever = world.observe(ObserverEvent::OnChange, s.position, [&](ObserverContext& ctx) {
        ctx.commands.set(ctx.entity, s.position, Position{0, 0});
    });
    const Entity e = world.spawn(Position{1, 2});
    world.set(e, Position{3, 4});
    world.flush();
    CHECK(said.count("observers kept causing changes") == 1);
    world.unobserve(forever);
    world.flush();
    world.flush();
    CHECK(said.count("observers kept causing changes") == 1);
}

TEST_CASE("a flush during a wave is rejected and loses no queued change or command", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    int ran = 0;
    world.observe(ObserverEvent::OnChange, s.position, [&](ObserverContext& ctx) {
        ++ran;
        ctx.commands.add(ctx.entity, s.velocity, Velocity{1, 1});
    });
    world.observe(ObserverEvent::OnAdd, s.health, [&](ObserverContext& ctx) { ctx.commands.remove(ctx.entity, s.health); });
    const Entity e = world.spawn(Position{1, 2}, Health{1, true, 1});  // queues a command to remove health
    world.set(e, Position{3, 4});                                     // queues a change
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Wave);
    CHECK(test::thrown_code([&] { world.flush(); }) == "WrongPhase");
    CHECK(ran == 0);
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Serial);
    world.flush();
    CHECK(ran == 1);
    CHECK(world.has<Velocity>(e));
    CHECK_FALSE(world.has<Health>(e));
}

TEST_CASE("an observer cannot flush: observers never run re-entrantly", "[reactivity]") {
    ObserverCommandScene s;
    World& world = s.world;
    std::vector<std::string> codes;
    int changes_seen = 0;
    world.observe(ObserverEvent::OnChange, s.velocity, [&](ObserverContext&) { ++changes_seen; });
    world.observe(ObserverEvent::OnAdd, s.position, [&](ObserverContext& ctx) {
        codes.push_back(test::thrown_code([&] { ctx.world.flush(); }));
    });
    const Entity e = world.spawn(Velocity{1, 1});
    world.set(e, Velocity{2, 2});
    world.add(e, Position{0, 0});
    CHECK(codes == std::vector<std::string>{"WrongPhase"});
    CHECK(changes_seen == 0);
    world.flush();
    CHECK(changes_seen == 1);
}

namespace {
template <int N>
struct Registered {};
}  // namespace

template <int N>
struct ecsia::ComponentTraits<Registered<N>> {
    static ComponentDesc describe() {
        static const std::string name = "registered" + std::to_string(N);
        return detail::describe_struct<Registered<N>>(name.c_str(), {});
    }
};

TEST_CASE("an observer cannot register a component: WrongPhase, the registry unchanged, the report names the observed one",
          "[reactivity][relation]") {
    // Registering would grow the registry that the observers' dispatch reads, as define_component would.
    World world;
    test::CapturedDiagnostics said(world);
    const ComponentId known = world.component<Registered<0>>();
    const Entity parent = world.spawn(), child = world.spawn();
    world.add_pair(child, World::kChildOf, parent);
    std::vector<std::string> codes;
    world.observe(ObserverEvent::OnRemove, World::kChildOf, [&](ObserverContext& ctx) {
        CHECK(ctx.world.component<Registered<0>>() == known);  // a known type is only looked up
        codes.push_back(test::thrown_code([&] { ctx.world.component<Registered<1>>(); }));
        throw std::runtime_error("after registering");
    });
    world.observe(ObserverEvent::OnAdd, world.component<Position>(), [&](ObserverContext& ctx) {
        codes.push_back(test::thrown_code([&] { ctx.world.component<Registered<2>>(); }));
        throw std::runtime_error("after registering");
    });
    const std::size_t registered = world.components().size();
    world.remove_pair(child, World::kChildOf, parent);
    world.add(child, Position{1, 2});
    CHECK(codes == std::vector<std::string>{"WrongPhase", "WrongPhase"});
    CHECK(world.components().size() == registered);
    CHECK(world.components().find("registered1") == kNoComponent);
    CHECK(said.count("an on-remove observer of 'ChildOf' threw for entity 0x00000001: after registering;") == 1);
    CHECK(said.count("an on-add observer of 'position' threw for entity 0x00000001: after registering;") == 1);
    CHECK_FALSE(world.has_pair(child, World::kChildOf, parent));
    CHECK(world.has<Position>(child));
    // Outside the observers the type registers as before.
    CHECK(world.component<Registered<1>>() == registered);
}

TEST_CASE("an observer that throws gives back the pending names it took: later observers' pending handles name their own spawns",
          "[reactivity]") {
    // A self-numbered buffer's k-th overflow spawn is pending(k); the dropped spawn's name must
    // not shift every later one onto the next spawn (another entity, G4).
    World world;
    test::CapturedDiagnostics said(world);
    const ComponentId position = world.component<Position>();
    const ComponentId target = world.component<test::Target>();
    const ComponentId counter = world.component<test::Counter>();
    world.observe(ObserverEvent::OnAdd, counter, [&](ObserverContext& ctx) {
        const std::uint32_t k = ctx.world.get<test::Counter>(ctx.entity).n;
        const HandleLayout& layout = ctx.world.entities().layout();
        Entity first = kNullEntity;
        for (std::uint32_t i = 0; i < 2; ++i) {
            const Entity named = ctx.commands.name_next_overflow_spawn(layout);
            if (i == 0) first = named;
            const Position p{float(k * 10 + i), 0};
            const ComponentValue value{position, &p, sizeof p};
            ctx.commands.spawn(kNullEntity, &value, 1);
            if (k == 1) throw std::runtime_error("after recording a spawn");
        }
        const test::Target t{first};
        ctx.commands.add(ctx.entity, target, t);
    });
    const Entity a = world.spawn(test::Counter{1, 0});
    const Entity b = world.spawn(test::Counter{2, 0});
    const Entity c = world.spawn(test::Counter{3, 0});
    world.flush();
    CHECK(said.count("after recording a spawn") == 1);
    CHECK_FALSE(world.has<test::Target>(a));
    REQUIRE(world.has<test::Target>(b));
    REQUIRE(world.has<test::Target>(c));
    CHECK(world.get<Position>(world.get<test::Target>(b).who).x == 20);
    CHECK(world.get<Position>(world.get<test::Target>(c).who).x == 30);
    CHECK(world.alive_count() == 3 + 4);
}

TEST_CASE("a command record with more entries than its header counts is refused whole", "[command]") {
    CommandBuffer buffer;
    const ComponentId ids[1] = {0};
    const Entity e = HandleLayout{}.make(1, 0);
    const std::size_t too_many = std::size_t(1) << 24;  // word 0 counts up to 2^24 - 1
    // The count is checked before anything is read or recorded.
    CHECK(test::thrown_code([&] { buffer.remove(e, ids, too_many); }) == "CapacityExceeded");
    CHECK(test::thrown_code([&] { buffer.add(e, nullptr, too_many); }) == "CapacityExceeded");
    CHECK(test::thrown_code([&] { buffer.spawn(kNullEntity, nullptr, too_many); }) == "CapacityExceeded");
    CHECK(buffer.record_count() == 0);
    CHECK(buffer.words().empty());
}

TEST_CASE("a typed add of a tag through a command buffer adds the tag (no bytes, like World::add)", "[command]") {
    World world;
    test::CapturedDiagnostics said(world);
    const ComponentId frozen = world.component<test::Frozen>();
    const ComponentId position = world.component<Position>();
    world.observe(ObserverEvent::OnAdd, position, [&](ObserverContext& ctx) { ctx.commands.add(ctx.entity, frozen, test::Frozen{}); });
    const Entity a = world.spawn(Position{1, 2});
    world.flush();
    CHECK(world.has<test::Frozen>(a));
    CHECK(said.messages.empty());
}
