#pragma once
// TargetList: one subject's targets of one relation, kept sorted by the store. The first target is
// held inline, so the common subject (a child with its one parent, an instance with its one
// prefab) costs no allocation of its own: instantiating 100,000 instances made 100,000 heap
// blocks of four bytes before, half the time of instantiate_many natively. More targets move to
// the heap, growing geometrically.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "ecsia/entity/entity.hpp"

namespace ecsia {

class TargetList {
public:
    TargetList() noexcept = default;
    TargetList(const TargetList& other) { *this = other; }
    TargetList(TargetList&& other) noexcept { *this = std::move(other); }
    TargetList& operator=(const TargetList& other) {
        if (this == &other) return *this;
        std::unique_ptr<Entity[]> heap;
        if (other.size_ > 1) {
            heap.reset(new Entity[other.size_]);
            std::copy_n(other.items(), other.size_, heap.get());
        }
        heap_ = std::move(heap);
        inline_ = other.size_ == 1 ? other.items()[0] : Entity{};
        size_ = other.size_;
        capacity_ = other.size_ > 1 ? other.size_ : 1;
        return *this;
    }
    TargetList& operator=(TargetList&& other) noexcept {
        heap_ = std::move(other.heap_);
        inline_ = other.inline_;
        size_ = other.size_;
        capacity_ = other.capacity_;
        other.size_ = 0;
        other.capacity_ = 1;
        return *this;
    }

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    const Entity* data() const noexcept { return items(); }
    const Entity* begin() const noexcept { return items(); }
    const Entity* end() const noexcept { return items() + size_; }
    Entity operator[](std::size_t i) const noexcept { return items()[i]; }
    Entity front() const noexcept { return items()[0]; }
    operator std::span<const Entity>() const noexcept { return {items(), size_}; }

    // Room for one more target (std::bad_alloc leaves the list as it was).
    void make_room_for_one() {
        if (size_ < capacity_) return;
        const std::uint32_t capacity = capacity_ * 2;
        std::unique_ptr<Entity[]> heap(new Entity[capacity]);
        std::copy_n(items(), size_, heap.get());
        heap_ = std::move(heap);
        capacity_ = capacity;
    }
    // Inserts `e` before position `at`; needs the room make_room_for_one made.
    void insert(std::size_t at, Entity e) noexcept {
        Entity* list = items();
        std::copy_backward(list + at, list + size_, list + size_ + 1);
        list[at] = e;
        ++size_;
    }
    void erase(std::size_t at) noexcept {
        Entity* list = items();
        std::copy(list + at + 1, list + size_, list + at);
        --size_;
    }

private:
    Entity* items() noexcept { return heap_ ? heap_.get() : &inline_; }
    const Entity* items() const noexcept { return heap_ ? heap_.get() : &inline_; }

    std::unique_ptr<Entity[]> heap_;  // null while the one inline target is room enough
    Entity inline_;
    std::uint32_t size_ = 0;
    std::uint32_t capacity_ = 1;
};

}  // namespace ecsia
