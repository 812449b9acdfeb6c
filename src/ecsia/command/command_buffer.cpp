#include "ecsia/command/command_buffer.hpp"

namespace ecsia {

namespace {
constexpr std::uint32_t words_for(std::uint32_t bytes) noexcept { return (bytes + 3) / 4; }
}  // namespace

void CommandBuffer::header(CommandOp op, std::uint32_t count, Entity entity) {
    words_.push_back(static_cast<std::uint32_t>(op) | (count << 8));
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
    header(CommandOp::Spawn, static_cast<std::uint32_t>(count), entity);
    values(vals, count);
}

void CommandBuffer::despawn(Entity entity) { header(CommandOp::Despawn, 0, entity); }

void CommandBuffer::add(Entity entity, const ComponentValue* vals, std::size_t count) {
    header(CommandOp::Add, static_cast<std::uint32_t>(count), entity);
    values(vals, count);
}

void CommandBuffer::remove(Entity entity, const ComponentId* ids, std::size_t count) {
    header(CommandOp::Remove, static_cast<std::uint32_t>(count), entity);
    words_.insert(words_.end(), ids, ids + count);
}

void CommandBuffer::set(Entity entity, ComponentId id, std::uint32_t offset, const void* bytes, std::uint32_t size) {
    header(CommandOp::Set, 1, entity);
    words_.push_back(id);
    words_.push_back(offset);
    payload(bytes, size);
}

bool CommandReader::next(CommandRecord& record) noexcept {
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
        case CommandOp::Set: end += 2 + 1 + words_for(end[2]); break;
        default: break;
    }
    at_ = static_cast<std::size_t>(end - words_.data());
    return true;
}

}  // namespace ecsia
