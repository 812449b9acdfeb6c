// SnapshotRestorer: a rollback through it replays exactly, pulls every byte of the snapshot once,
// and swaps the values it read into spare memory in instead of copying them (its point: the JS
// API restores through one). That it refuses exactly what restore() refuses, with the same
// errors, is checked with every refusal of snapshot_errors_test and in the fuzz test; that what it
// accepts equals restore()'s result, by the property test of snapshot_restore_paths_test.

#include <catch2/catch.hpp>

#include <vector>

#include "builtin/builtin_systems.hpp"
#include "ecsia/ecsia.hpp"
#include "support/snapshot_checks.hpp"

using namespace ecsia;

TEST_CASE("rollback through a restorer replays exactly and pulls each byte of the snapshot once",
          "[snapshot][threads][determinism]") {
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::ScenarioRun run(workers);
        run.run(20);
        const std::vector<std::byte> bytes = snapshot(run.world);
        const std::uint64_t hash_at = state_hash(run.world);
        const std::vector<std::uint64_t> later = run.run(6);
        SnapshotRestorer restorer;
        for (int round = 0; round < 4; ++round) {
            INFO("round " << round);
            test::VectorSource source(bytes);
            restorer.restore(run.world, source);
            CHECK(source.copied == bytes.size());
            REQUIRE(state_hash(run.world) == hash_at);
            REQUIRE(snapshot(run.world) == bytes);
            CHECK(run.run(6) == later);
        }
    }
}

TEST_CASE("a restorer swaps spare memory in for a changed column, leaves an unchanged one, and copies when the table lacks room",
          "[snapshot]") {
    World world;
    builtin::register_builtin_components(world);
    builtin::spawn_movers(world, 20000, 7);  // 160 KB of each column: several 64 KB pieces
    world.flush();
    const ComponentId position = world.component_id("position"), velocity = world.component_id("velocity");
    const auto column_memory = [&](ComponentId id) {
        for (std::uint32_t t = 0; t < world.tables().table_count(); ++t) {
            const Table& table = world.tables().table(static_cast<TableIndex>(t));
            if (table.size() > 0 && table.has(id)) return table.column(id)->data();
        }
        return static_cast<const std::byte*>(nullptr);
    };
    const std::vector<std::byte> bytes = snapshot(world);
    const std::byte* const own = column_memory(position);
    const std::byte* const own_velocity = column_memory(velocity);
    REQUIRE(own != nullptr);

    SnapshotRestorer restorer;
    // Moves one entity (the first row or the last: a difference in the first piece or the last),
    // then restores.
    const auto roll_back = [&](std::uint32_t row) {
        const float moved[2] = {-1, -2};
        const Table* table = nullptr;
        for (std::uint32_t t = 0; t < world.tables().table_count(); ++t) {
            const Table& candidate = world.tables().table(static_cast<TableIndex>(t));
            if (candidate.size() > 0 && candidate.has(position)) table = &candidate;
        }
        world.set_bytes(table->entities()[row == 0 ? 0 : table->size() - 1], position, 0, moved, 8);
        test::restore_pulled(restorer, world, bytes);
        REQUIRE(snapshot(world) == bytes);
    };
    roll_back(0);
    const std::byte* const spare = column_memory(position);
    CHECK(spare != own);  // the values were read into the spare memory, which took the column's place
    CHECK(column_memory(velocity) == own_velocity);  // unchanged since the snapshot: compared, not written, left in place
    roll_back(1);
    CHECK(column_memory(position) == own);  // and back, the equal leading pieces copied from the column: two buffers take turns
    roll_back(0);
    CHECK(column_memory(position) == spare);
    CHECK(column_memory(velocity) == own_velocity);
    test::restore_pulled(restorer, world, bytes);  // nothing changed: nothing moves
    CHECK(column_memory(position) == spare);
    CHECK(snapshot(world) == bytes);

    // restore() itself copies into the column where it is.
    roll_back(0);
    restore(world, bytes);
    CHECK(column_memory(position) == own);
    // A snapshot with more rows than the table has room for is copied too, into the grown table.
    World bigger;
    builtin::register_builtin_components(bigger);
    builtin::spawn_movers(bigger, 50000, 7);
    bigger.flush();
    const std::vector<std::byte> more = snapshot(bigger);
    test::restore_pulled(restorer, world, more);
    CHECK(snapshot(world) == more);
    CHECK(state_hash(world) == state_hash(bigger));
}
