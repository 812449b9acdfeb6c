#include "ecsia/topic/topic_store.hpp"

#include <algorithm>
#include <cstring>

#include "ecsia/base/error.hpp"
#include "ecsia/base/u32x4.hpp"
#include "ecsia/schema/field_type.hpp"

namespace ecsia {

std::size_t TopicMessages::field_index(std::string_view name) const {
    for (std::size_t i = 0; i < layout_->fields.size(); ++i) {
        if (layout_->fields[i].name == name) return i;
    }
    throw Error(ErrorCode::UnknownField, "topic '" + layout_->name + "' has no field '" + std::string(name) + "'");
}

void TopicMessages::check_field(std::size_t index, FieldType type) const {
    if (layout_ == nullptr || index >= layout_->fields.size()) {
        throw Error(ErrorCode::UnknownField, "no field " + std::to_string(index) + " in these messages");
    }
    const FieldDesc& field = layout_->fields[index];
    if (field.type != type) {
        throw Error(ErrorCode::BadValue, "field '" + field.name + "' of topic '" + layout_->name + "' is " +
                                             std::string(field_type_name(field.type)) + ", read as " +
                                             std::string(field_type_name(type)));
    }
}

void TopicMessages::gather(std::uint32_t i, void* out, std::size_t size) const {
    if (layout_ == nullptr || size != layout_->size) {
        throw Error(ErrorCode::BadValue, "a message of topic '" + (layout_ ? layout_->name : std::string()) +
                                             "' is " + std::to_string(layout_ ? layout_->size : 0) + " bytes, not " +
                                             std::to_string(size));
    }
    if (i >= count_) throw Error(ErrorCode::BadValue, "message " + std::to_string(i) + " of " + std::to_string(count_));
    for (std::size_t f = 0; f < layout_->fields.size(); ++f) {
        const FieldDesc& field = layout_->fields[f];
        const std::size_t bytes = field_size(field.type);
        std::memcpy(static_cast<std::byte*>(out) + field.offset, fields_[f] + i * bytes, bytes);
    }
}

TopicId TopicStore::define(ComponentDesc layout) {
    if (find(layout.name) != kNoTopic) throw Error(ErrorCode::DuplicateName, "a topic named '" + layout.name + "' already exists");
    if (layout.fields.empty()) {
        throw Error(ErrorCode::BadDefinition, "topic '" + layout.name + "' has no fields: a message carries at least one value");
    }
    Topic topic;
    topic.fields.resize(layout.fields.size());
    for (const FieldDesc& field : layout.fields) {
        topic.slots.emplace_back(field.offset, static_cast<std::uint32_t>(field_size(field.type)));
        if (field.type == FieldType::Entity) topic.entity_offsets.push_back(field.offset);
    }
    topic.layout = std::move(layout);
    topic.layout.id = static_cast<ComponentId>(topics_.size());
    topics_.push_back(std::move(topic));
    return static_cast<TopicId>(topics_.size() - 1);
}

TopicId TopicStore::find(std::string_view name) const noexcept {
    for (std::size_t i = 0; i < topics_.size(); ++i) {
        if (topics_[i].layout.name == name) return static_cast<TopicId>(i);
    }
    return kNoTopic;
}

TopicId TopicStore::id_of(std::string_view name) const {
    const TopicId id = find(name);
    if (id != kNoTopic) return id;
    std::string known;
    for (const Topic& topic : topics_) known += (known.empty() ? "'" : ", '") + topic.layout.name + "'";
    throw Error(ErrorCode::UnknownTopic, "no topic named '" + std::string(name) + "' (" +
                                             (known.empty() ? std::string("no topics are defined") : "defined: " + known) + ")");
}

const TopicStore::Topic& TopicStore::topic(TopicId id) const {
    if (id >= topics_.size()) throw Error(ErrorCode::UnknownTopic, "no topic with id " + std::to_string(id));
    return topics_[id];
}

namespace {

// Field bytes of `count` packed messages (`stride` apart, from `from`) into a column, by size so
// that each copy is one load and store.
template <typename Word>
void gather(std::byte* to, const std::byte* from, std::size_t stride, std::uint32_t count) {
    for (std::uint32_t i = 0; i < count; ++i) std::memcpy(to + i * sizeof(Word), from + i * stride, sizeof(Word));
}

using simd::U32x4;

// The common message of two 4-byte fields (an entity and an amount): word `half` (0 or 1) of each
// 8-byte message, four messages a step, from two loads of whole messages (never past the last).
void gather_half_of_pairs(std::byte* to, const std::byte* messages, std::uint32_t half, std::uint32_t count) {
    std::uint32_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const U32x4 a = simd::load_u32x4(messages + 8 * std::size_t(i));
        const U32x4 b = simd::load_u32x4(messages + 8 * std::size_t(i) + 16);
        const U32x4 words = half == 0 ? __builtin_shufflevector(a, b, 0, 2, 4, 6) : __builtin_shufflevector(a, b, 1, 3, 5, 7);
        std::memcpy(to + 4 * std::size_t(i), &words, 16);
    }
    for (; i < count; ++i) std::memcpy(to + 4 * std::size_t(i), messages + 8 * std::size_t(i) + 4 * half, 4);
}

}  // namespace

