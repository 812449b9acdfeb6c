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

struct StashedError {
    char code[32];
    char message[1024];
};
thread_local StashedError stashed;

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
    copy_truncated(stashed.code, sizeof stashed.code, code);
    copy_truncated(stashed.message, sizeof stashed.message, message);
}

void throw_stashed_error() { throw_js_error(stashed.code, stashed.message); }

}  // namespace detail
}  // namespace ecsia::wasm
