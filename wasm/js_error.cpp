#include "js_error.hpp"

#include <emscripten.h>

#include <cstring>

// clang-format off
EM_JS(void, ecsia_throw_js_error, (const char* code, const char* message), {
    var error = new Error(UTF8ToString(message));
    error.code = UTF8ToString(code);
    throw error;
});
// clang-format on

namespace ecsia::wasm {

namespace {

struct ErrorSlot {
    char code[32];
    char message[1024];
};
thread_local ErrorSlot error_slot;

void copy_truncated(char* out, std::size_t capacity, const char* text) noexcept {
    std::strncpy(out, text, capacity - 1);
    out[capacity - 1] = '\0';
}

}  // namespace

void throw_js_error(const char* code, const char* message) {
    ecsia_throw_js_error(code, message);
    __builtin_unreachable();
}

namespace detail {

void stash_error(const char* code, const char* message) noexcept {
    copy_truncated(error_slot.code, sizeof error_slot.code, code);
    copy_truncated(error_slot.message, sizeof error_slot.message, message);
}

void stash_exception(const std::exception& error) noexcept {
    if (const auto* engine = dynamic_cast<const Error*>(&error)) {
        stash_error(to_string(engine->code()), engine->what());
    } else if (dynamic_cast<const std::bad_alloc*>(&error) != nullptr) {
        stash_error("OutOfMemory", "OutOfMemory: the wasm heap cannot grow any further");
    } else {
        stash_error("InternalError", error.what());
    }
}

void throw_stashed_error() { throw_js_error(error_slot.code, error_slot.message); }

}  // namespace detail
}  // namespace ecsia::wasm

extern "C" {

// The last failed C export's error (js_error.hpp), as C strings: its ErrorCode's name, and the
// engine's message ("StaleEntity: entity 0x... is not alive: ...").
EMSCRIPTEN_KEEPALIVE const char* ecsia_error_code() { return ecsia::wasm::error_slot.code; }
EMSCRIPTEN_KEEPALIVE const char* ecsia_error_message() { return ecsia::wasm::error_slot.message; }

}  // extern "C"
