#pragma once
// JS values the Embind methods take apart: objects of options and field types, lists of
// component names. (Component values never cross as JS objects: web/internal/world_core.js
// encodes them as the columns store them, see encoded_values.hpp.) Every function throws
// ecsia::Error naming what was wrong; none keeps JS values.
// Thread rule: the page's main thread (emscripten::val handles belong to the thread that made them).

#include <string>
#include <vector>

#include <emscripten/val.h>

#include "ecsia/query/query_desc.hpp"
#include "ecsia/schema/component_registry.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia::wasm {

// Own enumerable property names, in JS order. Precondition: is_plain_object(object).
std::vector<std::string> object_keys(const emscripten::val& object);
bool is_plain_object(const emscripten::val& value);
// "a string (\"abc\")", "null", "an array", ... for error messages.
std::string describe_js(const emscripten::val& value);

// A JS array of strings (undefined or null: none); `what` names the argument in the errors.
std::vector<std::string> names_of(const emscripten::val& names, const std::string& what);
// "position, velocity" (or "none"): the components an unknown-name error lists.
std::string defined_component_names(const ComponentRegistry& registry);
// The same, as component ids of `registry`: an unknown name is UnknownComponent, naming those
// defined; a relation's name is BadValue (its presence component is not the user's).
std::vector<ComponentId> component_ids_of(const ComponentRegistry& registry, const emscripten::val& names,
                                          const std::string& what);
// Topic names of `world` as ids: an unknown name is UnknownTopic, naming those defined.
std::vector<TopicId> topic_ids_of(const World& world, const emscripten::val& names, const std::string& what);
// Query pair terms from a JS array [relation id, target bits, ...] (undefined or null: none), as
// web/query.js resolves them from names (kANY_TARGET: any target). The ids are checked later,
// by World::query, with the core's errors.
std::vector<PairTerm> pair_terms_of(const emscripten::val& flat);

}  // namespace ecsia::wasm
