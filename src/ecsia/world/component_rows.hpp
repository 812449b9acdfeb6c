#pragma once
// ComponentRows: one component's values for many new rows, for the bulk calls that make many
// entities at once (World::instantiate_many). The same shape as a ComponentValue plus a stride:
// row i's bytes are at bytes + i * stride. stride 0 gives every row the same value; a packed
// array of the component's elements has stride == size. The bytes are read during the call only.

#include <cstdint>

#include "ecsia/base/ids.hpp"

namespace ecsia {

struct ComponentRows {
    ComponentId id = kNoComponent;
    const void* bytes = nullptr;  // nullptr: every row gets the component's default values
    std::uint32_t size = 0;       // of one element: the component's size (0 for a tag)
    std::uint32_t stride = 0;     // bytes from one row's element to the next
};

}  // namespace ecsia
