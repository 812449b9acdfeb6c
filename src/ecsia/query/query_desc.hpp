#pragma once
// The query layer: which tables (and rows) a query selects, kept current as tables appear, and
// the chunk view kernels iterate. A query never changes structure; it only reads the table graph.

#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/relation/relation.hpp"

namespace ecsia {

// A pair term: subjects with (or, in without_pairs, without) a pair of `relation` to `target`;
// kAnyTarget matches any target. A wildcard term is a table-level filter (the relation's presence
// component); a specific target filters rows, through the world's RelationStore.
struct PairTerm {
    RelationId relation = kNoComponent;
    Entity target = kAnyTarget;
};

// Terms of a query. `changed` and `added` imply `with` and select only rows whose tick for that
// component is newer than the tick the query is run "since" (a system's last run).
struct QueryDesc {
    std::vector<ComponentId> with;
    std::vector<ComponentId> without;
    std::vector<ComponentId> optional;  // fetched when present, never required
    std::vector<ComponentId> changed;
    std::vector<ComponentId> added;
    // Default-initialised so that aggregate initialisers of the five lists above stay complete.
    std::vector<PairTerm> pairs = {};
    std::vector<PairTerm> without_pairs = {};
    // Whether tables holding the Prefab tag (relation/prefab.hpp) are matched too. False (the
    // default): a query has an implicit `without Prefab`, so prefabs, which are templates and not
    // actors, never reach systems, kernels, extracts or counts that do not ask for them.
    bool prefabs = false;

    // Whether rows of a matched table are selected one by one (tick terms, or pair terms with a
    // specific target), rather than whole tables.
    bool has_row_filter() const noexcept { return !changed.empty() || !added.empty() || has_pair_row_filter(); }
    bool has_pair_row_filter() const noexcept;
    // Every component the query requires a table to have (pair terms: their relation's presence).
    std::vector<ComponentId> required() const;
};

}  // namespace ecsia
