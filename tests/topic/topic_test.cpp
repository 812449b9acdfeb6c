// Topics (topic/topic_store.hpp): messages published by the page, main-thread systems and kernels
// on the workers reach each consumer exactly once, in one order for every executor and worker
// count (G1), survive a snapshot, and are dropped once no consumer will read them.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ecsia/ecsia.hpp"
#include "ecsia/world/world_access.hpp"
#include "support/rng.hpp"

using namespace ecsia;

namespace {

struct Val {
    std::int32_t v;
};
struct Sink {
    std::uint32_t count;
    std::uint32_t digest;
};
// A message: who published it (system number, or 99 for the page), a serial number unique to its
// publisher, and an entity (possibly one the publishing batch spawned).
struct Ev {
    std::uint32_t from;
    std::uint32_t serial;
    Entity who;
};

}  // namespace

ECSIA_COMPONENT(Val, "val", v)
ECSIA_COMPONENT(Sink, "sink", count, digest)
ECSIA_TOPIC(Ev, "ev", from, serial, who)

namespace {

std::uint32_t mix(std::uint32_t a, std::uint32_t b) {
    std::uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u);
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    return h ^ (h >> 13);
}

// What consumers saw, frame after frame: (consumer, message) in the order they saw them.
struct Seen {
    std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t, std::uint32_t>> log;
    std::size_t dead = 0;  // kernel messages whose entity (a row's, or one its batch spawned) is not alive
};

// A random set of publishers and consumers over a world of `val` rows; the same seed gives the
// same systems, whose kernels publish through KernelContext::publish or, with `writer`, a
// TopicWriter each (the same messages either way). Returns the page's publish schedule (messages
// per frame).
struct Setup {
    std::vector<std::uint32_t> page_messages;  // by frame
    std::uint32_t page_serial = 0;
};

Setup build(World& world, Scheduler& scheduler, std::uint64_t seed, Seen& seen, bool writer) {
    test::Rng rng(seed);
    const ComponentId val = world.component<Val>();
    const ComponentId sink = world.component<Sink>();
    const TopicId ev = world.topic<Ev>();
    for (int i = 0; i < 300; ++i) world.spawn(Val{i});
    world.spawn(Sink{0, 0});
    const std::uint32_t publishers = 1 + rng.below(4);
    const std::uint32_t consumers = 1 + rng.below(3);
    // Consumers first half the time: the plan must still run them after the publishers.
    auto add_consumers = [&] {
        for (std::uint32_t c = 0; c < consumers; ++c) {
            SystemDesc system;
            system.name = "Reader" + std::to_string(c);
            system.consumes = {ev};
            if (c % 2 == 0) {
                const std::string name = system.name;
                system.main_thread = [&seen, ev, name](World& w, float) {
                    for (const Ev m : w.messages(ev).as<Ev>()) {
                        seen.log.emplace_back(name, m.from, m.serial, m.who.bits);
                        // Nothing is despawned: a spawned entity's handle (pending in its batch) is real here.
                        if (m.from < 10 && !m.who.is_null() && !w.is_alive(m.who)) ++seen.dead;
                    }
                };
            } else {
                // A kernel over the sink row: every batch sees the same messages; it folds them
                // into the row (count, order-sensitive digest).
                system.writes = {sink};
                system.kernel = [ev, sink](KernelContext& ctx) {
                    const TopicMessages& messages = ctx.messages(ev);
                    auto from = messages.field<std::uint32_t>(0);
                    auto serial = messages.field<std::uint32_t>(1);
                    Sink* rows = ctx.chunk.write<Sink>(sink);
                    for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) {
                        for (std::uint32_t i = 0; i < messages.count(); ++i) {
                            rows[r].digest = mix(rows[r].digest, from[i] * 100003u + serial[i]);
                        }
                        rows[r].count += messages.count();
                    }
                };
            }
            scheduler.add_system(std::move(system));
        }
    };
    const bool consumers_first = rng.chance(50);
    if (consumers_first) add_consumers();
    for (std::uint32_t p = 0; p < publishers; ++p) {
        SystemDesc system;
        system.name = "Publisher" + std::to_string(p);
        system.publishes = {ev};
        const std::uint32_t rate = 5 + rng.below(60);  // percent of rows that publish
        if (p == 0 && rng.chance(50)) {
            // Serials from the world's frame count, not a counter of its own: a restored world
            // must replay it.
            system.main_thread = [ev, p](World& w, float) {
                const auto frame = static_cast<std::uint32_t>(w.frames());
                for (std::uint32_t i = 0; i < 3; ++i) w.publish(ev, Ev{p, frame * 10 + i, kNullEntity});
            };
        } else {
            system.reads = {val};
            system.spawns_per_batch = rng.below(3);
            system.kernel = [ev, val, p, rate, writer](KernelContext& ctx) {
                const Val* vals = ctx.chunk.read<Val>(val);
                const Entity* entities = ctx.chunk.entities();
                auto publish_rows = [&](auto&& publish) {
                    for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) {
                        const std::uint32_t h =
                            mix(static_cast<std::uint32_t>(vals[r].v), static_cast<std::uint32_t>(ctx.frame) + p);
                        if (h % 100 >= rate) continue;
                        // A serial unique to the publisher: frame and the row's entity index.
                        const std::uint32_t serial =
                            static_cast<std::uint32_t>(ctx.frame) * 100000u + ctx.layout.index(entities[r]);
                        Entity who = entities[r];
                        if (h % 7 == 0) {
                            const ComponentValue v{val, &vals[r], sizeof(Val)};
                            who = ctx.spawn(&v, 1);  // reserved or pending: the message gets the real handle
                        }
                        publish(Ev{p, serial, who});
                    }
                };
                if (writer) {
                    TopicWriter<Ev> events = ctx.topic_writer<Ev>(ev);
                    publish_rows([&](const Ev& m) { events.publish(m); });
                } else {
                    publish_rows([&](const Ev& m) { ctx.publish(ev, m); });
                }
            };
        }
        scheduler.add_system(std::move(system));
    }
    if (!consumers_first) add_consumers();
    Setup setup;
    for (int f = 0; f < 12; ++f) setup.page_messages.push_back(rng.below(4));
    return setup;
}

