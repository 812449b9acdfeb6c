// The order observers fire in: the order of the changes that caused them, then registration
// order. Add and remove observers fire inside the structural change; change observers are queued
// and fire at flush(). The order is part of G1, so it must also be identical run after run.

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/rng.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;
using test::Health;
using test::Position;
using test::Rng;
using test::Velocity;

namespace {

struct Firing {
    ObserverEvent event;
    ComponentId component;
    Entity entity;
    int observer;  // the test's own number for the observer, in registration order

    friend bool operator==(const Firing&, const Firing&) = default;
};

std::string to_text(const std::vector<Firing>& log) {
    static const char* const events[] = {"add", "remove", "change"};
    std::ostringstream out;
    for (const Firing& f : log) {
        out << events[static_cast<int>(f.event)] << " c" << f.component << " e0x" << std::hex << f.entity.bits << std::dec
            << " o" << f.observer << "\n";
    }
    return out.str();
}

struct Registration {
    ObserverEvent event;
    ComponentId component;
};

// Registers observers that append to `log`; returns what was registered, in order.
void register_logging(World& world, const std::vector<Registration>& list, std::vector<Firing>& log) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        const int number = static_cast<int>(i);
        world.observe(list[i].event, list[i].component, [&log, number](ObserverContext& ctx) {
            log.push_back(Firing{ctx.event, ctx.component, ctx.entity, number});
        });
    }
}

struct ObserverOrderScene {
    World world;
    ComponentId position = world.component<Position>();
    ComponentId velocity = world.component<Velocity>();
    ComponentId health = world.component<Health>();
};

// The scripted run: returns its log.
std::vector<Firing> scripted_run(std::vector<Entity>& spawned) {
    ObserverOrderScene s;
    World& world = s.world;
    std::vector<Firing> log;
    register_logging(world,
                     {{ObserverEvent::OnAdd, s.position},      // o0
                      {ObserverEvent::OnAdd, s.velocity},      // o1
                      {ObserverEvent::OnAdd, s.position},      // o2
                      {ObserverEvent::OnRemove, s.position},   // o3
                      {ObserverEvent::OnRemove, s.velocity},   // o4
                      {ObserverEvent::OnChange, s.position},   // o5
                      {ObserverEvent::OnChange, s.velocity},   // o6
                      {ObserverEvent::OnChange, s.position},   // o7
                      {ObserverEvent::OnRemove, s.position}},  // o8
                     log);
    const Entity a = world.spawn(Velocity{1, 1}, Position{2, 2});
    const Entity b = world.spawn(Position{3, 3});
    world.set(a, Velocity{4, 4});
    world.get_mut<Position>(b).x = 5;
    world.set(a, Position{6, 6});
    world.add(b, Health{1, true, 1});  // no observer for health
    world.remove<Position>(a);         // its queued change will find no position at flush
    log.push_back(Firing{ObserverEvent::OnChange, kNoComponent, kNullEntity, -1});  // marks the flush
    world.flush();
    const Entity c = world.spawn(Position{7, 7}, Velocity{7, 7});
    world.set(c, Velocity{8, 8});
    world.despawn(c);  // removes in component-id order; its queued change is dropped
    world.despawn(b);
    world.flush();
    spawned = {a, b, c};
    return log;
}

}  // namespace

TEST_CASE("observers fire in the order of the changes and then in registration order", "[reactivity]") {
    std::vector<Entity> e;
    const std::vector<Firing> log = scripted_run(e);
    ObserverOrderScene s;  // only for the ids, which registration order fixes
    const ComponentId p = s.position, v = s.velocity;
    const auto add = ObserverEvent::OnAdd, remove = ObserverEvent::OnRemove, change = ObserverEvent::OnChange;
    const std::vector<Firing> expected = {
        {add, v, e[0], 1},  // spawn(Velocity, Position): values in the order given
        {add, p, e[0], 0},
        {add, p, e[0], 2},
        {add, p, e[1], 0},
        {add, p, e[1], 2},
        {remove, p, e[0], 3},  // remove fires at once
        {remove, p, e[0], 8},
        {change, kNoComponent, kNullEntity, -1},  // flush: the queued changes, in write order
        {change, v, e[0], 6},
        {change, p, e[1], 5},
        {change, p, e[1], 7},
        {add, p, e[2], 0},
        {add, p, e[2], 2},
        {add, v, e[2], 1},
        {remove, p, e[2], 3},  // despawn: component-id order
        {remove, p, e[2], 8},
        {remove, v, e[2], 4},
        {remove, p, e[1], 3},
        {remove, p, e[1], 8},
    };
    CHECK(to_text(log) == to_text(expected));
}

