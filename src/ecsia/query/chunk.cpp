#include "ecsia/query/chunk.hpp"

#include <algorithm>

#include "ecsia/base/error.hpp"
#include "ecsia/schema/component_registry.hpp"

namespace ecsia {

bool DeclaredAccess::may_read(ComponentId id) const noexcept {
    return std::binary_search(reads.begin(), reads.end(), id);
}

bool DeclaredAccess::may_write(ComponentId id) const noexcept {
    return std::binary_search(writes.begin(), writes.end(), id);
}

void DeclaredAccess::refuse(const char* verb, ComponentId id) const {
    auto name = [this](ComponentId c) {
        return registry != nullptr && c < registry->size() ? "'" + registry->desc(c).name + "'" : "component " + std::to_string(c);
    };
    auto list = [&](const std::vector<ComponentId>& ids) {
        std::string out;
        for (ComponentId c : ids) out += (out.empty() ? "" : ", ") + name(c);
        return out.empty() ? std::string("nothing") : out;
    };
    std::vector<ComponentId> read_only;
    std::set_difference(reads.begin(), reads.end(), writes.begin(), writes.end(), std::back_inserter(read_only));
    throw Error(ErrorCode::UndeclaredAccess, "system '" + system + "' " + verb + " " + name(id) +
                                                 ", which it did not declare (reads " + list(read_only) + "; writes " +
                                                 list(writes) + ")");
}

const std::byte* Chunk::raw(ComponentId id) const ECSIA_ACCESS_NOEXCEPT {
#if ECSIA_ACCESS_CHECKS
    if (access_ != nullptr && !access_->may_read(id)) access_->refuse("reads", id);
#endif
    const Column* column = table_->column(id);
    if (column == nullptr || column->data() == nullptr) return nullptr;
    return column->element(begin_);
}

std::byte* Chunk::write_raw(ComponentId id) {
#if ECSIA_ACCESS_CHECKS
    if (access_ != nullptr && !access_->may_write(id)) access_->refuse("writes", id);
#endif
    Column* column = table_->column(id);
    if (column == nullptr) return nullptr;
    if (log_ != nullptr) {
        log_->record(table_->index(), id, begin_, end_);
    } else {
        column->mark_changed_range(begin_, end_, tick_);
    }
    return column->data() == nullptr ? nullptr : column->element(begin_);
}

}  // namespace ecsia
