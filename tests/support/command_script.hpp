#pragma once
// Seeded random command scripts for the [command][model] tests.
//
// A script is a list of rounds; a round is what one frame's merge sees: one reservation, and a list
// of steps (spawn, despawn, add, remove, set whole or one field) that name *logical* entities.
// Drivers turn a round into world operations:
//   - BufferDriver records the steps into command buffers (one buffer, one per segment, or one per
//     step) and applies them with World::apply, as a frame's merge does;
//   - DirectDriver performs the same steps with direct World calls: the reference semantics.
// Each driver keeps its own logical entity -> handle map, so a test can check that both worlds
// handed out the very same handles.
//
// The generator keeps a model of which logical entities are alive and what they hold, so every
// step is valid except on purpose: some steps target dead entities (despawned earlier in the round,
// stale from an earlier round, or taken from the reservation but never spawned), and those must be
// skipped. A kernel only knows an overflow spawn by its pending handle inside its own buffer, so
// steps refer to an overflow spawn of the current round only from the same segment.

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "support/rng.hpp"
#include "support/test_components.hpp"
#include "ecsia/world/world_access.hpp"

namespace test {

// Every script spawn carries its logical id, so a driver learns the handle of an overflow spawn
// (which only the merge knows) from an add observer. Steps never add, remove or set it.
struct Label {
    std::uint32_t id;
};

}  // namespace test

ECSIA_COMPONENT(test::Label, "label", id)

namespace test {

struct ScriptComponents {
    ecsia::ComponentId label, position, velocity, health, target, enemy;

    // Registration order fixes the ids; every world of a comparison registers the same way.
    static ScriptComponents register_in(ecsia::World& world) {
        ScriptComponents c{};
        c.label = world.component<Label>();
        c.position = world.component<Position>();
        c.velocity = world.component<Velocity>();
        c.health = world.component<Health>();
        c.target = world.component<Target>();
        c.enemy = world.component<Enemy>();
        return c;
    }
};

// A component value of a step. Empty `bytes` means default values (and is the only form of a tag).
struct ScriptValue {
    ecsia::ComponentId id = ecsia::kNoComponent;
    std::vector<std::byte> bytes;
    // For an entity-typed write: the byte position of the field inside `bytes`, and the logical
    // entity whose handle goes there (-1 = the null handle).
    int entity_at = -1;
    int who = -1;
};

enum class ScriptOp { Spawn, SpawnOverflow, Take, Despawn, Add, Remove, SetWhole, SetField };

struct ScriptStep {
    ScriptOp op = ScriptOp::Take;
    int entity = -1;                           // logical target; for spawns and takes, the new entity
    std::vector<ScriptValue> values;           // Spawn/Add values; for Set, the one written value
    std::vector<ecsia::ComponentId> removes;  // Remove
    std::uint32_t offset = 0;                  // Set: where the written bytes start in the component
    std::string field;                         // SetField: the field name when set_field can write it exactly
    std::uint32_t segment = 0;                 // which buffer the step goes to when the round is split
};

struct ScriptRound {
    std::uint32_t reserve = 0;
    std::uint32_t segments = 1;
    std::vector<ScriptStep> steps;
};

class ScriptGenerator {
public:
    ScriptGenerator(Rng& rng, ScriptComponents components) : rng_(rng), c_(components) {}

    std::size_t entity_count() const noexcept { return model_.size(); }

    // `segments` consecutive runs of steps, each meant for its own buffer; 0 = one per step, in
    // which case no step can name an overflow spawn of this round.
    ScriptRound next_round(std::uint32_t steps, std::uint32_t segments) {
        ScriptRound round;
        round.reserve = rng_.below(6);
        round.segments = segments == 0 ? steps : std::max<std::uint32_t>(1, std::min(segments, steps));
        std::vector<std::uint32_t> segment_of(steps, 0);
        if (segments == 0) {
            for (std::uint32_t i = 0; i < steps; ++i) segment_of[i] = i;
        } else {
            std::vector<std::uint32_t> cuts;  // step indices where a new segment starts
            for (std::uint32_t s = 1; s < round.segments; ++s) cuts.push_back(1 + rng_.below(steps - 1));
            std::sort(cuts.begin(), cuts.end());
            for (std::uint32_t i = 0; i < steps; ++i) {
                segment_of[i] = static_cast<std::uint32_t>(std::upper_bound(cuts.begin(), cuts.end(), i) - cuts.begin());
            }
        }
        for (Model& m : model_) m.overflow_segment = -1;
        takes_ = 0;
        focus_ = -1;
        for (std::uint32_t i = 0; i < steps; ++i) round.steps.push_back(next_step(round.reserve, segment_of[i]));
        for (Model& m : model_) {
            if (m.status == Status::Taken) m.status = Status::Dead;  // released with a new generation
        }
        return round;
    }

private:
    enum class Status { Taken, Alive, Dead };
    struct Model {
        Status status;
        std::vector<ecsia::ComponentId> components;
        int overflow_segment = -1;  // >= 0: spawned without a reserved handle in this round, in that segment
    };
    struct Field {
        ecsia::ComponentId id;
        std::uint32_t offset, size;
        const char* name;  // nullptr: written with set_bytes
    };

