#pragma once
// SnapshotRestorer: restore() for snapshot bytes that lie outside the engine's memory, such as the
// JS API's Uint8Array (outside the wasm heap). restore(world, bytes) needs all the bytes in memory
// and then copies every value into the columns: from outside, that is two copies and a checksum
// pass over a buffer the size of the snapshot. A restorer instead copies each part in as its
// reader reaches it: the structure (counts, names, tick encodings) into a staging buffer, and each
// array of rows of a table the world already has, with room for those rows (the rollback case),
// into spare column memory, summing the checksum while the bytes are fresh in the cache (and,
// while they equal the column's own values, comparing instead of writing them). Only when
// everything is valid does the commit swap the spare memory in: each changed value is copied once,
// and a column unchanged since the snapshot not at all. It validates exactly what restore()
// validates, before it changes anything (G5), and refuses what restore() refuses with restore()'s
// error.
//
// The spare memory stays between calls (as much as the tables it restored; the world's old
// memory becomes the spare), so keep one restorer per world for as long as the world lives.
// Serial phase, coordinator thread.

#include <cstddef>
#include <memory>

namespace ecsia {

class World;

// A snapshot's bytes, wherever they lie.
class SnapshotSource {
public:
    virtual ~SnapshotSource() = default;
    virtual std::size_t size() const = 0;
    // Copies bytes [offset, offset + size) of the snapshot, always within size(), to `to`.
    virtual void copy(std::size_t offset, std::size_t size, std::byte* to) = 0;
};

class SnapshotRestorer {
public:
    SnapshotRestorer();
    ~SnapshotRestorer();
    SnapshotRestorer(const SnapshotRestorer&) = delete;
    SnapshotRestorer& operator=(const SnapshotRestorer&) = delete;

    // Does what restore(world, bytes) does with the source's bytes, and throws what it throws.
    void restore(World& world, SnapshotSource& source);

private:
    struct Memory;
    std::unique_ptr<Memory> memory_;
};

}  // namespace ecsia
