// CommandBuffer's encoding: what goes in comes out, in order, byte for byte, however many records.

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "support/test_components.hpp"
#include "support/world_checks.hpp"
#include "ecsia/world/world_access.hpp"

using namespace ecsia;
using test::Health;
using test::Position;

namespace {

std::vector<CommandRecord> decode(const CommandBuffer& buffer) {
    std::vector<CommandRecord> out;
    CommandReader reader(buffer);
    CommandRecord record;
    while (reader.next(record)) out.push_back(record);
    return out;
}

std::vector<ComponentValue> values_of(const CommandRecord& record) {
    std::vector<ComponentValue> out(record.count);
    const std::uint32_t* at = record.body;
    for (ComponentValue& v : out) at = CommandReader::read_value(at, v);
    return out;
}

}  // namespace

TEST_CASE("records decode in the order and with the bytes they were recorded", "[command]") {
    const Entity a{7}, b{0x00400009};
    const Position p{1.5f, -2};
    const Health h{-3, true, 0.125};
    const ComponentValue spawn_values[] = {{2, &p, sizeof p}, {5, nullptr, 0}, {3, &h, sizeof h}};
    const ComponentId removed[] = {4, 2};
    CommandBuffer buffer;
    buffer.spawn(a, spawn_values, 3);
    buffer.despawn(b);
    buffer.add(b, 3, h);
    buffer.remove(a, removed, 2);
    const std::int32_t hp = 42;
    buffer.set(b, 3, 0, &hp, sizeof hp);
    buffer.set(a, 2, Position{9, 10});
    buffer.spawn(kNullEntity, nullptr, 0);

    const std::vector<CommandRecord> records = decode(buffer);
    REQUIRE(records.size() == 7);
    CHECK(buffer.record_count() == 7);

    CHECK(records[0].op == CommandOp::Spawn);
    CHECK(records[0].entity == a);
    const std::vector<ComponentValue> spawned = values_of(records[0]);
    REQUIRE(spawned.size() == 3);
    CHECK(spawned[0].id == 2);
    CHECK(spawned[0].size == sizeof p);
    CHECK(std::memcmp(spawned[0].bytes, &p, sizeof p) == 0);
    CHECK(spawned[1].id == 5);
    CHECK(spawned[1].bytes == nullptr);
    CHECK(spawned[2].id == 3);
    CHECK(std::memcmp(spawned[2].bytes, &h, sizeof h) == 0);

    CHECK(records[1].op == CommandOp::Despawn);
    CHECK(records[1].entity == b);

    CHECK(records[2].op == CommandOp::Add);
    const std::vector<ComponentValue> added = values_of(records[2]);
    REQUIRE(added.size() == 1);
    CHECK(std::memcmp(added[0].bytes, &h, sizeof h) == 0);

    CHECK(records[3].op == CommandOp::Remove);
    REQUIRE(records[3].count == 2);
    CHECK(records[3].body[0] == 4);
    CHECK(records[3].body[1] == 2);

    CHECK(records[4].op == CommandOp::Set);
    CHECK(records[4].body[0] == 3);           // component
    CHECK(records[4].body[1] == 0);           // offset
    CHECK(records[4].body[2] == sizeof hp);   // size
    CHECK(std::memcmp(records[4].body + 3, &hp, sizeof hp) == 0);

    CHECK(records[5].op == CommandOp::Set);
    CHECK(records[5].entity == a);
    CHECK(records[5].body[2] == sizeof(Position));

    CHECK(records[6].op == CommandOp::Spawn);
    CHECK(records[6].entity.is_null());
    CHECK(records[6].count == 0);
}

TEST_CASE("payloads whose size is not a multiple of four keep the records after them intact", "[command]") {
    CommandBuffer buffer;
    const std::uint8_t odd[5] = {1, 2, 3, 4, 5};
    const ComponentValue value{1, odd, 5};
    buffer.add(Entity{1}, &value, 1);
    buffer.set(Entity{2}, 1, 3, odd, 1);
    buffer.despawn(Entity{3});
    const std::vector<CommandRecord> records = decode(buffer);
    REQUIRE(records.size() == 3);
    CHECK(std::memcmp(values_of(records[0])[0].bytes, odd, 5) == 0);
    CHECK(records[1].body[1] == 3);
    CHECK(records[1].body[2] == 1);
    CHECK(records[2].op == CommandOp::Despawn);
    CHECK(records[2].entity == Entity{3});
}