    bool referable(int e, std::uint32_t segment) const {
        const int from = model_[e].overflow_segment;
        return from < 0 || static_cast<std::uint32_t>(from) == segment;
    }
    bool alive(int e) const { return model_[e].status == Status::Alive; }
    bool has(int e, ecsia::ComponentId id) const {
        const auto& list = model_[e].components;
        return std::find(list.begin(), list.end(), id) != list.end();
    }

    std::vector<ecsia::ComponentId> payload_components() const {
        return {c_.position, c_.velocity, c_.health, c_.target, c_.enemy};
    }

    // `spawning`: the entity whose spawn carries the value. It is never named in its own payload,
    // which direct calls cannot express (overflow_spawn_test.cpp covers that case).
    ScriptValue make_value(ecsia::ComponentId id, std::uint32_t segment, bool allow_default = true, int spawning = -1) {
        ScriptValue v;
        v.id = id;
        if (id == c_.enemy || (allow_default && rng_.chance(15))) return v;  // default values
        if (id == c_.position || id == c_.velocity) {
            const float xy[2] = {static_cast<float>(rng_.below(64)) / 4 - 8, static_cast<float>(rng_.below(64)) / 4 - 8};
            v.bytes.resize(sizeof xy);
            std::memcpy(v.bytes.data(), xy, sizeof xy);
        } else if (id == c_.health) {
            Health h;
            std::memset(&h, 0, sizeof h);
            h.hp = static_cast<std::int32_t>(rng_.below(200)) - 100;
            h.alive = rng_.chance(50);
            h.regen = static_cast<double>(rng_.below(1000)) / 8;
            v.bytes.resize(sizeof h);
            std::memcpy(v.bytes.data(), &h, sizeof h);
        } else if (id == c_.target) {
            v.bytes.resize(sizeof(Target));
            v.entity_at = 0;
            v.who = pick_who(segment);
            if (v.who == spawning) v.who = -1;
        }
        return v;
    }

    int pick_who(std::uint32_t segment) {
        if (model_.empty() || rng_.chance(10)) return -1;
        for (int attempt = 0; attempt < 8; ++attempt) {
            const int e = static_cast<int>(rng_.below(model_.size()));
            if (referable(e, segment)) return e;
        }
        return -1;
    }

    int pick_target(std::uint32_t segment) {
        if (focus_ >= 0 && referable(focus_, segment) && rng_.chance(60)) return focus_;
        std::vector<int> living, dead;
        for (int e = 0; e < static_cast<int>(model_.size()); ++e) {
            if (!referable(e, segment)) continue;
            (alive(e) ? living : dead).push_back(e);
        }
        if (!dead.empty() && (living.empty() || rng_.chance(12))) return rng_.pick(dead);
        return living.empty() ? -1 : rng_.pick(living);
    }

    int new_entity(Status status, int overflow_segment) {
        model_.push_back(Model{status, {}, overflow_segment});
        return static_cast<int>(model_.size()) - 1;
    }

    ScriptStep spawn_step(ScriptOp op, std::uint32_t reserve, std::uint32_t segment) {
        ScriptStep step;
        step.op = op;
        step.segment = segment;
        const bool reserved = op == ScriptOp::Spawn && takes_++ < reserve;
        step.entity = new_entity(Status::Alive, reserved ? -1 : static_cast<int>(segment));
        std::vector<ecsia::ComponentId> ids = payload_components();
        rng_.shuffle(ids);
        ids.resize(rng_.below(4));
        ids.push_back(c_.label);
        rng_.shuffle(ids);
        for (ecsia::ComponentId id : ids) {
            if (id == c_.label) {
                ScriptValue label;
                label.id = id;
                const Label value{static_cast<std::uint32_t>(step.entity)};
                label.bytes.resize(sizeof value);
                std::memcpy(label.bytes.data(), &value, sizeof value);
                step.values.push_back(label);
            } else {
                step.values.push_back(make_value(id, segment, true, step.entity));
            }
        }
        model_[step.entity].components = ids;
        focus_ = step.entity;
        return step;
    }

