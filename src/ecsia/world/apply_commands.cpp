// Applying command buffers: the serial merge of structural changes recorded during a wave (or by
// observers). Buffers apply in the order given, records in the order recorded. Consecutive
// Spawn/Add/Remove records on one entity fold into one table move when no component appears twice
// in the run, which gives the same world as applying them one by one. An Instantiate record
// applies alone (World::instantiate places its row in its final table in one step already).

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "ecsia/base/error.hpp"
#include "ecsia/entity/pending_scan.hpp"
#include "ecsia/relation/relation_store.hpp"
#include "ecsia/topic/topic_store.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

class CommandApplier {
public:
    CommandApplier(World& world, ApplyStats& stats) : world_(world), stats_(stats) {}

    // A record (or folded run) that the world rejects is skipped with a diagnostic; the rest
    // apply. One try around the whole buffer, resumed after a rejection, rather than one per
    // record: in wasm (JS-based exceptions) every call made inside a try block is a round trip
    // through JS.
    void apply_buffer(const CommandBuffer& buffer) {
        pending_.clear();
        buffer_ = &buffer;
        named_ = buffer.pending_names().stride != 0;
        Cursor cursor(buffer);
        advance(cursor);
        while (cursor.have) {
            try {
                apply_from(cursor);
            } catch (const Error& error) {
                // Only the world's rejection of a record is skipped; a malformed buffer is not.
                if (cursor.applying == Applying::Nothing) throw;
                recover(cursor, error);
            }
        }
        resolve_in_place();
        apply_messages();
    }

    // Entity fields written in place that were refused (set to null): reported once per apply.
    std::size_t refused_in_place() const noexcept { return refused_in_place_; }
    const std::string& first_refused_in_place() const noexcept { return first_refused_in_place_; }

private:
    struct Lookahead;
    struct Cursor;
    void advance(Cursor& cursor) {
        prefetch_ahead(cursor.ahead);
        cursor.have = cursor.reader.next(cursor.record);
    }

    // Applies records from the cursor to the end of the buffer. No try and no local with a
    // destructor here, so the world's functions are called directly.
    [[gnu::noinline]] void apply_from(Cursor& cursor) {
        while (cursor.have) {
            // Fold a run of Spawn/Add/Remove records that target the same entity.
            const CommandOp op = cursor.record.op;
            if (op == CommandOp::Spawn || op == CommandOp::Add || op == CommandOp::Remove) {
                start_run(cursor.record);
                while ((advance(cursor), cursor.have) && extend_run(cursor.record)) {
                }
                cursor.applying = Applying::Run;
                finish_run();
            } else {
                cursor.applying = Applying::Single;
                apply_single(cursor.record);
                advance(cursor);
            }
            cursor.applying = Applying::Nothing;
        }
    }

    // What a rejection skipped; then the cursor moves past it.
    void recover(Cursor& cursor, const Error& error) {
        if (cursor.applying == Applying::Run && run_spawn_) stats_.skipped_dead_target += run_records_ - 1;
        world_.diagnostics_.report(std::string("command skipped: ") + error.what());
        if (cursor.applying == Applying::Single) advance(cursor);  // a run's cursor is past it already
        cursor.applying = Applying::Nothing;
    }

    // Software prefetch a few records ahead of the one being applied. With many entities, each
    // record's pool slot, location and table row are cache misses, paid one after another; asking
    // for them early lets the memory system fetch several records' worth at once. Only hints: no
    // state changes, so the result is the same with or without them.
    static constexpr int kSlotDistance = 8;  // records ahead: pool slot and location
    static constexpr int kRowDistance = 4;   // records ahead: the row (its location is cached by then)
    struct Lookahead {
        explicit Lookahead(const CommandBuffer& buffer) : far(buffer), near(buffer) {}
        CommandReader far;
        CommandReader near;
        int far_lead = 0;
        int near_lead = 0;
    };
    enum class Applying : std::uint8_t { Nothing, Run, Single };
    struct Cursor {
        explicit Cursor(const CommandBuffer& buffer) : reader(buffer), ahead(buffer) {}
        CommandReader reader;
        Lookahead ahead;
        CommandRecord record{};
        bool have = false;
        Applying applying = Applying::Nothing;  // what apply_from was in when a rejection came
    };

