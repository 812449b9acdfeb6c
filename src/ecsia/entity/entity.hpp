#pragma once
// The entity layer: handles, their layout, the allocator (entity_pool.hpp) and reservations of
// ready handles for workers (entity_reservation.hpp). It knows nothing of components or tables.
//
// A handle is 32 bits: the low `index_bits` name a slot, the high bits are that slot's generation.
// All-ones is the null handle. A slot's generation is bumped when its entity is despawned, so a
// stale handle never matches the slot's current occupant (G4). The highest generation is never
// given to a live entity: it marks *pending* handles, the stand-ins a kernel gets for spawns beyond
// its reservation, which the merge replaces with real handles.

#include <cstdint>
#include <string>

namespace ecsia {

struct Entity {
    std::uint32_t bits = 0xFFFFFFFFu;

    static constexpr Entity null() noexcept { return Entity{}; }
    constexpr bool is_null() const noexcept { return bits == 0xFFFFFFFFu; }
    friend constexpr bool operator==(Entity a, Entity b) noexcept { return a.bits == b.bits; }
};

inline constexpr Entity kNullEntity{};

// How a handle's 32 bits split into index and generation. Chosen once per world.
class HandleLayout {
public:
    // Default: 22 index bits (4,194,303 slots), 10 generation bits.
    constexpr HandleLayout() noexcept : index_bits_(22), index_mask_((1u << 22) - 1u) {}
    // Throws BadDefinition unless 1 <= index_bits <= 31.
    explicit HandleLayout(unsigned index_bits);

    unsigned index_bits() const noexcept { return index_bits_; }
    unsigned generation_bits() const noexcept { return 32 - index_bits_; }
    std::uint32_t index_mask() const noexcept { return index_mask_; }
    std::uint32_t max_generation() const noexcept { return 0xFFFFFFFFu >> index_bits_; }
    // The last generation a live entity may have; a slot despawned at it is retired.
    std::uint32_t max_live_generation() const noexcept { return max_generation() - 1; }
    // The index of all-ones is never handed out, so no live handle can equal the null handle.
    std::uint32_t max_slots() const noexcept { return index_mask_; }

    std::uint32_t index(Entity e) const noexcept { return e.bits & index_mask_; }
    std::uint32_t generation(Entity e) const noexcept { return e.bits >> index_bits_; }
    Entity make(std::uint32_t index, std::uint32_t generation) const noexcept {
        return Entity{(generation << index_bits_) | index};
    }
    // The stand-in for the `ordinal`-th overflow spawn of one command buffer.
    Entity pending(std::uint32_t ordinal) const noexcept { return make(ordinal, max_generation()); }
    // The highest generation, but not the null handle: handles from pending(0) up to just below
    // all-ones, so one unsigned compare (a loop of them vectorises: the merge scans messages).
    bool is_pending(Entity e) const noexcept { return e.bits - pending(0).bits < index_mask_; }

private:
    unsigned index_bits_;
    std::uint32_t index_mask_;
};

// "entity 0x00400001 (index 1, generation 1)", or "the null entity": how errors name a handle.
std::string describe(Entity entity, const HandleLayout& layout);

}  // namespace ecsia