struct Outcome {
    std::vector<std::uint64_t> hashes;
    Seen seen;
};

Outcome run(std::uint64_t seed, std::uint32_t workers, std::uint32_t batch_rows, bool writer = false) {
    Outcome out;
    World world;
    world.diagnostics().set_sink([](const std::string&) {});
    SchedulerOptions options;
    options.workers = workers;
    options.batch_rows = batch_rows;
    Scheduler scheduler(world, options);
    Setup setup = build(world, scheduler, seed, out.seen, writer);
    const TopicId ev = world.topic_id("ev");
    for (std::uint32_t f = 0; f < setup.page_messages.size(); ++f) {
        for (std::uint32_t i = 0; i < setup.page_messages[f]; ++i) world.publish(ev, Ev{99, setup.page_serial++, kNullEntity});
        out.hashes.push_back(state_hash(world));  // the page's messages are pending state
        scheduler.update(1.0f / 60);
        out.hashes.push_back(state_hash(world));
    }
    return out;
}

}  // namespace

TEST_CASE("topic messages reach consumers in one order for the serial executor and any worker count",
          "[topic][threads][determinism]") {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const Outcome serial = run(seed, 0, 64);
        REQUIRE(!serial.seen.log.empty());
        CHECK(serial.seen.dead == 0);
        for (std::uint32_t workers : {1u, 2u, 4u}) {
            INFO("seed " << seed << ", workers " << workers);
            const Outcome threaded = run(seed, workers, 64);
            CHECK(threaded.hashes == serial.hashes);
            CHECK(threaded.seen.log == serial.seen.log);
            CHECK(threaded.seen.dead == 0);
            // Kernels publishing through TopicWriters: the same messages, in the same order.
            const Outcome written = run(seed, workers, 64, true);
            CHECK(written.hashes == serial.hashes);
            CHECK(written.seen.log == serial.seen.log);
        }
        const Outcome written_serial = run(seed, 0, 64, true);
        CHECK(written_serial.hashes == serial.hashes);
        CHECK(written_serial.seen.log == serial.seen.log);
        // One batch per system instead of several (other batch ids and reservations): again the
        // same for the serial executor and the workers.
        const Outcome big_serial = run(seed, 0, 4096);
        const Outcome big = run(seed, 2, 4096);
        CHECK(big.seen.log == big_serial.seen.log);
        CHECK(big.hashes == big_serial.hashes);
    }
}

TEST_CASE("every consumer sees every message once, in publication order, also when registered before its publishers",
          "[topic]") {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        INFO("seed " << seed);
        const Outcome out = run(seed, 2, 50);
        // Per consumer: no message twice; the page's in call order; a kernel's frame after frame
        // (its serial is frame * 100000 + the row's entity index).
        std::map<std::string, std::vector<std::pair<std::uint32_t, std::uint32_t>>> by_consumer;
        for (const auto& [consumer, from, serial, who] : out.seen.log) by_consumer[consumer].emplace_back(from, serial);
        REQUIRE(!by_consumer.empty());
        for (auto& [consumer, messages] : by_consumer) {
            std::map<std::uint32_t, std::uint32_t> last;
            for (const auto& [from, serial] : messages) {
                if (last.count(from) && from == 99) CHECK(serial > last[from]);
                if (last.count(from) && from < 10) CHECK(serial / 100000 >= last[from] / 100000);
                last[from] = serial;
            }
            auto sorted = messages;
            std::sort(sorted.begin(), sorted.end());
            CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
        }
        // Every main-thread consumer saw the same messages (all of them: each consumer runs
        // after every publisher, so nothing published in the last frame is left unseen).
        std::vector<std::pair<std::uint32_t, std::uint32_t>> first;
        for (auto& [consumer, messages] : by_consumer) {
            if (first.empty()) first = messages;
            CHECK(messages == first);
        }
    }
}

