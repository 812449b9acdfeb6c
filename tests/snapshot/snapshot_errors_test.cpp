// G5 for restore(): truncated, damaged, other-version, other-schema and hostile bytes get a clear
// error, and the world is exactly as it was (every byte of its own snapshot the same).

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "ecsia/ecsia.hpp"
#include "ecsia/world/world_access.hpp"
#include "support/snapshot_checks.hpp"
#include "support/test_components.hpp"
#include "support/snapshot_layout.hpp"
#include "support/world_dump.hpp"
#include "support/world_checks.hpp"

using namespace ecsia;

namespace {

struct Refusal {
    bool threw = false;
    ErrorCode code = ErrorCode::BadValue;
    std::string message;
    bool unchanged = false;
};

// `before` and `fingerprint`: the world's, taken before.
template <typename Restore>
Refusal attempt(World& world, const std::vector<std::byte>& before, const test::WorldFingerprint& fingerprint, const Restore& restore_world) {
    Refusal r;
    try {
        restore_world();
    } catch (const Error& error) {
        r.threw = true;
        r.code = error.code();
        r.message = error.what();
    }
    r.unchanged = test::fingerprint(world) == fingerprint && snapshot(world) == before;
    return r;
}

// Tries the restore; reports what it threw and whether the world stayed byte-for-byte the same.
// A refused restore is tried again through a SnapshotRestorer (which pulls the bytes in as it
// reads them, and checks the checksum last), which must refuse it alike and with the same error.
// `before` and `fingerprint` may be given when the caller already holds them (the exhaustive loops
// below restore into one unchanged world thousands of times).
Refusal try_restore(World& world, const std::vector<std::byte>& bytes, const std::vector<std::byte>& before,
                    const test::WorldFingerprint& fingerprint) {
    const Refusal r = attempt(world, before, fingerprint, [&] { restore(world, bytes); });
    if (r.threw && r.unchanged) {
        SnapshotRestorer restorer;
        const Refusal pulled = attempt(world, before, fingerprint, [&] { test::restore_pulled(restorer, world, bytes); });
        INFO("restore(): " << r.message << "\nthrough a SnapshotRestorer: " << pulled.message);
        CHECK(pulled.threw);
        CHECK(pulled.code == r.code);
        CHECK(pulled.message == r.message);
        CHECK(pulled.unchanged);
    }
    return r;
}

Refusal try_restore(World& world, const std::vector<std::byte>& bytes) {
    return try_restore(world, bytes, snapshot(world), test::fingerprint(world));
}

#define CHECK_REFUSED(world, bytes, expected_code, words)        \
    do {                                                         \
        const Refusal refusal_ = try_restore(world, bytes);      \
        INFO("message: " << refusal_.message);                   \
        CHECK(refusal_.threw);                                   \
        CHECK(refusal_.code == (expected_code));                 \
        CHECK(refusal_.message.find(words) != std::string::npos); \
        CHECK(refusal_.unchanged);                               \
    } while (false)

// A hostile change to valid bytes, resealed with a valid checksum before restore, and words the
// refusal must contain.
struct HostileCase {
    const char* what;
    std::function<void(std::vector<std::byte>&)> damage;
    const char* words;
};

// Each case's bytes are refused by `world` with BadSnapshot naming the problem, the world unchanged.
void check_hostile(World& world, const std::vector<std::byte>& bytes, const std::vector<HostileCase>& cases) {
    for (const HostileCase& c : cases) {
        INFO(c.what);
        std::vector<std::byte> damaged = bytes;
        c.damage(damaged);
        test::reseal(damaged);
        CHECK_REFUSED(world, damaged, ErrorCode::BadSnapshot, c.words);
    }
}

// The snapshot every test damages (listed rows and rows as runs), and a different world to restore
// it into.
std::vector<std::byte> source_snapshot() {
    World source;
    test::fill_rich_world(source);
    std::vector<Entity> plain;
    for (int i = 0; i < 5; ++i) plain.push_back(source.spawn());
    test::add_run_tables(source);  // takes the slots left free
    source.despawn(plain[0]);      // two slots on the free list again
    source.despawn(plain[3]);
    const std::vector<std::byte> bytes = snapshot(source);
    int run_tables = 0;
    for (const auto& table : test::walk_snapshot(bytes).tables) run_tables += table.runs;
    REQUIRE(run_tables == 2);
    return bytes;
}

void fill_target(World& target) {
    test::fill_rich_world(target);
    target.flush();
    for (std::uint32_t i = 0; i < 12; ++i) {
        const Entity e = target.entities().alive_at(i * 3);
        if (!e.is_null()) target.despawn(e);
    }
    for (int i = 0; i < 4; ++i) target.spawn();
}

// The rich world's components except "pos", which the caller defines its own way.
void define_all_but_pos(World& world) {
    world.define_component("mixed", {{"flag", FieldType::Bool}, {"big", FieldType::F64}, {"small", FieldType::I16}});
    world.define_component("link", {{"target", FieldType::Entity}});
    world.define_component("frozen", {});
}

}  // namespace

