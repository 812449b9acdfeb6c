#pragma once
// The world most frame tests start from: built-in components registered, `movers` moving entities
// spawned, every diagnostic captured, and a scheduler at `workers` workers (0 = serial) with small
// batches (16 rows unless told), so a few dozen entities make several batches. Plus the systems
// those tests keep building: a kernel system over the movers, and the Breeder, which spawns.

#include <cstdint>
#include <string>
#include <utility>

#include "builtin/builtin_systems.hpp"
#include "ecsia/schedule/scheduler.hpp"
#include "support/captured_diagnostics.hpp"
#include "support/world_checks.hpp"

namespace test {

struct FrameFixture {
    explicit FrameFixture(std::uint32_t workers, std::uint32_t movers = 64, std::uint64_t seed = 5,
                          std::uint32_t batch_rows = 16)
        : said(world), ids(ecsia::builtin::register_builtin_components(world)), scheduler(make_scheduler(*this, workers, movers, seed, batch_rows)) {}

    // A worker system named `name` over every mover (it reads position) running `kernel`.
    ecsia::SystemDesc kernel_system(std::string name, ecsia::Kernel kernel) const {
        ecsia::SystemDesc system;
        system.name = std::move(name);
        system.reads = {ids.position};
        system.kernel = std::move(kernel);
        return system;
    }
    // The Breeder: a kernel system over the movers whose batches get `spawns_per_batch` reserved
    // handles each; `kernel` decides what it spawns.
    ecsia::SystemDesc breeder(std::uint32_t spawns_per_batch, ecsia::Kernel kernel) const {
        ecsia::SystemDesc system = kernel_system("Breeder", std::move(kernel));
        system.spawns_per_batch = spawns_per_batch;
        return system;
    }
    // No handle is held by a reservation that nobody will return: every allocated slot is alive.
    void require_no_reserved_leak() const {
        CHECK(world.entities().allocated_count() == world.entities().alive_count());
    }

    ecsia::World world;
    CapturedDiagnostics said;
    ecsia::builtin::BuiltinIds ids;
    ecsia::Scheduler scheduler;

private:
    // The movers exist before the scheduler starts (the order the tests always used).
    static ecsia::Scheduler make_scheduler(FrameFixture& self, std::uint32_t workers, std::uint32_t movers,
                                           std::uint64_t seed, std::uint32_t batch_rows) {
        ecsia::builtin::spawn_movers(self.world, movers, seed);
        return ecsia::Scheduler(self.world, with_workers(workers, batch_rows));
    }
};

}  // namespace test
