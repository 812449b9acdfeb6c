#pragma once
// The command layer: structural changes recorded now and applied later, in an order the caller
// fixes. A batch (or an observer) records into its own CommandBuffer; the serial merge applies the
// buffers in batch-id order (world/apply_commands.hpp). Recording is single-writer, uses no atomics,
// and never drops a record: the byte buffer grows as needed.
//
// Record layout (little-endian words of 4 bytes; payload bytes padded to 4):
//   word 0      op (low 8 bits) | component count or field length (high 24 bits)
//   word 1      target entity handle
//   then, by op:
//   Spawn       count x { component id, payload size, payload bytes }   (handle from a reservation,
//                                                                        or null = overflow spawn)
//   Despawn     -
//   Add         count x { component id, payload size, payload bytes }   (size 0 = default values)
//   Remove      count x { component id }
//   Set         { component id, byte offset, byte size, bytes }          (whole component or a field)
//   AddPair     { relation id, target handle, byte size, bytes }        (size 0 = default data)
//   RemovePair  { relation id, target handle }                          (null target = every target)
//   Instantiate { prefab handle }, then count x { component id, payload size, payload bytes }
//               (word 1 as for Spawn: a reserved handle, or null = an overflow instance, which
//               takes the buffer's next pending name like an overflow spawn; the values replace or
//               add whole components: World::instantiate)
// Messages a batch publishes (KernelContext::publish) are not records: they go to the buffer's
// outboxes, one per topic, packed as the topic lays a message out, in call order; the merge
// appends each outbox to its topic in one go, after the buffer's records (so an entity field may
// name one of the buffer's pending spawns).
// A pair record's subject (word 1) and target may be pending handles of the same buffer's spawns
// and instances.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"

namespace ecsia {

enum class CommandOp : std::uint8_t { Spawn = 1, Despawn = 2, Add = 3, Remove = 4, Set = 5, AddPair = 6, RemovePair = 7, Instantiate = 8 };
// A record's word 0: op | count << kCommandCountShift.
inline constexpr std::uint32_t kCommandCountShift = 8;

// A component and its initial bytes (nullptr = default values). The bytes are copied on record.
struct ComponentValue {
    ComponentId id;
    const void* bytes = nullptr;
    std::uint32_t size = 0;
};

// How a buffer names its overflow spawns (spawns recorded with a null target, which get real
// handles at the merge) so that later records of the same buffer can refer to them.
//
// Self-numbered (stride 0, the default; observers' and hand-made buffers): the k-th overflow
// spawn is HandleLayout::pending(k), for k below the ring's base.
//
// A kernel's batch (stride = batches in its wave, slot = its batch id): names come from the
// upper half of the index range, a ring of ring_size() positions that the world hands out in
// order, wave after wave (SystemCursors::pending_positions). The wave's section starts at
// `first`; its k-th overflow spawn is at first + k * stride + slot (mod ring_size), so no two
// batches of a wave share a name, every name is fixed by the plan and the world's earlier waves
// (never by timing), and the merge tells from a name alone which batch and spawn it means. A
// pending handle of another batch, an earlier wave or an earlier frame names nothing of this
// batch and is refused, until the world has handed out ring_size() more positions after it
// (then the ring starts over and the scheduler says so).
struct PendingNames {
    std::uint32_t first = 0;
    std::uint32_t stride = 0;  // 0: self-numbered
    std::uint32_t slot = 0;
    std::uint32_t limit = 0xFFFFFFFFu;  // overflow spawns that get a name; later ones get null

    static std::uint32_t ring_base(const HandleLayout& layout) noexcept { return layout.index_mask() / 2; }
    // >= 1; its last position is index_mask() - 1, so a name is never the null handle.
    static std::uint32_t ring_size(const HandleLayout& layout) noexcept { return layout.index_mask() - ring_base(layout); }

    // The names of batch `slot` of a wave of `stride` batches whose section starts at `first`.
    static PendingNames for_batch(std::uint32_t first, std::uint32_t stride, std::uint32_t slot, const HandleLayout& layout) noexcept {
        const std::uint32_t size = ring_size(layout);
        // k is named while k * stride + slot < size: the wave's names never wrap onto each other.
        const std::uint32_t limit = slot < size ? (size - slot + stride - 1) / stride : 0;
        return PendingNames{first % size, stride, slot, limit};
    }

