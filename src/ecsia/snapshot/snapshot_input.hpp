#pragma once
// Internal to the snapshot layer: where read_snapshot() finds a snapshot's bytes. Either all of
// them in memory (restore(world, bytes)), or pulled from a SnapshotSource as the reader reaches
// them (SnapshotRestorer): the structure into a staging buffer at the bytes' own offsets, so the
// reader reads both inputs alike, and each array of rows it has spare memory for straight into
// that memory, in cache-sized pieces, each summed into the checksum while it is fresh.
// The reader reads forward only (sections in order, each body front to back), which is what lets
// a pulled input fetch each byte once.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ecsia/snapshot/checksum.hpp"
#include "ecsia/snapshot/snapshot_restorer.hpp"

namespace ecsia {

class SnapshotInput {
public:
    // The pieces an array of rows is pulled in and summed in: small enough to be summed (and
    // compared) from the cache they were just copied into, large enough that the source's
    // per-call cost stays small.
    static constexpr std::size_t kPiece = 64 * 1024;

    explicit SnapshotInput(std::span<const std::byte> bytes) noexcept;
    // Reads `source` through `staging`, resized to the snapshot's size; `bounce`: kPiece bytes
    // for pieces that are compared before they are placed (rows_into_spare()).
    SnapshotInput(SnapshotSource& source, std::vector<std::byte>& staging, std::byte* bounce);

    const std::byte* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    bool pulled() const noexcept { return source_ != nullptr; }

    // Makes bytes [at, at + n), which lie within the snapshot, readable where they are.
    void need(const std::byte* at, std::size_t n) {
        if (at + n > ready_) pull_to(at + n);
    }
    // The array of rows at [at, at + n), within the snapshot: copied to `into` (n bytes of spare
    // memory) and to be read there; without `into`, read where it lies. With `compare`, `*same`
    // says whether its bytes equal the n bytes there (compared piece by piece as they come in).
    const std::byte* rows(const std::byte* at, std::size_t n, std::byte* into, const std::byte* compare = nullptr, bool* same = nullptr);
    // An array of rows of a pulled input read into spare memory `into`, whose counterpart, the
    // column's own array, is at `own` (n bytes; nullptr: none to compare with). While the pieces
    // come in equal to the own array's, they are only compared (through the bounce buffer), not
    // written to the spare memory: a rollback of a column no frame since has written then writes
    // nothing. Returns the length of that leading equal part, whose bytes are in `own` and not
    // in `into`; `into` holds the rest.
    std::size_t rows_into_spare(const std::byte* at, std::size_t n, std::byte* into, const std::byte* own);
    // The checksum of the payload as the reader saw it: with a pulled input, of the staged bytes
    // and of the arrays of rows where they were copied. Call once, after the reader's last read.
    std::uint64_t payload_checksum();

private:
    void pull_to(const std::byte* end);
    // Pulls the array of rows at [at, at + n) into `to`, summing each piece as it arrives and,
    // with `compare`, comparing the pieces with the bytes there while they are equal. With
    // `skip_equal`, those equal leading pieces go through the bounce buffer and not into `to`.
    // Returns the length of the equal leading part (0 without `compare`).
    std::size_t pull_array(const std::byte* at, std::size_t n, std::byte* to, const std::byte* compare, bool skip_equal);
    // Sums the staged bytes from where the sum reached up to `end`.
    void sum_staged_to(const std::byte* end);

    const std::byte* data_;
    std::size_t size_;
    SnapshotSource* source_ = nullptr;
    std::byte* staging_ = nullptr;
    std::byte* bounce_ = nullptr;
    const std::byte* ready_;   // bytes before it are staged (or copied to spare memory)
    const std::byte* summed_;  // bytes before it are summed into sum_
    Checksum sum_;
};

}  // namespace ecsia
