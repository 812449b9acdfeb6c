// G5: every rejected operation throws the right ErrorCode and leaves the world as it was. Each
// check runs against a populated world so that "nothing changed" is a meaningful claim.

#include <vector>

#include <catch2/catch.hpp>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Enemy;
using test::Health;
using test::Position;
using test::Target;
using test::Velocity;

namespace {

constexpr ComponentId kUnknown = 9999;

struct Populated {
    World world;
    ComponentId position = world.component<Position>();
    ComponentId velocity = world.component<Velocity>();
    ComponentId health = world.component<Health>();
    ComponentId enemy = world.component<Enemy>();
    ComponentId target = world.component<Target>();
    ComponentId counter = world.component<test::Counter>();
    Entity a = world.spawn(Position{1, 2}, Health{3, true, 4});
    Entity b = world.spawn(Position{5, 6}, Velocity{7, 8}, Enemy{});
    Entity c = world.spawn(test::Counter{9, -1}, Target{Entity{}});
};

}  // namespace

TEST_CASE("an unknown component id is refused by every operation", "[world]") {
    Populated w;
    World& world = w.world;
    const ComponentValue unknown_value{kUnknown};
    const float x = 1;
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, world.spawn_with({&unknown_value, 1}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, world.add(w.a, unknown_value));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, world.remove(w.a, kUnknown));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, world.set_field(w.a, kUnknown, "x", 1));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, (void)world.get_field(w.a, kUnknown, "x"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, world.set_bytes(w.a, kUnknown, 0, &x, sizeof x));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, (void)world.get_bytes(w.a, kUnknown));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, (void)world.has(w.a, kUnknown));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, (void)world.query(test::query_terms({kUnknown})));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, (void)world.count(test::query_terms({w.position}, {kUnknown})));
    QueryDesc optional;
    optional.optional = {kUnknown};
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, (void)world.count(optional));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent,
                           world.observe(ObserverEvent::OnAdd, kUnknown, [](ObserverContext&) {}));
}

TEST_CASE("an unknown component name is an UnknownComponent naming it", "[world]") {
    Populated w;
    ECSIA_REQUIRE_REJECTED(w.world, ErrorCode::UnknownComponent, (void)w.world.component_id("Position"));
    ECSIA_REQUIRE_REJECTED(w.world, ErrorCode::UnknownComponent, (void)w.world.component_id(""));
    CHECK_THAT(test::thrown_message([&] { (void)w.world.component_id("gravity"); }),
               Catch::Matchers::Contains("gravity"));
}

TEST_CASE("a C++ type never added to the world is an UnknownComponent for typed access", "[world]") {
    World world;
    const Entity e = world.spawn();
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, (void)world.get<Position>(e));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, (void)world.get_mut<Position>(e));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, world.set(e, Position{1, 1}));
    CHECK_FALSE(world.has<Position>(e));
    CHECK(world.try_get<Position>(e) == nullptr);
}

TEST_CASE("an unknown field name is an UnknownField naming component and field", "[world]") {
    Populated w;
    ECSIA_REQUIRE_REJECTED(w.world, ErrorCode::UnknownField, w.world.set_field(w.a, w.position, "z", 1));
    ECSIA_REQUIRE_REJECTED(w.world, ErrorCode::UnknownField, (void)w.world.get_field(w.a, w.position, "X"));
    ECSIA_REQUIRE_REJECTED(w.world, ErrorCode::UnknownField, w.world.set_field(w.a, w.health, "", 1));
    const std::string message = test::thrown_message([&] { w.world.set_field(w.a, w.health, "mana", 1); });
    CHECK_THAT(message, Catch::Matchers::Contains("health") && Catch::Matchers::Contains("mana"));
}

TEST_CASE("a value of the wrong byte size is a BadValue", "[world]") {
    Populated w;
    World& world = w.world;
    const double too_big[4] = {};
    const ComponentValue wrong{w.position, too_big, sizeof too_big};
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.spawn_with({&wrong, 1}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add(w.c, wrong));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add(w.a, wrong));  // one it already has
    const ComponentValue short_value{w.health, too_big, 4};
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.add(w.b, short_value));
    // set_bytes: past the end of the component, or starting beyond it.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.set_bytes(w.a, w.position, 0, too_big, 9));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.set_bytes(w.a, w.position, 6, too_big, 4));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.set_bytes(w.a, w.position, 0xFFFFFFFFu, too_big, 2));
    // No bytes for a write of some.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.set_bytes(w.a, w.position, 0, nullptr, 4));
}