TEST_CASE("a consumer after its publisher sees this frame's messages; one declared before sees them next frame",
          "[topic][plan]") {
    World world;
    const TopicId hit = world.define_topic("hit", {{"damage", FieldType::F32}});
    Scheduler scheduler(world);
    std::vector<std::pair<std::string, float>> seen;
    auto consumer = [&](std::string name, std::vector<std::string> before) {
        SystemDesc system;
        system.name = name;
        system.consumes = {hit};
        system.before = std::move(before);
        system.main_thread = [&seen, hit, name](World& w, float) {
            for (float damage : w.messages(hit).field<float>(0)) seen.emplace_back(name, damage);
        };
        scheduler.add_system(std::move(system));
    };
    consumer("Early", {"Shooter"});  // declared before: next frame
    consumer("Late", {});            // registered before the publisher too, yet planned after it
    SystemDesc shooter;
    shooter.name = "Shooter";
    shooter.publishes = {hit};
    float next = 1;
    shooter.main_thread = [&](World& w, float) { w.publish(hit, next++); };
    scheduler.add_system(std::move(shooter));
    const std::string plan = scheduler.explain_plan();
    CHECK(plan.find("'Shooter' publishes 'hit', which 'Late' consumes") != std::string::npos);
    scheduler.update(0);
    CHECK(seen == std::vector<std::pair<std::string, float>>{{"Late", 1.f}});
    seen.clear();
    scheduler.update(0);
    CHECK(seen == std::vector<std::pair<std::string, float>>{{"Early", 1.f}, {"Late", 2.f}});
    // Once both have seen a message it is gone; the last one waits for Early only.
    CHECK(world.topics().topic(hit).count == 1);
}

TEST_CASE("two systems that each consume what the other publishes are refused with both reasons", "[topic][plan]") {
    World world;
    const TopicId a = world.define_topic("a", {{"x", FieldType::I32}});
    const TopicId b = world.define_topic("b", {{"x", FieldType::I32}});
    Scheduler scheduler(world);
    SystemDesc one;
    one.name = "One";
    one.publishes = {a};
    one.consumes = {b};
    one.main_thread = [](World&, float) {};
    SystemDesc two;
    two.name = "Two";
    two.publishes = {b};
    two.consumes = {a};
    two.main_thread = [](World&, float) {};
    scheduler.add_system(one);
    scheduler.add_system(two);
    try {
        scheduler.update(0);
        FAIL("the plan was accepted");
    } catch (const Error& error) {
        CHECK(error.code() == ErrorCode::BadPlan);
        CHECK(std::string(error.what()).find("'One' publishes 'a', which 'Two' consumes, and 'Two' publishes 'b', which 'One' consumes") != std::string::npos);
    }
}

TEST_CASE("messages nobody will read are dropped: no consumer, a consumer added later, one removed", "[topic][lifetime]") {
    World world;
    const TopicId hit = world.define_topic("hit", {{"damage", FieldType::F32}});
    // No consumer: nothing is kept, however much is published.
    for (int i = 0; i < 10000; ++i) world.publish(hit, float(i));
    CHECK(world.topics().topic(hit).count == 0);
    Scheduler scheduler(world);
    std::vector<float> a_saw, b_saw;
    auto reader = [&](const char* name, std::vector<float>& into) {
        SystemDesc system;
        system.name = name;
        system.consumes = {hit};
        system.main_thread = [&into, hit](World& w, float) {
            for (float d : w.messages(hit).field<float>(0)) into.push_back(d);
        };
        return system;
    };
    scheduler.add_system(reader("A", a_saw));
    world.publish(hit, 1.f);
    world.publish(hit, 2.f);
    CHECK(world.topics().topic(hit).count == 2);
    scheduler.update(0);
    CHECK(a_saw == std::vector<float>{1, 2});
    CHECK(world.topics().topic(hit).count == 0);  // A saw them: dropped at the frame's end
    // B added between frames sees what is published from then on only.
    world.publish(hit, 3.f);
    scheduler.add_system(reader("B", b_saw));
    world.publish(hit, 4.f);
    scheduler.update(0);
    CHECK(a_saw == std::vector<float>{1, 2, 3, 4});
    CHECK(b_saw == std::vector<float>{4});
    // A removed: what only A had left to read goes, and B keeps its own.
    world.publish(hit, 5.f);
    scheduler.remove_system("A");
    CHECK(world.topics().topic(hit).count == 1);
    scheduler.update(0);
    CHECK(b_saw == std::vector<float>{4, 5});
    // Frames of steady publishing keep the topic bounded: what is read is dropped.
    for (int f = 0; f < 100; ++f) {
        for (int i = 0; i < 50; ++i) world.publish(hit, float(i));
        scheduler.update(0);
        REQUIRE(world.topics().topic(hit).count == 0);
    }
    // Removing the last consumer drops everything; a disposed scheduler's consumers are gone too.
    world.publish(hit, 6.f);
    scheduler.dispose();
    CHECK(world.topics().topic(hit).count == 0);
    CHECK(world.topics().topic(hit).consumers.empty());
}

