// Batching, tested without a scheduler: the batch list is a pure function of the matched rows
// (tables, row runs) and batch_rows, checked against a simple model over random table layouts.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "ecsia/schedule/batching.hpp"
#include "support/rng.hpp"

using namespace ecsia;

namespace {

// One system of a random wave: its matched runs, or none at all (a system without query terms).
struct SystemRows {
    bool single = false;
    std::vector<RowRun> runs;
};

// The rule written the slow way: the smallest multiple of 16 rows that 16 batches need to cover
// every row, kept within [min(256, batch_rows), batch_rows]; each run cut row by row from its start.
std::vector<BatchBounds> batching_model(const std::vector<SystemRows>& systems, std::uint32_t batch_rows) {
    std::vector<BatchBounds> wave;
    for (std::uint32_t s = 0; s < systems.size(); ++s) {
        if (systems[s].single) {
            wave.push_back(BatchBounds{s, 0, 0, 0});
            continue;
        }
        std::uint64_t total = 0;
        for (const RowRun& run : systems[s].runs) total += run.end - run.begin;
        std::uint64_t sixteenth = 0;
        while (sixteenth * 16 < total) sixteenth += 16;
        const std::uint64_t floor = batch_rows < 256 ? batch_rows : 256;
        std::uint64_t size = sixteenth < floor ? floor : sixteenth;
        if (size > batch_rows) size = batch_rows;
        for (const RowRun& run : systems[s].runs) {
            for (std::uint64_t row = run.begin; row < run.end; ++row) {
                if ((row - run.begin) % size != 0) continue;
                const std::uint64_t end = row + size < run.end ? row + size : run.end;
                wave.push_back(BatchBounds{s, run.table, static_cast<std::uint32_t>(row), static_cast<std::uint32_t>(end)});
            }
        }
    }
    return wave;
}

std::vector<BatchBounds> cut_wave(const std::vector<SystemRows>& systems, std::uint32_t batch_rows) {
    std::vector<BatchBounds> wave;
    for (std::uint32_t s = 0; s < systems.size(); ++s) {
        if (systems[s].single) {
            append_single_batch(s, wave);
        } else {
            append_batches(s, systems[s].runs, batch_rows, wave);
        }
    }
    return wave;
}

std::vector<SystemRows> random_wave(test::Rng& rng) {
    std::vector<SystemRows> systems(1 + rng.below(4));
    for (SystemRows& system : systems) {
        system.single = rng.chance(10);
        if (system.single) continue;
        // Tables in any order (a query's matched list), each a run of its rows; a filtered query
        // (changed/added) gives several runs per table, with gaps.
        const std::uint32_t tables = rng.below(6);
        for (std::uint32_t t = 0; t < tables; ++t) {
            const TableIndex table = rng.below(40);
            const std::uint32_t rows = rng.chance(30) ? rng.below(20) : rng.below(rng.chance(20) ? 40'000 : 3'000);
            std::uint32_t row = 0;
            const std::uint32_t runs = rng.chance(25) ? 1 + rng.below(4) : 1;
            for (std::uint32_t r = 0; r < runs && row < rows; ++r) {
                const std::uint32_t begin = row + rng.below(rows - row);
                const std::uint32_t end = begin + 1 + rng.below(rows - begin);
                system.runs.push_back(RowRun{table, begin, end});
                row = end + 1;
            }
        }
    }
    return systems;
}

std::uint32_t random_batch_rows(test::Rng& rng) {
    const std::vector<std::uint32_t> interesting{1, 15, 16, 17, 100, 255, 256, 257, 1000, 3136, 16384};
    return rng.chance(60) ? rng.pick(interesting) : 1 + rng.below(20'000);
}

}  // namespace

TEST_CASE("batching: random table layouts and batch_rows give the model's batch list", "[schedule][batching]") {
    test::Rng rng(1515);
    for (int trial = 0; trial < 400; ++trial) {
        const std::vector<SystemRows> systems = random_wave(rng);
        const std::uint32_t batch_rows = random_batch_rows(rng);
        INFO("trial " << trial << ", batch_rows " << batch_rows << ", systems " << systems.size());
        const std::vector<BatchBounds> wave = cut_wave(systems, batch_rows);
        REQUIRE(wave == batching_model(systems, batch_rows));
        // What the model encodes, checked on its own: system order, exact cover of each run in
        // row order, one size per system (the last batch of a run takes the rest), within bounds.
        std::size_t b = 0;
        for (std::uint32_t s = 0; s < systems.size(); ++s) {
            if (systems[s].single) {
                REQUIRE(wave[b].system == s);
                REQUIRE(wave[b].row_begin == wave[b].row_end);
                ++b;
                continue;
            }
            std::uint32_t size = 0;
            for (const RowRun& run : systems[s].runs) {
                std::uint32_t row = run.begin;
                while (row < run.end) {
                    REQUIRE(b < wave.size());
                    const BatchBounds& batch = wave[b++];
                    REQUIRE(batch.system == s);
                    REQUIRE(batch.table == run.table);
                    REQUIRE(batch.row_begin == row);
                    REQUIRE(batch.row_end > row);
                    REQUIRE(batch.row_end <= run.end);
                    REQUIRE(batch.row_end - batch.row_begin <= batch_rows);
                    if (batch.row_end < run.end) {
                        if (size == 0) size = batch.row_end - batch.row_begin;
                        REQUIRE(batch.row_end - batch.row_begin == size);
                    }
                    row = batch.row_end;
                }
            }
            if (size != 0 && size < batch_rows) {
                REQUIRE(size >= 256);
                REQUIRE(size % 16 == 0);
            }
        }
        REQUIRE(b == wave.size());
    }
}

TEST_CASE("batching: one run is cut into about a sixteenth of its rows, at least 256, at most batch_rows", "[schedule][batching]") {
    for (std::uint32_t rows : {1u, 255u, 256u, 4'095u, 4'096u, 4'097u, 50'000u, 262'144u, 1'000'000u}) {
        for (std::uint32_t batch_rows : {100u, 256u, 16'384u, 1'000'000u}) {
            INFO("rows " << rows << ", batch_rows " << batch_rows);
            std::vector<BatchBounds> wave;
            const RowRun run{3, 0, rows};
            append_batches(7, std::span<const RowRun>(&run, 1), batch_rows, wave);
            const std::uint32_t size = wave.front().row_end - wave.front().row_begin;
            CHECK(size == std::min(rows, rows_per_batch(rows, batch_rows)));
            if (batch_rows < 256) {
                CHECK(size == std::min(rows, batch_rows));
            } else if (rows <= 16 * 256) {
                CHECK((size == 256 || size == rows));  // the floor (or the whole run when it is smaller)
            } else if (size < batch_rows) {
                CHECK(wave.size() <= 16);
                CHECK(wave.size() >= 15);
            } else {
                CHECK(wave.size() == (rows + batch_rows - 1) / batch_rows);
            }
        }
    }
}

TEST_CASE("batching: nothing matched gives no batch, and runs at the top of the row range do not overflow", "[schedule][batching]") {
    std::vector<BatchBounds> wave;
    append_batches(0, {}, 16, wave);
    CHECK(wave.empty());
    const RowRun empty{1, 5, 5};
    append_batches(0, std::span<const RowRun>(&empty, 1), 16, wave);
    CHECK(wave.empty());
    const RowRun top{2, 0xffffff00u, 0xffffffffu};  // 255 rows ending at the last row number
    append_batches(4, std::span<const RowRun>(&top, 1), 100, wave);
    REQUIRE(wave.size() == 3);
    CHECK(wave[0] == BatchBounds{4, 2, 0xffffff00u, 0xffffff64u});
    CHECK(wave[2] == BatchBounds{4, 2, 0xffffffc8u, 0xffffffffu});
    CHECK(rows_per_batch(0, 0) == 1);  // batch_rows 0 counts as 1 (the scheduler refuses it earlier)
}
