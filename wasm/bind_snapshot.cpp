// EMSCRIPTEN_BINDINGS(ecsia_snapshot): the raw side of world.snapshot() and world.restore(bytes)
// (web/world.js). A snapshot crosses into JS with one copy: the ranges of SnapshotSegments
// (owned header and counts, and the world's own rows, tick arrays and column values) are copied by
// JS straight into the Uint8Array it returns; a restore copies the caller's bytes into one reused
// heap buffer and restores from there.
//
//   snapshotRanges(world)          -> { size, ranges, count }: `count` (address, bytes) u32 pairs
//                                     at heap address `ranges`, `size` bytes in all. Valid until the
//                                     next call or the next change to the world.
//   snapshotRestoreBuffer(size)    -> the heap address of `size` bytes to copy a snapshot into
//                                     (valid until the next call; the heap may have grown)
//   snapshotRestore(world, size)   restores the world from the first `size` bytes of that buffer
// Thread rule: the page's main thread, serial phase (between frames).
#include <emscripten/bind.h>

#include <cstdint>
#include <span>
#include <vector>

#include "ecsia/snapshot/snapshot.hpp"
#include "js_error.hpp"
#include "world_binding.hpp"

using emscripten::val;

namespace ecsia::wasm {

namespace {

// One of each per module: only the page's main thread calls these, and each result is consumed
// before the next call.
SnapshotSegments& segments() {
    static SnapshotSegments instance;
    return instance;
}
std::vector<std::uint32_t>& range_words() {
    static std::vector<std::uint32_t> instance;
    return instance;
}
std::vector<std::byte>& restore_buffer() {
    static std::vector<std::byte> instance;
    return instance;
}

std::uint32_t address(const void* p) { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p)); }

val snapshot_ranges(WorldBinding& world) {
    return rethrow_as_js([&] {
        SnapshotSegments& taken = segments();
        taken.take(world.world());
        std::vector<std::uint32_t>& words = range_words();
        words.clear();
        for (const SnapshotSegments::Range& range : taken.ranges()) {
            words.push_back(address(range.data));
            words.push_back(static_cast<std::uint32_t>(range.size));
        }
        val out = val::object();
        out.set("size", static_cast<double>(taken.size()));
        out.set("ranges", address(words.data()));
        out.set("count", static_cast<std::uint32_t>(taken.ranges().size()));
        return out;
    });
}

std::uint32_t snapshot_restore_buffer(std::uint32_t size) {
    return rethrow_as_js([&] {
        std::vector<std::byte>& buffer = restore_buffer();
        buffer.resize(size);
        return address(buffer.data());
    });
}

void snapshot_restore(WorldBinding& world, std::uint32_t size) {
    rethrow_as_js([&] {
        std::vector<std::byte>& buffer = restore_buffer();
        if (size > buffer.size()) throw Error(ErrorCode::BadValue, "restore of more bytes than were copied in");
        restore(world.world(), std::span<const std::byte>(buffer.data(), size));
    });
}

}  // namespace

}  // namespace ecsia::wasm

EMSCRIPTEN_BINDINGS(ecsia_snapshot) {
    emscripten::function("snapshotRanges", &ecsia::wasm::snapshot_ranges);
    emscripten::function("snapshotRestoreBuffer", &ecsia::wasm::snapshot_restore_buffer);
    emscripten::function("snapshotRestore", &ecsia::wasm::snapshot_restore);
}