    // The k-th overflow spawn's handle; null when k is past the limit.
    Entity name(std::uint32_t k, const HandleLayout& layout) const noexcept {
        if (stride == 0) return k < ring_base(layout) ? layout.pending(k) : kNullEntity;
        if (k >= limit) return kNullEntity;
        const std::uint64_t size = ring_size(layout);
        const std::uint64_t position = (std::uint64_t(first) + std::uint64_t(k) * stride + slot) % size;
        return layout.pending(ring_base(layout) + static_cast<std::uint32_t>(position));
    }
    // Which overflow spawn a pending handle names, or -1 when it names none of this buffer's
    // (whether that spawn was recorded yet is the caller's question).
    std::int64_t ordinal(Entity pending, const HandleLayout& layout) const noexcept {
        const std::uint32_t index = layout.index(pending);
        const std::uint32_t base = ring_base(layout);
        if (stride == 0) return index < base ? std::int64_t(index) : -1;
        const std::uint32_t size = ring_size(layout);
        if (index < base || index - base >= size) return -1;
        const std::uint32_t offset = (index - base + size - first) % size;  // from the wave's first name
        if (offset % stride != slot) return -1;
        return offset / stride;
    }
    // Ring positions the wave's section took when this buffer named `named` spawns.
    std::uint64_t span(std::uint32_t named) const noexcept {
        return named == 0 || stride == 0 ? 0 : std::uint64_t(named - 1) * stride + slot + 1;
    }
};

class CommandBuffer {
public:
    // Any thread, own buffer only. `entity` comes from the batch's reservation; a null entity means
    // the reservation ran dry, and the merge assigns a handle in record order (nothing is lost).
    void spawn(Entity entity, const ComponentValue* values, std::size_t count);
    void despawn(Entity entity);
    void add(Entity entity, const ComponentValue* values, std::size_t count);
    void remove(Entity entity, const ComponentId* ids, std::size_t count);
    void set(Entity entity, ComponentId id, std::uint32_t offset, const void* bytes, std::uint32_t size);
    // Pairs (relation/relation.hpp); `relation` is a RelationId. The merge applies them like
    // World::add_pair / remove_pair; a record whose subject or target is dead by then is dropped
    // and counted in ApplyStats::skipped_dead_target, one the world refuses is skipped with a
    // diagnostic (world/apply_commands.cpp).
    void add_pair(Entity subject, ComponentId relation, Entity target, const void* bytes = nullptr, std::uint32_t size = 0);
    void remove_pair(Entity subject, ComponentId relation, Entity target);
    // An instance of `prefab` (World::instantiate) under `entity`, a handle from the batch's
    // reservation, or null when it ran dry: then the record is an overflow spawn (its pending
    // name comes from name_next_overflow_spawn, as for spawn()). A prefab that is dead or no
    // prefab by the merge skips the record with a diagnostic.
    void instantiate(Entity entity, Entity prefab, const ComponentValue* values, std::size_t count);

    // Any thread, own buffer only. Adds a message of topic `topic` (a TopicId) to its outbox:
    // `bytes` laid out as the topic (TopicStore), `size` its layout's size (the caller checked
    // both). The merge appends the outbox to the topic after this buffer's records, its entity
    // fields' pending handles made real.
    void publish(std::uint32_t topic, const void* bytes, std::uint32_t size) {
        // Inline while the last outbox is this topic's and has room: a kernel publishes in loops.
        if (last_outbox_ < outboxes_.size()) {
            Outbox& outbox = outboxes_[last_outbox_];
            const std::size_t used = std::size_t(outbox.count) * size;
            if (outbox.topic == topic && used + size <= outbox.bytes.size()) {
                std::memcpy(outbox.bytes.data() + used, bytes, size);
                ++outbox.count;
                return;
            }
        }
        std::memcpy(reserve_messages(topic, size, 1), bytes, size);
    }
    // Room for `count` more messages of `size` bytes in `topic`'s outbox, for the caller to fill.
    std::byte* reserve_messages(std::uint32_t topic, std::uint32_t size, std::uint32_t count);
    // The same room, to be filled field by field (a field-major run, Outbox::field_runs): the
    // values of the field at offset `o` lie one after another from `room + count * o` (fields
    // never overlap, so neither do their arrays). For a caller that has its messages as arrays of
    // field values (a JS kernel's publishMany): the merge then copies each array whole.
    std::byte* reserve_messages_by_field(std::uint32_t topic, std::uint32_t size, std::uint32_t count);

