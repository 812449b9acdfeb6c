#pragma once
// The topic layer: typed messages that systems publish and other systems consume, once each.
//
// A topic is defined like a component (fields with types, laid out by layout_component) but holds
// a queue of messages instead of per-entity values. Its messages are stored field by field (one
// array per field, so a JS consumer views each as a plain typed array) and numbered by a 64-bit
// sequence that never restarts. Each consumer (a system, by name) has a cursor: the sequence of
// the next message it has not seen. A consumer run sees the window [cursor, end) as it was when
// the run began and moves its cursor to that end afterwards, so it sees every message exactly
// once. Messages every consumer's cursor has passed are dropped by trim(); a topic without
// consumers keeps nothing (a publish is dropped at once), so nothing grows without a reader.
//
// Messages and cursors are world state: state_hash covers them and snapshots carry them.
// Serial phase, coordinator thread (kernels publish through their command buffers; the merge
// appends in batch-id order).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ecsia/schema/component_desc.hpp"
#include "ecsia/topic/topic_messages.hpp"

namespace ecsia {

// A topic's storage of one field: a byte array that grows without zeroing what it is about to
// overwrite (a merge appends a batch's messages field by field).
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {
        using other = UninitializedAllocator<U>;
    };
    UninitializedAllocator() = default;
    template <typename U>
    UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
    template <typename U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;  // default-initialised: left as it is
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
using FieldBytes = std::vector<std::byte, UninitializedAllocator<std::byte>>;

class TopicStore {
public:
    struct Consumer {
        std::string name;
        std::uint64_t cursor = 0;  // the next message this consumer has not seen
    };
    struct Topic {
        ComponentDesc layout;                        // fields and their offsets in a packed message
        std::vector<FieldBytes> fields;              // by field: count * field size bytes
        std::uint64_t first = 0;                     // sequence of the oldest message kept
        std::uint32_t count = 0;                     // messages kept
        std::vector<Consumer> consumers;             // in the order they were added
        // By field: its offset in a packed message and its size (from layout, kept for append).
        std::vector<std::pair<std::uint32_t, std::uint32_t>> slots;
        std::vector<std::uint32_t> entity_offsets;  // of its entity fields, in a packed message
        std::uint64_t end() const noexcept { return first + count; }
    };

    // Throws DuplicateName when a topic has that name, BadDefinition for a topic without fields
    // or a field layout_component refuses.
    TopicId define(ComponentDesc layout);
    // Throws UnknownTopic naming the defined topics.
    TopicId id_of(std::string_view name) const;
    TopicId find(std::string_view name) const noexcept;  // kNoTopic when undefined
    // Throws UnknownTopic for an id never handed out.
    const Topic& topic(TopicId id) const;
    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(topics_.size()); }
    // How many times a restore replaced the consumers: after one, each scheduler claims its own
    // again and the consumers no scheduler runs go (Scheduler's begin_frame).
    std::uint64_t consumer_restores() const noexcept { return consumer_restores_; }

    // Appends `count` messages packed one after another (layout.size bytes each, as the topic
    // lays a message out), in order. All are dropped at once when the topic has no consumer (they
    // still take their numbers). `id` must be a topic's (topic() checks one). `fix`, when given,
    // is called on the appended values of each entity field, a block at a time while the block
    // is in cache, and may change them in place (the merge makes pending handles real there).
    using HandleFix = void (*)(void* context, std::uint32_t* handles, std::uint32_t count);
    void append_many(TopicId id, const std::byte* messages, std::uint32_t count, HandleFix fix = nullptr,
                     void* context = nullptr);
    // The same for `count` messages stored field by field: the values of the field at offset `o`
    // of a packed message lie one after another from `fields + count * o`.
    void append_by_field(TopicId id, const std::byte* fields, std::uint32_t count, HandleFix fix = nullptr,
                         void* context = nullptr);

    // Adds `name` as a consumer of `id`; a new consumer starts at the end (it sees messages
    // published from now on); an existing one keeps its cursor.
    void add_consumer(TopicId id, std::string_view name);
    // Removes every consumer for which keep(topic, name) is false, then trims.
    template <typename Keep>
    void retain_consumers(Keep&& keep);
    // The messages `name` has not seen yet (it must be a consumer of `id`).
    TopicWindow window(TopicId id, std::string_view name) const;
    // Marks a window seen: the consumer's cursor moves to its end (never backwards).
    void consume(const TopicWindow& window, std::string_view name);
    TopicMessages view(const TopicWindow& window) const;

    // Drops the messages every consumer has seen (all of them when there is none).
    void trim();

    // While a main-thread system runs, World::messages' views point into the fields: a field
    // that grows then (a publish of the system's, or of an observer its change set off) keeps its
    // old bytes alive until hold_views(false), so no view reads freed memory.
    void hold_views(bool hold) noexcept;

private:
    friend class SnapshotAccess;
    friend class CommandApplier;  // the merge's append, with the id checked once
    Consumer* consumer(TopicId id, std::string_view name) noexcept;
    // Appends `count` messages, `copy(topic, first)` writing them into the fields already grown
    // for them from message `first` on (or drops them: no consumer).
    template <typename Copy>
    void append(TopicId id, std::uint32_t count, Copy copy);
    // append_many's copy into fields already grown for the messages, from message `first` on.
    static void gather_blocks(Topic& t, std::size_t first, const std::byte* messages, std::uint32_t count, std::size_t stride,
                              HandleFix fix, void* context);
    // Grows every field of `t` to `messages` messages by a copy into new storage, keeping the old in held_.
    void grow_keeping_views(Topic& t, std::size_t messages);
    std::vector<Topic> topics_;
    std::uint64_t consumer_restores_ = 0;
    bool holding_views_ = false;
    std::vector<FieldBytes> held_;  // fields' storage a view may still read (hold_views)
};

template <typename Keep>
void TopicStore::retain_consumers(Keep&& keep) {
    for (TopicId id = 0; id < topics_.size(); ++id) {
        std::erase_if(topics_[id].consumers, [&](const Consumer& c) { return !keep(id, std::string_view(c.name)); });
    }
    trim();
}

}  // namespace ecsia