TEST_CASE("a scheduler that goes keeps the consumers another scheduler of the world claims, of the same system name",
          "[topic][lifetime]") {
    World world;
    const TopicId hit = world.define_topic("hit", {{"damage", FieldType::F32}});
    const TopicId key = world.define_topic("key", {{"code", FieldType::U32}});
    auto reader = [](TopicId topic, std::vector<TopicId> also, std::size_t& seen) {
        SystemDesc system;
        system.name = "Input";
        system.consumes = {topic};
        system.consumes.insert(system.consumes.end(), also.begin(), also.end());
        system.main_thread = [&seen, topic](World& w, float) { seen += w.messages(topic).count(); };
        return system;
    };
    std::size_t sim_saw = 0, ui_saw = 0;
    Scheduler sim(world);
    sim.add_system(reader(hit, {key}, sim_saw));  // "Input" of sim consumes hit and key
    for (const bool dispose : {false, true}) {
        INFO((dispose ? "dispose()" : "remove_system()"));
        {
            Scheduler ui(world);
            ui.add_system(reader(key, {}, ui_saw));  // another "Input", of key only
            world.publish(hit, 1.f);
            world.publish(key, std::uint32_t{7});
            ui.update(0);
            if (dispose) {
                ui.dispose();
            } else {
                ui.remove_system("Input");
            }
        }
        const std::size_t before = sim_saw;
        for (int f = 0; f < 3; ++f) REQUIRE_NOTHROW(sim.update(0));
        CHECK(sim_saw == before + 1);  // the hit published before; sim's cursors were kept
        world.publish(hit, 2.f);
        sim.update(0);
        CHECK(sim_saw == before + 2);
        CHECK(world.topics().topic(hit).consumers.size() == 1);
        CHECK(world.topics().topic(key).consumers.size() == 1);
    }
    CHECK(ui_saw == 2);
}