    // A TopicWriter's room in `topic`'s outbox (command/topic_writer.hpp): the writer stores
    // messages from `at` on, up to `end`, and they count only once it hands `at` back (grow or
    // close). While it is open, publish() and reserve_messages of that topic throw WrongPhase
    // (their messages would land among the writer's), and so does a second open.
    struct MessageRoom {
        std::size_t outbox;
        std::byte* at;
        std::byte* end;
    };
    MessageRoom open_messages(std::uint32_t topic, std::uint32_t size);
    // Counts the messages stored up to `at` and makes room for more (at least as many again).
    MessageRoom grow_messages(std::size_t outbox, std::byte* at);
    // Counts the messages stored up to `at`; publish() of the topic is allowed again.
    void close_messages(std::size_t outbox, const std::byte* at) noexcept;

    struct Outbox {
        std::uint32_t topic = 0;
        std::uint32_t size = 0;   // bytes per message
        std::uint32_t count = 0;
        bool writing = false;     // a TopicWriter holds its room (open_messages)
        std::vector<std::byte> bytes;  // the first count * size bytes are messages; the rest is room
        // Runs of messages stored field by field (reserve_messages_by_field), in message order;
        // every message outside them is packed.
        struct FieldRun {
            std::uint32_t first = 0;  // its first message
            std::uint32_t count = 0;
        };
        std::vector<FieldRun> field_runs;
    };
    // By first publish since the last clear (empty ones are kept for their memory).
    const std::vector<Outbox>& outboxes() const noexcept { return outboxes_; }
    // Messages in the outboxes.
    std::size_t message_count() const noexcept {
        std::size_t n = 0;
        for (const Outbox& outbox : outboxes_) n += outbox.count;
        return n;
    }

    template <typename T>
    void add(Entity entity, ComponentId id, const T& value) {
        // A tag struct is empty but has sizeof 1, while a tag takes 0 bytes (as World::value_of).
        const ComponentValue v{id, std::is_empty_v<T> ? nullptr : &value, std::is_empty_v<T> ? 0u : std::uint32_t(sizeof(T))};
        add(entity, &v, 1);
    }
    template <typename T>
    void set(Entity entity, ComponentId id, const T& value) {
        set(entity, id, 0, &value, sizeof(T));
    }
    void remove(Entity entity, ComponentId id) { remove(entity, &id, 1); }

    // Any thread, own buffer only. Makes room for `records` records that an encoder outside C++
    // (the JS kernel glue, wasm/js_kernel.cpp) has already laid out as above, `words` words in
    // all, and returns where to copy them. The caller must write exactly that many words of
    // well-formed records: the merge decodes them like any other.
    std::uint32_t* append_encoded(std::size_t words, std::size_t records);

    bool empty() const noexcept { return words_.empty() && message_count() == 0; }
    std::size_t record_count() const noexcept { return record_count_; }
    std::size_t byte_size() const noexcept { return words_.size() * 4; }
    const std::vector<std::uint32_t>& words() const noexcept { return words_; }
    void clear() noexcept {
        words_.clear();
        record_count_ = 0;
        names_ = PendingNames{};
        overflow_spawns_ = 0;
        in_place_.clear();
        for (Outbox& outbox : outboxes_) {
            outbox.count = 0;
            outbox.writing = false;
            outbox.field_runs.clear();
        }
    }

    // Pending handles (the stand-ins for spawns beyond a reservation, HandleLayout::pending): how
    // this buffer names its overflow spawns (PendingNames above). A kernel's batch gets names
    // unique to it in its wave before the wave starts; any other buffer numbers its own.
    void name_pending(const PendingNames& names) noexcept { names_ = names; }
    const PendingNames& pending_names() const noexcept { return names_; }
    // The handle of the buffer's next overflow spawn, whose record (null target) the caller writes
    // next: the null handle once the buffer's names are used up (the spawn still happens).
    Entity name_next_overflow_spawn(const HandleLayout& layout) noexcept { return names_.name(overflow_spawns_++, layout); }
    // Overflow spawns named so far, and those that got the null handle because names ran out.
    std::uint32_t named_overflow_spawns() const noexcept { return overflow_spawns_ < names_.limit ? overflow_spawns_ : names_.limit; }
    std::uint32_t unnamed_overflow_spawns() const noexcept { return overflow_spawns_ - named_overflow_spawns(); }

    // Entity fields a kernel wrote in place (into its own rows) that hold a pending handle: the
    // merge writes the real handle there once the buffer's spawns have theirs.
    struct InPlacePending {
        Entity holder;            // the entity whose row holds the field
        ComponentId component;
        std::uint32_t offset;     // of the field in the component
        Entity pending;
    };
    void note_in_place_pending(const InPlacePending& field) { in_place_.push_back(field); }
    const std::vector<InPlacePending>& in_place_pending() const noexcept { return in_place_; }

