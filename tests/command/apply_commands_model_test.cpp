// Property tests of World::apply against simpler runs of the same random scripts: direct World
// calls, one buffer against several, folded runs against one record per buffer.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/captured_diagnostics.hpp"
#include "support/command_script.hpp"
#include "support/world_checks.hpp"
#include "support/world_dump.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::BufferDriver;
using test::CapturedDiagnostics;
using test::DirectDriver;
using test::Rng;
using test::ScriptComponents;
using test::ScriptGenerator;
using test::ScriptOp;
using test::ScriptRound;

namespace {

constexpr std::uint64_t kSeeds = 24;
constexpr int kRounds = 30;

std::size_t records_in(const ScriptRound& round) {
    std::size_t records = 0;
    for (const auto& step : round.steps) records += step.op == ScriptOp::Take ? 0 : 1;
    return records;
}

// Spawns that find no handle left in the reservation, or never asked for one.
std::size_t overflow_spawns_in(const ScriptRound& round) {
    std::size_t takes = 0, overflow = 0;
    for (const auto& step : round.steps) {
        if (step.op == ScriptOp::SpawnOverflow) ++overflow;
        if (step.op == ScriptOp::Spawn && takes++ >= round.reserve) ++overflow;
        if (step.op == ScriptOp::Take) ++takes;
    }
    return overflow;
}

// Adjacent records that could join one table move: an Add or Remove right after a Spawn, Add or
// Remove of the same entity.
std::size_t foldable_pairs_in(const ScriptRound& round) {
    std::size_t pairs = 0;
    const test::ScriptStep* previous = nullptr;
    for (const auto& step : round.steps) {
        if (step.op == ScriptOp::Take) continue;
        const bool joins = step.op == ScriptOp::Add || step.op == ScriptOp::Remove;
        const bool opens = previous != nullptr && previous->op != ScriptOp::Despawn && previous->op != ScriptOp::SetWhole &&
                           previous->op != ScriptOp::SetField;
        if (joins && opens && previous->entity == step.entity) ++pairs;
        previous = &step;
    }
    return pairs;
}

}  // namespace

TEST_CASE("random commands applied through a buffer leave the same world as direct calls", "[command][model]") {
    std::size_t total_skipped = 0, total_overflow = 0;
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
        CAPTURE(seed);
        World buffered, direct;
        CapturedDiagnostics said(buffered), said_directly(direct);
        const ScriptComponents c = ScriptComponents::register_in(buffered);
        REQUIRE(ScriptComponents::register_in(direct).health == c.health);
        Rng rng(seed);
        ScriptGenerator script(rng, c);
        BufferDriver through_buffers(buffered, c.label);
        DirectDriver reference(direct, c.label);
        for (int r = 0; r < kRounds; ++r) {
            CAPTURE(r);
            const ScriptRound round = script.next_round(5 + rng.below(30), 1);
            INFO(test::describe(round));
            said.messages.clear();
            const ApplyStats stats = through_buffers.run(round, BufferDriver::Split::OneBuffer);
            const std::size_t skipped = reference.run(round);

            CHECK(stats.skipped_dead_target == skipped);
            CHECK(stats.overflow_spawns == overflow_spawns_in(round));
            CHECK(stats.applied + stats.skipped_dead_target == records_in(round));
            // One summary per kind of trouble, never one per record (G3 without flooding).
            CHECK(said.messages.size() == std::size_t(skipped != 0) + std::size_t(stats.overflow_spawns != 0));
            CHECK(said_directly.messages.empty());
            REQUIRE(through_buffers.handles() == reference.handles());
            REQUIRE(test::dump_entities(buffered) == test::dump_entities(direct));
            REQUIRE(state_hash(buffered) == state_hash(direct));
            total_skipped += skipped;
            total_overflow += stats.overflow_spawns;
            ecsia::detail::WorldAccess::advance_tick(buffered);
            ecsia::detail::WorldAccess::advance_tick(direct);
        }
        // Same change and add ticks as well: the buffered world stamped exactly what direct calls did.
        REQUIRE(test::dump_ticks(buffered) == test::dump_ticks(direct));
    }
    // The scripts must reach the interesting cases, or the comparison proves little.
    CHECK(total_skipped > 0);
    CHECK(total_overflow > 0);
}

