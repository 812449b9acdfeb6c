#pragma once
// The reactivity layer: observers of component adds, removes and changes.
//
// Order (deterministic): events fire in the order of the changes that caused them; for one event,
// observers fire in registration order. Add and remove observers run inside the structural change
// (a remove observer, including one triggered by despawn, can still read the values); change
// observers are queued and run at the next flush, after the writes are complete. Observers run on
// the serial slot only, never re-entrantly: structural changes an observer wants go into the
// CommandBuffer it is given, which the world applies at its next flush.
//
// An observer that throws does not undo the change it observed (that change is complete when
// observers run): the exception becomes a diagnostic, the commands that observer recorded in this
// call are dropped, and the remaining observers still run.

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "ecsia/base/diagnostics.hpp"
#include "ecsia/base/ids.hpp"
#include "ecsia/command/command_buffer.hpp"
#include "ecsia/entity/entity.hpp"
#include "ecsia/schema/component_registry.hpp"

namespace ecsia {

class World;

enum class ObserverEvent : std::uint8_t { OnAdd, OnRemove, OnChange };

struct ObserverContext {
    World& world;
    Entity entity;
    ComponentId component;
    ObserverEvent event;
    CommandBuffer& commands;  // deferred structural changes; applied at the world's next flush
    // For a relation's observers (`component` is the relation's id): the pair's target.
    Entity target = kNullEntity;
};

using ObserverFn = std::function<void(ObserverContext&)>;
using ObserverId = std::uint32_t;

class ObserverRegistry {
public:
    ObserverId add(ObserverEvent event, ComponentId component, ObserverFn fn);
    void remove(ObserverId id) noexcept;

    // Quick test used on hot paths so that worlds without observers pay nothing per row.
    bool any(ObserverEvent event, ComponentId component) const noexcept {
        const auto& counts = interest_[static_cast<int>(event)];
        return component < counts.size() && counts[component] != 0;
    }
    // Calls each matching observer in registration order; one that throws is a diagnostic naming
    // the component, looked up in `components` when it is reported (an observer may register
    // components, which moves the registry's names).
    void fire(World& world, ObserverEvent event, ComponentId component, Entity entity, CommandBuffer& commands,
              Diagnostics& diagnostics, const ComponentRegistry& components, Entity target = kNullEntity);

private:
    struct Entry {
        ObserverId id;
        ObserverEvent event;
        ComponentId component;
        ObserverFn fn;
    };
    std::vector<Entry> entries_;  // registration order; an entry without fn was removed mid-firing
    int firing_ = 0;              // > 0 while fire() runs: removals wait until it is done
    // interest_[event][component] counts observers, so any() is O(1).
    std::vector<std::uint32_t> interest_[3];
    ObserverId next_id_ = 1;
};

}  // namespace ecsia
