// G1 with pairs: kernels record add_pair / remove_pair / despawn (cascading through ChildOf),
// with handles they spawned in the same batch (reserved and pending) as subjects and targets; the
// state hash after every frame is the same for the serial executor and 1, 2 and 3 workers.

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "support/frame_fixture.hpp"

using namespace ecsia;

namespace {

std::vector<std::uint64_t> pair_frame_hashes(std::uint32_t workers) {
    test::FrameFixture fixture(workers, 96, 5, 16);
    World& world = fixture.world;
    const RelationId likes = world.define_relation("Likes", {{"since", FieldType::U32}});
    fixture.scheduler.add_system(fixture.breeder(1, [likes](KernelContext& ctx) {
        const Entity* rows = ctx.chunk.entities();
        const std::uint32_t n = ctx.chunk.size();
        const auto phase = static_cast<std::uint32_t>(ctx.frame % 4);
        // Two spawns: the first takes the batch's one reserved handle, the second is pending.
        const Entity first = ctx.spawn(nullptr, 0);
        const Entity second = ctx.spawn(nullptr, 0);
        ctx.commands.add_pair(first, World::kChildOf, rows[0]);
        ctx.commands.add_pair(second, World::kChildOf, first);
        const std::uint32_t since = static_cast<std::uint32_t>(ctx.frame);
        ctx.commands.add_pair(rows[n - 1], likes, second, &since, 4);
        for (std::uint32_t i = 1; i < n; ++i) {
            if (i % 4 == phase) ctx.commands.add_pair(rows[i], World::kChildOf, rows[i - 1]);  // some close cycles: refused
            if (i % 5 == phase) ctx.commands.add_pair(rows[i], likes, rows[(i * 7) % n]);
            if (i % 6 == phase) ctx.commands.remove_pair(rows[i], likes, kNullEntity);
        }
        if (phase == 3 && n > 2) ctx.commands.despawn(rows[1]);  // its subtree goes with it
    }));
    std::vector<std::uint64_t> hashes;
    for (int frame = 0; frame < 12; ++frame) {
        fixture.scheduler.update(0.016f);
        hashes.push_back(state_hash(world));
    }
    CHECK(world.relations().pair_count() > 0);
    return hashes;
}

}  // namespace

TEST_CASE("pairs recorded by kernels hash the same after every frame at every worker count", "[relation][threads]") {
    const std::vector<std::uint64_t> serial = pair_frame_hashes(0);
    for (std::uint32_t workers : {1u, 2u, 3u}) {
        INFO("workers " << workers);
        CHECK(pair_frame_hashes(workers) == serial);
    }
}