TEST_CASE("a round split into several buffers applied in order leaves the same world as one buffer",
          "[command][model]") {
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
        CAPTURE(seed);
        World whole, split;
        const ScriptComponents c = ScriptComponents::register_in(whole);
        ScriptComponents::register_in(split);
        whole.diagnostics().set_sink([](const std::string&) {});
        split.diagnostics().set_sink([](const std::string&) {});
        Rng rng(seed * 7919);
        ScriptGenerator script(rng, c);
        BufferDriver one_buffer(whole, c.label);
        BufferDriver several_buffers(split, c.label);
        for (int r = 0; r < kRounds; ++r) {
            CAPTURE(r);
            const ScriptRound round = script.next_round(5 + rng.below(30), 2 + rng.below(4));
            const ApplyStats a = one_buffer.run(round, BufferDriver::Split::OneBuffer);
            const ApplyStats b = several_buffers.run(round, BufferDriver::Split::Segments);
            CHECK(a.applied == b.applied);
            CHECK(a.skipped_dead_target == b.skipped_dead_target);
            CHECK(a.overflow_spawns == b.overflow_spawns);
            REQUIRE(one_buffer.handles() == several_buffers.handles());
            REQUIRE(test::dump_entities(whole) == test::dump_entities(split));
            REQUIRE(state_hash(whole) == state_hash(split));
            ecsia::detail::WorldAccess::advance_tick(whole);
            ecsia::detail::WorldAccess::advance_tick(split);
        }
        REQUIRE(test::dump_ticks(whole) == test::dump_ticks(split));
    }
}

TEST_CASE("folded runs of records leave the same world as one record per buffer", "[command][model]") {
    std::size_t foldable_pairs = 0;
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
        CAPTURE(seed);
        World folded, stepwise;
        const ScriptComponents c = ScriptComponents::register_in(folded);
        ScriptComponents::register_in(stepwise);
        folded.diagnostics().set_sink([](const std::string&) {});
        stepwise.diagnostics().set_sink([](const std::string&) {});
        Rng rng(seed * 104729);
        ScriptGenerator script(rng, c);
        BufferDriver one_buffer(folded, c.label);
        BufferDriver buffer_per_record(stepwise, c.label);
        for (int r = 0; r < kRounds; ++r) {
            CAPTURE(r);
            // No step names an overflow spawn of its own round: across buffers it has no name yet.
            const ScriptRound round = script.next_round(5 + rng.below(30), 0);
            foldable_pairs += foldable_pairs_in(round);
            const ApplyStats a = one_buffer.run(round, BufferDriver::Split::OneBuffer);
            const ApplyStats b = buffer_per_record.run(round, BufferDriver::Split::EveryStep);
            CHECK(a.applied == b.applied);
            CHECK(a.skipped_dead_target == b.skipped_dead_target);
            REQUIRE(one_buffer.handles() == buffer_per_record.handles());
            REQUIRE(test::dump_entities(folded) == test::dump_entities(stepwise));
            REQUIRE(state_hash(folded) == state_hash(stepwise));
            ecsia::detail::WorldAccess::advance_tick(folded);
            ecsia::detail::WorldAccess::advance_tick(stepwise);
        }
        REQUIRE(test::dump_ticks(folded) == test::dump_ticks(stepwise));
    }
    // Runs the applier may fold must occur, or this comparison tested nothing (that such runs do
    // fold is shown in record_folding_test.cpp).
    CHECK(foldable_pairs > 100);
}

TEST_CASE("buffers applied in another order give another world", "[command]") {
    auto build = [](World& world, Entity& shared) {
        world.component<test::Position>();
        world.diagnostics().set_sink([](const std::string&) {});
        shared = world.spawn(test::Position{0, 0});
    };
    World forward, backward;
    Entity e_forward, e_backward;
    build(forward, e_forward);
    build(backward, e_backward);
    REQUIRE(e_forward == e_backward);
    const ComponentId position = forward.component<test::Position>();

    CommandBuffer first, second;
    first.set(e_forward, position, test::Position{1, 1});
    const test::Position ten{10, 0}, twenty{20, 0};
    const ComponentValue first_spawn{position, &ten, sizeof ten};
    const ComponentValue second_spawn{position, &twenty, sizeof twenty};
    first.spawn(kNullEntity, &first_spawn, 1);
    second.set(e_forward, position, test::Position{2, 2});
    second.spawn(kNullEntity, &second_spawn, 1);

    CommandBuffer* in_order[] = {&first, &second};
    CommandBuffer* reversed[] = {&second, &first};
    ecsia::detail::WorldAccess::apply(forward, in_order);
    ecsia::detail::WorldAccess::apply(backward, reversed);

    // The later buffer's write wins, and overflow spawns get handles in buffer order.
    CHECK(forward.get<test::Position>(e_forward).x == 2);
    CHECK(backward.get<test::Position>(e_backward).x == 1);
    std::vector<float> forward_xs, backward_xs;
    forward.each<const test::Position>([&](Entity, const test::Position& p) { forward_xs.push_back(p.x); });
    backward.each<const test::Position>([&](Entity, const test::Position& p) { backward_xs.push_back(p.x); });
    CHECK(forward_xs == std::vector<float>{2, 10, 20});
    CHECK(backward_xs == std::vector<float>{1, 20, 10});
    CHECK(state_hash(forward) != state_hash(backward));
}
