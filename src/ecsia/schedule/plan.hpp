#pragma once
// The planner: turns systems and their declared reads/writes into waves of mutually compatible
// systems. Two systems conflict when one writes a component the other reads or writes. Conflicting
// systems run in registration order unless before/after says otherwise; before/after edges always
// hold. Each system's wave is one past the latest wave of anything it must follow.
// Serial phase only (planning happens when the set of systems changes).

#include <cstdint>
#include <string>
#include <vector>

#include "ecsia/schedule/system.hpp"
#include "ecsia/schema/component_registry.hpp"

namespace ecsia {

struct PlacementReason {
    std::uint32_t system;
    std::int32_t follows = -1;       // the system that fixed this one's wave, or -1 (first wave)
    std::string why;                 // e.g. "writes 'position', which 'Render' reads" or "declared after 'Input'"
};

struct Plan {
    std::vector<std::vector<std::uint32_t>> waves;  // system indices, in registration order
    std::vector<std::uint32_t> wave_of;             // by system index
    std::vector<PlacementReason> reasons;           // by system index
    std::vector<bool> main_thread;                  // by system index

    // A readable account: each wave, its systems, why each is where it is, and which systems are
    // pinned to the main thread and why.
    std::string explain(const std::vector<SystemDesc>& systems) const;
};

// A system that publishes a topic runs before the systems that consume it (unless before/after
// says otherwise). Throws BadPlan for an unknown before/after name or a cycle (naming the systems
// in it; two systems that each consume what the other publishes are one), and DuplicateName for
// two systems with one name. `topics` names topics in reasons (null: by id).
Plan make_plan(const std::vector<SystemDesc>& systems, const ComponentRegistry& registry,
               const TopicStore* topics = nullptr);

// Whether a and b may share a wave, and if not, a sentence saying why (empty when compatible).
std::string conflict_between(const SystemDesc& a, const SystemDesc& b, const ComponentRegistry& registry);

}  // namespace ecsia