    void prefetch_ahead(Lookahead& ahead) {
#if defined(__wasm__)
        // WebAssembly has no prefetch instruction: the look-ahead would only decode records twice.
        (void)ahead;
#else
        CommandRecord record;
        for (; ahead.far_lead <= kSlotDistance; ++ahead.far_lead) {
            if (!ahead.far.next(record)) break;
            world_.pool_.prefetch(record.entity);
            const std::uint32_t slot = layout().index(record.entity);
            if (slot < world_.locations_.size()) world_.locations_.prefetch(slot);
        }
        --ahead.far_lead;
        for (; ahead.near_lead <= kRowDistance; ++ahead.near_lead) {
            if (!ahead.near.next(record)) break;
            // A spawn appends to its table's end, which is warm already.
            if (record.op == CommandOp::Spawn || record.op == CommandOp::Instantiate || !world_.pool_.is_alive(record.entity)) continue;
            const EntityLocation at = world_.locations_[layout().index(record.entity)];
            const Table& table = world_.graph_.table(at.table);
            if (at.row >= table.size()) continue;
            for (const Column& column : table.columns()) column.prefetch_row(at.row);
        }
        --ahead.near_lead;
#endif
    }

    const HandleLayout& layout() const noexcept { return world_.pool_.layout(); }

    // A pending handle stands for one of the buffer's overflow spawns (its PendingNames say
    // which); anything else is itself. As a record's target, a pending handle that names none of
    // the spawns recorded so far in a kernel's buffer (another batch's, an earlier wave's or
    // frame's) is refused with StaleEntity, never taken for another entity (G4); in a
    // self-numbered buffer it is a dead target, skipped and counted.
    Entity resolve(Entity entity) const {
        if (!layout().is_pending(entity)) return entity;
        const std::int64_t ordinal = recorded_ordinal(entity);
        if (ordinal < 0) {
            if (named_) refuse_pending(entity);
            return kNullEntity;
        }
        return pending_[static_cast<std::size_t>(ordinal)];
    }
    // The same for a handle inside a payload (an entity field): refused in every buffer, since
    // writing it would put a stand-in that names nothing into the world.
    Entity resolve_field(Entity entity) const {
        if (!layout().is_pending(entity)) return entity;
        const std::int64_t ordinal = recorded_ordinal(entity);
        if (ordinal < 0) refuse_pending(entity);
        return pending_[static_cast<std::size_t>(ordinal)];
    }
    // Which of the overflow spawns recorded so far a pending handle names, or -1.
    std::int64_t recorded_ordinal(Entity entity) const noexcept {
        const std::int64_t ordinal = buffer_->pending_names().ordinal(entity, layout());
        return ordinal >= 0 && std::uint64_t(ordinal) < pending_.size() ? ordinal : -1;
    }
    [[noreturn]] static void refuse_pending(Entity entity) {
        char text[16];
        std::snprintf(text, sizeof text, "0x%08x", entity.bits);
        throw Error(ErrorCode::StaleEntity, std::string("pending handle ") + text +
                                                " was not spawned by this batch: a pending handle (a spawn beyond the "
                                                "batch's reservation) is valid only in its own batch's commands, in its frame");
    }

    // After the buffer's records: the pending handles its kernel wrote in place into entity
    // fields of its rows become the real handles; one that names none of its spawns (or a spawn
    // that was refused) becomes null and is reported. The kernel's write was stamped already.
    // A field that a command rewrote since keeps the command's value: the commands came later.
    void resolve_in_place() {
        for (const CommandBuffer::InPlacePending& field : buffer_->in_place_pending()) {
            if (!world_.pool_.is_alive(field.holder)) continue;  // despawned by a command
            const EntityLocation at = world_.locations_[layout().index(field.holder)];
            Column* column = world_.graph_.table(at.table).column(field.component);
            if (column == nullptr) continue;  // removed by a command
            Entity now;
            std::memcpy(&now.bits, column->element(at.row) + field.offset, 4);
            if (now != field.pending) continue;  // rewritten by a command
            const std::int64_t ordinal = recorded_ordinal(field.pending);
            Entity real = ordinal < 0 ? kNullEntity : pending_[static_cast<std::size_t>(ordinal)];
            if (real.is_null()) {
                if (refused_in_place_++ == 0) {
                    const ComponentDesc& desc = world_.registry_.desc(field.component);
                    std::string name = desc.name;
                    for (const FieldDesc& f : desc.fields) {
                        if (f.offset == field.offset && f.type == FieldType::Entity) name += "." + f.name;
                    }
                    char text[64];
                    std::snprintf(text, sizeof text, " of entity 0x%08x held pending handle 0x%08x", field.holder.bits,
                                  field.pending.bits);
                    first_refused_in_place_ = "'" + name + "'" + text;
                }
            }
            std::memcpy(column->element(at.row) + field.offset, &real.bits, 4);
        }
    }

