// `changed` and `added` query terms: a row is selected when its tick for the component is newer
// than the `since` the query runs with. Checked against a brute-force model of every write path.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "support/rng.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Health;
using test::Position;
using test::Rng;
using test::Velocity;

namespace {

struct Ticks {
    Tick added = 0;
    Tick changed = 0;
};

// What the filters must see: per entity, per component, the tick of its add and of its last write.
class TickModel {
public:
    void spawned(Entity e) { rows_[e.bits]; }
    void added(Entity e, ComponentId id, Tick now) { rows_.at(e.bits)[id] = Ticks{now, now}; }
    void written(Entity e, ComponentId id, Tick now) { rows_.at(e.bits).at(id).changed = now; }
    void removed(Entity e, ComponentId id) { rows_.at(e.bits).erase(id); }
    void despawned(Entity e) { rows_.erase(e.bits); }
    bool has(Entity e, ComponentId id) const { return rows_.at(e.bits).count(id) != 0; }
    std::vector<Entity> alive() const {
        std::vector<Entity> out;
        for (const auto& [bits, components] : rows_) out.push_back(Entity{bits});
        return out;
    }

    std::vector<std::uint32_t> select(const QueryDesc& desc, Tick since) const {
        std::vector<std::uint32_t> out;
        // Not a structured binding: clang 14 (em++) cannot capture those in a lambda.
        for (const auto& row : rows_) {
            const auto bits = row.first;
            const auto& components = row.second;
            auto has = [&](ComponentId id) { return components.count(id) != 0; };
            bool selected = std::all_of(desc.with.begin(), desc.with.end(), has) &&
                            std::none_of(desc.without.begin(), desc.without.end(), has);
            for (ComponentId id : desc.changed) selected = selected && has(id) && components.at(id).changed > since;
            for (ComponentId id : desc.added) selected = selected && has(id) && components.at(id).added > since;
            if (selected) out.push_back(bits);
        }
        return out;
    }

private:
    std::map<std::uint32_t, std::map<ComponentId, Ticks>> rows_;
};

struct ChangeFilterScene {
    World world;
    ComponentId position = world.component<Position>();
    ComponentId velocity = world.component<Velocity>();
    ComponentId health = world.component<Health>();
    std::vector<ComponentId> all{position, velocity, health};
};

std::vector<ComponentId> some_of(Rng& rng, const std::vector<ComponentId>& from, std::uint32_t percent) {
    std::vector<ComponentId> out;
    for (ComponentId id : from) {
        if (rng.chance(percent)) out.push_back(id);
    }
    return out;
}

QueryDesc random_desc(Rng& rng, const std::vector<ComponentId>& all) {
    QueryDesc desc;
    desc.changed = some_of(rng, all, 35);
    desc.added = some_of(rng, all, 20);
    if (desc.changed.empty() && desc.added.empty()) desc.changed.push_back(rng.pick(all));
    desc.with = some_of(rng, all, 20);
    for (ComponentId id : all) {
        const auto required = desc.required();
        if (std::find(required.begin(), required.end(), id) == required.end() && rng.chance(20)) desc.without.push_back(id);
    }
    return desc;
}

// Writes one component through the typed accessors, picking the path at random.
void write_value(Rng& rng, ChangeFilterScene& s, Entity e, ComponentId id) {
    const float value = static_cast<float>(rng.below(100));
    switch (rng.below(4)) {
        case 0:
            if (id == s.position) s.world.get_mut<Position>(e).x = value;
            if (id == s.velocity) s.world.get_mut<Velocity>(e).dy = value;
            if (id == s.health) s.world.get_mut<Health>(e).hp = static_cast<std::int32_t>(value);
            break;
        case 1:
            if (id == s.position) s.world.set(e, Position{value, value});
            if (id == s.velocity) s.world.set(e, Velocity{value, value});
            if (id == s.health) s.world.set(e, Health{1, true, value});
            break;
        case 2: s.world.set_field(e, id, id == s.health ? "regen" : id == s.position ? "y" : "dx", value); break;
        default: s.world.set_bytes(e, id, 0, &value, sizeof value); break;  // first field is 4 bytes in all three
    }
}

}  // namespace

