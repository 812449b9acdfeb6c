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
    explicit SnapshotInput(std::span<const std::byte> bytes) noexcept;
    // Reads `source` through `staging`, resized to the snapshot's size.
    SnapshotInput(SnapshotSource& source, std::vector<std::byte>& staging);

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
    // The checksum of the payload as the reader saw it: with a pulled input, of the staged bytes
    // and of the arrays of rows where they were copied. Call once, after the reader's last read.
    std::uint64_t payload_checksum();

private:
    void pull_to(const std::byte* end);
    // Sums the staged bytes from where the sum reached up to `end`.
    void sum_staged_to(const std::byte* end);

    const std::byte* data_;
    std::size_t size_;
    SnapshotSource* source_ = nullptr;
    std::byte* staging_ = nullptr;
    const std::byte* ready_;   // bytes before it are staged (or copied to spare memory)
    const std::byte* summed_;  // bytes before it are summed into sum_
    Checksum sum_;
};

}  // namespace ecsia
