// Property test: thousands of random operations run against the World and against a reference
// model made of plain maps (handle bits -> component name -> field values). After every step the
// two must agree on the alive set, each entity's component set and values, and query results.
// Rejected operations (bad input, full world, wrong phase) are mixed in and must change nothing.
// At checkpoints a replica world is built from the model's content in a shuffled order, through
// different table histories, and must have the same state_hash.

#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/reference_model.hpp"
#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using namespace test::model;

namespace {

struct RunOptions {
    std::uint32_t seed = 1;
    unsigned index_bits = 22;
    std::uint32_t max_entities = 40;
    int steps = 2000;
    bool check_every_step = true;  // model agreement after each step
    int replica_every = 0;         // build and compare a replica every N steps (0 = only at the end)
};

class ModelRun {
public:
    explicit ModelRun(const RunOptions& options)
        : options_(options), world_(world_options(options)), random_(options.seed), ids_(register_components(world_)) {
        // Retiring slots is reported (G3); here it is expected, and counted through retired_count().
        world_.diagnostics().set_sink([](const std::string&) {});
        // Queries made before any table exists: their caches must keep up as tables appear.
        const ComponentId position = ids_[0], velocity = ids_[1], health = ids_[2], target = ids_[3],
                          enemy = ids_[4], counter = ids_[5], frozen = ids_[7];
        for (QueryDesc desc : {test::query_terms({position}), test::query_terms({velocity}, {enemy}),
                               test::query_terms({health, target}, {}, {counter}), test::query_terms({}, {frozen}),
                               test::query_terms({enemy, position}, {velocity, frozen})}) {
            standing_descs_.push_back(desc);
            standing_.push_back(world_.query(desc));
        }
    }

    void run() {
        for (int step = 0; step < options_.steps; ++step) {
            step_ = step;
            this->step();
            if (options_.check_every_step) {
                const std::string mismatch = check_model();
                INFO("seed " << options_.seed << ", step " << step << ", last operation: " << last_op_);
                REQUIRE(mismatch == "");
            }
            if (options_.replica_every > 0 && (step + 1) % options_.replica_every == 0) check_replica();
        }
        const std::string mismatch = check_model();
        INFO("seed " << options_.seed << " at the end");
        REQUIRE(mismatch == "");
        check_replica();
    }

    int operations_applied() const { return applied_; }
    int operations_rejected() const { return rejected_; }
    int full_world_spawns() const { return full_world_spawns_; }
    std::uint32_t retired_slots() const { return retired_; }

private:
    static WorldOptions world_options(const RunOptions& options) {
        WorldOptions o;
        o.index_bits = options.index_bits;
        o.max_entities = options.max_entities;
        return o;
    }

    const ComponentDesc& desc(ComponentId id) const { return world_.components().desc(id); }
    std::vector<Entity> alive() const {
        std::vector<Entity> out;
        for (const auto& [bits, content] : model_) out.push_back(Entity{bits});
        return out;
    }

    double random_value(FieldType type) {
        switch (type) {
            case FieldType::F32: return double(int(random_.below(8001)) - 4000) / 4;
            case FieldType::F64: return double(std::int64_t(random_.below(2000001)) - 1000000) / 1024;
            case FieldType::I8: return int(random_.below(256)) - 128;
            case FieldType::I16: return int(random_.below(65536)) - 32768;
            case FieldType::I32: return double(std::int64_t(random_.bits()) - 2147483648LL);
            case FieldType::U8: return random_.below(256);
            case FieldType::U16: return random_.below(65536);
            case FieldType::U32: return random_.bits();
            case FieldType::Bool: return random_.below(2);
            case FieldType::Entity: {
                const std::uint32_t kind = random_.below(4);
                if (kind == 0 || model_.empty()) return kNullBits;
                if (kind == 1) return alive()[random_.below(std::uint32_t(model_.size()))].bits;
                if (kind == 2 && !dead_.empty()) return random_.pick(dead_).bits;
                return random_.bits();
            }
        }
        return 0;
    }
    Values random_values(const ComponentDesc& d) {
        Values values;
        for (const FieldDesc& field : d.fields) values.push_back(random_value(field.type));
        return values;
    }

    // Distinct random components, `count` at most.
    std::vector<ComponentId> random_components(std::uint32_t count) {
        std::vector<ComponentId> pool = ids_;
        random_.shuffle(pool);
        pool.resize(std::min<std::size_t>(count, pool.size()));
        return pool;
    }

