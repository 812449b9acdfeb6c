#include "ecsia/snapshot/checksum.hpp"

#include <cstring>

#include "ecsia/base/little_endian.hpp"
#include "ecsia/base/u32x4.hpp"

namespace ecsia {

namespace {

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

using simd::U32x4;

bool Checksum::blocks(const unsigned char* p, std::size_t count, unsigned char* out, const unsigned char* compare) noexcept {
    // A block is four vectors of four little-endian words; vector i holds lanes 4i..4i+3, so every
    // sum is one vector add (a load, a store when copying, two adds per 16 bytes). Four
    // independent vectors keep the adds of a block off each other's results; more (32 lanes) ran
    // slower in V8, fewer as well.
    constexpr int kVectors = kLanes / 4;
    U32x4 a[kVectors], b[kVectors];
    for (int i = 0; i < kVectors; ++i) {
        a[i] = simd::load_u32x4(a_ + 4 * i);
        b[i] = simd::load_u32x4(b_ + 4 * i);
    }
    U32x4 differs = simd::splat_u32x4(0);
    auto sum = [&](const unsigned char* at, unsigned char* copy_to, const unsigned char* other) {
        for (int i = 0; i < kVectors; ++i) {
            const U32x4 words = simd::load_u32x4(at + 16 * i);
            if (copy_to != nullptr) std::memcpy(copy_to + 16 * i, &words, 16);
            if (other != nullptr) {
                const U32x4 theirs = simd::load_u32x4(other + 16 * i);
                differs |= words ^ theirs;
            }
            a[i] += words;
            b[i] += a[i];
        }
    };
    // One loop per use, so that none tests for the others inside.
    if (compare != nullptr) {
        for (std::size_t block = 0; block < count; ++block, p += kBlock, compare += kBlock) sum(p, nullptr, compare);
    } else if (out == nullptr) {
        for (std::size_t block = 0; block < count; ++block, p += kBlock) sum(p, nullptr, nullptr);
    } else {
        for (std::size_t block = 0; block < count; ++block, p += kBlock, out += kBlock) sum(p, out, nullptr);
    }
    for (int i = 0; i < kVectors; ++i) {
        std::memcpy(a_ + 4 * i, &a[i], 16);
        std::memcpy(b_ + 4 * i, &b[i], 16);
    }
    return (differs[0] | differs[1] | differs[2] | differs[3]) == 0;
}

void Checksum::update(const void* data, std::size_t size) noexcept { feed(data, size, nullptr, nullptr); }

void Checksum::update_copy(void* out, const void* data, std::size_t size) noexcept { feed(data, size, static_cast<unsigned char*>(out), nullptr); }

bool Checksum::update_compare(const void* data, const void* other, std::size_t size) noexcept {
    return feed(data, size, nullptr, static_cast<const unsigned char*>(other));
}

bool Checksum::feed(const void* data, std::size_t size, unsigned char* out, const unsigned char* theirs) noexcept {
    if (size == 0) return true;  // no bytes: `data` may be null (an empty vector's), which memcpy must not get
    const auto* p = static_cast<const unsigned char*>(data);
    bool same = true;
    total_ += size;
    // Copies or compares `n` bytes at p the way the whole blocks are, and moves past them.
    const auto pass = [&](std::size_t n) {
        if (out != nullptr) {
            std::memcpy(out, p, n);
            out += n;
        }
        if (theirs != nullptr) {
            same = same && std::memcmp(p, theirs, n) == 0;
            theirs += n;
        }
    };
    if (pending_size_ > 0) {
        const std::size_t take = size < kBlock - pending_size_ ? size : kBlock - pending_size_;
        std::memcpy(pending_ + pending_size_, p, take);
        pass(take);
        pending_size_ += take;
        p += take;
        size -= take;
        if (pending_size_ < kBlock) return same;
        blocks(pending_, 1, nullptr);
        pending_size_ = 0;
    }
    const std::size_t whole = size / kBlock;
    same = blocks(p, whole, out, theirs) && same;
    if (out != nullptr) out += whole * kBlock;
    if (theirs != nullptr) theirs += whole * kBlock;
    p += whole * kBlock;
    size -= whole * kBlock;
    pass(size);
    std::memcpy(pending_, p, size);
    pending_size_ = size;
    return same;
}

std::uint64_t Checksum::value() const noexcept {
    std::uint32_t a[kLanes];
    std::uint32_t b[kLanes];
    for (std::size_t k = 0; k < kLanes; ++k) {
        a[k] = a_[k];
        b[k] = b_[k];
    }
    // The tail: whole words, then the last partial word zero-padded; words go on round-robin.
    for (std::size_t offset = 0, k = 0; offset < pending_size_; offset += 4, ++k) {
        unsigned char word[4] = {0, 0, 0, 0};
        std::memcpy(word, pending_ + offset, pending_size_ - offset < 4 ? pending_size_ - offset : 4);
        a[k] += little_endian::load_u32(word);
        b[k] += a[k];
    }
    std::uint64_t h = mix(total_ ^ 0x45435349414e5053ull);
    for (std::size_t k = 0; k < kLanes; ++k) h = mix(h ^ (std::uint64_t(b[k]) << 32 | a[k]));
    return h;
}

std::uint64_t checksum(const void* data, std::size_t size) noexcept {
    Checksum sum;
    sum.update(data, size);
    return sum.value();
}

}  // namespace ecsia