TEST_CASE("a component given twice in one operation is a BadValue", "[world]") {
    Populated w;
    const Position p{1, 1};
    const ComponentValue twice[] = {{w.position, &p, sizeof p}, {w.position, &p, sizeof p}};
    ECSIA_REQUIRE_REJECTED(w.world, ErrorCode::BadValue, w.world.spawn_with(twice));
    ECSIA_REQUIRE_REJECTED(w.world, ErrorCode::BadValue, w.world.change_components(w.c, twice, {}));
}

TEST_CASE("a field value out of its type's range is a BadValue", "[world]") {
    Populated w;
    World& world = w.world;
    struct Case {
        Entity entity;
        ComponentId component;
        const char* field;
        double value;
    };
    const Case cases[] = {
        {w.a, w.health, "hp", 2147483648.0},   {w.a, w.health, "hp", 1.5},     {w.a, w.health, "alive", 2},
        {w.a, w.health, "alive", -1},          {w.a, w.position, "x", 1e39},   {w.c, w.counter, "n", -1},
        {w.c, w.counter, "n", 4294967296.0},   {w.c, w.counter, "delta", 128}, {w.c, w.counter, "delta", -129},
        {w.c, w.target, "who", -1},            {w.c, w.target, "who", 0.5},
    };
    for (const Case& c : cases) {
        INFO(c.field << " = " << c.value);
        ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.set_field(c.entity, c.component, c.field, c.value));
    }
    // The same fields take in-range values.
    world.set_field(w.c, w.counter, "delta", -128);
    CHECK(world.get<test::Counter>(w.c).delta == -128);
}

TEST_CASE("a component the entity lacks is a MissingComponent for reads and writes", "[world]") {
    Populated w;
    World& world = w.world;
    const float x = 1;
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, (void)world.get<Velocity>(w.a));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, (void)world.get_mut<Velocity>(w.a));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, world.set(w.a, Velocity{1, 1}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, world.set_field(w.a, w.velocity, "dx", 1));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, (void)world.get_field(w.a, w.velocity, "dx"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, world.set_bytes(w.a, w.velocity, 0, &x, sizeof x));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, (void)world.get_bytes(w.a, w.velocity));
    // A tag the entity lacks is missing too, before it is a tag.
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::MissingComponent, (void)world.get_bytes(w.a, w.enemy));
    CHECK_THAT(test::thrown_message([&] { (void)world.get<Velocity>(w.a); }), Catch::Matchers::Contains("velocity"));
}

TEST_CASE("reading or writing the values of a tag is a BadValue", "[world]") {
    Populated w;
    World& world = w.world;
    REQUIRE(world.has<Enemy>(w.b));
    const char byte = 1;
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, (void)world.get<Enemy>(w.b));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, (void)world.get_bytes(w.b, w.enemy));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, (void)world.get_field(w.b, w.enemy, "x"));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.set_field(w.b, w.enemy, "x", 0));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.set_bytes(w.b, w.enemy, 0, &byte, 1));
}

TEST_CASE("a structural change during a wave is a WrongPhase", "[world]") {
    Populated w;
    World& world = w.world;
    const ComponentValue add_velocity{w.velocity};
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Wave);
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.spawn());
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.spawn(Position{1, 1}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.despawn(w.a));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.add(w.a, Velocity{1, 1}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.add(w.a, add_velocity));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.add(w.a, Position{9, 9}));  // even an overwrite
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.remove<Position>(w.a));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.remove(w.a, w.position));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.change_components(w.a, {}, {}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, ecsia::detail::WorldAccess::reserve(world, 2));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::WrongPhase, world.define_component("late", {{"v", FieldType::F32}}));
    CHECK(world.components().find("late") == kNoComponent);
    // The advice fits the call: a definition has no command to record.
    CHECK(test::thrown_message([&] { world.define_component("late", {}); }) ==
          "WrongPhase: define_component during a wave: definitions are made between frames, while no wave runs");
    CHECK(test::thrown_message([&] { world.spawn(); }) ==
          "WrongPhase: spawn during a wave: a kernel records it in its command buffer; code outside the frame waits for "
          "the wave to end (update() to return)");
    ecsia::detail::WorldAccess::set_phase(world, WorldPhase::Serial);
    CHECK(world.get<Position>(w.a).x == 1);
    CHECK(world.has<Health>(w.a));
}

