#pragma once
// The extract layer: a copy of some components of the rows a query selects, taken at the end of a
// frame into buffers the reader owns, so a page can draw frame N from the copy while the waves of
// frame N+1 already write the columns (bevy's pipelined rendering extracts a render world the same
// way). The copy is one memcpy per component per matched table, packed table after table.
//
// Two buffers: the one the reader holds (acquire()) is never written again until it acquires
// another; every capture() writes the other one. A reader therefore sees one whole frame's values
// for as long as it holds them, however many frames the engine runs meanwhile.
// Thread rule: the serial slot (the coordinator thread, no wave running): capture() reads the
// tables, which a wave's batches may be writing.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ecsia/extract/extract_buffer.hpp"
#include "ecsia/query/query_cache.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

class FrameExtract {
public:
    // `components`: what to copy (each must have data: a tag has none, BadValue; none twice);
    // rows need all of them plus query.with and none of query.without (a component in both is
    // BadValue). Only with/without terms: an extract copies state, not changes (BadValue otherwise).
    FrameExtract(const World& world, std::vector<ComponentId> components, QueryDesc query);

    // Copies the selected rows now into the buffer the reader does not hold. Serial slot only.
    void capture(const World& world, std::uint64_t frame);
    // The newest capture (captured() must be true); held by the reader until the next acquire().
    const ExtractBuffer& acquire() noexcept;
    bool captured() const noexcept { return latest_ >= 0; }

    const std::vector<ComponentId>& components() const noexcept { return components_; }

private:
    QueryCache cache_;
    std::vector<ComponentId> components_;
    std::vector<std::uint32_t> sizes_;  // element size per component
    std::vector<std::byte*> targets_;   // per component, where this capture writes (kept: no allocation per frame)
    ExtractBuffer buffers_[2];
    int held_ = -1;    // the buffer the reader holds; -1 before the first acquire()
    int latest_ = -1;  // the newest capture; -1 before the first
};

}  // namespace ecsia