    // A point to roll back to: what an observer that throws had recorded after it is dropped
    // (records only: observers publish through the world, not through their buffer).
    struct Mark {
        std::size_t words = 0;
        std::size_t records = 0;
        std::uint32_t overflow_spawns = 0;
        std::size_t in_place = 0;
    };
    Mark mark() const noexcept { return Mark{words_.size(), record_count_, overflow_spawns_, in_place_.size()}; }
    // Drops every record made after `mark` (which must come from this buffer, since its last
    // clear), and the pending names handed out since: the next overflow spawn takes the name the
    // first dropped one had, so names stay the k-th spawn's that the buffer keeps.
    void rollback(Mark mark) noexcept {
        if (mark.words > words_.size()) return;
        words_.resize(mark.words);
        record_count_ = mark.records;
        overflow_spawns_ = mark.overflow_spawns;
        if (mark.in_place < in_place_.size()) in_place_.resize(mark.in_place);
    }

private:
    // Throws CapacityExceeded, recording nothing, for more entries than word 0 can count.
    void header(CommandOp op, std::size_t count, Entity entity);
    void payload(const void* bytes, std::uint32_t size);
    void values(const ComponentValue* values, std::size_t count);

    std::vector<std::uint32_t> words_;
    std::size_t record_count_ = 0;
    PendingNames names_;
    std::uint32_t overflow_spawns_ = 0;  // name_next_overflow_spawn calls since the last clear
    std::vector<InPlacePending> in_place_;
    // The index of `topic`'s outbox (made if it has none yet), or WrongPhase while a writer holds it.
    std::size_t outbox_of(std::uint32_t topic, std::uint32_t size);

    std::vector<Outbox> outboxes_;
    // reserve_messages' last outbox: a batch mostly publishes one topic. Never one a writer holds
    // (publish()'s inline path must not write into its room): kNoOutbox then.
    static constexpr std::size_t kNoOutbox = ~std::size_t(0);
    std::size_t last_outbox_ = 0;
};

// Decodes one buffer. The views point into the buffer and are valid until it changes.
struct CommandRecord {
    CommandOp op;
    Entity entity;
    std::uint32_t count;       // components in Spawn/Add/Remove/Instantiate (after its prefab word)
    const std::uint32_t* body;  // words after the header
};

class CommandReader {
public:
    explicit CommandReader(const CommandBuffer& buffer) : words_(buffer.words()) {}
    // Inline, like read_value: a flush decodes every record more than once (see apply_commands).
    bool next(CommandRecord& record) noexcept {
        if (at_ >= words_.size()) return false;
        const std::uint32_t* start = words_.data() + at_;
        record.op = static_cast<CommandOp>(start[0] & 0xFF);
        record.count = start[0] >> 8;
        record.entity = Entity{start[1]};
        record.body = start + 2;
        const std::uint32_t* end = record.body;
        switch (record.op) {
            case CommandOp::Spawn:
            case CommandOp::Add: {
                ComponentValue ignored;
                for (std::uint32_t i = 0; i < record.count; ++i) end = read_value(end, ignored);
                break;
            }
            case CommandOp::Instantiate: {
                ComponentValue ignored;
                end += 1;  // the prefab handle
                for (std::uint32_t i = 0; i < record.count; ++i) end = read_value(end, ignored);
                break;
            }
            case CommandOp::Remove: end += record.count; break;
            case CommandOp::Set: end += 2 + 1 + (end[2] + 3) / 4; break;
            case CommandOp::AddPair: end += 2 + 1 + (end[2] + 3) / 4; break;
            case CommandOp::RemovePair: end += 2; break;
            default: break;
        }
        at_ = static_cast<std::size_t>(end - words_.data());
        return true;
    }

    // Walks the {id, size, bytes} entries of a Spawn/Add body. Inline: it runs per value, several
    // times per record, in the flush hot path.
    static const std::uint32_t* read_value(const std::uint32_t* at, ComponentValue& out) noexcept {
        out.id = at[0];
        out.size = at[1];
        out.bytes = out.size == 0 ? nullptr : at + 2;
        return at + 2 + (out.size + 3) / 4;  // payload bytes padded to whole words
    }

private:
    const std::vector<std::uint32_t>& words_;
    std::size_t at_ = 0;
};

}  // namespace ecsia