    ScriptStep next_step(std::uint32_t reserve, std::uint32_t segment) {
        const std::uint32_t roll = rng_.below(100);
        const int target = pick_target(segment);
        if (target < 0 || roll < 18) return spawn_step(ScriptOp::Spawn, reserve, segment);
        if (roll < 22) return spawn_step(ScriptOp::SpawnOverflow, reserve, segment);
        ScriptStep step;
        step.segment = segment;
        if (roll < 25) {
            if (takes_++ < reserve) step.entity = new_entity(Status::Taken, -1);
            return step;
        }
        step.entity = target;
        focus_ = target;
        const bool live = alive(target);
        if (roll < 33) {
            step.op = ScriptOp::Despawn;
            if (live) model_[target].status = Status::Dead;
            return step;
        }
        if (roll >= 68) {
            // Sets need a component the target has; a dead target may name any.
            std::vector<Field> fields;
            for (const Field& f : all_fields()) {
                if (!live || has(target, f.id)) fields.push_back(f);
            }
            if (!fields.empty()) {
                const Field f = rng_.pick(fields);
                const ScriptValue whole = make_value(f.id, segment, /*allow_default=*/false);
                if (roll < 84) {
                    step.op = ScriptOp::SetWhole;
                    step.values.push_back(whole);
                } else {
                    step.op = ScriptOp::SetField;
                    step.offset = f.offset;
                    step.field = f.name == nullptr ? "" : f.name;
                    ScriptValue part;
                    part.id = f.id;
                    part.bytes.assign(whole.bytes.begin() + f.offset, whole.bytes.begin() + f.offset + f.size);
                    if (f.id == c_.target) {
                        part.entity_at = 0;
                        part.who = pick_who(segment);
                    }
                    step.values.push_back(part);
                }
                return step;
            }
        }
        std::vector<ecsia::ComponentId> ids = payload_components();
        rng_.shuffle(ids);
        ids.resize(1 + rng_.below(2));
        if (roll < 55 || roll >= 68) {
            step.op = ScriptOp::Add;
            for (ecsia::ComponentId id : ids) {
                step.values.push_back(make_value(id, segment));
                if (live && !has(target, id)) model_[target].components.push_back(id);
            }
        } else {
            step.op = ScriptOp::Remove;
            step.removes = ids;
            auto& list = model_[target].components;
            for (ecsia::ComponentId id : ids) list.erase(std::remove(list.begin(), list.end(), id), list.end());
        }
        return step;
    }

    std::vector<Field> all_fields() const {
        return {{c_.position, 0, 4, "x"},     {c_.position, 4, 4, "y"},   {c_.velocity, 4, 4, "dy"},
                {c_.health, 0, 4, "hp"},      {c_.health, 4, 1, nullptr}, {c_.health, 8, 8, "regen"},
                {c_.target, 0, 4, nullptr}};
    }

    Rng& rng_;
    ScriptComponents c_;
    std::vector<Model> model_;  // by logical entity
    std::uint32_t takes_ = 0;   // reservation takes so far in this round
    int focus_ = -1;            // the entity of the previous step: the next steps favour it, so runs form
};

// The round as text, one step a line, for failure messages.
inline std::string describe(const ScriptRound& round) {
    static const char* const names[] = {"spawn", "spawn-overflow", "take", "despawn", "add", "remove", "set", "set-field"};
    std::string out = "reserve " + std::to_string(round.reserve) + ", " + std::to_string(round.segments) + " segment(s)\n";
    for (const ScriptStep& step : round.steps) {
        out += "  [" + std::to_string(step.segment) + "] " + names[static_cast<int>(step.op)] + " e" +
               std::to_string(step.entity);
        for (const ScriptValue& v : step.values) {
            out += " c" + std::to_string(v.id) + (v.bytes.empty() ? "(default)" : "");
            if (v.entity_at >= 0) out += "(who e" + std::to_string(v.who) + ")";
        }
        for (ecsia::ComponentId id : step.removes) out += " -c" + std::to_string(id);
        if (step.op == ScriptOp::SetField) out += " @" + std::to_string(step.offset);
        out += "\n";
    }
    return out;
}

// Learns handles of spawned logical entities from their Label, whoever spawned them.
class HandleMap {
public:
    HandleMap(ecsia::World& world, ecsia::ComponentId label) : world_(world) {
        observer_ = world.observe(ecsia::ObserverEvent::OnAdd, label, [this](ecsia::ObserverContext& ctx) {
            const std::uint32_t id = ctx.world.get<Label>(ctx.entity).id;
            if (handles.size() <= id) handles.resize(id + 1);
            handles[id] = ctx.entity;
        });
    }
    ~HandleMap() { world_.unobserve(observer_); }  // the observer points at this map
    HandleMap(const HandleMap&) = delete;
    HandleMap& operator=(const HandleMap&) = delete;

