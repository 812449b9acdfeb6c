#include "ecsia/entity/entity_pool.hpp"

#include <algorithm>
#include <string>

#include "ecsia/base/error.hpp"

namespace ecsia {

EntityPool::EntityPool(HandleLayout layout, std::uint32_t max_entities) : layout_(layout), max_entities_(max_entities) {
    if (max_entities == 0 || max_entities > layout.max_slots()) {
        throw Error(ErrorCode::CapacityExceeded, "max_entities " + std::to_string(max_entities) + " must be 1.." +
                                                     std::to_string(layout.max_slots()) + " for a layout with " +
                                                     std::to_string(layout.index_bits()) + " index bits");
    }
}

std::uint32_t EntityPool::available() const noexcept {
    // Retired slots count against max_entities: they can never be reused.
    const std::uint32_t fresh = max_entities_ - static_cast<std::uint32_t>(slots_.size());
    return fresh + static_cast<std::uint32_t>(free_indices_.size());
}

Entity EntityPool::allocate_slot() noexcept {
    std::uint32_t index;
    if (!free_indices_.empty()) {
        index = free_indices_.back();
        free_indices_.pop_back();
    } else {
        index = static_cast<std::uint32_t>(slots_.size());
        slots_.emplace_back();
    }
    ++allocated_count_;
    return layout_.make(index, slots_[index].generation);
}

Entity EntityPool::create() {
    if (available() == 0) {
        throw Error(ErrorCode::CapacityExceeded,
                    "cannot spawn: the world is at its max_entities limit of " + std::to_string(max_entities_));
    }
    const Entity e = allocate_slot();
    slots_[layout_.index(e)].state = SlotState::Alive;
    ++alive_count_;
    return e;
}

void EntityPool::make_room(std::uint32_t count) {
    if (count > available()) {
        throw Error(ErrorCode::CapacityExceeded,
                    count == 1 ? "cannot spawn: the world is at its max_entities limit of " + std::to_string(max_entities_)
                               : "cannot spawn " + std::to_string(count) + " entities: only " + std::to_string(available()) +
                                     " of max_entities " + std::to_string(max_entities_) + " are free");
    }
    const std::size_t reused = std::min<std::size_t>(count, free_indices_.size());
    const std::size_t need = slots_.size() + (count - reused);
    // Geometric, like push_back: one spawn at a time must not reallocate every time.
    if (need > slots_.capacity()) slots_.reserve(std::max(need, slots_.capacity() * 2));
}

std::vector<Entity> EntityPool::reserve(std::uint32_t count) {
    if (count > available()) {
        throw Error(ErrorCode::CapacityExceeded, "cannot reserve " + std::to_string(count) + " handles: only " +
                                                     std::to_string(available()) + " of max_entities " +
                                                     std::to_string(max_entities_) + " are free");
    }
    std::vector<Entity> handles;
    handles.reserve(count);
    make_room(count);  // allocate_slot below must not throw
    for (std::uint32_t i = 0; i < count; ++i) {
        const Entity e = allocate_slot();
        slots_[layout_.index(e)].state = SlotState::Reserved;
        handles.push_back(e);
    }
    return handles;
}

void EntityPool::activate(Entity e) noexcept {
    slots_[layout_.index(e)].state = SlotState::Alive;
    ++alive_count_;
}

void EntityPool::destroy(Entity e, bool bump_generation) noexcept {
    const std::uint32_t index = layout_.index(e);
    Slot& slot = slots_[index];
    if (slot.state == SlotState::Alive) --alive_count_;
    --allocated_count_;
    if (!bump_generation) {
        slot.state = SlotState::Free;
        free_indices_.push_back(index);
        return;
    }
    if (slot.generation == layout_.max_live_generation()) {
        // Wrapping to generation 0 would let a very old handle alias a new occupant: retire instead.
        slot.state = SlotState::Retired;
        ++retired_count_;
        return;
    }
    ++slot.generation;
    slot.state = SlotState::Free;
    free_indices_.push_back(index);
}

Entity EntityPool::alive_at(std::uint32_t index) const noexcept {
    if (index >= slots_.size() || slots_[index].state != SlotState::Alive) return kNullEntity;
    return layout_.make(index, slots_[index].generation);
}

}  // namespace ecsia
