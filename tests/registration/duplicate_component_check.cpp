// ecsia_duplicate_component_tests: a program whose sources give one component name to two C++
// types: a start-up error that names it. Every World constructor throws DuplicateName. Its own
// program, because no World of it can be made.
#include <catch2/catch.hpp>

#include <string>

#include "ecsia/ecsia.hpp"

namespace {

struct First {
    float v;
};
struct Second {
    float v;
};

}  // namespace

ECSIA_COMPONENT(First, "clash", v)
ECSIA_COMPONENT(Second, "clash", v)
ECSIA_REGISTER_COMPONENT(First);
ECSIA_REGISTER_COMPONENT(Second);

TEST_CASE("two types under one component name make every World constructor throw, naming it", "[world][registry]") {
    for (int attempt = 0; attempt < 2; ++attempt) {
        try {
            ecsia::World world;
            FAIL("no error");
        } catch (const ecsia::Error& error) {
            CHECK(error.code() == ecsia::ErrorCode::DuplicateName);
            CHECK_THAT(std::string(error.what()), Catch::Contains("component 'clash' is registered by two different C++ types"));
        }
    }
    CHECK_THROWS_WITH(ecsia::registered_components(), Catch::Contains("'clash'"));
}
