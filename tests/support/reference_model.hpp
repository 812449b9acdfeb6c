#pragma once
// The reference model behind the [model] property tests: a world's logical content as plain maps
// (handle bits -> component name -> field values), the fixed component set those tests register,
// and a seeded generator. std::mt19937 is used through plain modulo, never through <random>'s
// distributions (whose output differs between standard libraries), so a seed replays everywhere.

#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/test_components.hpp"

namespace test::model {

using Values = std::vector<double>;            // one per field, in descriptor order
using Content = std::map<std::string, Values>;  // component name -> values
using Model = std::map<std::uint32_t, Content>; // handle bits -> content
constexpr double kNullBits = 4294967295.0;      // an entity field holding the null handle

class Random {
public:
    explicit Random(std::uint32_t seed) : engine_(seed) {}
    std::uint32_t bits() { return static_cast<std::uint32_t>(engine_()); }
    std::uint32_t below(std::uint32_t n) { return n == 0 ? 0 : bits() % n; }
    bool chance(std::uint32_t percent) { return below(100) < percent; }
    template <typename T>
    const T& pick(const std::vector<T>& items) {
        return items[below(static_cast<std::uint32_t>(items.size()))];
    }
    template <typename T>
    void shuffle(std::vector<T>& items) {
        for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(std::uint32_t(i))]);
    }

private:
    std::mt19937 engine_;
};

// Every test component, registered in one fixed order so that ids agree between worlds. The
// run-time "mass" covers the field types the C++ components leave out of the common path.
inline std::vector<ecsia::ComponentId> register_components(ecsia::World& world) {
    return {world.component<::test::Position>(),
            world.component<::test::Velocity>(),
            world.component<::test::Health>(),
            world.component<::test::Target>(),
            world.component<::test::Enemy>(),
            world.component<::test::Counter>(),
            world.define_component("mass", {{"grade", ecsia::FieldType::U8},
                                            {"tilt", ecsia::FieldType::I16},
                                            {"load", ecsia::FieldType::U16},
                                            {"kg", ecsia::FieldType::F32}}),
            world.component<::test::Frozen>(),
            world.component<::test::Padded>()};
}

// What a component holds when added without values: zeros, and null in entity fields.
inline Values default_values(const ecsia::ComponentDesc& desc) {
    Values values;
    for (const ecsia::FieldDesc& field : desc.fields) {
        values.push_back(field.type == ecsia::FieldType::Entity ? kNullBits : 0.0);
    }
    return values;
}

// A component's bytes for `values` (padding zeroed), as a ComponentValue or set_bytes takes them.
inline std::vector<std::byte> encode(const ecsia::ComponentDesc& desc, const Values& values) {
    std::vector<std::byte> bytes(desc.size, std::byte{0});
    for (std::size_t i = 0; i < desc.fields.size(); ++i) {
        ecsia::encode_field(desc.fields[i].type, values[i], bytes.data() + desc.fields[i].offset, desc.fields[i].name);
    }
    return bytes;
}

// "name{v v } ..." for failure messages.
inline std::string describe(const Content& content) {
    std::ostringstream out;
    for (const auto& [name, values] : content) {
        out << name << "{";
        for (double v : values) out << v << " ";
        out << "} ";
    }
    return out.str();
}

}  // namespace test::model
