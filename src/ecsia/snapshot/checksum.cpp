#include "ecsia/snapshot/checksum.hpp"

#include <cstring>

namespace ecsia {

namespace {

inline std::uint32_t load_le32(const unsigned char* p) noexcept {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

// splitmix64's finaliser: spreads every input bit over the whole word.
inline std::uint64_t mix(std::uint64_t x) noexcept {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

}  // namespace

void Checksum::blocks(const unsigned char* p, std::size_t count) noexcept {
    // Local copies so the compiler keeps the lanes in registers and vectorises the inner loop.
    std::uint64_t a[kLanes];
    std::uint64_t b[kLanes];
    for (std::size_t k = 0; k < kLanes; ++k) {
        a[k] = a_[k];
        b[k] = b_[k];
    }
    for (std::size_t block = 0; block < count; ++block, p += kBlock) {
        for (std::size_t k = 0; k < kLanes; ++k) {
            // memcpy, not load_le32: one plain load (both targets are little-endian, see
            // snapshot_format.hpp), which the vectoriser turns into one vector load.
            std::uint32_t word;
            std::memcpy(&word, p + 4 * k, 4);
            a[k] += word;
            b[k] += a[k];
        }
    }
    for (std::size_t k = 0; k < kLanes; ++k) {
        a_[k] = a[k];
        b_[k] = b[k];
    }
}

void Checksum::update(const void* data, std::size_t size) noexcept {
    const auto* p = static_cast<const unsigned char*>(data);
    total_ += size;
    if (pending_size_ > 0) {
        const std::size_t take = size < kBlock - pending_size_ ? size : kBlock - pending_size_;
        std::memcpy(pending_ + pending_size_, p, take);
        pending_size_ += take;
        p += take;
        size -= take;
        if (pending_size_ < kBlock) return;
        blocks(pending_, 1);
        pending_size_ = 0;
    }
    const std::size_t whole = size / kBlock;
    blocks(p, whole);
    p += whole * kBlock;
    size -= whole * kBlock;
    std::memcpy(pending_, p, size);
    pending_size_ = size;
}

std::uint64_t Checksum::value() const noexcept {
    std::uint64_t a[kLanes];
    std::uint64_t b[kLanes];
    for (std::size_t k = 0; k < kLanes; ++k) {
        a[k] = a_[k];
        b[k] = b_[k];
    }
    // The tail: whole words, then the last partial word zero-padded; words go on round-robin.
    for (std::size_t offset = 0, k = 0; offset < pending_size_; offset += 4, ++k) {
        unsigned char word[4] = {0, 0, 0, 0};
        std::memcpy(word, pending_ + offset, pending_size_ - offset < 4 ? pending_size_ - offset : 4);
        a[k] += load_le32(word);
        b[k] += a[k];
    }
    std::uint64_t h = mix(total_ ^ 0x45435349414e5053ull);
    for (std::size_t k = 0; k < kLanes; ++k) {
        h = mix(h ^ a[k]);
        h = mix(h ^ b[k]);
    }
    return h;
}

std::uint64_t checksum(const void* data, std::size_t size) noexcept {
    Checksum sum;
    sum.update(data, size);
    return sum.value();
}

}  // namespace ecsia