TEST_CASE("a main-thread consumer's messages stay readable while an observer its changes set off publishes to the topic",
          "[topic][lifetime]") {
    World world;
    const ComponentId val = world.component<Val>();
    const TopicId hit = world.define_topic("hit", {{"damage", FieldType::U32}});
    // Each spawn below publishes a message from the observer: the topic's fields grow under the loop.
    world.observe(ObserverEvent::OnAdd, val, [hit](ObserverContext& ctx) { ctx.world.publish(hit, std::uint32_t{100}); });
    Scheduler scheduler(world);
    std::vector<std::uint32_t> seen;
    SystemDesc system;
    system.name = "Spawner";
    system.consumes = {hit};
    system.publishes = {hit};
    system.main_thread = [&seen, hit](World& w, float) {
        for (const std::uint32_t damage : w.messages(hit).field<std::uint32_t>(0)) {
            seen.push_back(damage);
            w.spawn(Val{1});
        }
    };
    scheduler.add_system(system);
    for (std::uint32_t i = 0; i < 8; ++i) world.publish(hit, i);
    scheduler.update(0);
    CHECK(seen == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
    scheduler.update(0);  // the observer's 8 messages, each spawning again
    CHECK(seen.size() == 16);
    CHECK(std::count(seen.begin() + 8, seen.end(), 100u) == 8);
}

TEST_CASE("bad topic input is refused with a clear error and changes nothing", "[topic][g5]") {
    World world;
    const TopicId hit = world.define_topic("hit", {{"damage", FieldType::F32}});
    auto code = [](auto&& fn) {
        try {
            fn();
        } catch (const Error& error) {
            return std::make_pair(std::optional<ErrorCode>(error.code()), std::string(error.what()));
        }
        return std::make_pair(std::optional<ErrorCode>(), std::string("no error"));
    };
    CHECK(code([&] { world.define_topic("hit", {{"x", FieldType::I32}}); }).first == ErrorCode::DuplicateName);
    CHECK(code([&] { world.define_topic("empty", {}); }).first == ErrorCode::BadDefinition);
    const auto unknown = code([&] { world.topic_id("miss"); });
    CHECK(unknown.first == ErrorCode::UnknownTopic);
    CHECK(unknown.second.find("defined: 'hit'") != std::string::npos);
    CHECK(code([&] { world.publish(hit, std::int64_t{1}); }).first == ErrorCode::BadValue);
    CHECK(code([&] { world.publish(7, 1.f); }).first == ErrorCode::UnknownTopic);
    CHECK(code([&] { world.messages(hit); }).first == ErrorCode::UnknownTopic);
    // A struct of another layout under an existing name, and a field read as another type.
    CHECK(code([&] { world.topic<Ev>(); world.topic<Ev>(); }).first == std::nullopt);  // the same struct again: its id
    World other;
    other.define_topic("ev", {{"from", FieldType::U32}, {"serial", FieldType::F32}, {"who", FieldType::Entity}});
    CHECK(code([&] { other.topic<Ev>(); }).first == ErrorCode::DuplicateName);
    const TopicMessages none;
    CHECK(code([&] { (void)none.field<float>(0); }).first == ErrorCode::UnknownField);
    CHECK(world.topics().size() == 2);

    Scheduler scheduler(world);
    SystemDesc bad;
    bad.name = "Bad";
    bad.consumes = {5};
    bad.main_thread = [](World&, float) {};
    CHECK(code([&] { scheduler.add_system(bad); }).first == ErrorCode::UnknownTopic);
    CHECK(scheduler.systems().empty());
    CHECK(code([&] { scheduler.remove_system("Nobody"); }).first == ErrorCode::UnknownSystem);

    // Inside systems: an undeclared publish or read fails that system alone, with a diagnostic.
    std::vector<std::string> said;
    world.diagnostics().set_sink([&](const std::string& m) { said.push_back(m); });
    SystemDesc sneaky;
    sneaky.name = "Sneaky";
    sneaky.main_thread = [hit](World& w, float) { w.publish(hit, 1.f); };
    SystemDesc peeker;
    peeker.name = "Peeker";
    peeker.kernel = [hit](KernelContext& ctx) { (void)ctx.messages(hit); };
    SystemDesc kernel_sneak;
    kernel_sneak.name = "KernelSneak";
    kernel_sneak.kernel = [hit](KernelContext& ctx) { ctx.publish(hit, 1.f); };
    scheduler.add_system(sneaky);
    scheduler.add_system(peeker);
    scheduler.add_system(kernel_sneak);
    SystemDesc reader;
    reader.name = "Reader";
    reader.consumes = {hit};
    reader.main_thread = [](World&, float) {};
    scheduler.add_system(reader);
    scheduler.update(0);
    auto said_once = [&](const std::string& text) {
        return std::count_if(said.begin(), said.end(), [&](const std::string& m) { return m.find(text) != std::string::npos; });
    };
    CHECK(said_once("system 'Sneaky' publishes 'hit' without declaring it") == 1);
    CHECK(said_once("messages('hit'): the system does not consume it") == 1);
    CHECK(said_once("publish('hit'): the system does not publish it") == 1);
    // Read as another type than its own: refused.
    SystemDesc misread;
    misread.name = "Misread";
    misread.consumes = {hit};
    misread.main_thread = [hit](World& w, float) { (void)w.messages(hit).field<std::uint32_t>(0); };
    scheduler.add_system(misread);
    scheduler.update(0);
    CHECK(said_once("field 'damage' of topic 'hit' is f32, read as u32") == 1);
    CHECK(world.topics().topic(hit).count == 0);
    // A wave refuses the page's publish (the world is in a wave only inside a frame).
    detail::WorldAccess::set_phase(world, WorldPhase::Wave);
    CHECK(code([&] { world.publish(hit, 1.f); }).first == ErrorCode::WrongPhase);
    detail::WorldAccess::set_phase(world, WorldPhase::Serial);
    CHECK(world.topics().topic(hit).count == 0);
    world.diagnostics().set_sink([](const std::string&) {});  // `said` goes before the scheduler's last words
}

TEST_CASE("a restored world replays the same messages: pending ones and cursors travel in the snapshot",
          "[topic][snapshot]") {
    for (std::uint64_t seed : {3ull, 8ull}) {
        INFO("seed " << seed);
        World world;
        world.diagnostics().set_sink([](const std::string&) {});
        Seen seen;
        Scheduler scheduler(world, SchedulerOptions{.workers = 2});
        Setup setup = build(world, scheduler, seed, seen, false);
        const TopicId ev = world.topic_id("ev");
        // A consumer that runs before the publishers, so messages are pending between frames.
        SystemDesc early;
        early.name = "Early";
        early.consumes = {ev};
        early.before = {"Publisher0"};
        early.main_thread = [&seen, ev](World& w, float) {
            for (const Ev m : w.messages(ev).as<Ev>()) seen.log.emplace_back("Early", m.from, m.serial, m.who.bits);
        };
        scheduler.add_system(early);
        for (int f = 0; f < 4; ++f) scheduler.update(1.0f / 60);
        world.publish(ev, Ev{99, 1000, kNullEntity});
        REQUIRE(world.topics().topic(ev).count > 0);
        const std::vector<std::byte> bytes = snapshot(world);
        const std::uint64_t hash = state_hash(world);
        seen.log.clear();
        for (int f = 0; f < 4; ++f) scheduler.update(1.0f / 60);
        const auto original = seen.log;

        // The same systems over a fresh world restored from the bytes see the same messages.
        World copy;
        copy.diagnostics().set_sink([](const std::string&) {});
        Seen copy_seen;
        Scheduler copy_scheduler(copy, SchedulerOptions{.workers = 0});
        build(copy, copy_scheduler, seed, copy_seen, false);
        early.main_thread = [&copy_seen, ev](World& w, float) {
            for (const Ev m : w.messages(ev).as<Ev>()) copy_seen.log.emplace_back("Early", m.from, m.serial, m.who.bits);
        };
        copy_scheduler.add_system(early);
        restore(copy, bytes);
        CHECK(state_hash(copy) == hash);
        copy_seen.log.clear();
        for (int f = 0; f < 4; ++f) copy_scheduler.update(1.0f / 60);
        CHECK(copy_seen.log == original);
        CHECK(state_hash(copy) == state_hash(world));

        // A topic this world lacks, or defines differently, is refused and changes nothing.
        World other;
        other.component<Val>();
        other.component<Sink>();
        other.define_topic("ev", {{"from", FieldType::U32}});
        const std::vector<std::byte> before = snapshot(other);
        try {
            restore(other, bytes);
            FAIL("restored into a world with another 'ev'");
        } catch (const Error& error) {
            CHECK(error.code() == ErrorCode::SnapshotMismatch);
        }
        CHECK(snapshot(other) == before);
    }
}

TEST_CASE("a message's pending handle that no spawn of its batch made becomes null, and is said, consumed or not", "[topic]") {
    for (const bool consumed : {true, false}) {
        CAPTURE(consumed);
        World world;
        std::vector<std::string> said;
        world.diagnostics().set_sink([&](const std::string& m) { said.push_back(m); });
        const TopicId ping = world.define_topic("ping", {{"who", FieldType::Entity}, {"n", FieldType::U32}});
        if (consumed) detail::WorldAccess::topics(world).add_consumer(ping, "Reader");
        const Entity real = world.spawn();
        const Entity stranger = world.entities().layout().pending(7);  // no spawn of this buffer
        CommandBuffer buffer;
        // Blocks of the merge's copy and scan are 2,048 messages, four a step: a stranger in the
        // first block's steps, and one alone in the second block, as its last message (past the
        // steps of four).
        constexpr std::uint32_t kCount = 3003;
        auto strange = [](std::uint32_t i) { return i == 1001 || i == kCount - 1; };
        for (std::uint32_t i = 0; i < kCount; ++i) {
            const std::uint32_t message[2] = {strange(i) ? stranger.bits : real.bits, i};
            buffer.publish(ping, message, sizeof message);
        }
        CommandBuffer* buffers[] = {&buffer};
        detail::WorldAccess::apply(world, buffers);
        const auto refused = std::count_if(said.begin(), said.end(), [](const std::string& m) {
            return m.find("a message of topic 'ping' held pending handle") != std::string::npos;
        });
        CHECK(refused == 1);  // one diagnostic per apply, however many
        const TopicStore::Topic& topic = world.topics().topic(ping);
        if (!consumed) {
            CHECK(topic.count == 0);
            continue;
        }
        REQUIRE(topic.count == kCount);
        const auto* who = reinterpret_cast<const std::uint32_t*>(topic.fields[0].data());
        const auto* n = reinterpret_cast<const std::uint32_t*>(topic.fields[1].data());
        std::uint32_t wrong = 0;
        for (std::uint32_t i = 0; i < kCount; ++i) {
            if (who[i] != (strange(i) ? kNullEntity.bits : real.bits) || n[i] != i) ++wrong;
        }
        CHECK(wrong == 0);
    }
}

TEST_CASE("a TopicWriter's messages are publish()'s, in call order; publishing its topic otherwise meanwhile is refused",
          "[topic]") {
    World world;
    const TopicId ping = world.define_topic("ping", {{"who", FieldType::Entity}, {"n", FieldType::U32}});
    const TopicId pong = world.define_topic("pong", {{"n", FieldType::U32}});
    struct Ping {
        Entity who;
        std::uint32_t n;
    };
    detail::WorldAccess::topics(world).add_consumer(ping, "Reader");
    const Entity real = world.spawn();
    CommandBuffer buffer;
    const Ping first{real, 0};
    buffer.publish(ping, &first, sizeof first);
    std::uint32_t n = 1;
    {
        TopicWriter<Ping> writer(buffer, ping);
        // Enough to grow its room several times (it starts at 64 messages).
        for (; n < 5000; ++n) writer.publish(Ping{real, n});
        // Its topic any other way, or a second writer of it, would land among its messages.
        const Ping late{real, 99999};
        CHECK_THROWS_MATCHES(buffer.publish(ping, &late, sizeof late), Error,
                             Catch::Matchers::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::WrongPhase; }));
        CHECK_THROWS_AS(TopicWriter<Ping>(buffer, ping), Error);
        CHECK_THROWS_AS(buffer.reserve_messages(ping, sizeof(Ping), 1), Error);
        // Another topic meanwhile is fine.
        const std::uint32_t other = 7;
        buffer.publish(pong, &other, sizeof other);
        writer.publish(Ping{real, n++});
    }
    const Ping last{real, n++};
    buffer.publish(ping, &last, sizeof last);  // allowed again once the writer is gone
    REQUIRE(buffer.outboxes().size() == 2);
    CHECK(buffer.outboxes()[0].count == n);
    CHECK(buffer.outboxes()[1].count == 1);
    CommandBuffer* buffers[] = {&buffer};
    detail::WorldAccess::apply(world, buffers);
    const TopicStore::Topic& topic = world.topics().topic(ping);
    REQUIRE(topic.count == n);
    const auto* who = reinterpret_cast<const std::uint32_t*>(topic.fields[0].data());
    const auto* serial = reinterpret_cast<const std::uint32_t*>(topic.fields[1].data());
    std::uint32_t wrong = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (who[i] != real.bits || serial[i] != i) ++wrong;
    }
    CHECK(wrong == 0);

    // A kernel's writer is checked as its publish() is: an undeclared topic or another size.
    std::vector<std::string> said;
    world.diagnostics().set_sink([&](const std::string& m) { said.push_back(m); });
    Scheduler scheduler(world);
    SystemDesc undeclared;
    undeclared.name = "Undeclared";
    undeclared.kernel = [pong](KernelContext& ctx) { (void)ctx.topic_writer<std::uint32_t>(pong); };
    SystemDesc misfit;
    misfit.name = "Misfit";
    misfit.publishes = {pong};
    misfit.kernel = [pong](KernelContext& ctx) { (void)ctx.topic_writer<std::uint64_t>(pong); };
    scheduler.add_system(undeclared);
    scheduler.add_system(misfit);
    scheduler.update(0);
    auto said_once = [&](const std::string& text) {
        return std::count_if(said.begin(), said.end(), [&](const std::string& m) { return m.find(text) != std::string::npos; });
    };
    CHECK(said_once("publish('pong'): the system does not publish it") == 1);
    CHECK(said_once("publish('pong') with 8 bytes; its messages are 4") == 1);
    world.diagnostics().set_sink([](const std::string&) {});
}