TEST_CASE("changed and added filters agree with a brute-force model over random writes", "[reactivity][model]") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        Rng rng(seed);
        ChangeFilterScene s;
        World& world = s.world;
        TickModel model;
        // Queries kept across ticks, so the cached table lists are exercised as tables appear.
        std::vector<Query> kept;
        for (int i = 0; i < 4; ++i) kept.push_back(world.query(random_desc(rng, s.all)));
        std::size_t selected_total = 0, checks = 0;

        for (int step = 0; step < 400; ++step) {
            CAPTURE(step);
            const std::vector<Entity> living = model.alive();
            const std::uint32_t roll = rng.below(100);
            const Tick now = world.tick();
            if (living.empty() || roll < 14) {
                std::vector<ComponentId> ids = some_of(rng, s.all, 50);
                rng.shuffle(ids);
                std::vector<ComponentValue> values;
                const Position p{1, 2};
                const Velocity v{3, 4};
                const Health h{5, true, 6};
                for (ComponentId id : ids) {
                    values.push_back(id == s.position   ? ComponentValue{id, &p, sizeof p}
                                     : id == s.velocity ? ComponentValue{id, &v, sizeof v}
                                                        : ComponentValue{id, &h, sizeof h});
                }
                const Entity e = world.spawn_with(values);
                model.spawned(e);
                for (ComponentId id : ids) model.added(e, id, now);
                continue;
            }
            const Entity e = rng.pick(living);
            const ComponentId id = rng.pick(s.all);
            if (roll < 20) {
                world.despawn(e);
                model.despawned(e);
            } else if (roll < 32) {
                // Adding a component the entity has is a write, not an add.
                world.add(e, ComponentValue{id});
                if (model.has(e, id)) model.written(e, id, now);
                else model.added(e, id, now);
            } else if (roll < 40) {
                world.remove(e, id);
                if (model.has(e, id)) model.removed(e, id);
            } else if (roll < 44) {
                // Removed and added back in one change: it starts over as freshly added.
                const ComponentValue readd{id};
                world.change_components(e, {&readd, 1}, {&id, 1});
                model.added(e, id, now);
            } else if (roll < 58) {
                if (model.has(e, id)) {
                    write_value(rng, s, e, id);
                    model.written(e, id, now);
                }
            } else if (roll < 72) {
                // Chunk write access through a (possibly filtered) query: every row of a written
                // chunk is stamped when the iteration ends.
                Query& q = kept[rng.below(kept.size())];
                const Tick since = rng.below(now + 1);
                const std::vector<std::uint32_t> expected = model.select(q.cache().desc(), since);
                const std::vector<ComponentId> required = q.cache().desc().required();
                std::vector<std::uint32_t> visited;
                std::vector<std::pair<Entity, ComponentId>> writes;
                q.for_each_chunk(
                    [&](Chunk& chunk) {
                        for (std::uint32_t i = 0; i < chunk.size(); ++i) visited.push_back(chunk.entities()[i].bits);
                        if (!rng.chance(60)) return;
                        const ComponentId written = rng.chance(80) && !required.empty() ? rng.pick(required) : rng.pick(s.all);
                        if (chunk.write<std::byte>(written) == nullptr) return;
                        for (std::uint32_t i = 0; i < chunk.size(); ++i) writes.emplace_back(chunk.entities()[i], written);
                    },
                    since);
                std::sort(visited.begin(), visited.end());
                CHECK(visited == expected);
                for (const auto& [entity, written] : writes) model.written(entity, written, now);
            } else if (roll < 77) {
                // The serial path: a chunk without a write log stamps its rows directly.
                Query& q = kept[rng.below(kept.size())];
                const std::vector<ComponentId> required = q.cache().desc().required();
                if (required.empty()) continue;
                const ComponentId written = rng.pick(required);
                const Tick since = rng.below(now + 1);
                const std::vector<std::uint32_t> expected = model.select(q.cache().desc(), since);
                std::vector<std::uint32_t> visited;
                q.cache().for_each_chunk(ecsia::detail::WorldAccess::tables(world), since, now, nullptr, [&](Chunk& chunk) {
                    chunk.write<std::byte>(written);
                    for (std::uint32_t i = 0; i < chunk.size(); ++i) {
                        visited.push_back(chunk.entities()[i].bits);
                        model.written(chunk.entities()[i], written, now);
                    }
                });
                std::sort(visited.begin(), visited.end());
                CHECK(visited == expected);
            } else if (roll < 82) {
                if (rng.chance(50)) {
                    world.each<Position>([](Entity, Position& p) { p.x += 1; });
                    for (Entity x : living) {
                        if (model.has(x, s.position)) model.written(x, s.position, now);
                    }
                } else {
                    world.each<const Position, Velocity>([](Entity, const Position& p, Velocity& v) { v.dx = p.x; });
                    for (Entity x : living) {
                        if (model.has(x, s.position) && model.has(x, s.velocity)) model.written(x, s.velocity, now);
                    }
                }
            } else if (roll < 90) {
                ecsia::detail::WorldAccess::advance_tick(world);
            } else {
                // Compare: kept queries and a fresh one, at a random `since`.
                std::vector<Query*> queries;
                for (Query& q : kept) queries.push_back(&q);
                Query fresh = world.query(random_desc(rng, s.all));
                queries.push_back(&fresh);
                for (Query* q : queries) {
                    const Tick since = rng.below(now + 1);
                    CAPTURE(since);
                    const std::vector<std::uint32_t> expected = model.select(q->cache().desc(), since);
                    CHECK(test::sorted_bits(q->entities(since)) == expected);
                    CHECK(q->count(since) == expected.size());
                    selected_total += expected.size();
                    ++checks;
                }
            }
        }
        CHECK(checks > 50);
        CHECK(selected_total > 0);
    }
}

