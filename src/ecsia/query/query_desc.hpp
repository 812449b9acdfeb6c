#pragma once
// The query layer: which tables (and rows) a query selects, kept current as tables appear, and
// the chunk view kernels iterate. A query never changes structure; it only reads the table graph.

#include <vector>

#include "ecsia/base/ids.hpp"

namespace ecsia {

// Terms of a query. `changed` and `added` imply `with` and select only rows whose tick for that
// component is newer than the tick the query is run "since" (a system's last run).
struct QueryDesc {
    std::vector<ComponentId> with;
    std::vector<ComponentId> without;
    std::vector<ComponentId> optional;  // fetched when present, never required
    std::vector<ComponentId> changed;
    std::vector<ComponentId> added;

    bool has_row_filter() const noexcept { return !changed.empty() || !added.empty(); }
    // Every component the query requires a table to have.
    std::vector<ComponentId> required() const;
};

}  // namespace ecsia
