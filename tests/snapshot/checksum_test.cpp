// The snapshot checksum against its description in docs/SNAPSHOT.md ("The checksum"): a scalar
// model written from the doc, compared with the vectorised code over random bytes fed in random
// pieces; and what the doc says it catches for certain (every flipped bit, every truncation and
// extension, every swap of two different words in different lanes), and the one blind spot it
// names (a same-lane swap whose difference times distance is a multiple of 2^32).

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "ecsia/snapshot/checksum.hpp"

namespace {

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

// docs/SNAPSHOT.md, word for word: little-endian u32 words (the last zero-padded), lane i mod 16,
// a += w, b += a modulo 2^32, then the fold over n and the 16 (b << 32 | a).
std::uint64_t model(const std::vector<unsigned char>& bytes) {
    std::uint32_t a[16] = {}, b[16] = {};
    for (std::size_t i = 0; 4 * i < bytes.size(); ++i) {
        std::uint32_t w = 0;
        for (std::size_t j = 0; j < 4 && 4 * i + j < bytes.size(); ++j) w |= std::uint32_t(bytes[4 * i + j]) << (8 * j);
        a[i % 16] += w;
        b[i % 16] += a[i % 16];
    }
    std::uint64_t h = mix(std::uint64_t(bytes.size()) ^ 0x45435349414e5053ull);
    for (int k = 0; k < 16; ++k) h = mix(h ^ (std::uint64_t(b[k]) << 32 | a[k]));
    return h;
}

std::vector<unsigned char> random_bytes(std::mt19937& rng, std::size_t size) {
    std::vector<unsigned char> out(size);
    for (auto& byte : out) byte = static_cast<unsigned char>(rng());
    return out;
}

std::uint64_t of(const std::vector<unsigned char>& bytes) { return ecsia::checksum(bytes.data(), bytes.size()); }

}  // namespace

TEST_CASE("the checksum is the one docs/SNAPSHOT.md describes, however the bytes are fed", "[snapshot][checksum]") {
    std::mt19937 rng(20261201);
    for (int trial = 0; trial < 400; ++trial) {
        const std::size_t size = trial < 300 ? rng() % 700 : 40'000 + rng() % 3000;
        const std::vector<unsigned char> bytes = random_bytes(rng, size);
        const std::uint64_t expected = model(bytes);
        INFO("trial " << trial << ", " << size << " bytes");
        CHECK(of(bytes) == expected);
        // The same bytes in random pieces, half of them through the copying update.
        ecsia::Checksum sum;
        std::vector<unsigned char> copy(size, 0);
        for (std::size_t at = 0; at < size;) {
            const std::size_t piece = std::min<std::size_t>(size - at, rng() % 4 == 0 ? rng() % 300 : rng() % 9);
            if (rng() % 2) sum.update_copy(copy.data() + at, bytes.data() + at, piece);
            else {
                sum.update(bytes.data() + at, piece);
                std::memcpy(copy.data() + at, bytes.data() + at, piece);
            }
            at += piece;
        }
        CHECK(sum.value() == expected);
        CHECK(copy == bytes);
        // And through the comparing update, against the bytes with one changed (or none): the sum
        // is the same, and exactly the pieces holding the change compare unequal.
        std::vector<unsigned char> other = bytes;
        const std::size_t changed = size > 0 && rng() % 4 != 0 ? rng() % size : size;
        if (changed < size) other[changed] ^= static_cast<unsigned char>(1 + rng() % 255);
        ecsia::Checksum compared;
        bool all_as_expected = true;
        for (std::size_t at = 0; at < size;) {
            const std::size_t piece = std::min<std::size_t>(size - at, rng() % 4 == 0 ? rng() % 3000 : rng() % 70);
            const bool same = compared.update_compare(bytes.data() + at, other.data() + at, piece);
            all_as_expected = all_as_expected && same == !(changed >= at && changed < at + piece);
            at += piece;
        }
        CHECK(compared.value() == expected);
        CHECK(all_as_expected);
    }
}

TEST_CASE("the checksum sees every flipped bit, truncation and extension", "[snapshot][checksum]") {
    std::mt19937 rng(7);
    const std::vector<unsigned char> bytes = random_bytes(rng, 1027);
    const std::uint64_t original = of(bytes);
    std::size_t missed = 0;
    for (std::size_t bit = 0; bit < bytes.size() * 8; ++bit) {
        std::vector<unsigned char> damaged = bytes;
        damaged[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
        missed += of(damaged) == original;
    }
    CHECK(missed == 0);
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        missed += of(std::vector<unsigned char>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size))) == original;
    }
    CHECK(missed == 0);
    std::vector<unsigned char> longer = bytes;
    longer.push_back(0);  // a zero byte adds nothing to any sum: only the byte count moves
    CHECK(of(longer) != original);
}

TEST_CASE("the checksum sees every swap of two different words, and has the blind spot the doc names", "[snapshot][checksum]") {
    std::mt19937 rng(11);
    const std::vector<unsigned char> bytes = random_bytes(rng, 1024);
    const std::uint64_t original = of(bytes);
    std::size_t missed = 0, swaps = 0;
    for (std::size_t i = 0; i < bytes.size() / 4; ++i) {
        for (std::size_t j = i + 1; j < bytes.size() / 4; ++j) {
            if (std::memcmp(&bytes[4 * i], &bytes[4 * j], 4) == 0) continue;
            std::vector<unsigned char> swapped = bytes;
            std::memcpy(&swapped[4 * i], &bytes[4 * j], 4);
            std::memcpy(&swapped[4 * j], &bytes[4 * i], 4);
            ++swaps;
            missed += of(swapped) == original;
        }
    }
    CHECK(swaps > 32'000);
    CHECK(missed == 0);

    // v and -v as f32 differ in the top bit only: swapped in one lane an even number of 64-byte
    // blocks apart, b moves by 2^31 * 2 = 0 mod 2^32 and nothing else moves (docs/SNAPSHOT.md);
    // an odd number of blocks apart, b moves by 2^31.
    auto pair = [](std::size_t v_word, std::size_t minus_v_word) {
        std::vector<unsigned char> out(256, 0);
        const float v = 1.5f, minus_v = -1.5f;
        std::memcpy(&out[4 * v_word], &v, 4);
        std::memcpy(&out[4 * minus_v_word], &minus_v, 4);
        return out;
    };
    CHECK(of(pair(0, 32)) == of(pair(32, 0)));  // lane 0, two blocks apart: the blind spot
    CHECK(of(pair(0, 16)) != of(pair(16, 0)));  // lane 0, one block apart
    CHECK(of(pair(0, 1)) != of(pair(1, 0)));    // neighbours: two lanes
}
