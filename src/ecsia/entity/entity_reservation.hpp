#pragma once
// EntityReservation: a block of handles reserved in the serial phase that one batch takes from while
// a wave runs, without touching the pool. Taking is a single atomic increment, so a kernel may take
// from any thread; the block itself is filled before the wave is dispatched and read-only after.

#include <atomic>
#include <cstdint>
#include <vector>

#include "ecsia/entity/entity.hpp"

namespace ecsia {

class EntityReservation {
public:
    EntityReservation() = default;
    explicit EntityReservation(std::vector<Entity> handles) : handles_(std::move(handles)) {}
    // relaxed: moves happen on the serial slot, ordered by the fence that ended the wave.
    EntityReservation(EntityReservation&& other) noexcept
        : handles_(std::move(other.handles_)), taken_(other.taken_.load(std::memory_order_relaxed)) {}
    EntityReservation& operator=(EntityReservation&& other) noexcept {
        handles_ = std::move(other.handles_);
        taken_.store(other.taken_.load(std::memory_order_relaxed), std::memory_order_relaxed);
        return *this;
    }

    // Any thread, during a wave. Returns null when the block is exhausted (the caller then records
    // an overflow spawn, which the merge assigns a handle to; nothing is lost).
    Entity take() noexcept {
        // relaxed: the handles were written before dispatch, and dispatch publishes them (release on
        // the wake word, acquire in the worker); the counter only needs atomicity, not ordering.
        const std::uint32_t slot = taken_.fetch_add(1, std::memory_order_relaxed);
        return slot < handles_.size() ? handles_[slot] : kNullEntity;
    }

    // Serial phase (after the fence). Handles taken so far, in take order.
    std::uint32_t taken_count() const noexcept {
        // relaxed: read after the wave fence, whose acquire already ordered every take before it.
        const std::uint32_t taken = taken_.load(std::memory_order_relaxed);
        return taken < handles_.size() ? taken : static_cast<std::uint32_t>(handles_.size());
    }
    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(handles_.size()); }
    const std::vector<Entity>& handles() const noexcept { return handles_; }

private:
    std::vector<Entity> handles_;
    std::atomic<std::uint32_t> taken_{0};
};

}  // namespace ecsia