    ecsia::Entity operator[](int logical) const {
        return logical < 0 || static_cast<std::size_t>(logical) >= handles.size() ? ecsia::kNullEntity : handles[logical];
    }
    void set(int logical, ecsia::Entity e) {
        if (handles.size() <= static_cast<std::size_t>(logical)) handles.resize(logical + 1);
        handles[logical] = e;
    }

    std::vector<ecsia::Entity> handles;  // by logical entity; null until known

private:
    ecsia::World& world_;
    ecsia::ObserverId observer_ = 0;
};

// Fills entity fields of a value's bytes with handles chosen by `resolve(logical)`.
template <typename Resolve>
std::vector<std::byte> resolved_bytes(const ScriptValue& value, Resolve&& resolve) {
    std::vector<std::byte> bytes = value.bytes;
    if (value.entity_at >= 0) {
        const ecsia::Entity who = resolve(value.who);
        std::memcpy(bytes.data() + value.entity_at, &who.bits, 4);
    }
    return bytes;
}

// Runs rounds through command buffers and World::apply.
class BufferDriver {
public:
    enum class Split { OneBuffer, Segments, EveryStep };

    BufferDriver(ecsia::World& world, ecsia::ComponentId label) : world_(world), map_(world, label) {}

    const std::vector<ecsia::Entity>& handles() const noexcept { return map_.handles; }
    std::size_t records_recorded() const noexcept { return records_; }

    // Records the round and applies it; `order` (when given) permutes the buffers.
    ecsia::ApplyStats run(const ScriptRound& round, Split split, const std::vector<std::size_t>& order = {}) {
        const ecsia::HandleLayout& layout = world_.entities().layout();
        ecsia::EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world_, round.reserve);
        const std::size_t buffer_count = split == Split::OneBuffer ? 1 : round.segments;
        std::vector<ecsia::CommandBuffer> buffers(buffer_count);
        std::vector<std::vector<int>> overflow(buffer_count);  // logical entities by pending ordinal
        for (const ScriptStep& step : round.steps) {
            const std::size_t b = split == Split::OneBuffer ? 0 : step.segment;
            auto resolve = [&](int logical) {
                const auto& list = overflow[b];
                const auto it = std::find(list.begin(), list.end(), logical);
                if (logical >= 0 && it != list.end()) return layout.pending(static_cast<std::uint32_t>(it - list.begin()));
                return map_[logical];
            };
            std::vector<std::vector<std::byte>> storage;
            std::vector<ecsia::ComponentValue> values;
            storage.reserve(step.values.size());
            for (const ScriptValue& v : step.values) {
                storage.push_back(resolved_bytes(v, resolve));
                values.push_back(ecsia::ComponentValue{v.id, storage.back().empty() ? nullptr : storage.back().data(),
                                                       static_cast<std::uint32_t>(storage.back().size())});
            }
            ecsia::CommandBuffer& buffer = buffers[b];
            switch (step.op) {
                case ScriptOp::Spawn:
                case ScriptOp::SpawnOverflow: {
                    const ecsia::Entity handle = step.op == ScriptOp::Spawn ? reservation.take() : ecsia::kNullEntity;
                    if (handle.is_null()) {
                        overflow[b].push_back(step.entity);
                    } else {
                        map_.set(step.entity, handle);
                    }
                    buffer.spawn(handle, values.data(), values.size());
                    break;
                }
                case ScriptOp::Take: {
                    const ecsia::Entity handle = reservation.take();
                    if (step.entity >= 0) map_.set(step.entity, handle);
                    continue;
                }
                case ScriptOp::Despawn: buffer.despawn(resolve(step.entity)); break;
                case ScriptOp::Add: buffer.add(resolve(step.entity), values.data(), values.size()); break;
                case ScriptOp::Remove:
                    buffer.remove(resolve(step.entity), step.removes.data(), step.removes.size());
                    break;
                case ScriptOp::SetWhole:
                case ScriptOp::SetField:
                    buffer.set(resolve(step.entity), values[0].id, step.offset, storage[0].data(),
                               static_cast<std::uint32_t>(storage[0].size()));
                    break;
            }
            ++records_;
        }
        std::vector<ecsia::CommandBuffer*> list;
        for (std::size_t i = 0; i < buffer_count; ++i) list.push_back(&buffers[order.empty() ? i : order[i]]);
        ecsia::EntityReservation* reservations[] = {&reservation};
        return ecsia::detail::WorldAccess::apply(world_, list, reservations);
    }

private:
    ecsia::World& world_;
    HandleMap map_;
    std::size_t records_ = 0;
};

