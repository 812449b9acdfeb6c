#pragma once
// A seeded generator for property tests. splitmix64 rather than <random>'s distributions, whose
// output differs between standard libraries: a failing seed must replay the same way natively and
// in the wasm build.

#include <cstdint>
#include <utility>
#include <vector>

namespace test {

class Rng {
public:
    explicit Rng(std::uint64_t seed) noexcept : state_(seed) {}

    std::uint64_t next() noexcept {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n); 0 when n is 0.
    std::uint32_t below(std::uint64_t n) noexcept { return n == 0 ? 0 : static_cast<std::uint32_t>(next() % n); }
    bool chance(std::uint32_t percent) noexcept { return below(100) < percent; }
    template <typename T>
    const T& pick(const std::vector<T>& items) noexcept {
        return items[below(items.size())];
    }
    template <typename T>
    void shuffle(std::vector<T>& items) noexcept {
        for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
    }

private:
    std::uint64_t state_;
};

}  // namespace test
