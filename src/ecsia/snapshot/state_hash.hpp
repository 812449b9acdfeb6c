#pragma once
// The snapshot layer: identity of world state. state_hash() is the tool behind G1.

#include <cstdint>
#include <string>

namespace ecsia {

class World;

// A 64-bit hash of the logical state: live handles in index order, and for each its components
// (in name order: their names and field bytes, field by field, so padding never counts). Equal for
// two worlds with the same entities and values, whatever their table history or the order their
// components were registered in.
// Serial phase only.
std::uint64_t state_hash(const World& world);
// The hash as 16 lowercase hex digits (what the JS API returns).
std::string state_hash_hex(const World& world);

}  // namespace ecsia