    bool touches(ComponentId id) const noexcept {
        auto same = [id](const ComponentValue& v) { return v.id == id; };
        return std::any_of(adds_.begin(), adds_.end(), same) ||
               std::find(removes_.begin(), removes_.end(), id) != removes_.end();
    }

    void collect(const CommandRecord& record) {
        const std::uint32_t* at = record.body;
        for (std::uint32_t i = 0; i < record.count; ++i) {
            if (record.op == CommandOp::Remove) {
                removes_.push_back(at[i]);
                continue;
            }
            ComponentValue value;
            at = CommandReader::read_value(at, value);
            adds_.push_back(value);  // remapped in finish_run, once the run's own spawn has its handle
        }
        ++run_records_;
    }

    // A record the world would reject on its own is never folded with others, so that its error
    // skips it alone, as one-by-one application would.
    bool well_formed(const CommandRecord& record) {
        const ComponentRegistry& registry = world_.registry_;
        const std::uint32_t* at = record.body;
        if (record.op == CommandOp::Remove) {
            return std::all_of(at, at + record.count, [&](ComponentId id) { return id < registry.size(); });
        }
        record_values_.clear();
        for (std::uint32_t i = 0; i < record.count; ++i) {
            ComponentValue value;
            at = CommandReader::read_value(at, value);
            if (value.id >= registry.size()) return false;
            record_values_.push_back(value);
        }
        try {
            world_.check_values(record_values_);
        } catch (const Error&) {
            return false;
        }
        // A pending handle in an entity field that names none of the spawns recorded so far
        // refuses the record (finish_run's check_pending_refs): it must not take others along.
        bool named = true;
        for_each_entity_field(record_values_, [&](Entity e) { named = named && !(layout().is_pending(e) && recorded_ordinal(e) < 0); });
        return named;
    }

    // fn(Entity) for the value of every entity field of `values` that carry bytes.
    template <typename Fn>
    void for_each_entity_field(const std::vector<ComponentValue>& values, Fn&& fn) {
        for (const ComponentValue& value : values) {
            if (value.bytes == nullptr || !has_entity_field(value.id)) continue;
            for (const FieldDesc& field : world_.registry_.desc(value.id).fields) {
                if (field.type != FieldType::Entity || field.offset + 4 > value.size) continue;
                Entity e;
                std::memcpy(&e.bits, static_cast<const std::byte*>(value.bytes) + field.offset, 4);
                fn(e);
            }
        }
    }

    void start_run(const CommandRecord& record) {
        adds_.clear();
        removes_.clear();
        scratch_.clear();
        run_records_ = 0;
        run_spawn_ = record.op == CommandOp::Spawn;
        run_first_ = record;
        run_validity_ = Validity::Unknown;  // decided only if a second record wants to fold
        run_target_ = record.entity;
        run_overflow_ = run_spawn_ && record.entity.is_null();
        if (run_overflow_) {
            run_pending_ordinal_ = static_cast<std::uint32_t>(pending_.size());
            // Null when the batch had no name left for it: then no later record can target it.
            run_target_ = buffer_->pending_names().name(run_pending_ordinal_, layout());
            pending_.push_back(kNullEntity);  // assigned in finish_run
        }
        collect(record);
    }

