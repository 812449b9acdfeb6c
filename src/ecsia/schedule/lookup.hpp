#pragma once
// Lookup<T>: a kernel's reader of one looked-up component, for loops of many lookups. Made by
// KernelContext::lookup_of<T>(id), which checks once what ctx.lookup checks on every call (the
// system declares `id` in its lookups; T is the component's size). It answers like ctx.lookup,
// from its own memo (lookup_memo.hpp) held by value: a local of the kernel, so the compiler keeps
// the memo in registers across the loop, where ctx.lookup reloads it from the context on every
// call (natively a quarter less time a lookup in a loop of random targets: docs/PERFORMANCE.md).
// Valid during the kernel call that made it, on its thread.

#include <type_traits>

#include "ecsia/entity/entity.hpp"
#include "ecsia/schedule/lookup_memo.hpp"

namespace ecsia {

class KernelContext;

template <typename T>
class Lookup {
    static_assert(std::is_trivially_copyable_v<T>, "a component's value is read as bytes");

public:
    // `entity`'s value, as the waves before this one left it: nullptr when `entity` is not alive
    // (despawned, stale, pending, null) or lacks the component, never another entity's data (G4).
    const T* get(Entity entity) const noexcept { return reinterpret_cast<const T*>(memo_.find(entity)); }

private:
    friend class KernelContext;
    explicit Lookup(const LookupMemo& memo) noexcept : memo_(memo) {}

    LookupMemo memo_;
};

}  // namespace ecsia
