#pragma once
// Component values between JS and the heap: a component's element bytes are read into, and
// written from, a plain JS object with one property per field, by the component's descriptor.
//   f32 f64 i8..i32 u8..u32   JS number (range and integrality checked by encode_field)
//   bool                      true / false (0 and 1 are accepted too)
//   entity                    handle as a number, or null for the null entity
// Every function throws ecsia::Error naming the component and the field; none keeps JS values.
// Thread rule: the page's main thread (emscripten::val handles belong to the thread that made them).

#include <cstddef>
#include <string>
#include <vector>

#include <emscripten/val.h>

#include "ecsia/schema/component_desc.hpp"
#include "ecsia/schema/component_registry.hpp"

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
// The same, as component ids of `registry`: an unknown name is UnknownComponent, naming those defined.
std::vector<ComponentId> component_ids_of(const ComponentRegistry& registry, const emscripten::val& names,
                                          const std::string& what);

// A new row's element: zero bytes, entity fields null.
std::vector<std::byte> default_element(const ComponentDesc& desc);
// Writes each field named in `values` (a plain object) into `element`; other fields keep their
// bytes. On a throw `element` may be partly written, so pass a scratch copy.
void write_fields(const ComponentDesc& desc, const emscripten::val& values, std::byte* element);
// A plain object copy of the element's fields.
emscripten::val read_fields(const ComponentDesc& desc, const std::byte* element);

}  // namespace ecsia::wasm
