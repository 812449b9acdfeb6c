// The boids natively: the same sources as the browser module (src/), linked into a program.
//   boids_native [--boids N] [--frames N] [--workers N] [--seed N]
// prints the state hash after the frames: the same as the page's at any worker count and in the
// single build (scripts/test checks it).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../src/boids.hpp"

int main(int argc, char** argv) {
    std::uint32_t count = 2000, frames = 60, workers = 2, seed = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::uint32_t value = static_cast<std::uint32_t>(std::strtoul(argv[i + 1], nullptr, 10));
        if (!std::strcmp(argv[i], "--boids")) count = value;
        else if (!std::strcmp(argv[i], "--frames")) frames = value;
        else if (!std::strcmp(argv[i], "--workers")) workers = value;
        else if (!std::strcmp(argv[i], "--seed")) seed = value;
        else {
            std::fprintf(stderr, "unknown option %s (--boids, --frames, --workers, --seed)\n", argv[i]);
            return 2;
        }
    }
    try {
        ecsia::World world;  // knows position and velocity from construction (ECSIA_REGISTER_COMPONENT)
        boids::spawn_flock(world, count, seed);
        ecsia::SchedulerOptions options;
        options.workers = workers;
        ecsia::Scheduler scheduler(world, options);
        for (const char* name : {"BuildGrid", "Flock", "Integrate"}) scheduler.add_system(ecsia::make_system(world, name));
        for (std::uint32_t f = 0; f < frames; ++f) scheduler.update(1.0f / 60);
        std::printf("%s\n", ecsia::state_hash_hex(world).c_str());
    } catch (const ecsia::Error& error) {
        std::fprintf(stderr, "boids_native: %s\n", error.what());
        return 1;
    }
    return 0;
}