TEST_CASE("a valid snapshot of the rich world restores into a differently filled world", "[snapshot]") {
    const std::vector<std::byte> bytes = source_snapshot();
    World target;
    fill_target(target);
    REQUIRE(snapshot(target) != bytes);
    restore(target, bytes);
    CHECK(snapshot(target) == bytes);
}

TEST_CASE("SnapshotSegments gives snapshot()'s bytes sealed in place, sealed while copied, or taken with the checksum",
          "[snapshot]") {
    // The browser copies a take(world, false) + seal() range by range (web/internal/snapshot.js),
    // or copy_to_sealed()'s heap buffer: both must be snapshot()'s bytes, checksum included.
    World rich, other;
    test::fill_rich_world(rich);
    fill_target(other);
    SnapshotSegments segments;  // one object refilled from each world in turn, as the binding does
    for (World* world : {&rich, &other, &rich}) {
        const std::vector<std::byte> expected = snapshot(*world);
        segments.take(*world, /*checksum=*/false);
        REQUIRE(segments.size() == expected.size());
        std::vector<std::byte> sealed_while_copied(segments.size());
        segments.copy_to_sealed(sealed_while_copied.data());
        CHECK(sealed_while_copied == expected);
        segments.seal();
        std::vector<std::byte> concatenated;
        for (const SnapshotSegments::Range& range : segments.ranges()) concatenated.insert(concatenated.end(), range.data, range.data + range.size);
        CHECK(concatenated == expected);
        CHECK(segments.bytes() == expected);
        segments.take(*world);  // checksum = true
        CHECK(segments.bytes() == expected);
    }
}

