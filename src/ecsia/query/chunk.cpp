#include "ecsia/query/chunk.hpp"

namespace ecsia {

const std::byte* Chunk::raw(ComponentId id) const noexcept {
    const Column* column = table_->column(id);
    if (column == nullptr || column->data() == nullptr) return nullptr;
    return column->element(begin_);
}

std::byte* Chunk::write_raw(ComponentId id) {
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