    bool run_valid() {
        if (run_validity_ == Validity::Unknown) {
            run_validity_ = well_formed(run_first_) ? Validity::Valid : Validity::Invalid;
        }
        return run_validity_ == Validity::Valid;
    }

    bool extend_run(const CommandRecord& record) {
        if (run_target_.is_null() || record.entity != run_target_ ||
            (record.op != CommandOp::Add && record.op != CommandOp::Remove)) {
            return false;
        }
        if (!run_valid() || !well_formed(record)) return false;
        // Only fold when the result equals one-by-one application: no component twice in a run,
        // and no remove after an add (the fold applies removes first).
        const std::uint32_t* at = record.body;
        for (std::uint32_t i = 0; i < record.count; ++i) {
            ComponentId id = at[0];
            if (record.op == CommandOp::Remove) {
                id = at[i];
                if (!adds_.empty()) return false;
            } else {
                ComponentValue value;
                at = CommandReader::read_value(at, value);
                id = value.id;
            }
            if (touches(id)) return false;
        }
        collect(record);
        return true;
    }

    void finish_run() {
        if (run_spawn_) {
            // Validate before the handle goes live: a rejected spawn must not leave an entity
            // that is alive but has no row.
            world_.check_values(adds_);
            check_pending_refs();
            Entity entity = run_target_;
            if (run_overflow_) {
                entity = world_.pool_.create();
                pending_[run_pending_ordinal_] = entity;
                ++stats_.overflow_spawns;  // counted once it got its handle: a skipped one did not
            } else if (!world_.pool_.is_reserved(entity)) {
                // The records folded after the spawn target an entity that never came to be.
                skip(run_records_ - 1, nullptr);
                return skip(1, "spawn of a handle that is not reserved");
            } else {
                world_.pool_.activate(entity);
            }
            remap_adds();
            world_.place(entity, adds_);
        } else {
            const Entity entity = resolve(run_target_);
            if (!world_.is_alive(entity)) return skip(run_records_, nullptr);
            remap_adds();
            world_.change_components(entity, adds_, removes_);
        }
        stats_.applied += run_records_;
    }

    // Throws (before anything changes) when a payload names a pending handle that is not one of
    // the buffer's spawns recorded so far (the run's own spawn counts: it may name itself).
    void check_pending_refs() {
        for_each_entity_field(adds_, [this](Entity e) { (void)resolve_field(e); });
    }

    void remap_adds() {
        for (ComponentValue& value : adds_) value = remap(value);
    }

    // Whether a component has an entity field (cached: remap_bytes asks for every payload).
    bool has_entity_field(ComponentId id) {
        if (id >= world_.registry_.size()) return false;
        if (id >= entity_fields_.size()) entity_fields_.resize(world_.registry_.size(), kUnknown);
        if (entity_fields_[id] == kUnknown) {
            const auto& fields = world_.registry_.desc(id).fields;
            entity_fields_[id] = std::any_of(fields.begin(), fields.end(), [](const FieldDesc& f) { return f.type == FieldType::Entity; })
                                     ? kYes
                                     : kNo;
        }
        return entity_fields_[id] == kYes;
    }

    // An Instantiate record: named and validated like a spawn run (an overflow instance takes
    // its pending name first, so that later records can name it even when it is refused), all of
    // it checked before its handle goes live.
    void apply_instantiate(const CommandRecord& record) {
        Entity entity = record.entity;
        const bool overflow = entity.is_null();
        std::size_t ordinal = 0;
        if (overflow) {
            ordinal = pending_.size();
            pending_.push_back(kNullEntity);  // assigned below, once everything is checked
        }
        adds_.clear();
        scratch_.clear();
        const std::uint32_t* at = record.body + 1;
        for (std::uint32_t i = 0; i < record.count; ++i) {
            ComponentValue value;
            at = CommandReader::read_value(at, value);
            adds_.push_back(value);
        }
        const Entity prefab = resolve(Entity{record.body[0]});
        world_.check_prefab(prefab, "an Instantiate command");
        world_.check_values(adds_);
        check_pending_refs();
        if (!overflow && !world_.pool_.is_reserved(entity)) return skip(1, "instantiate of a handle that is not reserved");
        remap_adds();
        // A full world throws CapacityExceeded before any table is made: a skipped record changes nothing.
        if (overflow) world_.pool_.make_room(1);
        const TableIndex index = world_.prepare_instances(prefab, adds_, 1, /*as_prefab=*/false);
        if (overflow) {
            entity = world_.pool_.create();
            pending_[ordinal] = entity;
            ++stats_.overflow_spawns;  // counted once it got its handle: a skipped one did not
        } else {
            world_.pool_.activate(entity);
        }
        world_.place_instance(index, entity, prefab);
        world_.retired_storage_.release();
        ++stats_.applied;
    }