    // A ComponentValue per id, with random values or (sometimes) the defaults. Buffers live in
    // `storage`; `values` receives what each component should hold if freshly added.
    std::vector<ComponentValue> make_values(const std::vector<ComponentId>& ids, std::vector<std::vector<std::byte>>& storage,
                                            std::vector<const Values*>& given, std::vector<Values>& values_storage) {
        storage.clear();
        storage.reserve(ids.size());
        values_storage.clear();
        values_storage.reserve(ids.size());
        given.clear();
        std::vector<ComponentValue> out;
        for (ComponentId id : ids) {
            const ComponentDesc& d = desc(id);
            if (d.is_tag() || random_.chance(20)) {
                out.push_back(ComponentValue{id});
                given.push_back(nullptr);
                continue;
            }
            values_storage.push_back(random_values(d));
            storage.push_back(encode(d, values_storage.back()));
            out.push_back(ComponentValue{id, storage.back().data(), d.size});
            given.push_back(&values_storage.back());
        }
        return out;
    }

    // ---- operations

    void step() {
        const std::size_t population = model_.size();
        const std::uint32_t roll = random_.below(100);
        if (population == 0 || roll < (population < 12 ? 30u : 17u)) return op_spawn();
        if (roll < 30) return op_despawn();
        if (roll < 44) return op_add();
        if (roll < 54) return op_remove();
        if (roll < 62) return op_change();
        if (roll < 74) return op_set_field();
        if (roll < 82) return op_set_bytes();
        if (roll < 92) return op_query();
        return op_bad_input();
    }

    void op_spawn() {
        last_op_ = "spawn";
        std::vector<ComponentId> ids;
        for (ComponentId id : ids_) {
            if (random_.chance(30)) ids.push_back(id);
        }
        random_.shuffle(ids);
        std::vector<std::vector<std::byte>> bytes;
        std::vector<const Values*> given;
        std::vector<Values> values;
        const std::vector<ComponentValue> list = make_values(ids, bytes, given, values);
        if (model_.size() + retired_ == options_.max_entities) {
            last_op_ = "spawn into a full world";
            ECSIA_REQUIRE_REJECTED(world_, ErrorCode::CapacityExceeded, world_.spawn_with(list));
            ++rejected_;
            ++full_world_spawns_;
            return;
        }
        const Entity e = world_.spawn_with(list);
        REQUIRE(ever_spawned_.insert(e.bits).second);  // a handle is never handed out twice (G4)
        lifecycle_.push_back({true, e.bits});
        Content& content = model_[e.bits];
        for (std::size_t i = 0; i < ids.size(); ++i) {
            content[desc(ids[i]).name] = given[i] != nullptr ? *given[i] : default_values(desc(ids[i]));
        }
        ++applied_;
    }

    void op_despawn() {
        last_op_ = "despawn";
        const Entity e = random_.pick(alive());
        world_.despawn(e);
        model_.erase(e.bits);
        dead_.push_back(e);
        lifecycle_.push_back({false, e.bits});
        if (world_.entities().layout().generation(e) == world_.entities().layout().max_live_generation()) ++retired_;
        ++applied_;
    }

    // Applies removes then adds to the model exactly as World::change_components defines them.
    void model_change(Entity e, const std::vector<ComponentId>& adds, const std::vector<const Values*>& given,
                      const std::vector<ComponentId>& removes) {
        Content& content = model_[e.bits];
        for (ComponentId id : removes) content.erase(desc(id).name);
        for (std::size_t i = 0; i < adds.size(); ++i) {
            const std::string& name = desc(adds[i]).name;
            const bool kept = content.count(name) != 0;
            if (given[i] != nullptr) {
                content[name] = *given[i];
            } else if (!kept) {
                content[name] = default_values(desc(adds[i]));  // added, or removed and re-added: defaults
            }  // kept and given no bytes: the value stays
        }
    }

    void op_add() {
        const Entity e = random_.pick(alive());
        const std::vector<ComponentId> ids = random_components(1 + random_.below(2));
        std::vector<std::vector<std::byte>> bytes;
        std::vector<const Values*> given;
        std::vector<Values> values;
        const std::vector<ComponentValue> list = make_values(ids, bytes, given, values);
        if (list.size() == 1) {
            last_op_ = "add " + desc(ids[0]).name;
            world_.add(e, list[0]);
        } else {
            last_op_ = "add " + desc(ids[0]).name + " and " + desc(ids[1]).name;
            world_.change_components(e, list, {});
        }
        model_change(e, ids, given, {});
        ++applied_;
    }

