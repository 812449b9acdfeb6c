#pragma once
// How C++ errors reach JS: every failure carries the engine's own ErrorCode name and message
// (ecsia::Error, worded once, in the core), and the engine guarantees the operation changed
// nothing (G5). Two ways across the boundary:
//
//  - The C exports (world_fast.cpp) never throw: they return a status, and on failure the error
//    waits in this thread's error slot, which JS reads only then (ecsia_error_code() and
//    ecsia_error_message(), C exports returning C strings). capture_error() fills it.
//  - The Embind methods throw a JS `Error` whose message is the C++ message
//    ("UnknownComponent: no component named 'foo'") and whose `.code` is the code's name:
//    Guarded<&Class::method>::call wraps a method for emscripten::class_, rethrow_as_js a body.
//    The JS exception is thrown only after the C++ exception object and every local of the
//    guarded call are destroyed, because a JS exception unwinds wasm frames without running
//    destructors. It does not restore the wasm stack pointer either: the JS layer
//    (web/internal/engine.js, Engine.call) saves it before each Embind call and restores it when
//    one throws.
//
// Exceptions here are JS-based: every call made inside a try block goes through JS. So a try
// block only ever surrounds one call into a function that does the work (one round trip), never
// a loop, and the per-entity exports keep try blocks off their successful path entirely.
// Thread rule: the thread that called the binding (the page's main thread).

#include <exception>
#include <new>
#include <type_traits>

#include "ecsia/base/error.hpp"

namespace ecsia::wasm {

// Throws `new Error(message)` with `.code = code` in JS. Never returns.
[[noreturn]] void throw_js_error(const char* code, const char* message);

namespace detail {
// Copies code and message into this thread's error slot, which outlives the C++ exception.
void stash_error(const char* code, const char* message) noexcept;
// The slot filled from an exception: an ecsia::Error's code, OutOfMemory, or InternalError.
void stash_exception(const std::exception& error) noexcept;
[[noreturn]] void throw_stashed_error();
}  // namespace detail

// Runs fn(); true when it returned, false when it threw (the error is then in the slot). The one
// try block of a C export's failure or bulk path.
template <typename Fn>
[[gnu::noinline]] bool capture_error(Fn&& fn) noexcept {
    try {
        fn();
        return true;
    } catch (const std::exception& error) {
        detail::stash_exception(error);
    } catch (...) {
        detail::stash_error("InternalError", "InternalError: an exception that is not a std::exception");
    }
    return false;
}

template <typename Fn>
auto rethrow_as_js(Fn&& fn) -> std::invoke_result_t<Fn&> {
    try {
        return fn();
    } catch (const std::exception& error) {
        detail::stash_exception(error);
    }
    detail::throw_stashed_error();
}

// Embind's view of a member function that throws ecsia::Error: the same function, throwing a JS
// Error instead (for .function("name", &Guarded<&Class::method>::call)).
template <auto Method>
struct Guarded;

template <typename C, typename R, typename... A, R (C::*Method)(A...)>
struct Guarded<Method> {
    static R call(C& self, A... args) {
        return rethrow_as_js([&]() -> R { return (self.*Method)(args...); });
    }
};

template <typename C, typename R, typename... A, R (C::*Method)(A...) const>
struct Guarded<Method> {
    static R call(const C& self, A... args) {
        return rethrow_as_js([&]() -> R { return (self.*Method)(args...); });
    }
};

}  // namespace ecsia::wasm
