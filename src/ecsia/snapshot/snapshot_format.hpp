#pragma once
// The snapshot byte format, version 8 (docs/SNAPSHOT.md says the same in prose). Every integer is
// little-endian; strings are u32 length + UTF-8 bytes. The only padding: `pad` below, zero bytes
// up to the next offset (from the snapshot's first byte) that is a multiple of 8, before each
// array of rows, so arrays lie 8-aligned as they do in memory (the JS API copies them straight
// from the columns: docs/SNAPSHOT.md "Speed").
//
//   header (32 bytes)
//     0  u8[8]  magic "ECSIASNP"
//     8  u32    format version (kFormatVersion)
//    12  u32    flags, 0
//    16  u64    payload bytes (all bytes after the header)
//    24  u64    Checksum (checksum.hpp) of the payload
//   payload: eight sections in this order, each  u32 tag | u64 body bytes | body
//     "WRLD"  u32 index_bits | u32 max_entities | u32 tick | u64 frames
//             u32 cursors | per cursor: str system name, u32 last-run tick
//     "COMP"  u32 components | per component: str name, u32 size, u32 alignment, u32 fields,
//             per field: str name, u8 FieldType, u32 offset
//             (the components the tables and pending changes use, in name order; later
//             sections index this list)
//     "ENTS"  u32 slots | u32 free | free x (u32 index, u32 generation), the free list in order
//             (the last is reused first) | u32 retired | retired x u32 index
//             (every other slot is alive: its handle is in exactly one table row)
//     "TABL"  u32 tables | per table, in table-index order (table 0 has no components):
//             u32 columns | columns x u32 component, ascending | u32 rows | entities
//             per column, in the order listed: u32 max added tick | u32 max changed tick |
//             u32 bulk changed rows | u32 bulk changed tick | ticks added | ticks changed |
//             pad | rows x size bytes of values (none for a tag)
//             ticks = u32 kTicksPerRow, pad, then rows x u32 | or u32 kTicksUniform, then one u32 |
//             or u32 kTicksRuns, u32 runs, then runs x (u32 tick, u32 length): that many rows with
//             that tick (the writer uses runs when there are at most rows / kRowsPerTickRun) |
//             or u32 kTicksSame, u32 array: the same ticks as an earlier array of this table,
//             numbered 2 x column + (0 added, 1 changed) in the order listed (both version 7)
//             entities = u32 kRowsListed, pad, then rows x u32 handle | or u32 kRowsRuns, u32 runs,
//             then runs x (u32 first handle, u32 length): rows first, first + 1, ... (the writer
//             uses runs when there are at most rows / kRowsPerRun of them)
//     "PEND"  u32 changes | per change: u32 entity handle, u32 component (queued change events)
//     "PAIR"  u32 relations | per relation with pairs, in name order: str name, u32 data size,
//             u32 fields, per field: str name, u8 type, u32 offset (version 9), u32 subjects | per subject, ascending index: u32 subject handle, u32 targets |
//             per target, ascending index: u32 target handle, data size bytes (unpadded)
//             (version 5; the relations' presence components are in COMP and TABL like tags)
//     "PFAB"  u32 prefabs | per prefab, in definition order: u32 prefab handle, str name
//             (version 6; the prefabs' rows, with the Prefab tag, are in TABL like any other;
//             every row with the tag has exactly one name, and names are unique)
//     "TOPC"  u32 topics | per topic, in definition order: str name, u32 fields, per field: str
//             name, u8 FieldType | u64 first message's sequence | u32 messages | u32 consumers,
//             per consumer in the order they were added: str system name, u64 cursor (first ..
//             first + messages) | per field: messages x field size bytes (unpadded)
//             (version 8: the messages not every consumer has seen, topic/topic_store.hpp)
//
// Both targets (x86-64 and wasm32) are little-endian, so column bytes and tick arrays are copied
// as they are in memory; a big-endian port would need to swap them.

#include <bit>
#include <cstddef>
#include <cstdint>

namespace ecsia::snapshot_format {

static_assert(std::endian::native == std::endian::little, "the snapshot format copies little-endian memory as is");

inline constexpr unsigned char kMagic[8] = {'E', 'C', 'S', 'I', 'A', 'S', 'N', 'P'};
inline constexpr std::uint32_t kFormatVersion = 9;
// What `pad` aligns arrays of rows to.
inline constexpr std::size_t kArrayAlignment = 8;
inline constexpr std::size_t kHeaderSize = 32;
inline constexpr std::size_t kVersionOffset = 8;
inline constexpr std::size_t kFlagsOffset = 12;
inline constexpr std::size_t kPayloadSizeOffset = 16;
inline constexpr std::size_t kChecksumOffset = 24;

inline constexpr std::size_t kSectionHeaderSize = 12;  // u32 tag + u64 body bytes

constexpr std::uint32_t tag(const char (&name)[5]) noexcept {
    return std::uint32_t(static_cast<unsigned char>(name[0])) | std::uint32_t(static_cast<unsigned char>(name[1])) << 8 |
           std::uint32_t(static_cast<unsigned char>(name[2])) << 16 | std::uint32_t(static_cast<unsigned char>(name[3])) << 24;
}
inline constexpr std::uint32_t kWorldSection = tag("WRLD");
inline constexpr std::uint32_t kComponentSection = tag("COMP");
inline constexpr std::uint32_t kEntitySection = tag("ENTS");
inline constexpr std::uint32_t kTableSection = tag("TABL");
inline constexpr std::uint32_t kPendingSection = tag("PEND");
inline constexpr std::uint32_t kPairSection = tag("PAIR");
inline constexpr std::uint32_t kPrefabSection = tag("PFAB");
inline constexpr std::uint32_t kTopicSection = tag("TOPC");

inline constexpr std::uint32_t kTicksPerRow = 0;
inline constexpr std::uint32_t kTicksUniform = 1;
inline constexpr std::uint32_t kTicksRuns = 2;
inline constexpr std::uint32_t kTicksSame = 3;
// A column's ticks are stored as runs of equal ticks when they average at least this many rows a
// run (half the bytes of one tick per row, or less): rows spawned together, and written together.
// A table whose rows were shuffled by despawns and moves has short runs, but its columns' added
// ticks are mostly one array (the rows' components were added together) and a column never
// written since has changed ticks equal to its added ones: kTicksSame.
inline constexpr std::uint32_t kRowsPerTickRun = 4;

inline constexpr std::uint32_t kRowsListed = 0;
inline constexpr std::uint32_t kRowsRuns = 1;
// A table's rows are stored as runs of consecutive handles when they average at least this many
// rows a run (a quarter of the bytes of listing them, or less).
inline constexpr std::uint32_t kRowsPerRun = 8;

// Longest name accepted (a component, field or system name); longer is a corrupt snapshot.
inline constexpr std::uint32_t kMaxNameBytes = 4096;

}  // namespace ecsia::snapshot_format