    void op_remove() {
        const Entity e = random_.pick(alive());
        std::vector<ComponentId> ids = random_components(1 + random_.below(2));
        if (random_.chance(10)) ids.push_back(ids[0]);  // a duplicate remove is harmless
        last_op_ = "remove " + desc(ids[0]).name + (ids.size() > 1 ? " and more" : "");
        if (ids.size() == 1) {
            world_.remove(e, ids[0]);
        } else {
            world_.change_components(e, {}, ids);
        }
        model_change(e, {}, {}, ids);
        ++applied_;
    }

    void op_change() {
        const Entity e = random_.pick(alive());
        const std::vector<ComponentId> removes = random_components(1 + random_.below(2));
        const std::vector<ComponentId> adds = random_components(1 + random_.below(3));
        std::vector<std::vector<std::byte>> bytes;
        std::vector<const Values*> given;
        std::vector<Values> values;
        const std::vector<ComponentValue> list = make_values(adds, bytes, given, values);
        last_op_ = "change_components: remove " + std::to_string(removes.size()) + ", add " + std::to_string(adds.size());
        world_.change_components(e, list, removes);
        model_change(e, adds, given, removes);
        ++applied_;
    }

    // An alive entity and one of its components with fields, or false when there is none.
    bool pick_valued(Entity& e, ComponentId& id) {
        std::vector<std::pair<Entity, ComponentId>> candidates;
        for (const auto& [bits, content] : model_) {
            for (const auto& [name, values] : content) {
                if (!values.empty()) candidates.push_back({Entity{bits}, world_.component_id(name)});
            }
        }
        if (candidates.empty()) return false;
        std::tie(e, id) = random_.pick(candidates);
        return true;
    }

    void op_set_field() {
        Entity e;
        ComponentId id;
        if (!pick_valued(e, id)) return op_spawn();
        const ComponentDesc& d = desc(id);
        const std::uint32_t field = random_.below(std::uint32_t(d.fields.size()));
        const double value = random_value(d.fields[field].type);
        last_op_ = "set_field " + d.name + "." + d.fields[field].name;
        world_.set_field(e, id, d.fields[field].name, value);
        model_[e.bits][d.name][field] = value;
        ++applied_;
    }

    void op_set_bytes() {
        Entity e;
        ComponentId id;
        if (!pick_valued(e, id)) return op_spawn();
        const ComponentDesc& d = desc(id);
        if (random_.chance(50)) {
            last_op_ = "set_bytes whole " + d.name;
            const Values values = random_values(d);
            const std::vector<std::byte> bytes = encode(d, values);
            world_.set_bytes(e, id, 0, bytes.data(), d.size);
            model_[e.bits][d.name] = values;
        } else {
            const std::uint32_t field = random_.below(std::uint32_t(d.fields.size()));
            const FieldDesc& f = d.fields[field];
            last_op_ = "set_bytes " + d.name + "." + f.name;
            const double value = random_value(f.type);
            std::byte bytes[8];
            encode_field(f.type, value, bytes, f.name);
            world_.set_bytes(e, id, f.offset, bytes, std::uint32_t(field_size(f.type)));
            model_[e.bits][d.name][field] = value;
        }
        ++applied_;
    }

    void op_query() {
        last_op_ = "query";
        QueryDesc desc_terms;
        for (ComponentId id : ids_) {
            const std::uint32_t roll = random_.below(100);
            if (roll < 15) {
                desc_terms.with.push_back(id);
            } else if (roll < 25) {
                desc_terms.without.push_back(id);
            } else if (roll < 30) {
                desc_terms.optional.push_back(id);
            }
        }
        Query query = world_.query(desc_terms);
        const std::string mismatch = check_query(query, desc_terms);
        INFO("seed " << options_.seed << ", step " << step_);
        REQUIRE(mismatch == "");
    }

