#pragma once
// Snapshots: the whole state of a world as bytes, and back. The ground of saving, loading,
// replays and rollback: restore, then run the same systems, and every later frame hashes exactly
// as the original did, at any worker count, natively and in the browser (G1).
//
// What the bytes hold: every entity slot (generations, the free list in order, retired slots), so
// later spawns get the same handles; every table in creation order with its rows in order, so
// iteration, batches and merges happen in the same order; every component value; the per-row
// added/changed ticks and each column's tick summary; the world tick; the schedulers' cursors
// (frames run, each system's last-run tick: world/system_cursors.hpp); queued change events.
// Not held: observers and systems (code: register the same ones), the storage generation (it
// rises on restore, so views re-fetch), diagnostics sinks.
//
// The format (snapshot_format.hpp, docs/SNAPSHOT.md) is versioned, little-endian and the same for
// native and wasm builds. restore() validates all of it (checksum, bounds, counts, consistency,
// the world's schema) before it changes anything (G5).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ecsia {

class World;

// The world's state as bytes. Throws WrongPhase during a wave, inside an observer or between a
// scheduler's begin_frame and the end of that frame, while handles are reserved, or while
// observer-recorded commands wait for a flush: only whole frames can be replayed.
// Serial phase, coordinator thread.
std::vector<std::byte> snapshot(const World& world);
// The same into `out`, reusing its memory: a ring of snapshot buffers then allocates nothing.
void snapshot(const World& world, std::vector<std::byte>& out);

// Replaces the world's state with a snapshot's: the same world it came from, or another world
// (a fresh one, natively or in the browser) whose components the snapshot's tables use exist
// under the same names with the same field layout and whose handle layout and max_entities are
// the same. Components the world has and the snapshot does not use stay defined, with no
// entities. Systems' cursors are matched by name; a scheduler's systems the snapshot does not name
// restart from "never ran".
// Throws BadSnapshot (truncated, corrupt, another version, inconsistent or hostile bytes),
// SnapshotMismatch (a component missing or defined differently, another handle layout or
// max_entities) or WrongPhase (as snapshot()); in every case the world is exactly as it was.
// Handles reserved and not yet spawned when restore() runs become invalid.
// Serial phase, coordinator thread.
void restore(World& world, std::span<const std::byte> bytes);

// The same bytes as snapshot(world), as a list of ranges: small pieces it owns (header, counts,
// names) and ranges of the world's own column and row memory, valid until the world next changes.
// For bindings that copy the bytes elsewhere in one pass (the JS API copies them straight into a
// Uint8Array); snapshot() is bytes() of this.
class SnapshotSegments {
public:
    struct Range {
        const std::byte* data;
        std::size_t size;
    };
    // Refills this object from `world` (reusing its memory); throws as snapshot() does. Without
    // `checksum` the header's checksum is left for copy_to_sealed() to compute while it copies,
    // or for seal().
    void take(const World& world, bool checksum = true);
    // Computes the checksum over the ranges where they lie (reading them once, copying nothing)
    // and writes it into the header, so the ranges then hold exactly snapshot()'s bytes. For a
    // take(world, false) whose copier decides afterwards how to copy (the JS API).
    void seal() noexcept;
    const std::vector<Range>& ranges() const noexcept { return ranges_; }
    std::size_t size() const noexcept { return size_; }
    void copy_to(std::byte* out) const noexcept;
    // Copies and computes the checksum in the same pass, writing it into out's header.
    void copy_to_sealed(std::byte* out) const noexcept;
    std::vector<std::byte> bytes() const;

private:
    friend class SnapshotWriter;
    struct Piece {
        const std::byte* external;  // nullptr: bytes [offset, offset + size) of owned_
        std::size_t offset;
        std::size_t size;
    };
    std::vector<std::byte> owned_;
    std::vector<Piece> pieces_;
    std::vector<Range> ranges_;
    std::size_t size_ = 0;
    std::vector<unsigned char> scratch_;  // the writer's, reused from one take() to the next
    // take()'s lists, kept here rather than as its locals: in the browser build (JS-based
    // exceptions) a function with locals to destroy makes each call in it that may throw go
    // through a JS trampoline, and the locals were allocated again at every take(). As members,
    // take() of the rollback benchmark's churned world (10,400 entities), called back to back in
    // Chromium, went from 15.3 to 11.5-12 us (natively: 10 us).
    std::vector<std::uint32_t> component_index_;  // by ComponentId: its index in name order
    std::vector<std::uint32_t> components_;       // the used ComponentIds in name order
    std::vector<std::uint32_t> columns_;          // one table's column slots in index order
    std::vector<std::uint32_t> run_starts_;       // one table's runs of rows
    std::vector<std::uint32_t> relations_;        // relations with pairs, in name order
};

}  // namespace ecsia