template <typename Copy>
void TopicStore::append(TopicId id, std::uint32_t count, Copy copy) {
    Topic& t = topics_[id];
    if (t.consumers.empty()) {
        t.first = t.end() + count;
        t.count = 0;
        for (auto& column : t.fields) column.clear();
        return;
    }
    const std::size_t first = t.count;
    // The room is not zeroed: until every byte of it is written, nothing may read it. Whatever
    // throws (out of heap growing a field, or in the copy's handle fix) takes the room away again.
    try {
        if (holding_views_) grow_keeping_views(t, first + count);
        for (std::size_t f = 0; f < t.slots.size(); ++f) t.fields[f].resize((first + count) * t.slots[f].second);
        copy(t, first);
    } catch (...) {
        for (std::size_t f = 0; f < t.slots.size(); ++f) t.fields[f].resize(first * t.slots[f].second);
        throw;
    }
    t.count += count;
}

void TopicStore::grow_keeping_views(Topic& t, std::size_t messages) {
    for (std::size_t f = 0; f < t.slots.size(); ++f) {
        FieldBytes& field = t.fields[f];
        const std::size_t needed = messages * t.slots[f].second;
        if (needed <= field.capacity()) continue;
        FieldBytes grown;
        grown.reserve(std::max(needed, 2 * field.capacity()));
        grown.insert(grown.end(), field.begin(), field.end());
        held_.push_back(std::move(field));
        field = std::move(grown);
    }
}

void TopicStore::hold_views(bool hold) noexcept {
    holding_views_ = hold;
    if (!hold) held_.clear();
}

void TopicStore::append_many(TopicId id, const std::byte* messages, std::uint32_t count, HandleFix fix, void* context) {
    append(id, count, [&](Topic& t, std::size_t first) { gather_blocks(t, first, messages, count, t.layout.size, fix, context); });
}

void TopicStore::append_by_field(TopicId id, const std::byte* fields, std::uint32_t count, HandleFix fix, void* context) {
    append(id, count, [&](Topic& t, std::size_t first) {
        for (std::size_t f = 0; f < t.slots.size(); ++f) {
            const auto [offset, size] = t.slots[f];
            std::byte* to = t.fields[f].data() + first * size;
            if (count != 0) std::memcpy(to, fields + std::size_t(count) * offset, std::size_t(count) * size);
            if (fix != nullptr && t.layout.fields[f].type == FieldType::Entity) fix(context, reinterpret_cast<std::uint32_t*>(to), count);
        }
    });
}