TEST_CASE("observers fire in the same order on every run", "[reactivity]") {
    std::vector<Entity> first_entities, second_entities;
    const std::vector<Firing> first = scripted_run(first_entities);
    const std::vector<Firing> second = scripted_run(second_entities);
    CHECK(first_entities == second_entities);
    CHECK(to_text(first) == to_text(second));
}

namespace {

// A brute-force model of the documented order, fed the same random operations as the world.
class OrderModel {
public:
    explicit OrderModel(std::vector<Registration> observers) : observers_(std::move(observers)) {}

    void spawned(Entity e, const std::vector<ComponentId>& ids) {
        components_[e.bits];
        for (ComponentId id : ids) add(e, id);
    }
    void added(Entity e, ComponentId id) {
        if (has(e, id)) return queue(e, id);
        add(e, id);
    }
    // change_components: removes first (those present, first mention), then adds; a component
    // both removed and added comes back as a fresh add.
    void changed_components(Entity e, const std::vector<ComponentId>& adds, const std::vector<ComponentId>& removes) {
        std::vector<ComponentId> removed;
        for (ComponentId id : removes) {
            if (has(e, id) && std::find(removed.begin(), removed.end(), id) == removed.end()) removed.push_back(id);
        }
        for (ComponentId id : removed) remove(e, id);
        for (ComponentId id : adds) {
            if (has(e, id)) queue(e, id);
        }
        for (ComponentId id : adds) {
            if (!has(e, id)) add(e, id);
        }
    }
    void despawned(Entity e) {
        for (ComponentId id : std::set<ComponentId>(components_.at(e.bits))) fire(ObserverEvent::OnRemove, id, e);
        components_.erase(e.bits);
    }
    void written(Entity e, ComponentId id) { queue(e, id); }
    void flushed() {
        std::vector<std::pair<Entity, ComponentId>> queued;
        queued.swap(queued_);
        for (const auto& [e, id] : queued) {
            if (components_.count(e.bits) != 0 && has(e, id)) fire(ObserverEvent::OnChange, id, e);
        }
    }
    bool has(Entity e, ComponentId id) const { return components_.at(e.bits).count(id) != 0; }
    std::vector<Entity> alive() const {
        std::vector<Entity> out;
        for (const auto& [bits, ids] : components_) out.push_back(Entity{bits});
        return out;
    }

    std::vector<Firing> log;

private:
    void add(Entity e, ComponentId id) {
        components_[e.bits].insert(id);
        fire(ObserverEvent::OnAdd, id, e);
    }
    void remove(Entity e, ComponentId id) {
        fire(ObserverEvent::OnRemove, id, e);
        components_[e.bits].erase(id);
    }
    void queue(Entity e, ComponentId id) { queued_.emplace_back(e, id); }
    void fire(ObserverEvent event, ComponentId id, Entity e) {
        for (std::size_t i = 0; i < observers_.size(); ++i) {
            if (observers_[i].event == event && observers_[i].component == id) {
                log.push_back(Firing{event, id, e, static_cast<int>(i)});
            }
        }
    }

