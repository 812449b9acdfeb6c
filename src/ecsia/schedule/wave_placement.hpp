#pragma once
// WavePlacement: where a wave's batches ran (Scheduler::last_frame_waves()). The choice is the
// executor's (placement.hpp holds the cost model behind it) and changes timing only, never
// results (G1).

#include <cstdint>

namespace ecsia {

enum class WavePlacement : std::uint8_t {
    Inline,  // every batch on the coordinator, in batch-id order (what the serial executor does)
    Pool,    // every batch on the workers; the coordinator waits
    Shared,  // dispatched to the workers, and the coordinator claims batches too, for a bounded time
};

// "inline", "pool" or "shared". Any thread (constexpr: the browser boundary's list of names is
// checked against it when compiled).
constexpr const char* placement_name(WavePlacement placement) noexcept {
    switch (placement) {
        case WavePlacement::Inline: return "inline";
        case WavePlacement::Pool: return "pool";
        case WavePlacement::Shared: return "shared";
    }
    return "?";
}

}  // namespace ecsia
