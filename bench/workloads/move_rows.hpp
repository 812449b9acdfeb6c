#pragma once
// The *move* workload's loop (DESIGN.md), shared by the native benchmarks that time it through
// the engine and as a plain loop: out of line, so the plain loop and every engine path run the
// identical machine code and a ratio between them measures only what is around the loop.

#include <cstdint>

#include "builtin/components.hpp"

namespace bench {

[[gnu::noinline]] inline void move_rows(ecsia::builtin::Position* position, const ecsia::builtin::Velocity* velocity,
                                        std::uint32_t rows, float dt) {
    for (std::uint32_t i = 0; i < rows; ++i) {
        position[i].x += velocity[i].dx * dt;
        position[i].y += velocity[i].dy * dt;
    }
}

}  // namespace bench
