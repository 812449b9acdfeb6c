#include "ecsia/reactivity/observers.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>


namespace ecsia {

ObserverId ObserverRegistry::add(ObserverEvent event, ComponentId component, ObserverFn fn) {
    const ObserverId id = next_id_++;
    entries_.push_back(Entry{id, event, component, std::move(fn)});
    auto& counts = interest_[static_cast<int>(event)];
    if (counts.size() <= component) counts.resize(component + 1, 0);
    ++counts[component];
    return id;
}

void ObserverRegistry::remove(ObserverId id) noexcept {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.id == id && e.fn; });
    if (it == entries_.end()) return;
    --interest_[static_cast<int>(it->event)][it->component];
    if (firing_ > 0) {
        // Erasing now would shift the entries the firing loop has yet to visit and skip one.
        it->fn = nullptr;
        return;
    }
    entries_.erase(it);
}

namespace {

const char* event_name(ObserverEvent event) noexcept {
    switch (event) {
        case ObserverEvent::OnAdd: return "on-add";
        case ObserverEvent::OnRemove: return "on-remove";
        case ObserverEvent::OnChange: return "on-change";
    }
    return "?";
}

void report_failure(Diagnostics& diagnostics, ObserverEvent event, std::string_view component, Entity entity,
                    const char* what, std::size_t dropped) {
    char handle[16];
    std::snprintf(handle, sizeof handle, "0x%08x", entity.bits);
    diagnostics.report(std::string("an ") + event_name(event) + " observer of '" + std::string(component) +
                       "' threw for entity " + handle + ": " + what + "; the change it observed stands, and the " +
                       std::to_string(dropped) + " command(s) it recorded were dropped");
}

}  // namespace

void ObserverRegistry::fire(World& world, ObserverEvent event, ComponentId component, Entity entity,
                            CommandBuffer& commands, Diagnostics& diagnostics, const ComponentRegistry& components,
                            Entity target) {
    if (!any(event, component)) return;
    // Index loop: an observer may register another observer; it joins for later events only.
    // Observers removed meanwhile stay in place, without a function, until the loop is done.
    struct Firing {
        ObserverRegistry& registry;
        explicit Firing(ObserverRegistry& r) noexcept : registry(r) { ++registry.firing_; }
        ~Firing() {
            if (--registry.firing_ == 0) {
                std::erase_if(registry.entries_, [](const Entry& e) { return !e.fn; });
            }
        }
    } firing(*this);
    const std::size_t count = entries_.size();
    for (std::size_t i = 0; i < count; ++i) {
        if (entries_[i].event != event || entries_[i].component != component || !entries_[i].fn) continue;
        // A copy: the observer may register others, which can move entries_.
        ObserverFn fn = entries_[i].fn;
        ObserverContext context{world, entity, component, event, commands, target};
        const CommandBuffer::Mark mark = commands.mark();
        try {
            fn(context);
        } catch (const std::exception& error) {
            const std::size_t dropped = commands.record_count() - mark.records;
            commands.rollback(mark);
            report_failure(diagnostics, event, components.desc(component).name, entity, error.what(), dropped);
        } catch (...) {
            const std::size_t dropped = commands.record_count() - mark.records;
            commands.rollback(mark);
            report_failure(diagnostics, event, components.desc(component).name, entity, "a non-standard exception",
                           dropped);
        }
    }
}

}  // namespace ecsia