    void op_bad_input() {
        const std::uint32_t kind = random_.below(8);
        ++rejected_;
        Entity e = random_.pick(alive());
        const Content& content = model_[e.bits];
        switch (kind) {
            case 0: {
                if (dead_.empty()) break;
                const Entity stale = random_.pick(dead_);
                const ComponentId id = random_.pick(ids_);
                last_op_ = "stale handle access";
                switch (random_.below(7)) {
                    case 0: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::StaleEntity, (void)world_.has(stale, id)); break;
                    case 1: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::StaleEntity, world_.add(stale, ComponentValue{id})); break;
                    case 2: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::StaleEntity, world_.remove(stale, id)); break;
                    case 3: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::StaleEntity, world_.despawn(stale)); break;
                    case 4: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::StaleEntity, (void)world_.get_bytes(stale, id)); break;
                    case 5: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::StaleEntity, world_.set_field(stale, id, "x", 0)); break;
                    default: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::StaleEntity, (void)world_.get<test::Position>(stale)); break;
                }
                return;
            }
            case 1: {
                ComponentId id;
                if (!pick_valued(e, id)) break;
                const ComponentDesc& d = desc(id);
                const FieldDesc& f = d.fields[random_.below(std::uint32_t(d.fields.size()))];
                double bad = 0;
                switch (f.type) {
                    case FieldType::F32: bad = 1e39; break;
                    case FieldType::F64: return op_query();  // every double fits
                    case FieldType::I8: bad = 128; break;
                    case FieldType::I16: bad = -32769; break;
                    case FieldType::I32: bad = 0.5; break;
                    case FieldType::U8: bad = -1; break;
                    case FieldType::U16: bad = 65536; break;
                    case FieldType::U32: bad = 4294967296.0; break;
                    case FieldType::Bool: bad = 2; break;
                    case FieldType::Entity: bad = -1; break;
                }
                last_op_ = "out-of-range set_field " + d.name + "." + f.name;
                ECSIA_REQUIRE_REJECTED(world_, ErrorCode::BadValue, world_.set_field(e, id, f.name, bad));
                return;
            }
            case 2: {
                ComponentId id;
                if (!pick_valued(e, id)) break;
                last_op_ = "unknown field";
                ECSIA_REQUIRE_REJECTED(world_, ErrorCode::UnknownField, world_.set_field(e, id, "no_such_field", 1));
                return;
            }
            case 3: {
                for (ComponentId id : ids_) {
                    if (content.count(desc(id).name) != 0) continue;
                    last_op_ = "missing component";
                    ECSIA_REQUIRE_REJECTED(world_, ErrorCode::MissingComponent, (void)world_.get_bytes(e, id));
                    return;
                }
                break;
            }
            case 4: {
                for (ComponentId id : ids_) {
                    if (!desc(id).is_tag() || content.count(desc(id).name) == 0) continue;
                    last_op_ = "tag read";
                    ECSIA_REQUIRE_REJECTED(world_, ErrorCode::BadValue, (void)world_.get_bytes(e, id));
                    return;
                }
                break;
            }
            case 5: {
                last_op_ = "structural change during a wave";
                const ComponentId id = random_.pick(ids_);
                ecsia::detail::WorldAccess::set_phase(world_, WorldPhase::Wave);
                switch (random_.below(4)) {
                    case 0: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::WrongPhase, world_.spawn()); break;
                    case 1: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::WrongPhase, world_.despawn(e)); break;
                    case 2: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::WrongPhase, world_.add(e, ComponentValue{id})); break;
                    default: ECSIA_REQUIRE_REJECTED(world_, ErrorCode::WrongPhase, world_.remove(e, id)); break;
                }
                ecsia::detail::WorldAccess::set_phase(world_, WorldPhase::Serial);
                return;
            }
            case 6: {
                last_op_ = "add with the wrong byte size";
                const ComponentId id = ids_[2];  // health
                const std::byte bytes[64] = {};
                const ComponentValue wrong{id, bytes, desc(id).size + 4};
                ECSIA_REQUIRE_REJECTED(world_, ErrorCode::BadValue, world_.add(e, wrong));
                return;
            }
            default: {
                last_op_ = "unknown component id";
                // Past every registered id (the built-in relations come before the model's components).
                const ComponentId unknown = ComponentId(world_.components().size() + random_.below(100));
                ECSIA_REQUIRE_REJECTED(world_, ErrorCode::UnknownComponent, world_.add(e, ComponentValue{unknown}));
                return;
            }
        }
        --rejected_;
        op_query();
    }

    // ---- checks

    std::string check_query(Query& query, const QueryDesc& terms) {
        std::vector<std::uint32_t> got;
        for (Entity e : query.entities()) got.push_back(e.bits);
        std::sort(got.begin(), got.end());
        if (std::adjacent_find(got.begin(), got.end()) != got.end()) return "a query yielded an entity twice";
        std::vector<std::uint32_t> expected;
        for (const auto& [bits, content] : model_) {
            bool selected = true;
            for (ComponentId id : terms.with) selected = selected && content.count(desc(id).name) != 0;
            for (ComponentId id : terms.without) selected = selected && content.count(desc(id).name) == 0;
            if (selected) expected.push_back(bits);
        }
        if (got != expected) {
            return "query selected " + std::to_string(got.size()) + " entities, the model " + std::to_string(expected.size());
        }
        if (query.count() != expected.size()) return "query count " + std::to_string(query.count()) + " disagrees";
        return "";
    }

    std::string check_model() {
        const EntityPool& pool = world_.entities();
        if (world_.alive_count() != model_.size()) {
            return "alive_count " + std::to_string(world_.alive_count()) + ", model " + std::to_string(model_.size());
        }
        std::uint32_t found = 0;
        // The entity table as lookups read it: a slot holds exactly its live handle, and that
        // handle's table and row, where the table lists it.
        const detail::WorldAccess::EntityMemory memory = detail::WorldAccess::entity_memory(world_);
        for (std::uint32_t index = 0; index < pool.slot_count(); ++index) {
            const Entity e = pool.alive_at(index);
            const Entity placed = index < memory.count ? memory.placed[index].entity : kNullEntity;
            if (!(placed == e)) {
                return "slot " + std::to_string(index) + "'s location holds handle " + std::to_string(placed.bits) +
                       ", its live entity is " + std::to_string(e.bits);
            }
            if (e.is_null()) continue;
            // A table whose index fits above the row's bits is in the location's word itself; the
            // others (29 index bits: the 7th table and up) are found through the escape.
            const std::uint32_t table_row = memory.placed[index].table_row;
            const std::uint32_t code = table_row >> memory.row_bits;
            const TableIndex table = code == memory.escape ? memory.tables[index] : code;
            const std::uint32_t row = table_row & pool.layout().index_mask();
            if (code != memory.escape && memory.tables[index] != code) {
                return "slot " + std::to_string(index) + "'s location says table " + std::to_string(code) +
                       ", its table array " + std::to_string(memory.tables[index]);
            }
            if (table >= world_.tables().table_count() || row >= world_.tables().table(table).size() ||
                !(world_.tables().table(table).entities()[row] == e)) {
                return "slot " + std::to_string(index) + "'s location (table " + std::to_string(table) + ", row " +
                       std::to_string(row) + ") is not where entity " + std::to_string(e.bits) + " is";
            }
            ++found;
            if (model_.count(e.bits) == 0) return "entity " + std::to_string(e.bits) + " is alive but not in the model";
        }
        if (found != model_.size()) return "the pool's slots hold " + std::to_string(found) + " live entities";
        for (Entity e : dead_) {
            if (world_.is_alive(e)) return "despawned handle " + std::to_string(e.bits) + " is alive again";
        }
        for (const auto& [bits, content] : model_) {
            const Entity e{bits};
            if (!world_.is_alive(e)) return "entity " + std::to_string(bits) + " should be alive";
            for (ComponentId id : ids_) {
                const ComponentDesc& d = desc(id);
                auto it = content.find(d.name);
                if (world_.has(e, id) != (it != content.end())) {
                    return "entity " + std::to_string(bits) + ": has(" + d.name + ") disagrees; model " + describe(content);
                }
                if (it == content.end()) continue;
                for (std::size_t f = 0; f < d.fields.size(); ++f) {
                    const double got = world_.get_field(e, id, d.fields[f].name);
                    if (got != it->second[f]) {
                        std::ostringstream out;
                        out << "entity " << bits << ": " << d.name << "." << d.fields[f].name << " is " << got
                            << ", model " << it->second[f];
                        return out.str();
                    }
                }
            }
        }
        for (std::size_t i = 0; i < standing_.size(); ++i) {
            const std::string mismatch = check_query(standing_[i], standing_descs_[i]);
            if (!mismatch.empty()) return "standing query " + std::to_string(i) + ": " + mismatch;
        }
        return "";
    }

    // Replays the handle lifecycle on bare entities (so handles match), then adds the model's
    // content entity by entity and component by component in a shuffled order.
    void check_replica() {
        World replica(world_options(options_));
        replica.diagnostics().set_sink([](const std::string&) {});
        const std::vector<ComponentId> ids = register_components(replica);
        REQUIRE(ids == ids_);
        for (const auto& [spawned, bits] : lifecycle_) {
            if (spawned) {
                REQUIRE(replica.spawn().bits == bits);
            } else {
                replica.despawn(Entity{bits});
            }
        }
        std::vector<Entity> order = alive();
        random_.shuffle(order);
        for (Entity e : order) {
            std::vector<std::pair<std::string, Values>> parts(model_[e.bits].begin(), model_[e.bits].end());
            random_.shuffle(parts);
            for (const auto& [name, values] : parts) {
                const ComponentId id = replica.component_id(name);
                const ComponentDesc& d = replica.components().desc(id);
                if (d.is_tag() || random_.chance(50)) {
                    const std::vector<std::byte> bytes = encode(d, values);
                    replica.add(e, ComponentValue{id, d.is_tag() ? nullptr : bytes.data(), d.size});
                } else {
                    replica.add(e, ComponentValue{id});
                    for (std::size_t f = 0; f < d.fields.size(); ++f) replica.set_field(e, id, d.fields[f].name, values[f]);
                }
            }
        }
        INFO("seed " << options_.seed << ", step " << step_);
        REQUIRE(replica.alive_count() == world_.alive_count());
        REQUIRE(state_hash(replica) == state_hash(world_));

        // And the hash is not blind: one changed field in the replica tells the worlds apart.
        Entity e;
        ComponentId id;
        if (!pick_valued(e, id)) return;
        const ComponentDesc& d = desc(id);
        const FieldDesc& f = d.fields[0];
        const double old_value = replica.get_field(e, id, f.name);
        const double new_value = f.type == FieldType::Bool ? 1 - old_value : (old_value == 0 ? 1 : 0);
        replica.set_field(e, id, f.name, new_value);
        CHECK(state_hash(replica) != state_hash(world_));
        replica.set_field(e, id, f.name, old_value);
        CHECK(state_hash(replica) == state_hash(world_));
    }

    RunOptions options_;
    World world_;
    Random random_;
    std::vector<ComponentId> ids_;
    Model model_;
    std::vector<Entity> dead_;                                // every despawned handle
    std::set<std::uint32_t> ever_spawned_;                    // every handle ever handed out
    std::vector<std::pair<bool, std::uint32_t>> lifecycle_;  // (spawned?, handle) in order
    std::uint32_t retired_ = 0;                               // slots despawned at their last generation
    std::vector<QueryDesc> standing_descs_;
    std::vector<Query> standing_;
    std::string last_op_;
    int step_ = 0;
    int applied_ = 0;
    int rejected_ = 0;
    int full_world_spawns_ = 0;
};

}  // namespace

