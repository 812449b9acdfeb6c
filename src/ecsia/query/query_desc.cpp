#include "ecsia/query/query_desc.hpp"

#include <algorithm>

namespace ecsia {

std::vector<ComponentId> QueryDesc::required() const {
    std::vector<ComponentId> all = with;
    all.insert(all.end(), changed.begin(), changed.end());
    all.insert(all.end(), added.begin(), added.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

}  // namespace ecsia