    void apply_single(const CommandRecord& record) {
        if (record.op == CommandOp::Instantiate) return apply_instantiate(record);
        const Entity entity = resolve(record.entity);
        if (!world_.is_alive(entity)) return skip(1, nullptr);
        if (record.op == CommandOp::Despawn) {
            world_.despawn(entity);
        } else if (record.op == CommandOp::Set) {
            const ComponentId id = record.body[0];
            const std::uint32_t offset = record.body[1];
            const std::uint32_t size = record.body[2];
            const void* bytes = record.body + 3;
            world_.set_bytes(entity, id, offset, remap_bytes(id, offset, bytes, size), size);
        } else if (record.op == CommandOp::AddPair || record.op == CommandOp::RemovePair) {
            // Drop-if-dead for the target as for the subject: a pair to an entity despawned
            // before the merge reached it would be a dangling pair. A null target in RemovePair
            // means every target.
            const RelationId relation = record.body[0];
            const Entity recorded_target{record.body[1]};
            const bool every = record.op == CommandOp::RemovePair && recorded_target.is_null();
            const Entity target = every ? kAnyTarget : resolve(recorded_target);
            if (!every && !world_.is_alive(target)) return skip(1, nullptr);
            if (record.op == CommandOp::AddPair) {
                const std::uint32_t size = record.body[2];
                // The pair's data may name this buffer's spawns too, as a component's may.
                const void* data = size == 0 ? nullptr : record.body + 3;
                if (const RelationStore::Relation* r = world_.relations_->find(relation); data != nullptr && r != nullptr) {
                    data = remap_fields(r->data, 0, data, size);
                }
                world_.add_pair(entity, relation, target, data, size);
            } else {
                world_.remove_pair(entity, relation, target);
            }
        } else {
            return skip(1, "a record with an unknown op code");
        }
        ++stats_.applied;
    }