TEST_CASE("a bad definition at run time is refused and registers nothing", "[world][schema]") {
    Populated w;
    World& world = w.world;
    const std::size_t registered = world.components().size();
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::DuplicateName, world.define_component("position", {{"x", FieldType::F32}}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadDefinition,
                           world.define_component("dup", {{"x", FieldType::F32}, {"x", FieldType::F64}}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadDefinition, world.define_component("blank", {{"", FieldType::U8}}));
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadDefinition, world.define_component("", {{"x", FieldType::U8}}));
    CHECK(world.components().size() == registered);
    CHECK(world.components().find("dup") == kNoComponent);
}

TEST_CASE("a name defined again: the same definition gives what is defined, another is a DuplicateName showing both", "[world][schema]") {
    World world;
    const ComponentId hp = world.define_component("hp", {{"value", FieldType::I32}, {"regen", FieldType::F32}});
    CHECK(world.define_component("hp", {{"value", FieldType::I32}, {"regen", FieldType::F32}}) == hp);
    const std::size_t registered = world.components().size();
    CHECK_THAT(test::thrown_message([&] { world.define_component("hp", {{"regen", FieldType::F32}, {"value", FieldType::I32}}); }),
               Catch::Contains("component 'hp' is already defined with fields { value: 'i32', regen: 'f32' }, which differs from "
                               "fields { regen: 'f32', value: 'i32' }"));
    CHECK(test::thrown_code([&] { world.define_component("hp", {{"x", FieldType::F32}, {"x", FieldType::F32}}); }) == "BadDefinition");  // its own fields first
    CHECK(test::thrown_code([&] { world.define_component("hp", {}); }) == "DuplicateName");
    CHECK(world.components().size() == registered);

    const TopicId hit = world.define_topic("hit", {{"damage", FieldType::F32}});
    CHECK(world.define_topic("hit", {{"damage", FieldType::F32}}) == hit);
    CHECK(test::thrown_code([&] { world.define_topic("hit", {{"damage", FieldType::F64}}); }) == "DuplicateName");

    const RelationId likes = world.define_relation("Likes", {{"since", FieldType::U32}}, RelationOptions{true, OnDeleteTarget::Remove, false});
    CHECK(world.define_relation("Likes", {{"since", FieldType::U32}}, RelationOptions{true, OnDeleteTarget::Remove, false}) == likes);
    CHECK_THAT(test::thrown_message([&] { world.define_relation("Likes", {{"since", FieldType::U32}}); }),
               Catch::Contains("relation 'Likes' is already defined with fields { since: 'u32' } and options { exclusive: true, "
                               "onDeleteTarget: 'remove', acyclic: false }, which differs from fields { since: 'u32' } and options "
                               "{ exclusive: false, onDeleteTarget: 'remove', acyclic: false }"));
    CHECK(world.define_relation("IsA", {}, RelationOptions{true, OnDeleteTarget::Remove, true}) == World::kIsA);
    // A name across kinds is never the same definition.
    CHECK(test::thrown_code([&] { world.define_relation("hp"); }) == "DuplicateName");
    CHECK(test::thrown_code([&] { world.define_component("Likes", {{"since", FieldType::U32}}); }) == "DuplicateName");
}

TEST_CASE("a rejected change with several parts applies none of them", "[world]") {
    Populated w;
    World& world = w.world;
    const Velocity v{1, 1};
    const ComponentValue good_add{w.velocity, &v, sizeof v};
    const ComponentValue bad_adds[] = {good_add, {kUnknown}};
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, world.change_components(w.a, bad_adds, {}));
    const ComponentId bad_removes[] = {w.position, kUnknown};
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent,
                           world.change_components(w.a, {&good_add, 1}, bad_removes));
    const double wrong[3] = {};
    const ComponentValue bad_size[] = {good_add, {w.health, wrong, 4}};
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::BadValue, world.change_components(w.a, bad_size, {}));
    CHECK_FALSE(world.has<Velocity>(w.a));
    CHECK(world.has<Position>(w.a));
    CHECK(world.get<Health>(w.a).hp == 3);
}

TEST_CASE("a rejected spawn hands out no handle", "[world]") {
    Populated w;
    World& world = w.world;
    const ComponentValue unknown{kUnknown};
    const std::uint32_t slots = world.entities().slot_count();
    ECSIA_REQUIRE_REJECTED(world, ErrorCode::UnknownComponent, world.spawn_with({&unknown, 1}));
    CHECK(world.entities().slot_count() == slots);
    CHECK(world.entities().allocated_count() == 3);
    const Entity next = world.spawn();
    CHECK(world.entities().layout().index(next) == 3);
}
