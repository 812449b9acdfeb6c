// ecsia_duplicate_system_tests: a program whose sources register one system name twice: a
// start-up error that names it. The first Scheduler, and every registry lookup, throws
// DuplicateName. Its own program, because the broken registry would fail every other test.
#include <catch2/catch.hpp>

#include <string>

#include "ecsia/ecsia.hpp"

namespace {

ecsia::SystemDesc empty_system(ecsia::World&) { return {}; }

}  // namespace

ECSIA_REGISTER_SYSTEM("Twice", empty_system);
ECSIA_REGISTER_SYSTEM("Twice", [](ecsia::World& world) { return empty_system(world); });
ECSIA_REGISTER_SYSTEM("Once", empty_system);

TEST_CASE("a system name registered twice is an error at start-up, naming it", "[schedule][registry]") {
    ecsia::World world;  // components are fine in this program
    const auto start = [&] { ecsia::Scheduler scheduler(world, {}); };
    CHECK_THROWS_WITH(start(), Catch::Contains("system 'Twice' is registered twice"));
    CHECK_THROWS_WITH(ecsia::registered_systems(), Catch::Contains("'Twice'"));
    CHECK_THROWS_WITH(ecsia::make_system(world, "Once"), Catch::Contains("'Twice'"));
    try {
        ecsia::check_system_registry();
        FAIL("no error");
    } catch (const ecsia::Error& error) {
        CHECK(error.code() == ecsia::ErrorCode::DuplicateName);
        CHECK_THAT(std::string(error.what()), !Catch::Contains("Once"));
    }
}
