#include "ecsia/command/command_buffer.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "ecsia/base/error.hpp"

namespace ecsia {

namespace {
constexpr std::uint32_t words_for(std::uint32_t bytes) noexcept { return (bytes + 3) / 4; }
}  // namespace

void CommandBuffer::header(CommandOp op, std::size_t count, Entity entity) {
    constexpr std::size_t kMaxCount = 0xFFFFFFFFu >> kCommandCountShift;
    if (count > kMaxCount) [[unlikely]] {
        throw Error(ErrorCode::CapacityExceeded, "a command record takes at most " + std::to_string(kMaxCount) +
                                                     " components, got " + std::to_string(count));
    }
    words_.push_back(static_cast<std::uint32_t>(op) | (static_cast<std::uint32_t>(count) << kCommandCountShift));
    words_.push_back(entity.bits);
    ++record_count_;
}

void CommandBuffer::payload(const void* bytes, std::uint32_t size) {
    words_.push_back(size);
    const std::size_t at = words_.size();
    words_.resize(at + words_for(size), 0);
    if (size != 0) std::memcpy(words_.data() + at, bytes, size);
}

void CommandBuffer::values(const ComponentValue* values, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        words_.push_back(values[i].id);
        payload(values[i].bytes, values[i].bytes == nullptr ? 0 : values[i].size);
    }
}

void CommandBuffer::spawn(Entity entity, const ComponentValue* vals, std::size_t count) {
    header(CommandOp::Spawn, count, entity);
    values(vals, count);
}

void CommandBuffer::despawn(Entity entity) { header(CommandOp::Despawn, 0, entity); }

void CommandBuffer::add(Entity entity, const ComponentValue* vals, std::size_t count) {
    header(CommandOp::Add, count, entity);
    values(vals, count);
}

void CommandBuffer::remove(Entity entity, const ComponentId* ids, std::size_t count) {
    header(CommandOp::Remove, count, entity);
    words_.insert(words_.end(), ids, ids + count);
}

void CommandBuffer::set(Entity entity, ComponentId id, std::uint32_t offset, const void* bytes, std::uint32_t size) {
    header(CommandOp::Set, 1, entity);
    words_.push_back(id);
    words_.push_back(offset);
    payload(bytes, size);
}

void CommandBuffer::add_pair(Entity subject, ComponentId relation, Entity target, const void* bytes, std::uint32_t size) {
    header(CommandOp::AddPair, 0, subject);
    words_.push_back(relation);
    words_.push_back(target.bits);
    payload(bytes, bytes == nullptr ? 0 : size);
}

std::size_t CommandBuffer::outbox_of(std::uint32_t topic, std::uint32_t size) {
    std::size_t at = 0;
    while (at < outboxes_.size() && outboxes_[at].topic != topic) ++at;
    if (at == outboxes_.size()) outboxes_.push_back(Outbox{topic, size, 0, false, {}, {}});
    if (outboxes_[at].writing) {
        throw Error(ErrorCode::WrongPhase, "a message of topic id " + std::to_string(topic) +
                                               " published while a TopicWriter of that topic is open in the same batch "
                                               "(publish through the writer, or let it go out of scope first)");
    }
    return at;
}

std::byte* CommandBuffer::reserve_messages(std::uint32_t topic, std::uint32_t size, std::uint32_t count) {
    if (last_outbox_ >= outboxes_.size() || outboxes_[last_outbox_].topic != topic) last_outbox_ = outbox_of(topic, size);
    Outbox& outbox = outboxes_[last_outbox_];
    const std::size_t at = std::size_t(outbox.count) * size;
    // Counts are 32-bit and so is wasm's size_t: a count that would wrap either is refused whole.
    if (count > std::numeric_limits<std::uint32_t>::max() - outbox.count ||
        (size != 0 && count > (std::numeric_limits<std::size_t>::max() - at) / size)) {
        throw Error(ErrorCode::CapacityExceeded, std::to_string(count) + " more message(s) of topic id " + std::to_string(topic) +
                                                     " do not fit in a command buffer (" + std::to_string(outbox.count) + " held, " +
                                                     std::to_string(size) + " bytes each)");
    }
    const std::size_t needed = at + std::size_t(size) * count;
    // Room doubles, so a batch's messages cost one growth per doubling (kept across clears).
    if (needed > outbox.bytes.size()) outbox.bytes.resize(std::max(needed, 2 * outbox.bytes.size()));
    outbox.count += count;
    return outbox.bytes.data() + at;
}

std::byte* CommandBuffer::reserve_messages_by_field(std::uint32_t topic, std::uint32_t size, std::uint32_t count) {
    std::byte* room = reserve_messages(topic, size, count);
    Outbox& outbox = outboxes_[last_outbox_];
    try {
        outbox.field_runs.push_back(Outbox::FieldRun{outbox.count - count, count});
    } catch (...) {
        outbox.count -= count;  // unrecorded, the room would be taken for packed messages
        throw;
    }
    return room;
}

CommandBuffer::MessageRoom CommandBuffer::open_messages(std::uint32_t topic, std::uint32_t size) {
    const std::size_t index = outbox_of(topic, size);
    Outbox& outbox = outboxes_[index];
    outbox.writing = true;
    last_outbox_ = kNoOutbox;
    std::byte* data = outbox.bytes.data();
    return MessageRoom{index, data + std::size_t(outbox.count) * outbox.size, data + outbox.bytes.size()};
}

CommandBuffer::MessageRoom CommandBuffer::grow_messages(std::size_t index, std::byte* at) {
    Outbox& outbox = outboxes_[index];
    outbox.count = static_cast<std::uint32_t>((at - outbox.bytes.data()) / outbox.size);
    const std::size_t used = std::size_t(outbox.count) * outbox.size;
    // Doubling, as reserve_messages grows; at least 64 messages the first time.
    outbox.bytes.resize(std::max(used + 64 * std::size_t(outbox.size), 2 * outbox.bytes.size()));
    std::byte* data = outbox.bytes.data();
    return MessageRoom{index, data + used, data + outbox.bytes.size()};
}

void CommandBuffer::close_messages(std::size_t index, const std::byte* at) noexcept {
    Outbox& outbox = outboxes_[index];
    outbox.count = static_cast<std::uint32_t>((at - outbox.bytes.data()) / outbox.size);
    outbox.writing = false;
}

void CommandBuffer::remove_pair(Entity subject, ComponentId relation, Entity target) {
    header(CommandOp::RemovePair, 0, subject);
    words_.push_back(relation);
    words_.push_back(target.bits);
}

void CommandBuffer::instantiate(Entity entity, Entity prefab, const ComponentValue* vals, std::size_t count) {
    header(CommandOp::Instantiate, count, entity);
    words_.push_back(prefab.bits);
    values(vals, count);
}

std::uint32_t* CommandBuffer::append_encoded(std::size_t words, std::size_t records) {
    const std::size_t at = words_.size();
    words_.resize(at + words, 0);
    record_count_ += records;
    return words_.data() + at;
}

}  // namespace ecsia
