#include "js_values.hpp"

#include "ecsia/base/error.hpp"
#include "ecsia/relation/prefab.hpp"
#include "ecsia/topic/topic_store.hpp"

using emscripten::val;

namespace ecsia::wasm {

std::vector<std::string> object_keys(const val& object) {
    const val keys = val::global("Object").call<val>("keys", object);
    const auto length = keys["length"].as<unsigned>();
    std::vector<std::string> out;
    out.reserve(length);
    for (unsigned i = 0; i < length; ++i) out.push_back(keys[i].as<std::string>());
    return out;
}

bool is_plain_object(const val& value) {
    return value.typeOf().as<std::string>() == "object" && !value.isNull() && !value.isArray();
}

std::vector<std::string> names_of(const val& names, const std::string& what) {
    std::vector<std::string> out;
    if (names.isUndefined() || names.isNull()) return out;
    if (!names.isArray()) throw Error(ErrorCode::BadValue, what + " takes an array of names, got " + describe_js(names));
    const auto length = names["length"].as<unsigned>();
    for (unsigned i = 0; i < length; ++i) {
        const val name = names[i];
        if (!name.isString()) throw Error(ErrorCode::BadValue, what + "[" + std::to_string(i) + "] must be a string, got " + describe_js(name));
        out.push_back(name.as<std::string>());
    }
    return out;
}

std::string defined_component_names(const ComponentRegistry& registry) {
    std::string out;
    for (ComponentId id = 0; id < registry.size(); ++id) {
        // Relations and the hidden Prefab tag (relation/prefab.hpp) are not components to name.
        if (!registry.desc(id).relation && id != kPrefabTag) out += (out.empty() ? "" : ", ") + registry.desc(id).name;
    }
    return out.empty() ? "none" : out;
}

std::vector<TopicId> topic_ids_of(const World& world, const val& names, const std::string& what) {
    std::vector<TopicId> ids;
    for (const std::string& name : names_of(names, what)) {
        if (world.topics().find(name) == kNoTopic) {
            try {
                world.topic_id(name);
            } catch (const Error& error) {
                throw Error(ErrorCode::UnknownTopic, what + ": " + (std::string(error.what()).substr(std::string("UnknownTopic: ").size())));
            }
        }
        ids.push_back(world.topic_id(name));
    }
    return ids;
}

std::vector<ComponentId> component_ids_of(const ComponentRegistry& registry, const val& names, const std::string& what) {
    std::vector<ComponentId> ids;
    for (const std::string& name : names_of(names, what)) {
        const ComponentId id = registry.find(name);
        if (id == kNoComponent) {
            throw Error(ErrorCode::UnknownComponent,
                        what + " names unknown component '" + name + "' (defined: " + defined_component_names(registry) + ")");
        }
        // A relation's presence component is no component to read, write or require by name.
        if (registry.desc(id).relation) {
            throw Error(ErrorCode::BadValue, what + " names '" + name + "', which is a relation, not a component: " +
                                                 "pairs go in pair terms (pairs, withoutPairs)");
        }
        ids.push_back(id);
    }
    return ids;
}

std::vector<PairTerm> pair_terms_of(const val& flat) {
    std::vector<PairTerm> terms;
    if (flat.isUndefined() || flat.isNull()) return terms;
    const auto words = flat["length"].as<unsigned>();
    for (unsigned i = 0; i + 1 < words; i += 2) {
        terms.push_back(PairTerm{flat[i].as<std::uint32_t>(), Entity{flat[i + 1].as<std::uint32_t>()}});
    }
    return terms;
}

std::string describe_js(const val& value) {
    if (value.isNull()) return "null";
    if (value.isUndefined()) return "undefined";
    if (value.isArray()) return "an array";
    const std::string type = value.typeOf().as<std::string>();
    if (type == "string") {
        std::string text = value.as<std::string>();
        if (text.size() > 40) text = text.substr(0, 40) + "...";
        return "a string (\"" + text + "\")";
    }
    if (type == "object") return "an object";
    if (type == "boolean") return value.isTrue() ? "true" : "false";
    return "a " + type;
}

}  // namespace ecsia::wasm
