// The JS World's topic calls (world.publish, and the messages a JS main-thread system gets): plain
// C exports (Module._ecsia_world_*, found by name as world_fast.cpp's are), numbers in, a status
// out. A message arrives encoded by JS as one element of the topic's layout (encoded_values.hpp's
// element layout), already checked for its JS types and ranges; the topic is its id (JS resolved
// the name through WorldBinding::topic_info, which gives the core's error for an unknown name).
//
// On failure an export returns 0 and the core's own error (an unknown topic, a publish during a
// wave or one the running system did not declare, messages of a topic it does not consume) waits
// in the error slot (js_error.hpp); nothing changed (G5).
// Thread rule: the page's main thread.

#include <emscripten/emscripten.h>

#include <cstdint>
#include <vector>

#include "js_error.hpp"
#include "world_binding.hpp"
#include "world_exports.hpp"
#include "ecsia/topic/topic_store.hpp"

using ecsia::TopicId;
using ecsia::TopicMessages;
using ecsia::World;
using ecsia::wasm::capture_error;
using ecsia::wasm::heap_bytes;
using ecsia::wasm::world_disposed;
using ecsia::wasm::WorldBinding;

extern "C" {

// Publishes the message at `src` (the topic's layout size) after every message before it. 1 or 0.
EMSCRIPTEN_KEEPALIVE int ecsia_world_publish(WorldBinding* binding, std::uint32_t topic, std::uint32_t src) {
    if (binding == nullptr) return world_disposed();
    World& world = binding->world();
    return capture_error([&] {
        const std::uint32_t size = world.topics().topic(topic).layout.size;
        world.publish(topic, heap_bytes(src), size);
    });
}

// The messages of `topic` the running main-thread system has not seen (World::messages): the
// address of uint32 words [count, address of field 0's values, address of field 1's, ...], valid
// until the next call; 0 on failure.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_world_messages(WorldBinding* binding, std::uint32_t topic) {
    if (binding == nullptr) return world_disposed();
    static std::vector<std::uint32_t> record;
    const bool ok = capture_error([&] {
        const TopicMessages messages = binding->world().messages(topic);
        const std::size_t fields = messages.layout().fields.size();
        record.assign(1 + fields, 0);
        record[0] = messages.count();
        for (std::size_t f = 0; f < fields; ++f) {
            record[1 + f] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(messages.field_bytes(f)));
        }
    });
    return ok ? static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(record.data())) : 0;
}

}  // extern "C"
