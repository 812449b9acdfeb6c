// The committed fixture pins the format: the determinism scenario after 30 frames must snapshot to
// tests/fixtures/snapshot_scenario.bin byte for byte (natively and in the wasm build under node;
// e2e/snapshot.spec.js checks both browser builds against the same file), and restoring the file
// into a fresh world must continue with the hashes in tests/fixtures/snapshot_scenario.json. The
// scenario's tables are churned, so their rows are listed; tests/fixtures/snapshot_movers.bin pins
// rows stored as runs of handles the same way (movers spawned together, a few despawned).
//
// After an intended change to the format or the scenario, regenerate the files with
//   ECSIA_WRITE_SNAPSHOT_FIXTURE=tests/fixtures build/plain/tests/ecsia_tests "[fixture]"
// and say why in the commit.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "builtin/builtin_systems.hpp"
#include "builtin/workloads.hpp"
#include "ecsia/ecsia.hpp"
#include "support/snapshot_checks.hpp"
#include "support/snapshot_layout.hpp"

extern const unsigned char kSnapshotFixture[];
extern const std::size_t kSnapshotFixtureSize;
extern const char kSnapshotFixtureHashes[];  // "hash,hash,..." (hashes_after)
extern const unsigned char kMoversFixture[];
extern const std::size_t kMoversFixtureSize;

using namespace ecsia;

namespace {

constexpr std::uint32_t kFramesBefore = 30;
constexpr std::uint32_t kFramesAfter = 20;

std::vector<std::string> fixture_hashes() {
    std::vector<std::string> out;
    std::stringstream list(kSnapshotFixtureHashes);
    for (std::string hash; std::getline(list, hash, ',');) out.push_back(hash);
    return out;
}

std::string hex(std::uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

void write_file(const std::string& path, const std::vector<std::byte>& bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f != nullptr);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
}

void write_fixture(const char* dir, const std::vector<std::byte>& bytes, const std::vector<std::uint64_t>& hashes) {
    write_file(std::string(dir) + "/snapshot_scenario.bin", bytes);
    const std::string json = std::string(dir) + "/snapshot_scenario.json";
    std::FILE* f = std::fopen(json.c_str(), "w");
    REQUIRE(f != nullptr);
    std::fprintf(f, "{\n  \"scenario_seed\": 1,\n  \"workers\": 0,\n  \"frames_before\": %u,\n  \"hashes_after\": [", kFramesBefore);
    for (std::size_t i = 0; i < hashes.size(); ++i) std::fprintf(f, "%s\"%s\"", i ? ", " : "", hex(hashes[i]).c_str());
    std::fprintf(f, "]\n}\n");
    std::fclose(f);
}

// The movers world of snapshot_movers.bin (e2e/snapshot.spec.js builds the same through the JS
// API): 3,000 built-in movers and 2,000 bare ones spawned together, three of the first despawned
// (their tables' last rows move into the holes) and two bare ones spawned into the freed slots.
std::vector<std::byte> movers_snapshot() {
    World world(WorldOptions{.max_entities = 1u << 16});
    builtin::spawn_movers(world, 3000, 3);
    builtin::spawn_move_workload(world, 2000);
    for (const std::uint32_t handle : {17u, 1500u, 2999u}) world.despawn(Entity{handle});
    builtin::spawn_move_workload(world, 2);
    world.flush();
    return snapshot(world);
}

}  // namespace

TEST_CASE("movers spawned together snapshot to the committed fixture byte for byte, their rows as runs, and restore from it",
          "[snapshot][fixture]") {
    const std::vector<std::byte> bytes = movers_snapshot();
    if (const char* dir = std::getenv("ECSIA_WRITE_SNAPSHOT_FIXTURE"); dir != nullptr) {
        write_file(std::string(dir) + "/snapshot_movers.bin", bytes);
        WARN("wrote " << dir << "/snapshot_movers.bin");
        return;
    }
    const std::vector<std::byte> fixture(reinterpret_cast<const std::byte*>(kMoversFixture),
                                         reinterpret_cast<const std::byte*>(kMoversFixture) + kMoversFixtureSize);
    CHECK(bytes.size() == fixture.size());
    CHECK(bytes == fixture);
    // Both tables with rows store them as runs, more than one each.
    int run_tables = 0;
    for (const test::SnapshotLayout::Table& table : test::walk_snapshot(fixture).tables) {
        if (table.rows == 0) continue;
        CHECK(table.runs);
        CHECK(table.run_count > 1);
        ++run_tables;
    }
    CHECK(run_tables == 2);
    World fresh(WorldOptions{.max_entities = 1u << 16});
    builtin::register_builtin_components(fresh);
    restore(fresh, fixture);
    CHECK(snapshot(fresh) == fixture);
}

TEST_CASE("the scenario's snapshot equals the committed fixture byte for byte, at every worker count",
          "[snapshot][fixture][threads]") {
    const std::vector<std::byte> fixture(reinterpret_cast<const std::byte*>(kSnapshotFixture),
                                         reinterpret_cast<const std::byte*>(kSnapshotFixture) + kSnapshotFixtureSize);
    for (std::uint32_t workers : {0u, 2u}) {
        INFO("workers " << workers);
        test::ScenarioRun run(workers);
        run.run(kFramesBefore);
        const std::vector<std::byte> bytes = snapshot(run.world);
        if (const char* dir = std::getenv("ECSIA_WRITE_SNAPSHOT_FIXTURE"); dir != nullptr && workers == 0) {
            write_fixture(dir, bytes, run.run(kFramesAfter));
            WARN("wrote " << dir << "/snapshot_scenario.{bin,json}");
            return;
        }
        CHECK(bytes.size() == fixture.size());
        CHECK(bytes == fixture);
    }
}

TEST_CASE("the committed fixture restores into a fresh world and continues with the recorded hashes",
          "[snapshot][fixture][threads]") {
    if (std::getenv("ECSIA_WRITE_SNAPSHOT_FIXTURE") != nullptr) return;
    const std::vector<std::byte> fixture(reinterpret_cast<const std::byte*>(kSnapshotFixture),
                                         reinterpret_cast<const std::byte*>(kSnapshotFixture) + kSnapshotFixtureSize);
    const std::vector<std::string> expected = fixture_hashes();
    REQUIRE(expected.size() == kFramesAfter);
    for (std::uint32_t workers : {0u, 1u, 4u}) {
        INFO("workers " << workers);
        test::ScenarioRun fresh(workers, /*seed=*/1);
        restore(fresh.world, fixture);
        std::vector<std::string> got;
        for (std::uint64_t hash : fresh.run(kFramesAfter)) got.push_back(hex(hash));
        CHECK(got == expected);
    }
}
