// EMSCRIPTEN_BINDINGS(ecsia_snapshot): the raw side of world.snapshot() and world.restore(bytes)
// (web/internal/snapshot.js). V8 copies out of shared memory (the threaded build's heap) word by
// word only when source and destination are 8-byte aligned alike, and byte by byte (8x slower)
// otherwise. So a snapshot is offered to JS as its ranges, where they lie (the header, counts and
// names SnapshotSegments owns; the world's own row, tick and column memory), to copy one by one
// into the Uint8Array when they line up with it; when they do not, it is assembled here in one
// heap buffer (at the start, 8-aligned like the Uint8Array) and copied out in one set. A restore
// leaves the bytes where they are: the world's SnapshotRestorer pulls each part in as its reader
// reaches it (ecsia_copy_restore_bytes below), each column's values into spare column memory that
// the commit swaps in (snapshot_restorer.hpp).
//
//   snapshotTakeRanges(world)      -> the number of ranges of the world's snapshot, unsealed
//                                     (the header's checksum not yet written); each range is a
//                                     (heap address, byte count) pair of u32 at snapshotRangeTable()
//   snapshotSealRanges()           computes the checksum over those ranges in place and writes it
//                                     into the header range: the ranges are then the snapshot
//   snapshotCopySealed()           -> the snapshot's byte count, assembled (checksum computed in
//                                     the same pass) from those ranges at snapshotBuffer()
//   snapshotBuffer()               -> the heap address of the buffer snapshotCopySealed() fills
//   snapshotRestore(world, size)   restores the world from the `size` bytes of the Uint8Array that
//                                     JS puts at Module.ecsiaRestoreBytes for the call
// Addresses are valid until the next call of any of these or the world next changes (the heap
// may have grown: JS takes the heap's buffer after each call). The ranges point into the world's
// memory: JS copies them before it calls anything else.
// Thread rule: the page's main thread, serial phase (between frames).
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>

#include <cstdint>
#include <vector>

#include "ecsia/snapshot/snapshot.hpp"
#include "ecsia/snapshot/snapshot_restorer.hpp"
#include "js_error.hpp"
#include "world_binding.hpp"

// clang-format off
// Copies bytes [offset, offset + size) of the Uint8Array at Module.ecsiaRestoreBytes to `to`. The
// heap's buffer is taken at each call: a restore's allocations may have grown it.
EM_JS(void, ecsia_copy_restore_bytes, (std::uint32_t offset, std::uint32_t size, std::byte* to), {
    new Uint8Array(wasmMemory.buffer, to, size).set(Module['ecsiaRestoreBytes'].subarray(offset, offset + size));
});
// clang-format on

namespace ecsia::wasm {

namespace {

// One of each per module: only the page's main thread calls these, and each result is consumed
// before the next call.
SnapshotSegments& segments() {
    static SnapshotSegments instance;
    return instance;
}
std::vector<std::byte>& buffer() {
    static std::vector<std::byte> instance;
    return instance;
}

std::vector<std::uint32_t>& range_table() {
    static std::vector<std::uint32_t> instance;
    return instance;
}

std::uint32_t address(const void* p) { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p)); }

std::uint32_t snapshot_take_ranges(WorldBinding& world) {
    return rethrow_as_js([&] {
        SnapshotSegments& taken = segments();
        taken.take(world.world(), /*checksum=*/false);
        std::vector<std::uint32_t>& table = range_table();
        table.clear();
        for (const SnapshotSegments::Range& range : taken.ranges()) {
            table.push_back(address(range.data));
            table.push_back(static_cast<std::uint32_t>(range.size));
        }
        return static_cast<std::uint32_t>(taken.ranges().size());
    });
}

std::uint32_t snapshot_range_table() { return address(range_table().data()); }

void snapshot_seal_ranges() { segments().seal(); }

std::uint32_t copy_sealed() {
    SnapshotSegments& taken = segments();
    std::vector<std::byte>& out = buffer();
    out.resize(taken.size());
    taken.copy_to_sealed(out.data());
    return static_cast<std::uint32_t>(taken.size());
}

std::uint32_t snapshot_copy_sealed() {
    return rethrow_as_js([&] { return copy_sealed(); });
}

std::uint32_t snapshot_buffer() { return address(buffer().data()); }

// The Uint8Array at Module.ecsiaRestoreBytes, `size` bytes, read where it lies. The restorer asks
// only for ranges within it, and the JS side cannot throw (a JS exception would unwind the wasm
// frames without running their destructors).
class RestoreBytes final : public SnapshotSource {
public:
    explicit RestoreBytes(std::uint32_t size) : size_(size) {}
    std::size_t size() const override { return size_; }
    void copy(std::size_t offset, std::size_t size, std::byte* to) override {
        ecsia_copy_restore_bytes(static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(size), to);
    }

private:
    std::uint32_t size_;
};

void snapshot_restore(WorldBinding& world, std::uint32_t size) {
    rethrow_as_js([&] {
        RestoreBytes bytes(size);
        world.restorer().restore(world.world(), bytes);
    });
}

}  // namespace

}  // namespace ecsia::wasm

EMSCRIPTEN_BINDINGS(ecsia_snapshot) {
    emscripten::function("snapshotTakeRanges", &ecsia::wasm::snapshot_take_ranges);
    emscripten::function("snapshotRangeTable", &ecsia::wasm::snapshot_range_table);
    emscripten::function("snapshotSealRanges", &ecsia::wasm::snapshot_seal_ranges);
    emscripten::function("snapshotCopySealed", &ecsia::wasm::snapshot_copy_sealed);
    emscripten::function("snapshotBuffer", &ecsia::wasm::snapshot_buffer);
    emscripten::function("snapshotRestore", &ecsia::wasm::snapshot_restore);
}
