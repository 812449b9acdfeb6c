#include "ecsia/query/query_desc.hpp"

#include <algorithm>

namespace ecsia {

std::vector<ComponentId> QueryDesc::required() const {
    std::vector<ComponentId> all = with;
    all.insert(all.end(), changed.begin(), changed.end());
    all.insert(all.end(), added.begin(), added.end());
    for (const PairTerm& term : pairs) all.push_back(term.relation);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

bool QueryDesc::has_pair_row_filter() const noexcept {
    for (const auto* list : {&pairs, &without_pairs}) {
        for (const PairTerm& term : *list) {
            if (term.target != kAnyTarget) return true;
        }
    }
    return false;
}

}  // namespace ecsia
