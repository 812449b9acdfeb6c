// same_bytes() (restore's compare of the entity rows) against memcmp: random sizes and unaligned
// starts, and a single differing byte at every position of a range that spans several runs.

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include "ecsia/snapshot/same_bytes.hpp"

TEST_CASE("same_bytes agrees with memcmp, wherever the ranges start and whatever differs", "[snapshot][same_bytes]") {
    std::mt19937 rng(5);
    std::vector<std::byte> a(5000), b(5000);
    for (int trial = 0; trial < 2000; ++trial) {
        const std::size_t size = rng() % 2 ? rng() % 200 : rng() % 4000;
        const std::size_t at_a = rng() % 16, at_b = rng() % 16;
        for (std::size_t i = 0; i < size; ++i) a[at_a + i] = b[at_b + i] = std::byte(rng() % 4);
        if (size > 0 && rng() % 2) b[at_b + rng() % size] ^= std::byte(1u << (rng() % 8));
        INFO("trial " << trial << ", " << size << " bytes");
        CHECK(ecsia::same_bytes(&a[at_a], &b[at_b], size) == (std::memcmp(&a[at_a], &b[at_b], size) == 0));
    }
    const std::size_t size = 2100;  // two whole 1 KB runs, a partial step, a tail
    for (std::size_t i = 0; i < size; ++i) a[i] = b[i + 3] = std::byte(rng());
    CHECK(ecsia::same_bytes(a.data(), &b[3], size));
    std::size_t missed = 0;
    for (std::size_t i = 0; i < size; ++i) {
        b[i + 3] ^= std::byte{0x80};
        missed += ecsia::same_bytes(a.data(), &b[3], size);
        b[i + 3] ^= std::byte{0x80};
    }
    CHECK(missed == 0);
}
