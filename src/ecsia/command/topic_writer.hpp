#pragma once
// Publishing many messages of one topic from a kernel's loop (KernelContext::topic_writer).
// KernelContext::publish finds the outbox and counts the message on every call, through the
// buffer's memory: a chain of loads and stores from one message to the next. A TopicWriter holds
// its room's two ends itself, a local the compiler keeps in registers, so a message is one store
// and one increment; the buffer learns how many it wrote when the writer grows or goes out of scope.
// Single-threaded, like the buffer it writes into.

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include "ecsia/command/command_buffer.hpp"

namespace ecsia {

template <typename T>
class TopicWriter {
    static_assert(std::is_trivially_copyable_v<T>, "a message is copied as bytes");
    // Messages lie sizeof(T) apart from the start of an operator new block.
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "an over-aligned message type");

public:
    // Made by KernelContext::topic_writer, which checks the topic and the message's size.
    TopicWriter(CommandBuffer& buffer, std::uint32_t topic) : buffer_(&buffer) {
        const CommandBuffer::MessageRoom room = buffer.open_messages(topic, sizeof(T));
        outbox_ = room.outbox;
        at_ = room.at;
        end_ = room.end;
    }
    TopicWriter(const TopicWriter&) = delete;
    TopicWriter& operator=(const TopicWriter&) = delete;
    // Its messages join the batch's outbox here; publish() of the topic works again from then on.
    ~TopicWriter() { buffer_->close_messages(outbox_, at_); }

    // Publishes `message` after the ones before it (as KernelContext::publish would).
    void publish(const T& message) {
        if (static_cast<std::size_t>(end_ - at_) < sizeof(T)) grow();
        // The outbox's bytes are storage for messages; a store of T, so the compiler knows it
        // writes neither at_ nor end_ (unless T has char-sized fields, which may alias anything:
        // then only slower).
        ::new (static_cast<void*>(at_)) T(message);
        at_ += sizeof(T);
    }

private:
    void grow() {
        const CommandBuffer::MessageRoom room = buffer_->grow_messages(outbox_, at_);
        at_ = room.at;
        end_ = room.end;
    }

    CommandBuffer* buffer_;
    std::size_t outbox_ = 0;
    std::byte* at_ = nullptr;
    std::byte* end_ = nullptr;
};

}  // namespace ecsia