TEST_CASE("an add marks the component added and changed while a write marks it changed only", "[reactivity]") {
    ChangeFilterScene s;
    World& world = s.world;
    const Entity e = world.spawn(Position{1, 2});  // tick 1
    ecsia::detail::WorldAccess::advance_tick(world);                         // 2
    world.add(e, Velocity{3, 4});
    ecsia::detail::WorldAccess::advance_tick(world);  // 3
    world.get_mut<Position>(e).x = 5;

    QueryDesc added_velocity, changed_velocity, added_position, changed_position;
    added_velocity.added = {s.velocity};
    changed_velocity.changed = {s.velocity};
    added_position.added = {s.position};
    changed_position.changed = {s.position};
    CHECK(world.query(added_position).count(0) == 1);
    CHECK(world.query(added_position).count(1) == 0);
    CHECK(world.query(added_velocity).count(1) == 1);
    CHECK(world.query(added_velocity).count(2) == 0);
    CHECK(world.query(changed_velocity).count(1) == 1);
    CHECK(world.query(changed_velocity).count(2) == 0);
    CHECK(world.query(changed_position).count(2) == 1);
    CHECK(world.query(changed_position).count(3) == 0);
}

TEST_CASE("a chunk write marks exactly the rows of its chunk", "[reactivity]") {
    ChangeFilterScene s;
    World& world = s.world;
    std::vector<Entity> rows;
    for (int i = 0; i < 6; ++i) rows.push_back(world.spawn(Position{float(i), 0}));
    ecsia::detail::WorldAccess::advance_tick(world);  // 2
    world.get_mut<Position>(rows[2]).y = 1;
    world.get_mut<Position>(rows[3]).y = 1;
    ecsia::detail::WorldAccess::advance_tick(world);  // 3

    // Rows 2..3 form the one chunk of a changed-since-1 query; writing it stamps them only.
    QueryDesc changed;
    changed.changed = {s.position};
    Query q = world.query(changed);
    int chunks = 0;
    q.for_each_chunk(
        [&](Chunk& chunk) {
            ++chunks;
            CHECK(chunk.size() == 2);
            chunk.write<Position>(s.position)[0].x = 10;
        },
        1);
    CHECK(chunks == 1);
    CHECK(test::sorted_bits(q.entities(2)) == test::sorted_bits({rows[2], rows[3]}));
    CHECK(q.count(0) == 6);
}