void TopicStore::gather_blocks(Topic& t, std::size_t first, const std::byte* messages, std::uint32_t count, std::size_t stride,
                               HandleFix fix, void* context) {
    // Block by block, every field of the block: the messages are read from memory once, not once
    // per field, and an entity field is fixed while its block is still in cache.
    constexpr std::uint32_t kBlock = 2048;
    for (std::uint32_t begin = 0; begin < count; begin += kBlock) {
        const std::uint32_t n = std::min(kBlock, count - begin);
        const std::byte* block = messages + begin * stride;
        for (std::size_t f = 0; f < t.slots.size(); ++f) {
            const auto [offset, size] = t.slots[f];
            std::byte* to = t.fields[f].data() + (first + begin) * size;
            const std::byte* from = block + offset;
            switch (stride == 8 && size == 4 && offset % 4 == 0 ? 0 : size) {
                case 0: gather_half_of_pairs(to, block, offset / 4, n); break;
                case 1: gather<std::uint8_t>(to, from, stride, n); break;
                case 2: gather<std::uint16_t>(to, from, stride, n); break;
                case 4: gather<std::uint32_t>(to, from, stride, n); break;
                default: gather<std::uint64_t>(to, from, stride, n); break;
            }
            if (fix != nullptr && t.layout.fields[f].type == FieldType::Entity) fix(context, reinterpret_cast<std::uint32_t*>(to), n);
        }
    }
}

TopicStore::Consumer* TopicStore::consumer(TopicId id, std::string_view name) noexcept {
    for (Consumer& c : topics_[id].consumers) {
        if (c.name == name) return &c;
    }
    return nullptr;
}

void TopicStore::add_consumer(TopicId id, std::string_view name) {
    topic(id);
    if (consumer(id, name) != nullptr) return;
    topics_[id].consumers.push_back(Consumer{std::string(name), topics_[id].end()});
}

TopicWindow TopicStore::window(TopicId id, std::string_view name) const {
    const Topic& t = topic(id);
    for (const Consumer& c : t.consumers) {
        if (c.name != name) continue;
        // A cursor is never behind `first`: trim keeps every message a consumer has not seen.
        const std::uint64_t begin = std::max(c.cursor, t.first);
        return TopicWindow{id, begin, static_cast<std::uint32_t>(t.end() - begin)};
    }
    throw Error(ErrorCode::UnknownTopic, "'" + std::string(name) + "' does not consume topic '" + t.layout.name + "'");
}

void TopicStore::consume(const TopicWindow& window, std::string_view name) {
    topic(window.topic);
    if (Consumer* c = consumer(window.topic, name)) c->cursor = std::max(c->cursor, window.begin + window.count);
}

TopicMessages TopicStore::view(const TopicWindow& window) const {
    const Topic& t = topic(window.topic);
    std::vector<const std::byte*> fields(t.fields.size());
    const std::uint64_t offset = window.begin - t.first;
    for (std::size_t f = 0; f < fields.size(); ++f) {
        fields[f] = t.fields[f].data() + offset * field_size(t.layout.fields[f].type);
    }
    return TopicMessages(&t.layout, window.count, std::move(fields));
}

void TopicStore::trim() {
    for (Topic& t : topics_) {
        std::uint64_t keep_from = t.end();
        for (const Consumer& c : t.consumers) keep_from = std::min(keep_from, std::max(c.cursor, t.first));
        const std::uint64_t dropped = keep_from - t.first;
        if (dropped == 0) continue;
        for (std::size_t f = 0; f < t.fields.size(); ++f) {
            FieldBytes& column = t.fields[f];
            column.erase(column.begin(), column.begin() + static_cast<std::ptrdiff_t>(dropped * field_size(t.layout.fields[f].type)));
        }
        t.first = keep_from;
        t.count -= static_cast<std::uint32_t>(dropped);
    }
}

}  // namespace ecsia
