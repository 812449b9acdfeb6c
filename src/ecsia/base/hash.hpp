#pragma once
// A small, portable 64-bit hash (FNV-1a over bytes, fed in a fixed little-endian order) so that
// stateHash() is the same natively and in wasm. Not for hash tables; for identity of world state.

#include <cstddef>
#include <cstdint>

namespace ecsia {

class StateHasher {
public:
    void bytes(const void* data, std::size_t size) noexcept {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < size; ++i) {
            state_ ^= p[i];
            state_ *= kPrime;
        }
    }
    void u32(std::uint32_t value) noexcept {
        unsigned char le[4] = {static_cast<unsigned char>(value), static_cast<unsigned char>(value >> 8),
                               static_cast<unsigned char>(value >> 16), static_cast<unsigned char>(value >> 24)};
        bytes(le, 4);
    }
    std::uint64_t value() const noexcept { return state_; }

private:
    static constexpr std::uint64_t kPrime = 0x100000001b3ull;
    std::uint64_t state_ = 0xcbf29ce484222325ull;
};

}  // namespace ecsia