TEST_CASE("messages stored field by field join their topic as the same messages packed would, in call order",
          "[topic]") {
    // Random sequences of packed publishes and field-major runs (reserve_messages_by_field, as a JS
    // kernel's publishMany writes them) against the same messages all packed: the topic's fields
    // and the diagnostics must match, consumed or not, with pending handles that no spawn of the
    // buffer made among them (null, and said).
    test::Rng rng(0x70b1c5);
    for (int round = 0; round < 40; ++round) {
        const bool consumed = round % 4 != 3;
        CAPTURE(round, consumed);
        std::vector<std::string> said[2];
        std::vector<std::vector<std::byte>> fields[2];
        std::uint32_t counts[2] = {0, 0};
        std::vector<std::pair<bool, std::uint32_t>> segments;  // (by field, messages)
        for (int s = 0, n = 1 + static_cast<int>(rng.below(6)); s < n; ++s) segments.emplace_back(rng.chance(50), rng.below(3000));
        const std::uint64_t seed = rng.next();
        for (int twin = 0; twin < 2; ++twin) {
            World world;
            world.diagnostics().set_sink([&, twin](const std::string& m) { said[twin].push_back(m); });
            // Fields of three sizes (the by-field arrays of a run are not all 4-byte), and entity
            // fields first and last (one at an offset other than 0).
            const TopicId hit = world.define_topic("hit", {{"who", FieldType::Entity}, {"crit", FieldType::U8}, {"damage", FieldType::F32},
                                                           {"by", FieldType::Entity}});
            if (consumed) detail::WorldAccess::topics(world).add_consumer(hit, "Reader");
            const Entity real = world.spawn();
            const Entity stranger = world.entities().layout().pending(3);
            const ComponentDesc& layout = world.topics().topic(hit).layout;
            CommandBuffer buffer;
            test::Rng values(seed);
            std::uint32_t serial = 0;
            auto fill = [&](std::byte* message, std::size_t stride_of_field_at, std::size_t element) {
                // Field f of message `element` lies at message + stride_of_field_at * offset + element * size.
                const Entity who = values.chance(1) ? stranger : real;
                const std::uint8_t crit = static_cast<std::uint8_t>(values.below(2));
                const float damage = static_cast<float>(serial++) * 0.5f;
                const Entity by = values.chance(1) ? stranger : real;
                const void* value[] = {&who.bits, &crit, &damage, &by.bits};
                for (std::size_t f = 0; f < layout.fields.size(); ++f) {
                    const std::size_t size = field_size(layout.fields[f].type);
                    std::memcpy(message + stride_of_field_at * layout.fields[f].offset + element * size, value[f], size);
                }
            };
            for (const auto& [by_field, count] : segments) {
                if (twin == 1 && by_field) {
                    std::byte* room = buffer.reserve_messages_by_field(hit, layout.size, count);
                    for (std::uint32_t i = 0; i < count; ++i) fill(room, count, i);
                } else {
                    std::vector<std::byte> message(layout.size);
                    for (std::uint32_t i = 0; i < count; ++i) {
                        fill(message.data(), 1, 0);
                        buffer.publish(hit, message.data(), layout.size);
                    }
                }
            }
            CommandBuffer* buffers[] = {&buffer};
            detail::WorldAccess::apply(world, buffers);
            const TopicStore::Topic& topic = world.topics().topic(hit);
            counts[twin] = topic.count;
            for (const auto& column : topic.fields) fields[twin].emplace_back(column.begin(), column.end());
        }
        std::uint32_t total = 0;
        for (const auto& segment : segments) total += segment.second;
        CHECK(counts[0] == (consumed ? total : 0));
        CHECK(counts[1] == counts[0]);
        CHECK(fields[1] == fields[0]);
        CHECK(said[1] == said[0]);
    }
}

