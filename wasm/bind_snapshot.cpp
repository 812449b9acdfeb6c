// EMSCRIPTEN_BINDINGS(ecsia_snapshot): the raw side of world.snapshot() and world.restore(bytes)
// (web/internal/snapshot.js). Both cross the heap boundary through one reused heap buffer, copied
// by JS in one TypedArray.set: V8 copies out of shared memory (the threaded build's heap) word by
// word only when source and destination are 8-byte aligned alike, and byte by byte (8x slower)
// otherwise, so a snapshot is assembled here, at the start of the buffer, rather than copied by JS
// range by range to the unaligned offsets the format puts them at.
//
//   snapshotTake(world)            -> the snapshot's byte count; its bytes are at snapshotBuffer()
//                                     (assembled with the checksum computed in the same pass)
//   snapshotRestoreBuffer(size)    -> the heap address of `size` bytes to copy a snapshot into
//   snapshotBuffer()               -> the heap address of that buffer (valid until the next call
//                                     of either; the heap may have grown)
//   snapshotRestore(world, size)   restores the world from the first `size` bytes of that buffer
// Thread rule: the page's main thread, serial phase (between frames).
#include <emscripten/bind.h>

#include <cstdint>
#include <span>
#include <vector>

#include "ecsia/snapshot/snapshot.hpp"
#include "js_error.hpp"
#include "world_binding.hpp"

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

std::uint32_t address(const void* p) { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p)); }

std::uint32_t snapshot_take(WorldBinding& world) {
    return rethrow_as_js([&] {
        SnapshotSegments& taken = segments();
        taken.take(world.world(), /*checksum=*/false);
        std::vector<std::byte>& out = buffer();
        out.resize(taken.size());
        taken.copy_to_sealed(out.data());
        return static_cast<std::uint32_t>(taken.size());
    });
}

std::uint32_t snapshot_buffer() { return address(buffer().data()); }

std::uint32_t snapshot_restore_buffer(std::uint32_t size) {
    return rethrow_as_js([&] {
        std::vector<std::byte>& out = buffer();
        out.resize(size);
        return address(out.data());
    });
}

void snapshot_restore(WorldBinding& world, std::uint32_t size) {
    rethrow_as_js([&] {
        std::vector<std::byte>& in = buffer();
        if (size > in.size()) throw Error(ErrorCode::BadValue, "restore of more bytes than were copied in");
        restore(world.world(), std::span<const std::byte>(in.data(), size));
    });
}

}  // namespace

}  // namespace ecsia::wasm

EMSCRIPTEN_BINDINGS(ecsia_snapshot) {
    emscripten::function("snapshotTake", &ecsia::wasm::snapshot_take);
    emscripten::function("snapshotBuffer", &ecsia::wasm::snapshot_buffer);
    emscripten::function("snapshotRestoreBuffer", &ecsia::wasm::snapshot_restore_buffer);
    emscripten::function("snapshotRestore", &ecsia::wasm::snapshot_restore);
}
