#include "ecsia/query/chunk.hpp"

namespace ecsia {

const std::byte* Chunk::raw(ComponentId id) const noexcept {
    const Column* column = table_->column(id);
    if (column == nullptr || column->data() == nullptr) return nullptr;
    return column->element(begin_);
}

std::byte* Chunk::write_raw(ComponentId id) noexcept {
    Column* column = table_->column(id);
    if (column == nullptr) return nullptr;
    if (log_ != nullptr) {
        log_->record(table_->index(), id, begin_, end_);
    } else {
        for (std::uint32_t row = begin_; row < end_; ++row) column->changed_ticks()[row] = tick_;
        if (begin_ < end_) column->mark_changed(begin_, tick_);
    }
    return column->data() == nullptr ? nullptr : column->element(begin_);
}

}  // namespace ecsia