TEST_CASE("random operations on a world agree with a reference model after every step", "[world][model]") {
    for (std::uint32_t seed : {1u, 2u, 3u, 20240611u}) {
        RunOptions options;
        options.seed = seed;
        ModelRun run(options);
        run.run();
        CHECK(run.operations_applied() > 1000);
        CHECK(run.operations_rejected() > 50);
        CHECK(run.full_world_spawns() > 0);  // the run reached max_entities
    }
}

TEST_CASE("random operations agree with the model when handle generations run out", "[world][model][entity]") {
    // 29 index bits leave generations 0..6 for live entities: slots retire during the run and the
    // world's capacity shrinks with them.
    for (std::uint32_t seed : {7u, 8u}) {
        RunOptions options;
        options.seed = seed;
        options.index_bits = 29;
        options.max_entities = 64;
        options.steps = 2500;
        ModelRun run(options);
        run.run();
        CHECK(run.retired_slots() > 0);
        CHECK(run.full_world_spawns() > 0);
    }
}

TEST_CASE("worlds rebuilt from the model's content in shuffled orders hash equal at every checkpoint",
          "[world][model]") {
    for (std::uint32_t seed : {11u, 12u, 13u}) {
        RunOptions options;
        options.seed = seed;
        options.check_every_step = false;
        options.replica_every = 100;
        options.steps = 1500;
        ModelRun run(options);
        run.run();
    }
}
