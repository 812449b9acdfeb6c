// Snapshot format 8's TOPC section pinned byte for byte: a world with two topics (one of 1-byte
// messages, unpadded), pending messages and three consumers at different cursors. Regenerate
// (after a deliberate format change, with a version bump) with
//   ECSIA_WRITE_SNAPSHOT_FIXTURE=tests/fixtures build/plain/tests/ecsia_tests "[topics-fixture]"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ecsia/ecsia.hpp"
#include "ecsia/topic/topic_store.hpp"

extern const unsigned char kTopicsFixture[];
extern const std::size_t kTopicsFixtureSize;

using namespace ecsia;

namespace {

struct FixtureHit {
    Entity target;
    float damage;
};
struct FixtureNote {
    std::uint8_t code;
};

void define(World& world) {
    world.define_component("hp", {{"v", FieldType::I32}});
    world.define_topic("hit", {{"target", FieldType::Entity}, {"damage", FieldType::F32}});
    world.define_topic("note", {{"code", FieldType::U8}});
}

}  // namespace

TEST_CASE("a world's pending messages and consumer cursors snapshot to the committed fixture byte for byte, and restore from it",
          "[snapshot][fixture][topics-fixture][topic]") {
    World world;
    define(world);
    const TopicId hit = world.topic_id("hit");
    const TopicId note = world.topic_id("note");
    std::vector<Entity> units;
    for (std::int32_t i = 0; i < 3; ++i) {
        const std::int32_t v = 10 * i;
        const ComponentValue value{world.component_id("hp"), &v, sizeof v};
        units.push_back(world.spawn_with(std::span<const ComponentValue>(&value, 1)));
    }
    {
        Scheduler scheduler(world, SchedulerOptions{.workers = 0});
        SystemDesc early;  // before the shooter: this frame's hits wait for the next
        early.name = "Early";
        early.consumes = {hit};
        early.before = {"Shooter"};
        early.main_thread = [](World&, float) {};
        SystemDesc shooter;
        shooter.name = "Shooter";
        shooter.publishes = {hit, note};
        shooter.main_thread = [&](World& w, float) {
            const auto frame = static_cast<float>(w.frames());
            for (Entity unit : units) w.publish(hit, FixtureHit{unit, frame + 0.5f});
            w.publish(note, FixtureNote{static_cast<std::uint8_t>(frame)});
        };
        SystemDesc late;
        late.name = "Late";
        late.consumes = {hit, note};
        late.main_thread = [](World&, float) {};
        scheduler.add_system(early);
        scheduler.add_system(shooter);
        scheduler.add_system(late);
        scheduler.update(0);
        scheduler.update(0);
        world.publish(note, FixtureNote{200});  // between frames: pending for Late
        world.publish(hit, FixtureHit{units[1], 99.0f});
        const std::vector<std::byte> bytes = snapshot(world);
        if (const char* dir = std::getenv("ECSIA_WRITE_SNAPSHOT_FIXTURE")) {
            std::FILE* f = std::fopen((std::string(dir) + "/snapshot_topics.bin").c_str(), "wb");
            REQUIRE(f != nullptr);
            std::fwrite(bytes.data(), 1, bytes.size(), f);
            std::fclose(f);
            WARN("wrote " << dir << "/snapshot_topics.bin");
        }
        const std::vector<std::byte> fixture(reinterpret_cast<const std::byte*>(kTopicsFixture),
                                             reinterpret_cast<const std::byte*>(kTopicsFixture) + kTopicsFixtureSize);
        CHECK(bytes == fixture);
        // Early has 3 hits of the last frame and the page's to see, Late only the page's.
        CHECK(world.topics().topic(hit).count == 4);
        CHECK(world.topics().topic(note).count == 1);

        World fresh;
        define(fresh);
        restore(fresh, fixture);
        CHECK(state_hash(fresh) == state_hash(world));
        CHECK(snapshot(fresh) == fixture);
        CHECK(fresh.topics().topic(hit).consumers.size() == 2);
        CHECK(fresh.topics().topic(note).consumers.size() == 1);
        scheduler.dispose();
    }
}
