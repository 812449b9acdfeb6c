#pragma once
// Where a looked-up component's column lies in each table, by table index, for a wave's lookups
// (LookupMemo): an entity's location then gives its element with one more load and no branch on
// which table it is in, so targets spread over many tables cost what targets in one table do.
// The scheduler refreshes the components its wave's systems look up in the serial phase before
// the wave; the wave's kernels read them on any thread: nothing structural changes during a
// wave (changes wait for its merge), so no table is made and no column moves while they read.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ecsia/base/ids.hpp"

namespace ecsia {

class World;

// One component's columns: the first element of its column in table t is by_table[t] (nullptr
// when table t lacks the component; a tag, which has no bytes, is never looked up), its elements
// element_size bytes apart.
struct LookupColumns {
    const std::byte* const* by_table = nullptr;
    std::uint32_t element_size = 0;
};

class LookupColumnCache {
public:
    // Makes of(id) true of `world` as it is now. Serial phase. Rebuilt only when a table was made
    // or a column moved since the last refresh of `id` (the world's storage generation).
    void refresh(const World& world, ComponentId id);
    // Whether refresh() ever made columns of `id` (of() is only for those).
    bool covers(ComponentId id) const noexcept {
        return id < by_component_.size() && by_component_[id].generation != kNever;
    }
    // After refresh(world, id), until the world's next structural change.
    LookupColumns of(ComponentId id) const noexcept {
        const Entry& entry = by_component_[id];
        return LookupColumns{entry.by_table.data(), entry.element_size};
    }

private:
    static constexpr std::uint64_t kNever = ~std::uint64_t{0};  // a generation no world reaches
    struct Entry {
        std::uint64_t generation = kNever;
        std::vector<const std::byte*> by_table;
        std::uint32_t element_size = 0;
    };
    std::vector<Entry> by_component_;
};

}  // namespace ecsia
