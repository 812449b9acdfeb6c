#pragma once
// Checks shared by the core tests: what "the world did not change" means (G5), how to tell which
// ErrorCode an operation threw, and readable printing of handles and codes in Catch2 messages.

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "ecsia/base/hash.hpp"
#include "ecsia/ecsia.hpp"
#include "ecsia/snapshot/snapshot_access.hpp"

namespace test {

// Everything a rejected operation must leave alone: the logical state (state_hash), the entity
// count, the table set and column memory (storage generation), the tick, and what state_hash does
// not see but a later spawn depends on: every slot's generation and state (free, reserved, alive,
// retired) and the free list's order, read through the snapshot layer's access (the world may be
// in a wave or hold reservations, where a snapshot itself is refused).
struct WorldFingerprint {
    std::uint64_t state_hash = 0;
    std::uint64_t bookkeeping = 0;
    std::uint32_t alive_count = 0;
    std::uint32_t table_count = 0;
    std::uint64_t storage_generation = 0;
    ecsia::Tick tick = 0;

    friend bool operator==(const WorldFingerprint&, const WorldFingerprint&) = default;
};

inline std::uint64_t entity_bookkeeping(const ecsia::World& world) {
    const ecsia::EntityPool& pool = ecsia::SnapshotAccess::pool(world);
    ecsia::StateHasher hasher;
    hasher.u32(pool.slot_count());
    for (const auto& slot : ecsia::SnapshotAccess::slots(pool)) {
        hasher.u32(slot.generation);
        hasher.u32(static_cast<std::uint32_t>(slot.state));
    }
    const std::vector<std::uint32_t>& free_list = ecsia::SnapshotAccess::free_indices(pool);
    hasher.u32(static_cast<std::uint32_t>(free_list.size()));
    for (std::uint32_t index : free_list) hasher.u32(index);
    hasher.u32(static_cast<std::uint32_t>(ecsia::SnapshotAccess::pending_changes(world).size()));
    return hasher.value();
}

inline WorldFingerprint fingerprint(const ecsia::World& world) {
    return WorldFingerprint{ecsia::state_hash(world), entity_bookkeeping(world), world.alive_count(),
                            world.tables().table_count(), world.storage_generation(), world.tick()};
}

// The name of the ErrorCode `fn` threw, or "no error". Other exception types propagate, so a
// std::bad_alloc or a Catch failure is not mistaken for a clean rejection.
template <typename Fn>
std::string thrown_code(Fn&& fn) {
    try {
        fn();
    } catch (const ecsia::Error& error) {
        return ecsia::to_string(error.code());
    }
    return "no error";
}

// The message of the ecsia::Error `fn` threw, or "" when it did not throw one.
template <typename Fn>
std::string thrown_message(Fn&& fn) {
    try {
        fn();
    } catch (const ecsia::Error& error) {
        return error.what();
    }
    return "";
}

// Scheduler options for tests: `workers` threads, batches of `batch_rows` rows (small, so that a
// few hundred entities make many batches).
inline ecsia::SchedulerOptions with_workers(std::uint32_t workers, std::uint32_t batch_rows = 16) {
    ecsia::SchedulerOptions options;
    options.workers = workers;
    options.batch_rows = batch_rows;
    return options;
}

// The entities' handle bits, sorted: a set of entities to compare regardless of order.
inline std::vector<std::uint32_t> sorted_bits(const std::vector<ecsia::Entity>& entities) {
    std::vector<std::uint32_t> bits;
    for (ecsia::Entity e : entities) bits.push_back(e.bits);
    std::sort(bits.begin(), bits.end());
    return bits;
}

}  // namespace test

// Checks that the statement throws ecsia::Error with `code` and leaves the world as it was. Uses
// CHECK, not REQUIRE, so a loop over many bad inputs reports every one that is not rejected.
#define ECSIA_REQUIRE_REJECTED(world, code, ...)                                                    \
    do {                                                                                            \
        const ::test::WorldFingerprint ecsia_before_ = ::test::fingerprint(world);                  \
        CHECK(::test::thrown_code([&] { __VA_ARGS__; }) == std::string(::ecsia::to_string(code))); \
        CHECK(::test::fingerprint(world) == ecsia_before_);                                         \
    } while (false)

namespace Catch {
template <>
struct StringMaker<ecsia::Entity> {
    static std::string convert(ecsia::Entity e) {
        if (e.is_null()) return "Entity(null)";
        std::ostringstream out;
        out << "Entity(0x" << std::hex << e.bits << ")";
        return out.str();
    }
};
template <>
struct StringMaker<ecsia::ErrorCode> {
    static std::string convert(ecsia::ErrorCode code) { return ecsia::to_string(code); }
};
template <>
struct StringMaker<test::WorldFingerprint> {
    static std::string convert(const test::WorldFingerprint& f) {
        std::ostringstream out;
        out << "{hash " << std::hex << f.state_hash << ", bookkeeping " << f.bookkeeping << std::dec << ", alive " << f.alive_count << ", tables "
            << f.table_count << ", storage generation " << f.storage_generation << ", tick " << f.tick << "}";
        return out.str();
    }
};
}  // namespace Catch

namespace test {

// A QueryDesc from its with / without / optional terms (brace-initialising QueryDesc directly
// trips -Wmissing-field-initializers for the terms left out).
inline ecsia::QueryDesc query_terms(std::vector<ecsia::ComponentId> with, std::vector<ecsia::ComponentId> without = {},
                                    std::vector<ecsia::ComponentId> optional = {}) {
    ecsia::QueryDesc desc;
    desc.with = std::move(with);
    desc.without = std::move(without);
    desc.optional = std::move(optional);
    return desc;
}

}  // namespace test