TEST_CASE("rows keep their ticks when they move to another table or fill a hole", "[reactivity]") {
    ChangeFilterScene s;
    World& world = s.world;
    const Entity a = world.spawn(Position{1, 0});  // tick 1
    ecsia::detail::WorldAccess::advance_tick(world);
    const Entity b = world.spawn(Position{2, 0});  // tick 2
    const Entity c = world.spawn(Position{3, 0});
    ecsia::detail::WorldAccess::advance_tick(world);  // 3
    world.add(b, Velocity{});  // b moves; its Position keeps added@2
    world.despawn(a);          // c is swapped into a's row; keeps added@2
    ecsia::detail::WorldAccess::advance_tick(world);      // 4

    QueryDesc added;
    added.added = {s.position};
    Query q = world.query(added);
    CHECK(test::sorted_bits(q.entities(1)) == test::sorted_bits({b, c}));
    CHECK(q.entities(2).empty());
    QueryDesc changed;
    changed.changed = {s.position};
    CHECK(world.query(changed).count(2) == 0);
}

TEST_CASE("a write log is stamped at the tick it is merged with", "[reactivity]") {
    ChangeFilterScene s;
    World& world = s.world;
    for (int i = 0; i < 4; ++i) world.spawn(Position{float(i), 0});
    ecsia::detail::WorldAccess::advance_tick(world);  // 2
    ecsia::detail::WorldAccess::advance_tick(world);  // 3
    QueryDesc with_position;
    with_position.with = {s.position};
    const TableIndex table = world.locate(world.query(with_position).entities()[0]).table;
    WriteLog log;
    log.record(table, s.position, 1, 3);
    ecsia::detail::WorldAccess::merge_write_log(world, log, 3);
    QueryDesc changed;
    changed.changed = {s.position};
    Query q = world.query(changed);
    CHECK(q.count(2) == 2);
    CHECK(q.count(1) == 2);
    CHECK(q.count(0) == 4);
}

TEST_CASE("adding a tag an entity has already is no change; adding a component it has is one", "[reactivity]") {
    ChangeFilterScene s;
    World& world = s.world;
    const ComponentId enemy = world.component<test::Enemy>();
    const Entity e = world.spawn(Position{1, 2}, test::Enemy{});  // tick 1
    std::vector<ComponentId> changes;
    for (ComponentId id : {enemy, s.position}) {
        world.observe(ObserverEvent::OnChange, id, [&changes, id](ObserverContext&) { changes.push_back(id); });
    }
    ecsia::detail::WorldAccess::advance_tick(world);  // 2
    world.add(e, test::Enemy{});
    world.add_many(std::vector<Entity>{e}, enemy);
    const ComponentValue tag{enemy};
    world.change_components(e, {&tag, 1}, {});
    world.flush();
    QueryDesc changed_enemy, changed_position;
    changed_enemy.changed = {enemy};
    changed_position.changed = {s.position};
    CHECK(world.query(changed_enemy).count(1) == 0);
    CHECK(changes.empty());
    // A component with fields is overwritten whole: a change, its observers run at the flush.
    world.add(e, Position{3, 4});
    world.flush();
    CHECK(world.query(changed_position).count(1) == 1);
    CHECK(changes == std::vector<ComponentId>{s.position});
}
