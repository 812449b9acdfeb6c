// World's topics: definition, publishing from the serial phase, and the running main-thread
// system's messages (topic/topic_store.hpp has the model; the scheduler moves the cursors).

#include <algorithm>
#include <string>

#include "ecsia/base/error.hpp"
#include "ecsia/topic/topic_store.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

bool World::same_layout(const ComponentDesc& a, const ComponentDesc& b) noexcept {
    if (a.size != b.size || a.fields.size() != b.fields.size()) return false;
    for (std::size_t f = 0; f < a.fields.size(); ++f) {
        if (a.fields[f].name != b.fields[f].name || a.fields[f].type != b.fields[f].type || a.fields[f].offset != b.fields[f].offset) return false;
    }
    return true;
}

TopicId World::topic_of_layout(ComponentDesc layout) {
    const TopicId id = topics_->find(layout.name);
    if (id == kNoTopic) {
        require_structural("topic");
        return topics_->define(std::move(layout));
    }
    if (!same_layout(topics_->topic(id).layout, layout)) {
        throw Error(ErrorCode::DuplicateName, "a topic named '" + layout.name + "' exists with other fields");
    }
    return id;
}

TopicId World::topic_id(std::string_view name) const { return topics_->id_of(name); }

TopicId World::define_topic(std::string name, const std::vector<FieldSpec>& fields) {
    require_structural("define_topic");
    if (name.empty()) throw Error(ErrorCode::BadDefinition, "a topic needs a non-empty name");
    if (topics_->size() >= (1u << 24) - 1) throw Error(ErrorCode::CapacityExceeded, "a world holds at most 16777214 topics");
    if (fields.empty()) {
        throw Error(ErrorCode::BadDefinition, "topic '" + name + "' has no fields: a message carries at least one value");
    }
    ComponentDesc wanted = layout_component(name, fields);  // BadDefinition first
    if (const TopicId existing = topics_->find(name); existing != kNoTopic) {
        // Defined again: the same fields give the topic; other fields are an error.
        const ComponentDesc& had = topics_->topic(existing).layout;
        if (same_layout(had, wanted)) return existing;
        throw_redefined("topic", name, "fields " + fields_text(had), "fields " + fields_text(wanted));
    }
    return topics_->define(std::move(wanted));
}

void World::publish(TopicId topic, const void* bytes, std::size_t size) {
    const TopicStore::Topic& t = topics_->topic(topic);
    if (phase_ == WorldPhase::Wave) {
        throw Error(ErrorCode::WrongPhase, "publish('" + t.layout.name +
                                               "') during a wave: a kernel publishes through its commands; the page "
                                               "publishes between frames or from a main-thread system");
    }
    if (consumer_name_ != nullptr &&
        std::find(consumer_publishes_.begin(), consumer_publishes_.end(), topic) == consumer_publishes_.end()) {
        throw Error(ErrorCode::UnknownTopic, "system '" + *consumer_name_ + "' publishes '" + t.layout.name +
                                                 "' without declaring it: add it to the system's publishes");
    }
    if (size != t.layout.size) {
        throw Error(ErrorCode::BadValue, "a message of " + std::to_string(size) + " bytes for topic '" + t.layout.name +
                                             "', whose messages are " + std::to_string(t.layout.size) + " bytes");
    }
    topics_->append_many(topic, static_cast<const std::byte*>(bytes), 1);
}

TopicMessages World::messages(TopicId topic) const {
    const TopicStore::Topic& t = topics_->topic(topic);
    if (consumer_name_ == nullptr) {
        throw Error(ErrorCode::UnknownTopic, "messages('" + t.layout.name +
                                                 "') outside a consuming system: a main-thread system that declares "
                                                 "the topic in its consumes reads them while it runs");
    }
    for (const TopicWindow& window : consumer_windows_) {
        if (window.topic == topic) return topics_->view(window);
    }
    throw Error(ErrorCode::UnknownTopic, "system '" + *consumer_name_ + "' does not consume topic '" + t.layout.name +
                                             "': declare it in the system's consumes");
}

}  // namespace ecsia
