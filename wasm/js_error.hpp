#pragma once
// C++ errors become JS exceptions at the Embind boundary. A binding wraps its body in
// rethrow_as_js(); an ecsia::Error (or any std::exception) becomes a JS `Error` whose message is
// the C++ message ("UnknownComponent: no component named 'foo'") and whose `.code` is the
// ErrorCode's name. The engine guarantees the operation changed nothing (G5).
//
// The JS exception is thrown only after the C++ exception object and every local of the guarded
// call are destroyed, because a JS exception unwinds wasm frames without running destructors.
// It does not restore the wasm stack pointer either: the JS layer (web/ecsia.js) saves it before
// each call into a binding and restores it when one throws.
// Thread rule: the thread that called the binding (the page's main thread).

#include <exception>
#include <new>
#include <type_traits>

#include "ecsia/base/error.hpp"

namespace ecsia::wasm {

// Throws `new Error(message)` with `.code = code` in JS. Never returns.
[[noreturn]] void throw_js_error(const char* code, const char* message);

namespace detail {
// Copies the message into a per-thread buffer that outlives the C++ exception.
void stash_error(const char* code, const char* message) noexcept;
[[noreturn]] void throw_stashed_error();
}  // namespace detail

template <typename Fn>
auto rethrow_as_js(Fn&& fn) -> std::invoke_result_t<Fn&> {
    try {
        return fn();
    } catch (const Error& error) {
        detail::stash_error(to_string(error.code()), error.what());
    } catch (const std::bad_alloc&) {
        detail::stash_error("OutOfMemory", "OutOfMemory: the wasm heap cannot grow any further");
    } catch (const std::exception& error) {
        detail::stash_error("InternalError", error.what());
    }
    detail::throw_stashed_error();
}

}  // namespace ecsia::wasm
