#include "ecsia/schedule/plan.hpp"

#include <algorithm>
#include <map>

#include "ecsia/base/error.hpp"
#include "ecsia/topic/topic_store.hpp"

namespace ecsia {

namespace {

bool contains(const std::vector<ComponentId>& list, ComponentId id) {
    return std::find(list.begin(), list.end(), id) != list.end();
}

bool names(const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

// Why `publisher` must run before `consumer`: the first topic it publishes that the other
// consumes, or empty.
std::string feeds(const SystemDesc& publisher, const SystemDesc& consumer, const TopicStore* topics) {
    for (TopicId topic : publisher.publishes) {
        if (std::find(consumer.consumes.begin(), consumer.consumes.end(), topic) == consumer.consumes.end()) continue;
        const std::string name = topics != nullptr && topic < topics->size() ? topics->topic(topic).layout.name
                                                                             : "topic " + std::to_string(topic);
        return "'" + publisher.name + "' publishes '" + name + "', which '" + consumer.name + "' consumes";
    }
    return {};
}

}  // namespace

// How `reader` reads `id` where another system's write of it conflicts, or nullptr. A cascade
// system's parent reads and a system's lookups read other rows (any row can be a parent or be
// looked up): they conflict with another system's writes like reads do. A cascade system's own
// writes of a component it reads of parents are no conflict: depth levels order them (a level
// reads only levels that finished before it).
const char* read_kind(const SystemDesc& reader, ComponentId id) {
    if (contains(reader.reads, id)) return "reads";
    if (contains(reader.parent_reads, id)) return "reads of parents";
    if (contains(reader.lookups, id)) return "looks up";
    return nullptr;
}

std::string conflict_between(const SystemDesc& a, const SystemDesc& b, const ComponentRegistry& registry) {
    for (ComponentId id : a.writes) {
        const std::string& name = registry.desc(id).name;
        if (contains(b.writes, id)) return "'" + a.name + "' and '" + b.name + "' both write '" + name + "'";
        if (const char* kind = read_kind(b, id)) return "'" + a.name + "' writes '" + name + "', which '" + b.name + "' " + kind;
    }
    for (ComponentId id : b.writes) {
        if (const char* kind = read_kind(a, id)) {
            return "'" + b.name + "' writes '" + registry.desc(id).name + "', which '" + a.name + "' " + kind;
        }
    }
    return {};
}

Plan make_plan(const std::vector<SystemDesc>& systems, const ComponentRegistry& registry, const TopicStore* topics) {
    const auto count = static_cast<std::uint32_t>(systems.size());
    std::map<std::string, std::uint32_t> by_name;
    for (std::uint32_t i = 0; i < count; ++i) {
        if (!by_name.emplace(systems[i].name, i).second) {
            throw Error(ErrorCode::DuplicateName, "two systems are named '" + systems[i].name + "'");
        }
    }
    for (const SystemDesc& system : systems) {
        for (const auto* list : {&system.before, &system.after}) {
            for (const std::string& other : *list) {
                if (by_name.count(other) == 0) {
                    throw Error(ErrorCode::BadPlan, "system '" + system.name + "' is ordered " +
                                                        (list == &system.before ? "before" : "after") +
                                                        " unknown system '" + other + "'");
                }
            }
        }
    }

    // edges[i] = systems that must run after i, each with the reason.
    std::vector<std::vector<std::pair<std::uint32_t, std::string>>> edges(count);
    std::vector<std::uint32_t> indegree(count, 0);
    auto add_edge = [&](std::uint32_t from, std::uint32_t to, std::string why) {
        edges[from].emplace_back(to, std::move(why));
        ++indegree[to];
    };
    for (std::uint32_t i = 0; i < count; ++i) {
        for (std::uint32_t j = i + 1; j < count; ++j) {
            const SystemDesc& a = systems[i];
            const SystemDesc& b = systems[j];
            const bool a_first = names(a.before, b.name) || names(b.after, a.name);
            const bool b_first = names(b.before, a.name) || names(a.after, b.name);
            if (a_first) add_edge(i, j, "declared before/after '" + a.name + "'");
            if (b_first) add_edge(j, i, "declared before/after '" + b.name + "'");
            if (a_first || b_first) continue;
            // A consumer follows the publishers of what it consumes, whatever the registration order.
            std::string a_feeds_b = feeds(a, b, topics);
            std::string b_feeds_a = feeds(b, a, topics);
            if (!a_feeds_b.empty() && !b_feeds_a.empty()) {
                throw Error(ErrorCode::BadPlan, a_feeds_b + ", and " + b_feeds_a +
                                                    ": declare before/after to say which runs first (the other "
                                                    "sees those messages the next frame)");
            }
            if (!a_feeds_b.empty()) {
                add_edge(i, j, std::move(a_feeds_b));
            } else if (!b_feeds_a.empty()) {
                add_edge(j, i, std::move(b_feeds_a));
            } else {
                std::string conflict = conflict_between(a, b, registry);
                if (!conflict.empty()) add_edge(i, j, conflict + "; registration order puts '" + a.name + "' first");
            }
        }
    }

    Plan plan;
    plan.wave_of.assign(count, 0);
    plan.reasons.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        plan.reasons[i].system = i;
        plan.reasons[i].why = "nothing it must follow";
        plan.main_thread.push_back(!systems[i].kernel && (static_cast<bool>(systems[i].main_thread) || static_cast<bool>(systems[i].main_thread_chunks)));
    }
    // Kahn's algorithm in index order, so equal inputs give equal plans.
    std::vector<std::uint32_t> ready;
    for (std::uint32_t i = 0; i < count; ++i) {
        if (indegree[i] == 0) ready.push_back(i);
    }
    std::uint32_t visited = 0;
    while (!ready.empty()) {
        std::sort(ready.begin(), ready.end(), std::greater<>());
        const std::uint32_t node = ready.back();
        ready.pop_back();
        ++visited;
        for (const auto& [next, why] : edges[node]) {
            // Nodes leave `ready` in topological order, so wave_of[node] is final here.
            if (plan.wave_of[node] + 1 > plan.wave_of[next]) {
                plan.wave_of[next] = plan.wave_of[node] + 1;
                plan.reasons[next].follows = static_cast<std::int32_t>(node);
                plan.reasons[next].why = why;
            }
            if (--indegree[next] == 0) ready.push_back(next);
        }
    }
    if (visited != count) {
        std::string cycle;
        for (std::uint32_t i = 0; i < count; ++i) {
            if (indegree[i] != 0) cycle += (cycle.empty() ? "'" : ", '") + systems[i].name + "'";
        }
        throw Error(ErrorCode::BadPlan, "the before/after declarations and topics form a cycle among systems " + cycle);
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        if (plan.waves.size() <= plan.wave_of[i]) plan.waves.resize(plan.wave_of[i] + 1);
        plan.waves[plan.wave_of[i]].push_back(i);
    }
    return plan;
}

std::string Plan::explain(const std::vector<SystemDesc>& systems) const {
    std::string text;
    for (std::size_t w = 0; w < waves.size(); ++w) {
        text += "wave " + std::to_string(w) + ":\n";
        for (std::uint32_t s : waves[w]) {
            text += "  " + systems[s].name + (main_thread[s] ? " [main thread]" : "") + ": ";
            if (reasons[s].follows >= 0) {
                text += "after '" + systems[reasons[s].follows].name + "' (" + reasons[s].why + ")";
            } else {
                text += reasons[s].why;
            }
            if (main_thread[s]) text += "; pinned to the main thread because it has no worker kernel (it runs with full world access in the serial slot)";
            text += "\n";
        }
    }
    return text;
}

}  // namespace ecsia