    // After the buffer's records: its outboxes join their topics, in the order the batch
    // published them (an outbox's packed messages and field-major runs in turn). An entity field naming one of the buffer's pending spawns
    // gets its real handle; one naming no spawn of this buffer is set to null (counted with the
    // entity fields written in place, in one diagnostic per apply). A topic id or message size that is not the
    // topic's (only a broken encoder makes one) skips that outbox with a diagnostic.
    void apply_messages() {
        TopicStore& topics = *world_.topics_;
        for (const CommandBuffer::Outbox& outbox : buffer_->outboxes()) {
            if (outbox.count == 0) continue;
            if (outbox.topic >= topics.size() || outbox.size != topics.topics_[outbox.topic].layout.size) {
                world_.diagnostics_.report("command skipped: " + std::to_string(outbox.count) +
                                           " message(s) of a topic id or size this world does not have");
                continue;
            }
            const TopicStore::Topic& topic = topics.topics_[outbox.topic];
            message_topic_ = &topic;
            // Dropped at once without a consumer; a pending handle none of this buffer's spawns
            // made is still counted in the diagnostic.
            if (topic.consumers.empty()) count_refused_handles(topic, outbox);
            // In message order: the packed messages before each field-major run, then the run.
            const TopicStore::HandleFix fix = topic.entity_offsets.empty() ? nullptr : &resolve_message_handles;
            const std::byte* bytes = outbox.bytes.data();
            std::uint32_t next = 0;
            for (const CommandBuffer::Outbox::FieldRun& run : outbox.field_runs) {
                if (run.first > next) topics.append_many(outbox.topic, bytes + std::size_t(next) * outbox.size, run.first - next, fix, this);
                topics.append_by_field(outbox.topic, bytes + std::size_t(run.first) * outbox.size, run.count, fix, this);
                next = run.first + run.count;
            }
            if (outbox.count > next) topics.append_many(outbox.topic, bytes + std::size_t(next) * outbox.size, outbox.count - next, fix, this);
            stats_.applied += outbox.count;
        }
    }
    // Appended entity field values of message_topic_'s messages, their pending handles made real.
    static void resolve_message_handles(void* self, std::uint32_t* handles, std::uint32_t count) {
        auto& applier = *static_cast<CommandApplier*>(self);
        const HandleLayout& layout = applier.layout();
        // A kernel seldom names a handle its own batch spawned: first a scan without branches
        // (vectorised), and the values are walked again only when it found one.
        if (!any_pending(layout, handles, count)) return;
        for (std::uint32_t i = 0; i < count; ++i) {
            if (layout.is_pending(Entity{handles[i]})) handles[i] = applier.resolve_message_handle(Entity{handles[i]});
        }
    }
    void count_refused_handles(const TopicStore::Topic& topic, const CommandBuffer::Outbox& outbox) {
        auto run = outbox.field_runs.begin();
        for (std::uint32_t m = 0; m < outbox.count; ++m) {
            while (run != outbox.field_runs.end() && m >= run->first + run->count) ++run;
            const bool by_field = run != outbox.field_runs.end() && m >= run->first;
            for (const std::uint32_t offset : topic.entity_offsets) {
                // Where message m's field lies: packed, or in its field-major run's array.
                const std::size_t at = by_field ? std::size_t(run->first) * outbox.size + std::size_t(run->count) * offset + std::size_t(m - run->first) * 4
                                                : std::size_t(m) * outbox.size + offset;
                Entity e;
                std::memcpy(&e.bits, outbox.bytes.data() + at, 4);
                if (layout().is_pending(e)) resolve_message_handle(e);
            }
        }
    }
    std::uint32_t resolve_message_handle(Entity e) {
        const std::int64_t ordinal = recorded_ordinal(e);
        if (ordinal >= 0) return pending_[static_cast<std::size_t>(ordinal)].bits;
        if (refused_in_place_++ == 0) {
            char text[96];
            std::snprintf(text, sizeof text, "a message of topic '%s' held pending handle 0x%08x", message_topic_->layout.name.c_str(),
                          e.bits);
            first_refused_in_place_ = text;
        }
        return kNullEntity.bits;
    }
    const TopicStore::Topic* message_topic_ = nullptr;  // apply_messages' topic, for its diagnostic

    void skip(std::size_t records, const char* why) {
        if (why == nullptr) {
            stats_.skipped_dead_target += records;
        } else {
            world_.diagnostics_.report(std::string("command skipped: ") + why);
        }
    }

    // Entity fields inside payloads may name pending handles: rewrite them to the real ones.
    ComponentValue remap(ComponentValue value) {
        if (value.bytes != nullptr) value.bytes = remap_bytes(value.id, 0, value.bytes, value.size);
        return value;
    }
    // Throws StaleEntity (before anything changes) for a pending handle that resolve_field refuses.
    const void* remap_bytes(ComponentId id, std::uint32_t offset, const void* bytes, std::uint32_t size) {
        if (!has_entity_field(id)) return bytes;
        return remap_fields(world_.registry_.desc(id), offset, bytes, size);
    }

    // remap_bytes for bytes laid out as `desc` says (a component's element, a pair's data).
    const void* remap_fields(const ComponentDesc& desc, std::uint32_t offset, const void* bytes, std::uint32_t size) {
        bool any = false;
        for (const FieldDesc& field : desc.fields) {
            if (field.type != FieldType::Entity || field.offset < offset || field.offset + 4 > offset + size) continue;
            Entity e;
            std::memcpy(&e.bits, static_cast<const std::byte*>(bytes) + (field.offset - offset), 4);
            any |= layout().is_pending(e);
        }
        if (!any) return bytes;
        auto& copy = scratch_.emplace_back(static_cast<const std::byte*>(bytes), static_cast<const std::byte*>(bytes) + size);
        for (const FieldDesc& field : desc.fields) {
            if (field.type != FieldType::Entity || field.offset < offset || field.offset + 4 > offset + size) continue;
            Entity e;
            std::memcpy(&e.bits, copy.data() + (field.offset - offset), 4);
            e = resolve_field(e);
            std::memcpy(copy.data() + (field.offset - offset), &e.bits, 4);
        }
        return copy.data();
    }

