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
//   AddPair / RemovePair are reserved op codes for relations.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/entity/entity.hpp"

namespace ecsia {

enum class CommandOp : std::uint8_t { Spawn = 1, Despawn = 2, Add = 3, Remove = 4, Set = 5, AddPair = 6, RemovePair = 7 };

// A component and its initial bytes (nullptr = default values). The bytes are copied on record.
struct ComponentValue {
    ComponentId id;
    const void* bytes = nullptr;
    std::uint32_t size = 0;
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

    template <typename T>
    void add(Entity entity, ComponentId id, const T& value) {
        const ComponentValue v{id, &value, sizeof(T)};
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

    bool empty() const noexcept { return words_.empty(); }
    std::size_t record_count() const noexcept { return record_count_; }
    std::size_t byte_size() const noexcept { return words_.size() * 4; }
    const std::vector<std::uint32_t>& words() const noexcept { return words_; }
    void clear() noexcept {
        words_.clear();
        record_count_ = 0;
        pending_blocks_.clear();
    }

    // Pending handles (the stand-ins for spawns beyond a reservation, HandleLayout::pending): the
    // k-th null-handle spawn of this buffer is named by pending(k), unless the buffer has blocks.
    // A batch's kernel context hands out pending handles from blocks of ordinals unique to the
    // batch (claimed from its scheduler), so that a pending handle of another batch, or of an
    // earlier frame, names nothing here and is refused at merge instead of naming a stranger.
    // Blocks hold `pending_block_size` ordinals each: spawn k is in block k / size.
    void add_pending_block(std::uint32_t first_ordinal, std::uint32_t size) {
        pending_blocks_.push_back(first_ordinal);
        pending_block_size_ = size;
    }
    const std::vector<std::uint32_t>& pending_blocks() const noexcept { return pending_blocks_; }
    std::uint32_t pending_block_size() const noexcept { return pending_block_size_; }
    // A point to roll back to: what an observer that throws had recorded after it is dropped.
    struct Mark {
        std::size_t words = 0;
        std::size_t records = 0;
    };
    Mark mark() const noexcept { return Mark{words_.size(), record_count_}; }
    // Drops every record made after `mark` (which must come from this buffer, since its last clear).
    void rollback(Mark mark) noexcept {
        if (mark.words > words_.size()) return;
        words_.resize(mark.words);
        record_count_ = mark.records;
    }

private:
    void header(CommandOp op, std::uint32_t count, Entity entity);
    void payload(const void* bytes, std::uint32_t size);
    void values(const ComponentValue* values, std::size_t count);

    std::vector<std::uint32_t> words_;
    std::size_t record_count_ = 0;
    std::vector<std::uint32_t> pending_blocks_;  // first ordinal of each block, in claim order
    std::uint32_t pending_block_size_ = 0;
};

// Decodes one buffer. The views point into the buffer and are valid until it changes.
struct CommandRecord {
    CommandOp op;
    Entity entity;
    std::uint32_t count;       // components in Spawn/Add/Remove
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
            case CommandOp::Remove: end += record.count; break;
            case CommandOp::Set: end += 2 + 1 + (end[2] + 3) / 4; break;
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
