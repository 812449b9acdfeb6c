#pragma once
// EntityPool: hands out handles, recycles despawned slots through a free list, and retires a slot
// whose generation would wrap (so a handle can never alias a later occupant; G4).
// Serial phase only: workers never touch the pool, they take from an EntityReservation.

#include <cstdint>
#include <vector>

#include "ecsia/entity/entity.hpp"

namespace ecsia {
namespace detail {
struct WorldAccess;
}

class EntityPool {
public:
    // Throws CapacityExceeded if max_entities exceeds what the layout can address.
    EntityPool(HandleLayout layout, std::uint32_t max_entities);

    const HandleLayout& layout() const noexcept { return layout_; }
    std::uint32_t max_entities() const noexcept { return max_entities_; }
    // Slots in use: alive plus reserved-but-not-yet-spawned.
    std::uint32_t allocated_count() const noexcept { return allocated_count_; }
    std::uint32_t alive_count() const noexcept { return alive_count_; }
    // Slots ever created (alive, free, reserved or retired): the exclusive bound of indices in use.
    std::uint32_t slot_count() const noexcept { return static_cast<std::uint32_t>(slots_.size()); }
    std::uint32_t retired_count() const noexcept { return retired_count_; }
    // Handles create() or reserve() can still hand out (retired slots never come back).
    std::uint32_t available() const noexcept;

    // A fresh live handle. Throws CapacityExceeded (naming max_entities) and changes nothing when full.
    Entity create();
    // Makes room for `count` more handles, so that the next `count` create()s allocate nothing.
    // Throws CapacityExceeded (as create() does) when they are not free, and std::bad_alloc with
    // the pool unchanged when the heap cannot hold them: the world
    // calls it before anything of a spawn happens (spawning until the heap is full then fails
    // cleanly instead of terminating inside allocate_slot, which must not throw).
    void make_room(std::uint32_t count);
    // Hands out `count` handles that are allocated but not alive yet (all or nothing).
    std::vector<Entity> reserve(std::uint32_t count);
    // Makes a reserved handle alive. Precondition: is_reserved(e).
    void activate(Entity e) noexcept;
    // Frees a live or reserved handle. A slot whose generation is exhausted is retired, not reused.
    // `bump_generation` is false only for reserved handles that never left the serial slot.
    void destroy(Entity e, bool bump_generation = true) noexcept;

    bool is_alive(Entity e) const noexcept { return matches(e, SlotState::Alive); }
    bool is_reserved(Entity e) const noexcept { return matches(e, SlotState::Reserved); }
    // A hint that `e` will be looked up soon (a command flush runs a few records ahead with it).
    // Changes nothing; an out-of-range handle is ignored.
    void prefetch(Entity e) const noexcept {
        const std::uint32_t index = layout_.index(e);
        if (index < slots_.size()) __builtin_prefetch(slots_.data() + index);
    }
    // The live handle currently in a slot, or null.
    Entity alive_at(std::uint32_t index) const noexcept;

private:
    friend class SnapshotAccess;  // snapshot/: reads and replaces the whole state
    enum class SlotState : std::uint8_t { Free, Reserved, Alive, Retired };
    struct Slot {
        std::uint32_t generation = 0;
        SlotState state = SlotState::Free;
    };
    // Inline: every structural operation and every command record checks liveness first.
    bool matches(Entity e, SlotState state) const noexcept {
        const std::uint32_t index = layout_.index(e);
        if (e.is_null() || index >= slots_.size()) return false;
        const Slot& slot = slots_[index];
        return slot.state == state && slot.generation == layout_.generation(e);
    }
    Entity allocate_slot() noexcept;

    HandleLayout layout_;
    std::uint32_t max_entities_;
    std::vector<Slot> slots_;
    // LIFO: the most recently freed slot is reused first. Deterministic given the same call order.
    std::vector<std::uint32_t> free_indices_;
    std::uint32_t allocated_count_ = 0;
    std::uint32_t alive_count_ = 0;
    std::uint32_t retired_count_ = 0;
};

}  // namespace ecsia
