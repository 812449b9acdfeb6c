#pragma once
// WriteLog: the row ranges a batch wrote through chunk write access, recorded instead of stamped so
// that workers never touch shared change ticks. The serial merge stamps them in batch-id order,
// which makes `changed` filters and change observers independent of thread timing.
// Single writer (the batch that owns it); read on the serial slot after the fence.

#include <cstdint>
#include <vector>

#include "ecsia/base/ids.hpp"

namespace ecsia {

struct WrittenRange {
    TableIndex table;
    ComponentId component;
    std::uint32_t row_begin;
    std::uint32_t row_end;  // exclusive
};

class WriteLog {
public:
    void record(TableIndex table, ComponentId component, std::uint32_t begin, std::uint32_t end) {
        if (begin < end) ranges_.push_back(WrittenRange{table, component, begin, end});
    }
    const std::vector<WrittenRange>& ranges() const noexcept { return ranges_; }
    void clear() noexcept { ranges_.clear(); }

private:
    std::vector<WrittenRange> ranges_;
};

}  // namespace ecsia