TEST_CASE("a buffer grows to hold every record it is given", "[command]") {
    CommandBuffer buffer;
    constexpr std::uint32_t kRecords = 100000;
    for (std::uint32_t i = 0; i < kRecords; ++i) {
        const Position p{static_cast<float>(i), 0};
        buffer.set(Entity{i}, 0, p);
    }
    CHECK(buffer.record_count() == kRecords);
    const std::vector<CommandRecord> records = decode(buffer);
    REQUIRE(records.size() == kRecords);
    for (std::uint32_t i = 0; i < kRecords; i += 9973) {
        CAPTURE(i);
        CHECK(records[i].entity == Entity{i});
        Position p;
        std::memcpy(&p, records[i].body + 3, sizeof p);
        CHECK(p.x == static_cast<float>(i));
    }
}

TEST_CASE("a cleared buffer is empty and records afresh", "[command]") {
    CommandBuffer buffer;
    buffer.despawn(Entity{1});
    buffer.despawn(Entity{2});
    REQUIRE_FALSE(buffer.empty());
    buffer.clear();
    CHECK(buffer.empty());
    CHECK(buffer.record_count() == 0);
    CHECK(buffer.byte_size() == 0);
    buffer.despawn(Entity{3});
    const std::vector<CommandRecord> records = decode(buffer);
    REQUIRE(records.size() == 1);
    CHECK(records[0].entity == Entity{3});
}

TEST_CASE("an applied buffer is left as it was so the same buffer can be applied elsewhere", "[command]") {
    World first, second;
    first.component<Position>();
    second.component<Position>();
    CommandBuffer buffer;
    const Position p{4, 5};
    const ComponentValue v{first.component<Position>(), &p, sizeof p};
    buffer.spawn(kNullEntity, &v, 1);
    first.diagnostics().set_sink([](const std::string&) {});
    second.diagnostics().set_sink([](const std::string&) {});
    const std::vector<std::uint32_t> words = buffer.words();
    CommandBuffer* list[] = {&buffer};
    ecsia::detail::WorldAccess::apply(first, list);
    CHECK(buffer.words() == words);
    ecsia::detail::WorldAccess::apply(second, list);
    CHECK(state_hash(first) == state_hash(second));
    CHECK(first.alive_count() == 1);
}

TEST_CASE("records appended pre-encoded decode exactly like the same records recorded", "[command]") {
    const Position p{3.25f, -1};
    const std::int32_t hp = 7;
    CommandBuffer recorded;
    const ComponentValue v{2, &p, sizeof p};
    recorded.spawn(kNullEntity, &v, 1);
    recorded.set(Entity{5}, 3, 0, &hp, sizeof hp);
    recorded.despawn(Entity{9});

    CommandBuffer appended;
    appended.despawn(Entity{1});  // records already there stay in front
    const std::vector<std::uint32_t>& words = recorded.words();
    std::uint32_t* at = appended.append_encoded(words.size(), recorded.record_count());
    std::memcpy(at, words.data(), words.size() * 4);

    CHECK(appended.record_count() == 4);
    const std::vector<CommandRecord> records = decode(appended);
    REQUIRE(records.size() == 4);
    CHECK(records[0].op == CommandOp::Despawn);
    CHECK(std::vector<std::uint32_t>(appended.words().begin() + 2, appended.words().end()) == words);
    CHECK(records[1].op == CommandOp::Spawn);
    CHECK(records[2].op == CommandOp::Set);
    CHECK(records[3].entity == Entity{9});
}

TEST_CASE("an Instantiate record holds its handle, its prefab and its values, and the next record follows", "[command][prefab]") {
    const Entity instance{9}, prefab{0x00400003};
    const std::uint8_t odd[3] = {7, 8, 9};
    const ComponentValue values[] = {{4, odd, 3}, {6, nullptr, 0}};
    CommandBuffer buffer;
    buffer.instantiate(instance, prefab, values, 2);
    buffer.instantiate(kNullEntity, prefab, nullptr, 0);
    buffer.despawn(Entity{3});
    const std::vector<CommandRecord> records = decode(buffer);
    REQUIRE(records.size() == 3);
    CHECK(records[0].op == CommandOp::Instantiate);
    CHECK(static_cast<int>(records[0].op) == 8);
    CHECK(records[0].entity == instance);
    CHECK(records[0].count == 2);
    CHECK(records[0].body[0] == prefab.bits);
    ComponentValue first, second;
    CommandReader::read_value(CommandReader::read_value(records[0].body + 1, first), second);
    CHECK(first.id == 4);
    CHECK(std::memcmp(first.bytes, odd, 3) == 0);
    CHECK(second.id == 6);
    CHECK(second.bytes == nullptr);
    CHECK(records[1].entity.is_null());
    CHECK(records[1].body[0] == prefab.bits);
    CHECK(records[2].op == CommandOp::Despawn);
}
