#pragma once
// What a topic's consumer reads: a window of its messages (TopicWindow) viewed field by field
// (TopicMessages), and typed iteration over them (TopicRange). The store that holds the messages
// and the consumers' cursors is topic/topic_store.hpp.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "ecsia/schema/component_desc.hpp"
#include "ecsia/schema/field_type.hpp"

namespace ecsia {

using TopicId = std::uint32_t;

// A consumer's messages of one topic during one run: the sequences [begin, begin + count).
struct TopicWindow {
    TopicId topic = 0;
    std::uint64_t begin = 0;
    std::uint32_t count = 0;
};

// What a consumer reads: `count` messages, field by field. Valid until the topic changes (the
// next publish or trim): during a kernel call, or a main-thread system's run.
template <typename T>
class TopicRange;

class TopicMessages {
public:
    TopicMessages() = default;
    TopicMessages(const ComponentDesc* layout, std::uint32_t count, std::vector<const std::byte*> fields)
        : layout_(layout), count_(count), fields_(std::move(fields)) {}

    std::uint32_t count() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }
    const ComponentDesc& layout() const noexcept { return *layout_; }
    // Field `index` (in the topic's field order) of every message; T must be its type (float for
    // f32, Entity for entity, ...): BadValue otherwise.
    template <typename T>
    std::span<const T> field(std::size_t index) const {
        check_field(index, field_type_of<T>());
        return {reinterpret_cast<const T*>(fields_[index]), count_};
    }
    // The same, by field name (UnknownField when the topic has none).
    template <typename T>
    std::span<const T> field(std::string_view name) const {
        return field<T>(field_index(name));
    }
    // Message i gathered into a struct laid out as the topic (a type reflected with
    // ECSIA_TOPIC, the one World::topic<T>() defined the topic from).
    template <typename T>
    T get(std::uint32_t i) const {
        T out{};
        gather(i, &out, sizeof(T));
        return out;
    }
    // Raw bytes of field `index` (the first message's); for bindings.
    const std::byte* field_bytes(std::size_t index) const noexcept { return fields_[index]; }

    // Every message as a T, in publication order: for (const Hit hit : messages.as<Hit>()).
    // The range holds its own copy of the view, so it may be taken from a temporary.
    template <typename T>
    TopicRange<T> as() const;

private:
    std::size_t field_index(std::string_view name) const;
    void check_field(std::size_t index, FieldType type) const;
    void gather(std::uint32_t i, void* out, std::size_t size) const;

    const ComponentDesc* layout_ = nullptr;
    std::uint32_t count_ = 0;
    std::vector<const std::byte*> fields_;
};

template <typename T>
class TopicRange {
public:
    explicit TopicRange(TopicMessages messages) : messages_(std::move(messages)) {}
    struct Iterator {
        const TopicMessages* messages;
        std::uint32_t i;
        T operator*() const { return messages->get<T>(i); }
        Iterator& operator++() noexcept {
            ++i;
            return *this;
        }
        bool operator!=(const Iterator& other) const noexcept { return i != other.i; }
    };
    Iterator begin() const noexcept { return {&messages_, 0}; }
    Iterator end() const noexcept { return {&messages_, messages_.count()}; }

private:
    TopicMessages messages_;
};

template <typename T>
TopicRange<T> TopicMessages::as() const {
    return TopicRange<T>(*this);
}

inline constexpr TopicId kNoTopic = 0xFFFFFFFFu;

}  // namespace ecsia
