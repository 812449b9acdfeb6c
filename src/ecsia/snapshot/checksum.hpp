#pragma once
// Checksum: the snapshot format's guard against accidental damage (a truncated download, a flipped
// bit), computed over the payload in one streaming pass.
//
// The bytes are read as little-endian 32-bit words (a short tail is zero-padded), dealt round-robin
// to 16 lanes; each lane keeps two 32-bit sums, a += word and b += a (Fletcher's scheme, modulo
// 2^32). `a` catches any change to one word; `b` weighs each word by its distance from the end,
// so swapped, moved or pairwise-cancelling changes show too (all but the ones docs/SNAPSHOT.md
// names). 32-bit lanes make a block of 16 words four vector loads and eight vector adds, nothing
// else (SSE2 natively, wasm SIMD in the browser), so the checksum, and a copy made in the same
// pass, run at about the speed of a copy: why it is not a CRC or a multiply hash
// (docs/SNAPSHOT.md, docs/PERFORMANCE.md). The result mixes every lane and the byte count. Not a
// defence against crafted bytes: restore() bounds-checks and validates everything whatever the
// checksum says.
// Any thread; an instance is single-writer.

#include <cstddef>
#include <cstdint>

namespace ecsia {

class Checksum {
public:
    // Feeds `size` more bytes. The result depends only on the concatenation of all bytes fed,
    // never on how they were split into calls.
    void update(const void* data, std::size_t size) noexcept;
    // The same, copying the bytes to `out` in the same pass (one read of them instead of two).
    void update_copy(void* out, const void* data, std::size_t size) noexcept;
    // The same, comparing the bytes with the `size` bytes at `other` in the same pass: whether
    // they are equal.
    bool update_compare(const void* data, const void* other, std::size_t size) noexcept;
    std::uint64_t value() const noexcept;

private:
    static constexpr std::size_t kLanes = 16;
    static constexpr std::size_t kBlock = kLanes * 4;  // bytes that feed every lane once
    // The three updates: sums `size` bytes at `data`, copying them to `out` or comparing them with
    // `theirs` (at most one of the two) in the same pass; returns whether they equal theirs.
    bool feed(const void* data, std::size_t size, unsigned char* out, const unsigned char* theirs) noexcept;
    // Sums `count` whole blocks at p; with `out`, also copies them there; with `compare` (not with
    // `out`), also compares them with the blocks there, and returns whether they are equal (else true).
    bool blocks(const unsigned char* p, std::size_t count, unsigned char* out, const unsigned char* compare = nullptr) noexcept;

    std::uint32_t a_[kLanes] = {};
    std::uint32_t b_[kLanes] = {};
    unsigned char pending_[kBlock] = {};  // a partial block waiting for more bytes
    std::size_t pending_size_ = 0;
    std::uint64_t total_ = 0;  // bytes fed
};

// The checksum of one contiguous range.
std::uint64_t checksum(const void* data, std::size_t size) noexcept;

}  // namespace ecsia
