#pragma once
// Reflection for C++ component structs: one macro line per component, at global namespace scope.
//
//   struct Position { float x, y; };
//   ECSIA_COMPONENT(Position, "position", x, y)
//   struct Frozen {};
//   ECSIA_TAG(Frozen, "frozen")
//   struct Hit { ecsia::Entity target; float damage; };
//   ECSIA_TOPIC(Hit, "hit", target, damage)     (a topic's message: World::topic<Hit>())
//
// The macro records each member's type and offsetof, so the descriptor matches the struct exactly.

#include <cstddef>
#include <type_traits>

#include "ecsia/schema/component_desc.hpp"

namespace ecsia {

template <typename T>
struct ComponentTraits;  // specialised by ECSIA_COMPONENT / ECSIA_TAG

namespace detail {

template <typename T>
const void* type_key() noexcept {
    static const char key = 0;
    return &key;
}

template <typename T>
ComponentDesc describe_struct(const char* name, std::vector<FieldDesc> fields) {
    static_assert(std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T>,
                  "components are plain structs: trivially copyable, standard layout");
    ComponentDesc desc;
    desc.name = name;
    desc.fields = std::move(fields);
    desc.size = desc.fields.empty() ? 0u : static_cast<std::uint32_t>(sizeof(T));
    desc.alignment = static_cast<std::uint32_t>(alignof(T));
    return desc;
}

}  // namespace detail
}  // namespace ecsia

#define ECSIA_DETAIL_FIELD(T, member)                                                                         \
    ::ecsia::FieldDesc{#member, ::ecsia::field_type_of<std::remove_cv_t<decltype(T::member)>>(),              \
                       static_cast<std::uint32_t>(offsetof(T, member))},

#define ECSIA_DETAIL_EXPAND(x) x
#define ECSIA_DETAIL_FE_1(T, a) ECSIA_DETAIL_FIELD(T, a)
#define ECSIA_DETAIL_FE_2(T, a, ...) ECSIA_DETAIL_FIELD(T, a) ECSIA_DETAIL_EXPAND(ECSIA_DETAIL_FE_1(T, __VA_ARGS__))
#define ECSIA_DETAIL_FE_3(T, a, ...) ECSIA_DETAIL_FIELD(T, a) ECSIA_DETAIL_EXPAND(ECSIA_DETAIL_FE_2(T, __VA_ARGS__))
#define ECSIA_DETAIL_FE_4(T, a, ...) ECSIA_DETAIL_FIELD(T, a) ECSIA_DETAIL_EXPAND(ECSIA_DETAIL_FE_3(T, __VA_ARGS__))
#define ECSIA_DETAIL_FE_5(T, a, ...) ECSIA_DETAIL_FIELD(T, a) ECSIA_DETAIL_EXPAND(ECSIA_DETAIL_FE_4(T, __VA_ARGS__))
#define ECSIA_DETAIL_FE_6(T, a, ...) ECSIA_DETAIL_FIELD(T, a) ECSIA_DETAIL_EXPAND(ECSIA_DETAIL_FE_5(T, __VA_ARGS__))
#define ECSIA_DETAIL_FE_7(T, a, ...) ECSIA_DETAIL_FIELD(T, a) ECSIA_DETAIL_EXPAND(ECSIA_DETAIL_FE_6(T, __VA_ARGS__))
#define ECSIA_DETAIL_FE_8(T, a, ...) ECSIA_DETAIL_FIELD(T, a) ECSIA_DETAIL_EXPAND(ECSIA_DETAIL_FE_7(T, __VA_ARGS__))
#define ECSIA_DETAIL_PICK(_1, _2, _3, _4, _5, _6, _7, _8, NAME, ...) NAME
#define ECSIA_DETAIL_FOR_EACH(T, ...)                                                                         \
    ECSIA_DETAIL_EXPAND(ECSIA_DETAIL_PICK(__VA_ARGS__, ECSIA_DETAIL_FE_8, ECSIA_DETAIL_FE_7, ECSIA_DETAIL_FE_6, \
                                          ECSIA_DETAIL_FE_5, ECSIA_DETAIL_FE_4, ECSIA_DETAIL_FE_3,              \
                                          ECSIA_DETAIL_FE_2, ECSIA_DETAIL_FE_1)(T, __VA_ARGS__))

// Up to 8 fields; nest structs of components rather than growing one past that.
#define ECSIA_COMPONENT(T, name_literal, ...)                                                                 \
    template <>                                                                                               \
    struct ecsia::ComponentTraits<T> {                                                                        \
        static ::ecsia::ComponentDesc describe() {                                                            \
            return ::ecsia::detail::describe_struct<T>(name_literal, {ECSIA_DETAIL_FOR_EACH(T, __VA_ARGS__)}); \
        }                                                                                                     \
    };

#define ECSIA_TAG(T, name_literal)                                                                            \
    template <>                                                                                               \
    struct ecsia::ComponentTraits<T> {                                                                        \
        static_assert(std::is_empty_v<T>, "a tag is an empty struct");                                        \
        static ::ecsia::ComponentDesc describe() { return ::ecsia::detail::describe_struct<T>(name_literal, {}); } \
    };

// A topic's message struct is reflected as a component's is; the name is the topic's.
#define ECSIA_TOPIC(T, name_literal, ...) ECSIA_COMPONENT(T, name_literal, __VA_ARGS__)
