#pragma once
// A second, independent reading of the snapshot format (docs/SNAPSHOT.md), for tests that damage
// particular fields: it walks a *valid* snapshot and records where those fields are. reseal()
// makes damaged bytes pass the checksum again, so the damage reaches the validation behind it.

#include <cstdint>
#include <cstring>
#include <vector>

#include "ecsia/snapshot/checksum.hpp"

namespace test {

struct SnapshotLayout {
    std::size_t world_body = 0;       // WRLD body: index_bits, max_entities, tick, frames, ...
    std::size_t cursor_count = 0;
    std::size_t component_count = 0;  // COMP body starts with it
    std::size_t first_name_length = 0;
    std::size_t slot_count = 0;       // ENTS body
    std::size_t free_count = 0;
    std::size_t first_free = 0;       // (index, generation)
    std::size_t table_count = 0;      // TABL body
    struct Table {
        std::size_t column_count, first_component, row_count;
        // Rows listed (first_entity: the first row's handle) or as runs of handles (first_run:
        // the first run's u32 first handle, u32 length; format 4).
        std::size_t entity_encoding;
        bool runs;
        std::size_t first_entity, first_run;
        std::uint32_t run_count;
        std::size_t first_summary;     // of the first column: max added, max changed, bulk rows, bulk tick
        std::size_t first_ticks_kind;  // the first column's added-ticks encoding
        // The first tick array of the table stored as runs, and the first stored as the same as
        // an earlier one (format 7): its encoding word, or 0.
        std::size_t first_tick_runs, first_tick_same;
        std::size_t first_values;      // the first column's values
        std::uint32_t rows, columns;
        std::vector<std::uint32_t> listed;  // component indices, as listed
        std::vector<std::size_t> values;    // each column's values
    };
    std::vector<Table> tables;
    std::size_t pending_count = 0;
    std::size_t pair_relations = 0;  // PAIR body starts with it (format 5)
    std::size_t prefab_count = 0;    // PFAB body starts with it (format 6)
    std::vector<std::size_t> section_sizes;  // offsets of each section's u64 body size
};

inline std::uint32_t read_u32(const std::vector<std::byte>& b, std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
inline void write_u32(std::vector<std::byte>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
inline void write_u64(std::vector<std::byte>& b, std::size_t at, std::uint64_t v) { std::memcpy(b.data() + at, &v, 8); }

inline SnapshotLayout walk_snapshot(const std::vector<std::byte>& b) {
    SnapshotLayout out;
    std::size_t p = 32;
    auto section = [&]() {
        out.section_sizes.push_back(p + 4);
        p += 12;
        return p;
    };
    auto skip_name = [&]() { p += 4 + read_u32(b, p); };
    out.world_body = section();
    p += 4 + 4 + 4 + 8;
    out.cursor_count = p;
    const std::uint32_t cursors = read_u32(b, p);
    p += 4;
    for (std::uint32_t c = 0; c < cursors; ++c) {
        skip_name();
        p += 4;
    }
    section();
    out.component_count = p;
    const std::uint32_t components = read_u32(b, p);
    p += 4;
    out.first_name_length = p;
    std::vector<std::uint32_t> sizes;
    for (std::uint32_t c = 0; c < components; ++c) {
        skip_name();
        sizes.push_back(read_u32(b, p));
        p += 8;
        const std::uint32_t fields = read_u32(b, p);
        p += 4;
        for (std::uint32_t f = 0; f < fields; ++f) {
            skip_name();
            p += 5;
        }
    }
    section();
    out.slot_count = p;
    out.free_count = p + 4;
    const std::uint32_t free_count = read_u32(b, p + 4);
    out.first_free = p + 8;
    p += 8 + 8 * std::size_t(free_count);
    const std::uint32_t retired = read_u32(b, p);
    p += 4 + 4 * std::size_t(retired);
    section();
    out.table_count = p;
    const std::uint32_t tables = read_u32(b, p);
    p += 4;
    for (std::uint32_t t = 0; t < tables; ++t) {
        SnapshotLayout::Table table{};
        table.column_count = p;
        table.columns = read_u32(b, p);
        p += 4;
        table.first_component = p;
        std::vector<std::uint32_t>& listed = table.listed;
        for (std::uint32_t c = 0; c < table.columns; ++c, p += 4) listed.push_back(read_u32(b, p));
        table.row_count = p;
        table.rows = read_u32(b, p);
        p += 4;
        auto pad = [&] { p = (p + 7) / 8 * 8; };  // zero bytes before each array of rows (format 3)
        table.entity_encoding = p;
        table.runs = read_u32(b, p) == 1;
        p += 4;
        if (table.runs) {
            table.run_count = read_u32(b, p);
            table.first_run = p + 4;
            p += 4 + 8 * std::size_t(table.run_count);
        } else {
            pad();
            table.first_entity = p;
            p += 4 * std::size_t(table.rows);
        }
        for (std::uint32_t c = 0; c < table.columns; ++c) {
            if (c == 0) table.first_summary = p;
            p += 16;
            for (int kind = 0; kind < 2; ++kind) {
                if (c == 0 && kind == 0) table.first_ticks_kind = p;
                const std::uint32_t encoding = read_u32(b, p);
                p += 4;
                if (encoding == 1) {
                    p += 4;
                } else if (encoding == 2) {
                    if (table.first_tick_runs == 0) table.first_tick_runs = p - 4;
                    p += 4 + 8 * std::size_t(read_u32(b, p));
                } else if (encoding == 3) {
                    if (table.first_tick_same == 0) table.first_tick_same = p - 4;
                    p += 4;
                } else {
                    pad();
                    p += 4 * std::size_t(table.rows);
                }
            }
            pad();
            if (c == 0) table.first_values = p;
            table.values.push_back(p);
            p += std::size_t(table.rows) * sizes[listed[c]];
        }
        out.tables.push_back(table);
    }
    section();
    out.pending_count = p;
    p += 4 + 8 * std::size_t(read_u32(b, p));
    section();
    out.pair_relations = p;
    std::uint64_t pair_bytes;
    std::memcpy(&pair_bytes, b.data() + out.section_sizes.back(), 8);
    p += static_cast<std::size_t>(pair_bytes);
    section();
    out.prefab_count = p;
    return out;
}

// The handles of a table's rows, in order, whether listed or stored as runs.
inline std::vector<std::uint32_t> row_handles(const std::vector<std::byte>& b, const SnapshotLayout::Table& table) {
    std::vector<std::uint32_t> out;
    if (!table.runs) {
        for (std::uint32_t row = 0; row < table.rows; ++row) out.push_back(read_u32(b, table.first_entity + 4 * std::size_t(row)));
        return out;
    }
    for (std::uint32_t r = 0; r < table.run_count; ++r) {
        const std::uint32_t first = read_u32(b, table.first_run + 8 * std::size_t(r));
        const std::uint32_t length = read_u32(b, table.first_run + 8 * std::size_t(r) + 4);
        for (std::uint32_t i = 0; i < length; ++i) out.push_back(first + i);
    }
    return out;
}

// Recomputes the header's payload size and checksum, so that damage behind them is what restore()
// has to find.
inline void reseal(std::vector<std::byte>& b) {
    write_u64(b, 16, b.size() - 32);
    write_u64(b, 24, ecsia::checksum(b.data() + 32, b.size() - 32));
}

}  // namespace test
