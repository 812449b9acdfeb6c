#pragma once
// Runs in arrays of u32 words, each word `increment` more than the one before it: runs of equal
// change ticks (increment 0), in which the snapshot format stores a churned column's ticks, and
// runs of consecutive entity handles (increment 1), in which it stores a table's rows
// (snapshot_format.hpp, docs/SNAPSHOT.md; handle_runs.hpp has the rest of those). A snapshot
// counts the runs of every array it may store that way, so the count runs 16 words a step with
// wasm SIMD, like the checksum (wasm/CMakeLists.txt), and gives up on an array with too many.
// Any thread; reads only what it is given.

#include <cstdint>

namespace ecsia {

// How many runs words [from, count) make (word `from` starts one), or `limit` + 1 as soon as they
// make more than `limit`: 16 words a step without a branch, the limit checked every 1,024.
std::uint32_t count_word_runs(const std::uint32_t* words, std::uint32_t from, std::uint32_t count, std::uint32_t limit,
                              std::uint32_t increment) noexcept;

// Writes the runs of equal words in words[0, count) to `out`, each as two little-endian u32, the
// word and the run's length (8 bytes a run), and returns how many it wrote: count_word_runs(
// words, 0, count, count, 0) of them, for which `out` must have room. Sixteen words a step while a
// run goes on, so its cost follows the runs more than the words.
std::uint32_t write_equal_word_runs(const std::uint32_t* words, std::uint32_t count, unsigned char* out) noexcept;
// write_equal_word_runs that stops as soon as the words make more than `limit` runs: returns how
// many it wrote, or `limit` + 1 (then `out`, which has room for `limit` runs, holds some). One
// pass where counting first and then writing takes two, for words with few runs; for words with
// many, count_word_runs finds out sooner that they are too many.
std::uint32_t write_equal_word_runs_within(const std::uint32_t* words, std::uint32_t count, std::uint32_t limit,
                                           unsigned char* out) noexcept;

}  // namespace ecsia
