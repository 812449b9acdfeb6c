#pragma once
// SubjectList: one target's subjects of one relation, kept sorted by the store. Subjects leave a
// popular target one by one (a prefab's 100,000 instances despawned in the order they were made):
// a plain vector shifted its whole tail for each, quadratic in the instances (0.78 s for 200,000
// natively). The list keeps a gap before its first element instead, so erasing near the front
// shifts only the elements before the erased one, and erasing the first costs nothing; the gap is
// closed once it outgrows the elements (each element moved then was paid for by an erase).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ecsia/entity/entity.hpp"

namespace ecsia {

class SubjectList {
public:
    std::span<const Entity> view() const noexcept { return {items_.data() + begin_, items_.size() - begin_}; }
    std::size_t size() const noexcept { return items_.size() - begin_; }
    bool empty() const noexcept { return size() == 0; }
    Entity back() const noexcept { return items_.back(); }

    // The elements as one vector, the gap closed: for the store's bulk operations.
    std::vector<Entity>& compacted() noexcept {
        close_gap();
        return items_;
    }
    // Room for `more` elements, growing geometrically.
    void make_room_for(std::size_t more) {
        if (items_.size() + more > items_.capacity()) items_.reserve(std::max(items_.size() + more, items_.capacity() * 2));
    }
    void push_back(Entity subject) { items_.push_back(subject); }
    // Inserts before element `at` of view(); with room made for it, never throws.
    void insert(std::size_t at, Entity subject) {
        if (at == 0 && begin_ > 0) {
            items_[--begin_] = subject;
            return;
        }
        items_.insert(items_.begin() + static_cast<std::ptrdiff_t>(begin_ + at), subject);
    }
    // Erases element `at` of view(), moving the shorter side of it.
    void erase(std::size_t at) noexcept {
        const auto first = items_.begin() + static_cast<std::ptrdiff_t>(begin_);
        if (at < size() / 2) {
            std::move_backward(first, first + static_cast<std::ptrdiff_t>(at), first + static_cast<std::ptrdiff_t>(at) + 1);
            ++begin_;
            if (begin_ > size()) close_gap();
        } else {
            items_.erase(first + static_cast<std::ptrdiff_t>(at));
        }
    }
private:
    void close_gap() noexcept {
        if (begin_ == 0) return;
        items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(begin_));
        begin_ = 0;
    }

    std::vector<Entity> items_;  // [begin_, size): the subjects; before begin_: the gap
    std::size_t begin_ = 0;
};

}  // namespace ecsia
