#pragma once
// sin, cos and exp written out in plain IEEE arithmetic, so the built-in workloads compute the same
// bits natively and in wasm (the two platforms' libm differ; DESIGN.md G1). Accurate to ~1e-6 over
// the ranges the workloads use, which is all a benchmark kernel needs.

#include <cstdint>

namespace ecsia::builtin {

inline float det_sin(float x) {
    // Reduce to [-pi, pi], then an odd polynomial (Taylor to x^11 is enough after reduction).
    constexpr float kTwoPi = 6.28318530717958647692f;
    constexpr float kInvTwoPi = 0.15915494309189533577f;
    const float turns = x * kInvTwoPi;
    const float whole = static_cast<float>(static_cast<std::int32_t>(turns + (turns >= 0 ? 0.5f : -0.5f)));
    const float r = x - whole * kTwoPi;
    const float r2 = r * r;
    return r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880 + r2 * (-1.0f / 39916800))))));
}

inline float det_cos(float x) { return det_sin(x + 1.57079632679489661923f); }

inline float det_exp(float x) {
    // Clamp, split into 2^k * e^r with |r| <= ln2/2, polynomial for e^r, scale by exponent bits.
    if (x > 80.0f) x = 80.0f;
    if (x < -80.0f) x = -80.0f;
    constexpr float kLn2 = 0.69314718055994530942f;
    const float kf = x / kLn2;
    const auto k = static_cast<std::int32_t>(kf + (kf >= 0 ? 0.5f : -0.5f));
    const float r = x - static_cast<float>(k) * kLn2;
    const float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720))))));
    union {
        std::uint32_t bits;
        float value;
    } scale{static_cast<std::uint32_t>(k + 127) << 23};
    return p * scale.value;
}

// splitmix64: a seeded, stateless-per-call generator so random choices depend on (seed, frame,
// entity), never on batching or threads.
inline std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
inline std::uint64_t mix(std::uint64_t a, std::uint64_t b, std::uint64_t c = 0) { return mix(mix(mix(a) ^ b) ^ c); }
// A float in [0, 1) from a hash.
inline float unit(std::uint64_t h) { return static_cast<float>(h >> 40) * (1.0f / 16777216.0f); }

}  // namespace ecsia::builtin