// Runs rounds through direct World calls: the reference the buffered runs must match.
class DirectDriver {
public:
    DirectDriver(ecsia::World& world, ecsia::ComponentId label) : world_(world), map_(world, label) {}

    const std::vector<ecsia::Entity>& handles() const noexcept { return map_.handles; }

    // Returns how many steps were skipped because their target was not alive.
    std::size_t run(const ScriptRound& round) {
        ecsia::EntityReservation reservation = ecsia::detail::WorldAccess::reserve(world_, round.reserve);
        std::size_t skipped = 0;
        auto resolve = [&](int logical) { return map_[logical]; };
        for (const ScriptStep& step : round.steps) {
            std::vector<std::vector<std::byte>> storage;
            std::vector<ecsia::ComponentValue> values;
            storage.reserve(step.values.size());
            for (const ScriptValue& v : step.values) {
                storage.push_back(resolved_bytes(v, resolve));
                values.push_back(ecsia::ComponentValue{v.id, storage.back().empty() ? nullptr : storage.back().data(),
                                                       static_cast<std::uint32_t>(storage.back().size())});
            }
            if (step.op == ScriptOp::Spawn || step.op == ScriptOp::SpawnOverflow || step.op == ScriptOp::Take) {
                const ecsia::Entity handle = step.op == ScriptOp::SpawnOverflow ? ecsia::kNullEntity : reservation.take();
                if (step.op == ScriptOp::Take) {
                    if (step.entity >= 0) map_.set(step.entity, handle);
                } else if (handle.is_null()) {
                    world_.spawn_with(values);
                } else {
                    // The world has no direct call that spawns into a reserved handle: a one-record
                    // buffer applied on the spot is the closest equivalent.
                    ecsia::CommandBuffer one;
                    one.spawn(handle, values.data(), values.size());
                    ecsia::CommandBuffer* list[] = {&one};
                    ecsia::detail::WorldAccess::apply(world_, list);
                }
                continue;
            }
            const ecsia::Entity target = map_[step.entity];
            if (!world_.is_alive(target)) {
                ++skipped;
                continue;
            }
            switch (step.op) {
                case ScriptOp::Despawn: world_.despawn(target); break;
                case ScriptOp::Add: world_.change_components(target, values, {}); break;
                case ScriptOp::Remove: world_.change_components(target, {}, step.removes); break;
                case ScriptOp::SetWhole:
                    world_.set_bytes(target, values[0].id, 0, storage[0].data(), static_cast<std::uint32_t>(storage[0].size()));
                    break;
                case ScriptOp::SetField: {
                    const ecsia::FieldDesc* field = world_.components().desc(values[0].id).find_field(step.field);
                    if (field != nullptr) {
                        world_.set_field(target, values[0].id, step.field, ecsia::decode_field(field->type, storage[0].data()));
                    } else {
                        world_.set_bytes(target, values[0].id, step.offset, storage[0].data(),
                                         static_cast<std::uint32_t>(storage[0].size()));
                    }
                    break;
                }
                default: break;
            }
        }
        // Taken-but-unspawned and untaken handles go back exactly as a merge returns them.
        ecsia::EntityReservation* reservations[] = {&reservation};
        ecsia::detail::WorldAccess::apply(world_, {}, reservations);
        return skipped;
    }

private:
    ecsia::World& world_;
    HandleMap map_;
};

}  // namespace test
