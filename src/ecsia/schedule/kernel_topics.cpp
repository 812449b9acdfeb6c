// KernelContext's topics (system.hpp): the messages a batch consumes are views fixed before the
// wave (nothing is appended to a topic during a wave: publishes wait in command buffers), so any
// thread reads them without locks; a publish is a record in the batch's own command buffer.

#include <algorithm>
#include <string>

#include "ecsia/base/error.hpp"
#include "ecsia/schedule/system.hpp"
#include "ecsia/topic/topic_store.hpp"

namespace ecsia {

namespace {

std::string topic_name(const TopicStore* topics, TopicId topic) {
    if (topics != nullptr && topic < topics->size()) return "'" + topics->topic(topic).layout.name + "'";
    return "topic id " + std::to_string(topic);
}

}  // namespace

const TopicMessages& KernelContext::messages(TopicId topic) const {
    for (std::size_t i = 0; i < wiring_.consumed.size(); ++i) {
        if (wiring_.consumed[i].topic == topic) return wiring_.consumed_messages[i];
    }
    throw Error(ErrorCode::UnknownTopic, "messages(" + topic_name(wiring_.topics, topic) +
                                             "): the system does not consume it (declare it in consumes)");
}

void KernelContext::check_publish(TopicId topic, std::size_t size) {
    const TopicStore* topics = wiring_.topics;
    const std::span<const TopicId> publishes = wiring_.publishes;
    if (topics == nullptr || std::find(publishes.begin(), publishes.end(), topic) == publishes.end()) {
        throw Error(ErrorCode::UnknownTopic, "publish(" + topic_name(topics, topic) +
                                                 "): the system does not publish it (declare it in publishes)");
    }
    const std::uint32_t expected = topics->topic(topic).layout.size;
    if (size != expected) {
        throw Error(ErrorCode::BadValue, "publish(" + topic_name(topics, topic) + ") with " + std::to_string(size) +
                                             " bytes; its messages are " + std::to_string(expected));
    }
    publish_checked_ = PublishCheck{topic, size};
}

}  // namespace ecsia