TEST_CASE("room for more messages than an outbox can count is refused, and the outbox keeps what it held", "[topic][g5]") {
    World world;
    const TopicId ping = world.define_topic("ping", {{"who", FieldType::Entity}, {"n", FieldType::U32}});
    CommandBuffer buffer;
    const std::uint32_t message[2] = {kNullEntity.bits, 1};
    buffer.publish(ping, message, sizeof message);
    const auto capacity = [](const Error& e) { return e.code() == ErrorCode::CapacityExceeded; };
    for (const bool by_field : {false, true}) {
        CAPTURE(by_field);
        const auto reserve = [&] {
            return by_field ? buffer.reserve_messages_by_field(ping, sizeof message, 0xFFFFFFFFu)
                            : buffer.reserve_messages(ping, sizeof message, 0xFFFFFFFFu);
        };
        CHECK_THROWS_MATCHES(reserve(), Error, Catch::Matchers::Predicate<Error>(capacity));
        REQUIRE(buffer.outboxes().size() == 1);
        CHECK(buffer.outboxes()[0].count == 1);
        CHECK(buffer.outboxes()[0].field_runs.empty());
    }
}

TEST_CASE("a consumer that a restore brings back but no scheduler runs is dropped at the next frame", "[topic]") {
    // A snapshot taken while 'Reader' consumed, restored after Reader was removed: nothing reads
    // for it, so its topic must not keep every message from then on.
    World world;
    const TopicId ev = world.topic<Ev>();
    Scheduler scheduler(world);
    std::uint32_t other_saw = 0;
    SystemDesc reader;
    reader.name = "Reader";
    reader.consumes = {ev};
    reader.main_thread = [ev](World& w, float) { (void)w.messages(ev); };
    scheduler.add_system(reader);
    SystemDesc other;
    other.name = "Other";
    other.consumes = {ev};
    other.main_thread = [ev, &other_saw](World& w, float) { other_saw += w.messages(ev).count(); };
    scheduler.add_system(other);
    scheduler.update(0.016f);
    world.publish(ev, Ev{1, 1, kNullEntity});
    const std::vector<std::byte> bytes = snapshot(world);
    scheduler.remove_system("Reader");
    restore(world, bytes);
    CHECK(world.topics().topic(ev).consumers.size() == 2);  // the snapshot's
    for (std::uint32_t frame = 0; frame < 50; ++frame) {
        for (std::uint32_t i = 0; i < 10; ++i) world.publish(ev, Ev{2, i, kNullEntity});
        scheduler.update(0.016f);
        CHECK(world.topics().topic(ev).count == 0);  // Other saw them all; nobody else holds them
    }
    REQUIRE(world.topics().topic(ev).consumers.size() == 1);
    CHECK(world.topics().topic(ev).consumers[0].name == "Other");
    CHECK(other_saw == 1 + 50 * 10);  // the message of the snapshot, then every later one, once
}

TEST_CASE("a consumer a restored snapshot lacks gets what the page publishes before the next frame", "[topic]") {
    // Restore, publish the frame's inputs, update: the rollback sequence. Reader was added after
    // the snapshot; Early was in it. Both see the message.
    World world;
    const TopicId ev = world.topic<Ev>();
    Scheduler scheduler(world);
    std::uint32_t early_saw = 0, reader_saw = 0;
    auto counter = [ev](const char* name, std::uint32_t& saw) {
        SystemDesc system;
        system.name = name;
        system.consumes = {ev};
        system.main_thread = [ev, &saw](World& w, float) { saw += w.messages(ev).count(); };
        return system;
    };
    scheduler.add_system(counter("Early", early_saw));
    const std::vector<std::byte> bytes = snapshot(world);
    scheduler.add_system(counter("Reader", reader_saw));
    for (int round = 0; round < 2; ++round) {
        restore(world, bytes);
        world.publish(ev, Ev{99, 1, kNullEntity});
        CHECK(world.topics().topic(ev).count == 1);
        scheduler.update(0.016f);
        CHECK(early_saw == std::uint32_t(round + 1));
        CHECK(reader_saw == std::uint32_t(round + 1));
    }
}
