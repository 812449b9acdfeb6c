#pragma once
// The byte layout in which the JS layer hands component values to the wasm side in one call
// (web/internal/world_core.js writes it into WorldBinding::scratch(); spawn and spawnMany read
// it). 8 is kVALUE_ALIGNMENT (boundary_constants.hpp), which JS reads as VALUE_ALIGNMENT. Values arrive already checked and encoded as the columns store them, so nothing is
// validated twice and no JS object crosses the boundary.
//
//   u32 components                     n
//   u32 ids[n]                         component ids
//   pad to a multiple of 8 bytes
//   for each component i:              rows * size(ids[i]) bytes: row r's element at r * size,
//     pad to a multiple of 8 bytes     exactly as a column lays it out (0 bytes for a tag)
//
// Thread rule: the page's main thread.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "boundary_constants.hpp"
#include "ecsia/base/error.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia::wasm {

static_assert((kVALUE_ALIGNMENT & (kVALUE_ALIGNMENT - 1)) == 0, "a power of two");
constexpr std::uint32_t align8(std::uint32_t n) noexcept { return (n + kVALUE_ALIGNMENT - 1) & ~(kVALUE_ALIGNMENT - 1); }

// The encoded components, as ComponentValues for row 0 and each one's element size.
struct EncodedValues {
    std::vector<ComponentValue> values;  // row 0; bytes is nullptr for a tag
    std::vector<std::uint32_t> sizes;    // element bytes per component
};

// Validates the header against the world's registry (throws UnknownComponent for a bad id) and
// returns the values of row 0; `offsets` gets each component's data offset from `base`.
inline EncodedValues decode_header(const World& world, const std::byte* base, std::uint32_t rows,
                                   std::vector<std::uint32_t>& offsets) {
    const auto* words = reinterpret_cast<const std::uint32_t*>(base);
    const std::uint32_t n = words[0];
    EncodedValues out;
    out.values.reserve(n);
    out.sizes.reserve(n);
    offsets.clear();
    std::uint32_t at = align8(4 * (1 + n));
    for (std::uint32_t i = 0; i < n; ++i) {
        const ComponentId id = words[1 + i];
        if (id >= world.components().size()) {
            throw Error(ErrorCode::UnknownComponent, "no component with id " + std::to_string(id));
        }
        const std::uint32_t size = world.components().desc(id).size;
        out.values.push_back(ComponentValue{id, size == 0 ? nullptr : base + at, size});
        out.sizes.push_back(size);
        offsets.push_back(at);
        at += align8(size * rows);
    }
    return out;
}

// The columns of `rows` rows that decode_header read (each component's elements one after the
// other, from its offset) as the core's bulk calls take them.
inline std::vector<ComponentRows> encoded_rows(const EncodedValues& values, const std::byte* base,
                                               const std::vector<std::uint32_t>& offsets) {
    std::vector<ComponentRows> rows;
    rows.reserve(values.values.size());
    for (std::size_t i = 0; i < values.values.size(); ++i) {
        const std::uint32_t size = values.sizes[i];
        rows.push_back(ComponentRows{values.values[i].id, size == 0 ? nullptr : base + offsets[i], size, size});
    }
    return rows;
}

}  // namespace ecsia::wasm