TEST_CASE("a snapshot's arrays of rows lie at 8-byte offsets, as their memory does", "[snapshot]") {
    // What lets the browser copy them straight from the columns at full speed (format 3's pad).
    World world;
    const ComponentId pos = world.define_component("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
    const ComponentId odd = world.define_component("odd", {{"a", FieldType::U8}, {"b", FieldType::U16}});
    for (std::uint32_t i = 0; i < 1000; ++i) {
        const float p[2] = {float(i), 0.5f};
        const Entity e = world.spawn_with(std::vector<ComponentValue>{{pos, p, 8}});
        if (i % 3 == 0) {
            const std::byte o[4] = {std::byte{1}, std::byte{0}, std::byte{2}, std::byte{3}};
            world.add(e, ComponentValue{odd, o, 4});
        }
        if (i % 7 == 0) ecsia::detail::WorldAccess::advance_tick(world);  // per-row added ticks
    }
    SnapshotSegments segments;
    segments.take(world);
    std::size_t offset = 0, arrays = 0;
    for (const SnapshotSegments::Range& range : segments.ranges()) {
        // The engine's own pieces (counts, names) are all shorter than this here; every longer
        // range is an array of rows.
        if (range.size >= 256) {
            INFO("range at offset " << offset << ", " << range.size << " bytes");
            CHECK(offset % 8 == 0);
            CHECK(reinterpret_cast<std::uintptr_t>(range.data) % 8 == 0);
            ++arrays;
        }
        offset += range.size;
    }
    CHECK(arrays >= 6);  // two tables' entities, values and per-row added ticks
    World copy;
    copy.define_component("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
    copy.define_component("odd", {{"a", FieldType::U8}, {"b", FieldType::U16}});
    restore(copy, segments.bytes());
    CHECK(snapshot(copy) == segments.bytes());
}

TEST_CASE("every truncation of a snapshot is refused and changes nothing", "[snapshot][g5]") {
    const std::vector<std::byte> bytes = source_snapshot();
    World target;
    fill_target(target);
    const std::vector<std::byte> before = snapshot(target);
    const test::WorldFingerprint fingerprint = test::fingerprint(target);
    std::size_t accepted = 0, changed = 0;
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        for (bool resealed : {false, true}) {
            if (resealed && size < 32) continue;
            std::vector<std::byte> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
            if (resealed) test::reseal(cut);  // the header agrees: the sections must notice
            const Refusal r = try_restore(target, cut, before, fingerprint);
            accepted += !r.threw || r.code != ErrorCode::BadSnapshot;
            changed += !r.unchanged;
        }
    }
    CHECK(accepted == 0);
    CHECK(changed == 0);
    std::vector<std::byte> cut(bytes.begin(), bytes.end() - 5);
    CHECK_REFUSED(target, cut, ErrorCode::BadSnapshot, "truncated");
}

TEST_CASE("every single flipped bit of a snapshot is refused and changes nothing", "[snapshot][g5]") {
    const std::vector<std::byte> bytes = source_snapshot();
    World target;
    fill_target(target);
    const std::vector<std::byte> before = snapshot(target);
    const test::WorldFingerprint fingerprint = test::fingerprint(target);
    std::size_t accepted = 0, changed = 0;
    for (std::size_t bit = 0; bit < bytes.size() * 8; ++bit) {
        std::vector<std::byte> damaged = bytes;
        damaged[bit / 8] ^= std::byte(1u << (bit % 8));
        const Refusal r = try_restore(target, damaged, before, fingerprint);
        accepted += !r.threw || r.code != ErrorCode::BadSnapshot;
        changed += !r.unchanged;
    }
    CHECK(accepted == 0);
    CHECK(changed == 0);
    std::vector<std::byte> damaged = bytes;
    damaged[bytes.size() / 2] ^= std::byte{0x10};
    CHECK_REFUSED(target, damaged, ErrorCode::BadSnapshot, "checksum does not match");
}

TEST_CASE("a snapshot of another format version or not a snapshot at all is refused", "[snapshot][g5]") {
    const std::vector<std::byte> bytes = source_snapshot();
    World target;
    fill_target(target);
    std::vector<std::byte> other = bytes;
    test::write_u32(other, 8, 3);  // the version before rows as runs of handles
    CHECK_REFUSED(target, other, ErrorCode::BadSnapshot, "format version 3 is not supported (this build reads version 9)");
    test::write_u32(other, 8, 4);  // the version before pairs
    CHECK_REFUSED(target, other, ErrorCode::BadSnapshot, "format version 4 is not supported");
    test::write_u32(other, 8, 5);  // the version before prefab names
    CHECK_REFUSED(target, other, ErrorCode::BadSnapshot, "format version 5 is not supported");
    test::write_u32(other, 8, 6);  // the version before ticks as runs
    CHECK_REFUSED(target, other, ErrorCode::BadSnapshot, "format version 6 is not supported");
    test::write_u32(other, 8, 7);  // the version before topics
    CHECK_REFUSED(target, other, ErrorCode::BadSnapshot, "format version 7 is not supported");
    test::write_u32(other, 8, 8);  // the version before pair data's fields
    CHECK_REFUSED(target, other, ErrorCode::BadSnapshot, "format version 8 is not supported");
    test::write_u32(other, 8, 10);
    CHECK_REFUSED(target, other, ErrorCode::BadSnapshot, "format version 10 is not supported");
    std::vector<std::byte> junk(bytes.size(), std::byte{0x41});
    CHECK_REFUSED(target, junk, ErrorCode::BadSnapshot, "not an ecsia snapshot");
    CHECK_REFUSED(target, std::vector<std::byte>{}, ErrorCode::BadSnapshot, "truncated");
    std::vector<std::byte> longer = bytes;
    longer.push_back(std::byte{0});
    CHECK_REFUSED(target, longer, ErrorCode::BadSnapshot, "beyond");
}

TEST_CASE("a world that lacks a component the snapshot needs, or defines it differently, is refused", "[snapshot][g5]") {
    const std::vector<std::byte> bytes = source_snapshot();
    SECTION("missing") {
        World target;
        target.define_component("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
        target.define_component("mixed", {{"flag", FieldType::Bool}, {"big", FieldType::F64}, {"small", FieldType::I16}});
        target.define_component("frozen", {});
        target.spawn();
        CHECK_REFUSED(target, bytes, ErrorCode::SnapshotMismatch, "needs component 'link', which this world does not define");
    }
    SECTION("other field types") {
        World target;
        define_all_but_pos(target);
        target.define_component("pos", {{"x", FieldType::F64}, {"y", FieldType::F64}});
        CHECK_REFUSED(target, bytes, ErrorCode::SnapshotMismatch, "component 'pos' is defined differently here");
    }
    SECTION("other field names") {
        World target;
        define_all_but_pos(target);
        target.define_component("pos", {{"u", FieldType::F32}, {"v", FieldType::F32}});
        CHECK_REFUSED(target, bytes, ErrorCode::SnapshotMismatch, "'pos' is defined differently");
    }
    SECTION("a tag where the snapshot has fields") {
        World target;
        define_all_but_pos(target);
        target.define_component("pos", {});
        CHECK_REFUSED(target, bytes, ErrorCode::SnapshotMismatch, "'pos' is defined differently");
    }
    SECTION("a relation where the snapshot has a component") {
        World target;
        define_all_but_pos(target);
        target.define_relation("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
        CHECK_REFUSED(target, bytes, ErrorCode::SnapshotMismatch, "'pos' is defined differently here: the snapshot's is { x: f32 at 0, y: f32 at 4 }, 8 bytes, this world's is a relation");
    }
    SECTION("another max_entities or handle layout") {
        World bigger(WorldOptions{1u << 21, 22});
        test::define_rich_components(bigger);
        CHECK_REFUSED(bigger, bytes, ErrorCode::SnapshotMismatch, "max_entities");
        World narrower(WorldOptions{1u << 20, 21});
        test::define_rich_components(narrower);
        CHECK_REFUSED(narrower, bytes, ErrorCode::SnapshotMismatch, "index bits");
    }
    SECTION("registered in another order: accepted, same state") {
        World target;
        target.define_component("frozen", {});
        target.define_component("link", {{"target", FieldType::Entity}});
        target.define_component("extra", {{"e", FieldType::U8}});
        target.define_component("mixed", {{"flag", FieldType::Bool}, {"big", FieldType::F64}, {"small", FieldType::I16}});
        target.define_component("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
        restore(target, bytes);
        World reference;
        test::define_rich_components(reference);
        restore(reference, bytes);
        CHECK(state_hash(target) == state_hash(reference));
        CHECK(test::dump_entities(target).size() > 0);
    }
}

TEST_CASE("hostile snapshots with a valid checksum are refused and change nothing", "[snapshot][g5]") {
    const std::vector<std::byte> bytes = source_snapshot();
    const test::SnapshotLayout at = test::walk_snapshot(bytes);
    REQUIRE(at.tables.size() >= 4);
    // A table with listed rows and at least two columns, and the mixed {flag: bool, ...} column.
    const test::SnapshotLayout::Table* two = nullptr;
    for (const auto& t : at.tables) {
        if (t.rows >= 2 && t.columns >= 2 && !t.runs) two = &t;
    }
    REQUIRE(two != nullptr);
    std::size_t bool_byte = 0;
    for (const auto& t : at.tables) {
        for (std::size_t c = 0; c < t.columns; ++c) {
            if (t.listed[c] == 2 && t.rows > 0) bool_byte = t.values[c];  // components list in name order: mixed is 2
        }
    }
    REQUIRE(bool_byte != 0);

    const std::vector<HostileCase> cases = {
        {"huge cursor count", [&](auto& b) { test::write_u32(b, at.cursor_count, 0xFFFFFFFFu); }, "more than the"},
        {"huge component count", [&](auto& b) { test::write_u32(b, at.component_count, 0x7FFFFFFFu); }, "more than the"},
        {"huge name length", [&](auto& b) { test::write_u32(b, at.first_name_length, 0xFFFFFFF0u); }, "has length"},
        {"world tick 0", [&](auto& b) { test::write_u32(b, at.world_body + 8, 0); }, "tick is 0"},
        {"slot count above max_entities", [&](auto& b) { test::write_u32(b, at.slot_count, 0x7FFFFFFFu); }, "exceed max_entities"},
        {"fewer slots than handles", [&](auto& b) { test::write_u32(b, at.slot_count, 3); }, "3"},
        {"more slots than anything covers", [&](auto& b) { test::write_u32(b, at.slot_count, test::read_u32(b, at.slot_count) + 1); }, "neither alive"},
        {"huge free-list length", [&](auto& b) { test::write_u32(b, at.free_count, 0xFFFFFFFFu); }, "more than the"},
        {"free slot past the slots", [&](auto& b) { test::write_u32(b, at.first_free, 0x00FFFFFFu); }, "not below the slot count"},
        {"free slot with a generation past the layout", [&](auto& b) { test::write_u32(b, at.first_free + 4, 0xFFFFu); }, "above the layout"},
        {"huge table count", [&](auto& b) { test::write_u32(b, at.table_count, 0xFFFFFFFFu); }, "more than the"},
        {"no tables", [&](auto& b) { test::write_u32(b, at.table_count, 0); }, "no tables"},
        {"huge row count", [&](auto& b) { test::write_u32(b, two->row_count, 0x3FFFFFFFu); }, "more than the"},
        {"row count past the section", [&](auto& b) { test::write_u32(b, two->row_count, two->rows + 50); }, ""},
        {"a null handle in a row", [&](auto& b) { test::write_u32(b, two->first_entity, 0xFFFFFFFFu); }, "which no live entity can have"},
        {"one handle in two rows", [&](auto& b) { test::write_u32(b, two->first_entity, test::read_u32(b, two->first_entity + 4)); }, "already used"},
        {"a component index past the list", [&](auto& b) { test::write_u32(b, two->first_component, 999); }, "names component 999"},
        {"one component twice in a table", [&](auto& b) { test::write_u32(b, two->first_component + 4, test::read_u32(b, two->first_component)); }, "ascending"},
        {"components out of order", [&](auto& b) {
             const std::uint32_t first = test::read_u32(b, two->first_component);
             test::write_u32(b, two->first_component, test::read_u32(b, two->first_component + 4));
             test::write_u32(b, two->first_component + 4, first);
         }, "ascending"},
        {"a bulk stamp past the rows", [&](auto& b) { test::write_u32(b, two->first_summary + 8, two->rows + 1); }, "stamps"},
        {"a tick after the world tick", [&](auto& b) { test::write_u32(b, two->first_summary + 4, 0x7FFFFFFFu); }, "after the world tick"},
        {"an unknown tick encoding", [&](auto& b) { test::write_u32(b, two->first_ticks_kind, 7); }, "unknown encoding"},
        {"a bool holding 2", [&](auto& b) { b[bool_byte] = std::byte{2}; }, "bool field 'flag' holds 2"},
        {"a section longer than the bytes", [&](auto& b) { test::write_u64(b, at.section_sizes[3], std::uint64_t(1) << 60); }, "claims"},
        {"a queued change naming no component", [&](auto& b) { test::write_u32(b, at.pending_count + 8, 77); }, "names component 77"},
        {"bytes after the last section", [&](auto& b) { b.push_back(std::byte{0}); }, "after its last section"},
    };
    World target;
    fill_target(target);
    check_hostile(target, bytes, cases);
}

TEST_CASE("snapshot and restore are refused mid-frame, in a wave, inside an observer and with reserved handles", "[snapshot][g5]") {
    World world;
    test::fill_rich_world(world);
    const std::vector<std::byte> bytes = snapshot(world);
    const std::uint64_t hash = state_hash(world);
    ecsia::detail::WorldAccess::cursors(world).set_in_frame(true);
    CHECK(test::thrown_code([&] { snapshot(world); }) == "WrongPhase");
    CHECK(test::thrown_message([&] { restore(world, bytes); }).find("inside a frame") != std::string::npos);
    SnapshotRestorer restorer;
    CHECK(test::thrown_message([&] { test::restore_pulled(restorer, world, bytes); }).find("inside a frame") != std::string::npos);
    CHECK(state_hash(world) == hash);
    ecsia::detail::WorldAccess::cursors(world).set_in_frame(false);
    detail::WorldAccess::set_phase(world, WorldPhase::Wave);
    CHECK(test::thrown_code([&] { restore(world, bytes); }) == "WrongPhase");
    detail::WorldAccess::set_phase(world, WorldPhase::Serial);

    std::string inside;
    world.observe(ObserverEvent::OnAdd, world.component_id("frozen"), [&](ObserverContext& ctx) {
        inside = test::thrown_code([&] { restore(ctx.world, bytes); });
    });
    world.add(world.spawn(), ComponentValue{world.component_id("frozen"), nullptr, 0});
    CHECK(inside == "WrongPhase");

    EntityReservation reservation = detail::WorldAccess::reserve(world, 3);
    CHECK(test::thrown_message([&] { snapshot(world); }).find("reserved") != std::string::npos);
    detail::WorldAccess::release_unused(world, reservation);
    CHECK_NOTHROW(snapshot(world));
}

TEST_CASE("hostile runs of handles with a valid checksum are refused and change nothing", "[snapshot][g5]") {
    // Two tables of 32 rows spawned together: one run each (slots 0..31 and 32..63), and a third
    // of tags only, whose rows are bounded by nothing but the slot count.
    const auto define = [](World& world) {
        world.define_component("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
        world.define_component("tag", {});
    };
    World source(WorldOptions{.max_entities = 4096});
    define(source);
    const ComponentId pos = source.component_id("pos"), tag = source.component_id("tag");
    const float p[2] = {1, 2};
    for (int i = 0; i < 32; ++i) source.spawn_with(std::vector<ComponentValue>{{pos, p, 8}});
    for (int i = 0; i < 32; ++i) source.spawn_with(std::vector<ComponentValue>{{pos, p, 8}, {tag, nullptr, 0}});
    for (int i = 0; i < 16; ++i) source.spawn_with(std::vector<ComponentValue>{{tag, nullptr, 0}});
    source.flush();
    const std::vector<std::byte> bytes = snapshot(source);
    const test::SnapshotLayout at = test::walk_snapshot(bytes);
    std::vector<const test::SnapshotLayout::Table*> runs;
    for (const auto& t : at.tables) {
        if (t.rows > 0) {
            REQUIRE(t.runs);
            REQUIRE(t.run_count == 1);
            runs.push_back(&t);
        }
    }
    REQUIRE(runs.size() == 3);
    const test::SnapshotLayout::Table& a = *runs[0];
    const test::SnapshotLayout::Table& b = *runs[1];
    const test::SnapshotLayout::Table& tags = *runs[2];
    REQUIRE(tags.columns == 1);

    const std::vector<HostileCase> cases = {
        {"an unknown entity encoding", [&](auto& d) { test::write_u32(d, a.entity_encoding, 7); }, "entities have unknown encoding 7"},
        {"a huge run count", [&](auto& d) { test::write_u32(d, a.entity_encoding + 4, 0xFFFFFFFFu); }, "more than the"},
        {"an empty run", [&](auto& d) { test::write_u32(d, a.first_run + 4, 0); }, "is empty"},
        {"runs holding fewer rows than the table", [&](auto& d) { test::write_u32(d, a.first_run + 4, 31); }, "hold 31 rows, its row count is 32"},
        {"runs holding more rows than the table", [&](auto& d) { test::write_u32(d, b.first_run + 4, 33); }, "hold 33 rows"},
        {"a run past the slots", [&](auto& d) { test::write_u32(d, a.first_run, 4000); }, "which no live entity can have"},
        {"a run over another table's slots", [&](auto& d) { test::write_u32(d, b.first_run, 31); }, "is already used"},
        {"a run wrapping past the last handle", [&](auto& d) { test::write_u32(d, a.first_run, 0xFFFFFFF0u); }, "which no live entity can have"},
        {"more rows in all than slots", [&](auto& d) {
             test::write_u32(d, tags.row_count, 0x7FFFFFFFu);
             test::write_u32(d, tags.first_run + 4, 0x7FFFFFFFu);
         }, "more than the 80 entity slots"},
        {"one row more in all than slots", [&](auto& d) {
             test::write_u32(d, tags.row_count, 17);
             test::write_u32(d, tags.first_run + 4, 17);
         }, "more than the 80 entity slots"},
    };
    World target(WorldOptions{.max_entities = 4096});
    define(target);
    for (int i = 0; i < 7; ++i) target.spawn_with(std::vector<ComponentValue>{{tag, nullptr, 0}});
    target.flush();
    for (World* world : {&source, &target}) {
        INFO((world == &source ? "into the world it came from" : "into another world"));
        check_hostile(*world, bytes, cases);
    }
}

TEST_CASE("a churned column's ticks are stored as runs, restore to the same world, and hostile runs are refused",
          "[snapshot][g5]") {
    // 64 rows spawned over 8 frames (8 added ticks in runs of 8), then four rows in every
    // sixteen of pos written in a later frame: runs of equal ticks, fewer than a quarter of the
    // rows, in both of pos's arrays. vel, spawned with pos and never written, has pos's added
    // ticks as both of its arrays (kTicksSame).
    const auto define = [](World& world) {
        world.define_component("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
        world.define_component("vel", {{"dx", FieldType::F32}});
    };
    World source(WorldOptions{.max_entities = 4096});
    define(source);
    const ComponentId pos = source.component_id("pos"), vel = source.component_id("vel");
    std::vector<Entity> all;
    for (int frame = 0; frame < 8; ++frame) {
        for (int i = 0; i < 8; ++i) {
            const float p[2] = {float(frame), float(i)};
            all.push_back(source.spawn_with(std::vector<ComponentValue>{{pos, p, 8}, {vel, p, 4}}));
        }
        detail::WorldAccess::advance_tick(source);
    }
    for (std::size_t i = 0; i < all.size(); i += 16) {
        const float nine = 9.0f;
        for (std::size_t k = i; k < i + 4; ++k) source.set_bytes(all[k], pos, 0, &nine, sizeof nine);
    }
    source.flush();
    const std::vector<std::byte> bytes = snapshot(source);
    const test::SnapshotLayout at = test::walk_snapshot(bytes);
    const test::SnapshotLayout::Table* table = nullptr;
    for (const auto& t : at.tables) {
        if (t.rows == 64) table = &t;
    }
    REQUIRE(table != nullptr);
    REQUIRE(table->first_tick_runs != 0);  // the added ticks: 8 runs of 8 rows
    CHECK(test::read_u32(bytes, table->first_tick_runs) == 2);
    CHECK(test::read_u32(bytes, table->first_tick_runs + 4) == 8);
    const std::size_t first = table->first_tick_runs + 8;  // the first run: u32 tick, u32 length
    CHECK(test::read_u32(bytes, first + 4) == 8);
    // vel's added ticks (array 2) are pos's added ones (array 0); its changed ones (3) its added.
    REQUIRE(table->first_tick_same != 0);
    CHECK(test::read_u32(bytes, table->first_tick_same) == 3);
    CHECK(test::read_u32(bytes, table->first_tick_same + 4) == 0);
    CHECK(test::read_u32(bytes, table->first_tick_same + 8) == 3);
    CHECK(test::read_u32(bytes, table->first_tick_same + 12) == 2);

    // The bytes restore to the same state, and snapshot again to themselves.
    World copy(WorldOptions{.max_entities = 4096});
    define(copy);
    restore(copy, bytes);
    CHECK(state_hash(copy) == state_hash(source));
    CHECK(snapshot(copy) == bytes);

    const std::vector<HostileCase> cases = {
        {"a huge run count", [&](auto& d) { test::write_u32(d, table->first_tick_runs + 4, 0xFFFFFFFFu); }, "more than the"},
        {"an empty run", [&](auto& d) { test::write_u32(d, first + 4, 0); }, "is empty"},
        {"runs holding fewer rows than the table", [&](auto& d) { test::write_u32(d, first + 4, 7); }, "hold 63 rows, its row count is 64"},
        {"runs holding more rows than the table", [&](auto& d) { test::write_u32(d, first + 4, 9); }, "hold 65 rows"},
        {"a run's tick above the column's maximum", [&](auto& d) { test::write_u32(d, first, 0x7FFFFFF0u); }, "above the column's maximum"},
        {"the same ticks as an array not before them", [&](auto& d) { test::write_u32(d, table->first_tick_same + 4, 2); },
         "are those of tick array 2, not one before them (2 are)"},
        {"the same ticks as an array with later ticks than the column's", [&](auto& d) {
             test::write_u32(d, table->first_tick_same + 4, 1);  // pos's changed ticks reach the writes' tick
         }, "above the column's maximum"},
    };
    for (World* world : {&source, &copy}) {
        INFO((world == &source ? "into the world it came from" : "into a copy of it"));
        check_hostile(*world, bytes, cases);
    }
}

TEST_CASE("restore is refused, as snapshot is, while commands recorded by observers wait for a flush", "[snapshot][g5]") {
    // Restored past them, the next flush would apply the old world's commands to the restored one.
    World world;
    const ComponentId position = world.component<test::Position>();
    const ComponentId velocity = world.component<test::Velocity>();
    const Entity x = world.spawn(test::Position{1, 1});
    const Entity y = world.spawn(test::Position{2, 2});
    const std::vector<std::byte> bytes = snapshot(world);
    world.observe(ObserverEvent::OnAdd, velocity, [y](ObserverContext& ctx) { ctx.commands.despawn(y); });
    world.add(x, test::Velocity{1, 1});  // the observer's despawn waits for flush()
    const std::uint64_t hash = state_hash(world);
    CHECK(test::thrown_message([&] { snapshot(world); }) ==
          "WrongPhase: snapshot while commands recorded by observers wait to be applied: call flush() first");
    CHECK(test::thrown_message([&] { restore(world, bytes); }) ==
          "WrongPhase: restore while commands recorded by observers wait to be applied: call flush() first");
    SnapshotRestorer restorer;
    CHECK(test::thrown_code([&] { test::restore_pulled(restorer, world, bytes); }) == "WrongPhase");
    CHECK(state_hash(world) == hash);
    world.flush();
    CHECK_FALSE(world.is_alive(y));
    restore(world, bytes);  // between frames and flushed: allowed
    CHECK(world.is_alive(y));
    CHECK(world.has(x, position));
    CHECK_FALSE(world.has(x, velocity));
}