    std::vector<Registration> observers_;
    std::map<std::uint32_t, std::set<ComponentId>> components_;
    std::vector<std::pair<Entity, ComponentId>> queued_;
};

// One seeded random run: the world's log and the model's.
std::pair<std::vector<Firing>, std::vector<Firing>> random_run(std::uint64_t seed) {
    Rng rng(seed);
    ObserverOrderScene s;
    World& world = s.world;
    const std::vector<ComponentId> all = {s.position, s.velocity, s.health};
    std::vector<Registration> observers;
    for (int i = 0; i < 10; ++i) {
        observers.push_back({static_cast<ObserverEvent>(rng.below(3)), rng.pick(all)});
    }
    std::vector<Firing> log;
    register_logging(world, observers, log);
    OrderModel model(observers);
    const Position p{1, 2};
    const Velocity v{3, 4};
    const Health h{5, true, 6};
    auto value = [&](ComponentId id) {
        return id == s.position   ? ComponentValue{id, &p, sizeof p}
               : id == s.velocity ? ComponentValue{id, &v, sizeof v}
                                  : ComponentValue{id, &h, sizeof h};
    };
    for (int step = 0; step < 300; ++step) {
        const std::vector<Entity> living = model.alive();
        const std::uint32_t roll = rng.below(100);
        if (living.empty() || roll < 15) {
            std::vector<ComponentId> ids = all;
            rng.shuffle(ids);
            ids.resize(rng.below(4));
            std::vector<ComponentValue> values;
            for (ComponentId id : ids) values.push_back(value(id));
            const Entity e = world.spawn_with(values);
            model.spawned(e, ids);
            continue;
        }
        const Entity e = rng.pick(living);
        const ComponentId id = rng.pick(all);
        if (roll < 22) {
            world.despawn(e);
            model.despawned(e);
        } else if (roll < 34) {
            world.add(e, value(id));
            model.added(e, id);
        } else if (roll < 44) {
            std::vector<ComponentId> adds = all, removes = all;
            rng.shuffle(adds);
            rng.shuffle(removes);
            adds.resize(rng.below(3));
            removes.resize(rng.below(3));
            std::vector<ComponentValue> values;
            for (ComponentId a : adds) values.push_back(value(a));
            world.change_components(e, values, removes);
            model.changed_components(e, adds, removes);
        } else if (roll < 64) {
            if (!model.has(e, id)) continue;
            if (rng.chance(50)) {
                world.set_bytes(e, id, 0, &p, 4);
            } else {
                world.get_bytes(e, id);  // a read marks nothing
                if (id == s.velocity) world.get_mut<Velocity>(e).dx += 1;
                else world.set_field(e, id, id == s.position ? "x" : "hp", 3);
            }
            model.written(e, id);
        } else if (roll < 72) {
            // Chunk writes queue one change per row, in iteration order.
            world.each<Position>([](Entity, Position& q) { q.y += 1; });
            QueryDesc desc;
            desc.with = {s.position};
            for (Entity x : world.query(desc).entities()) model.written(x, s.position);
        } else if (roll < 85) {
            world.flush();
            model.flushed();
        } else {
            world.remove(e, id);
            if (model.has(e, id)) model.changed_components(e, {}, {id});
        }
    }
    world.flush();
    model.flushed();
    return {log, model.log};
}

}  // namespace

TEST_CASE("observer order matches the documented model over random operations on every run",
          "[reactivity][model]") {
    std::size_t fired = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        const auto [log, expected] = random_run(seed);
        REQUIRE(to_text(log) == to_text(expected));
        const auto [again, unused] = random_run(seed);
        REQUIRE(to_text(again) == to_text(log));
        fired += log.size();
    }
    CHECK(fired > 1000);
}

TEST_CASE("an observer removed while its event fires does not stop the observers after it", "[reactivity]") {
    ObserverOrderScene s;
    World& world = s.world;
    std::vector<std::string> log;
    ObserverId first = 0;
    first = world.observe(ObserverEvent::OnAdd, s.position, [&](ObserverContext& ctx) {
        log.push_back("first");
        ctx.world.unobserve(first);
    });
    world.observe(ObserverEvent::OnAdd, s.position, [&](ObserverContext&) { log.push_back("second"); });
    world.observe(ObserverEvent::OnAdd, s.position, [&](ObserverContext&) { log.push_back("third"); });
    world.spawn(Position{1, 1});
    world.spawn(Position{2, 2});
    CHECK(log == std::vector<std::string>{"first", "second", "third", "second", "third"});
}

TEST_CASE("an observer that removes a later one stops it from this event on", "[reactivity]") {
    ObserverOrderScene s;
    World& world = s.world;
    std::vector<std::string> log;
    ObserverId later = 0;
    world.observe(ObserverEvent::OnAdd, s.position, [&](ObserverContext& ctx) {
        log.push_back("first");
        ctx.world.unobserve(later);
    });
    later = world.observe(ObserverEvent::OnAdd, s.position, [&](ObserverContext&) { log.push_back("later"); });
    world.spawn(Position{1, 1});
    world.spawn(Position{2, 2});
    CHECK(log == std::vector<std::string>{"first", "first"});
}

TEST_CASE("an observer registered while an event fires joins from the next event", "[reactivity]") {
    ObserverOrderScene s;
    World& world = s.world;
    std::vector<std::string> log;
    bool registered = false;
    world.observe(ObserverEvent::OnAdd, s.position, [&](ObserverContext& ctx) {
        log.push_back("first");
        if (registered) return;
        registered = true;
        ctx.world.observe(ObserverEvent::OnAdd, s.position, [&](ObserverContext&) { log.push_back("joined"); });
    });
    world.spawn(Position{1, 1});
    world.spawn(Position{2, 2});
    CHECK(log == std::vector<std::string>{"first", "first", "joined"});
}