    World& world_;
    ApplyStats& stats_;
    const CommandBuffer* buffer_ = nullptr;  // the buffer being applied
    bool named_ = false;           // its pending names are a kernel batch's (PendingNames::stride != 0)
    std::vector<Entity> pending_;  // real handles of this buffer's overflow spawns, by ordinal
    enum : std::uint8_t { kUnknown, kNo, kYes };
    std::vector<std::uint8_t> entity_fields_;  // has_entity_field, by component id
    std::size_t refused_in_place_ = 0;
    std::string first_refused_in_place_;
    std::vector<ComponentValue> adds_;
    std::vector<ComponentValue> record_values_;  // scratch for well_formed
    std::vector<ComponentId> removes_;
    std::vector<std::vector<std::byte>> scratch_;  // remapped payload copies for the current run
    Entity run_target_;
    std::uint32_t run_pending_ordinal_ = 0;  // a pending spawn run: which overflow spawn it is
    bool run_spawn_ = false;
    bool run_overflow_ = false;  // a spawn with a null target: its handle is assigned here
    // Whether the run's first record is well formed, so that others may fold onto it. Checked
    // lazily: most runs are one record long, and finish_run validates those anyway.
    enum class Validity : std::uint8_t { Unknown, Valid, Invalid };
    Validity run_validity_ = Validity::Unknown;
    CommandRecord run_first_{};
    std::size_t run_records_ = 0;
};

ApplyStats World::apply(std::span<CommandBuffer* const> buffers, std::span<EntityReservation* const> reservations) {
    require_structural("apply");
    ApplyStats stats;
    CommandApplier applier(*this, stats);
    try {
        for (CommandBuffer* buffer : buffers) {
            if (buffer != nullptr) applier.apply_buffer(*buffer);
        }
    } catch (...) {
        // A buffer that cannot be applied at all (malformed, or out of memory): the reserved
        // handles still go back, or they would be lost for good.
        return_reservations(reservations);
        throw;
    }
    return_reservations(reservations);
    if (stats.skipped_dead_target != 0) {
        diagnostics_.report(std::to_string(stats.skipped_dead_target) +
                            " command record(s) skipped: their target entity was no longer alive");
    }
    if (applier.refused_in_place() != 0) {
        diagnostics_.report(std::to_string(applier.refused_in_place()) +
                            " entity field(s) written in place by a kernel held a pending handle that names no spawn of "
                            "its batch (another batch's, an earlier frame's, or a refused spawn's): set to null (G4); first: " +
                            applier.first_refused_in_place());
    }
    if (stats.overflow_spawns != 0) {
        diagnostics_.report(std::to_string(stats.overflow_spawns) +
                            " spawn(s) exceeded their batch's reservation and got handles at merge time");
    }
    return stats;
}

void World::return_reservations(std::span<EntityReservation* const> reservations) {
    // Handles a batch took but never spawned may have leaked into its data: free them with a
    // generation bump. Handles nobody took go back untouched. The free list is a stack, so both
    // passes push the last reservation first and the untaken handles last: the next spawns reuse
    // the untaken handles in reserved order (batch-id order) across all reservations, and a merge
    // in which nothing was taken leaves the pool handing out what it would have without reserving.
    // Handles that are no longer reserved (spawned, or returned already) are left alone, so a
    // second call for the same reservations changes nothing.
    for (std::size_t r = reservations.size(); r-- > 0;) {
        if (reservations[r] == nullptr) continue;
        const auto& handles = reservations[r]->handles();
        for (std::uint32_t i = reservations[r]->taken_count(); i-- > 0;) {
            if (pool_.is_reserved(handles[i])) pool_.destroy(handles[i], /*bump_generation=*/true);
        }
    }
    for (std::size_t r = reservations.size(); r-- > 0;) {
        if (reservations[r] != nullptr) release_unused(*reservations[r]);
    }
}

}  // namespace ecsia
