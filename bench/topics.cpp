// The *topics* workload: 100,000 messages a frame through a topic (topic/topic_store.hpp). A C++
// kernel over 100,000 rows of `health` publishes one `hit` (target: the row's entity, damage: its
// health) per row (one KernelContext::publish per message, and in a second pair of rigs through a
// TopicWriter), and a main-thread system that consumes `hit` reads every message back through
// the field spans of world.messages(hit) and sums target handles and damage. The yardstick (the
// issue's target: publish + consume at most 2x): a plain loop that pushes the same 100,000 Hit
// values into a std::vector<Hit> (cleared each time, capacity kept) and reads them back with the
// same sums. Whole frames of a Scheduler with 2 workers (every wave with batches pinned to the
// pool, so the kernel really runs on the workers) and of the serial executor, each against the
// loop measured in the same repetition; variants interleaved, rotating which goes first. Wall
// time: the kernel runs on other threads than the coordinator. Every frame's sums and count are
// checked against the values the rows hold; a wrong one fails the program.
//
// Where a frame's time goes, from the scheduler's timeline (record_timeline, on in both rigs: a
// few clock reads per wave and batch): the publisher's wave (batching and the kernels, which
// record each message in their batch's command buffer), its merge (the records appended to the
// topic, in batch-id order), the consumer's serial slot (its window, the view, the sums), and the
// rest of the frame (begin_frame, trim of the read messages, the tick).
//
//   ./bench_topics [messages=100000] [repetitions=31] [--json PATH]

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "ecsia/ecsia.hpp"
#include "support/scheduler_testing.hpp"

struct Health {
    float hp;
};
struct Hit {
    ecsia::Entity target;
    float damage;
};
ECSIA_COMPONENT(Health, "health", hp)
ECSIA_TOPIC(Hit, "hit", target, damage)

using namespace ecsia;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr double kSampleSeconds = 0.01;

// The damage of row i: multiples of 0.25 below 250, so every sum of them in a double is exact
// whatever the order.
float damage_of(std::uint32_t i) { return static_cast<float>(i % 1000) * 0.25f; }

struct Sums {
    std::uint64_t targets = 0;
    double damage = 0;
    std::uint32_t count = 0;
};

// Where frames' time went (µs), from Scheduler::last_frame_waves() with the timeline on.
struct Split {
    double publish = 0;  // the publisher's wave: batching and its kernels
    double merge = 0;    // that wave's merge: the messages appended to the topic
    double consume = 0;  // the consumer's serial slot
};

// A world with the rows and the topic, and a scheduler running the publisher and the consumer.
struct Rig {
    World world;
    TopicId hit = 0;
    std::unique_ptr<Scheduler> scheduler;
    Sums seen;  // what the consumer read in the last frame

    // `writer`: the kernel publishes through a TopicWriter instead of one KernelContext::publish per row.
    Rig(std::uint32_t messages, std::uint32_t workers, bool writer) {
        const ComponentId health = world.component<Health>();
        hit = world.topic<Hit>();
        for (std::uint32_t i = 0; i < messages; ++i) world.spawn(Health{damage_of(i)});
        SchedulerOptions options;
        options.workers = workers;
        scheduler = std::make_unique<Scheduler>(world, options);
        if (workers > 0) detail::SchedulerTesting::force_placement(*scheduler, WavePlacement::Pool);
        scheduler->record_timeline(true);

        SystemDesc publisher;
        publisher.name = "Publish";
        publisher.reads = {health};
        publisher.publishes = {hit};
        if (writer) {
            publisher.kernel = [hit = hit, health](KernelContext& ctx) {
                const Health* hp = ctx.chunk.read<Health>(health);
                const Entity* entities = ctx.chunk.entities();
                TopicWriter<Hit> hits = ctx.topic_writer<Hit>(hit);
                for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) hits.publish(Hit{entities[r], hp[r].hp});
            };
        } else {
            publisher.kernel = [hit = hit, health](KernelContext& ctx) {
                const Health* hp = ctx.chunk.read<Health>(health);
                const Entity* entities = ctx.chunk.entities();
                for (std::uint32_t r = 0; r < ctx.chunk.size(); ++r) ctx.publish(hit, Hit{entities[r], hp[r].hp});
            };
        }
        SystemDesc consumer;
        consumer.name = "Consume";
        consumer.consumes = {hit};
        consumer.main_thread = [this](World& w, float) {
            const TopicMessages messages = w.messages(hit);
            const std::span<const Entity> targets = messages.field<Entity>(0);
            const std::span<const float> damage = messages.field<float>(1);
            Sums sums;
            for (std::uint32_t i = 0; i < messages.count(); ++i) {
                sums.targets += targets[i].bits;
                sums.damage += damage[i];
            }
            sums.count = messages.count();
            seen = sums;
        };
        // The consumer first: the plan must still run it after the publisher (they share a topic).
        scheduler->add_system(std::move(consumer));
        scheduler->add_system(std::move(publisher));
    }

    void frame() { scheduler->update(kDt); }

    // Adds the last frame's parts to `sum` (its rest is left to the caller, who has the wall time).
    void add_split(Split& sum) const {
        const std::vector<WaveTiming>& waves = scheduler->last_frame_waves();
        if (waves.size() != 2) return;
        sum.publish += waves[0].end_us - waves[0].serial_end_us;
        sum.merge += waves[0].merged_us - waves[0].end_us;
        sum.consume += waves[1].serial_end_us - waves[1].begin_us;
    }

    // Counts the last frame's batches by who ran them: [0] the coordinator, [1 + w] worker w.
    void count_runners(std::vector<std::uint64_t>& by_runner) const {
        for (const BatchTiming& batch : scheduler->last_frame_batches()) {
            const std::size_t at = batch.runner == BatchTiming::kCoordinator ? 0 : 1 + batch.runner;
            if (by_runner.size() <= at) by_runner.resize(at + 1, 0);
            ++by_runner[at];
        }
    }
};

struct Measured {
    Measured(const char* label, std::uint32_t workers, bool writer) : label(label), workers(workers), writer(writer) {}
    const char* label;
    std::uint32_t workers;
    bool writer;  // the kernel publishes through a TopicWriter
    std::vector<double> us;          // per repetition, µs per frame (or per loop)
    std::vector<double> over_loop;   // per repetition: us / the loop's in the same repetition
    std::vector<double> publish, merge, consume, rest;  // per repetition, µs per frame
    std::vector<std::uint64_t> by_runner;                // the sampled frames' batches: coordinator, worker 0, 1
};

}  // namespace

int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    const std::uint32_t messages = argc > 1 ? static_cast<std::uint32_t>(std::atoi(argv[1])) : 100000;
    const int repetitions = argc > 2 ? std::atoi(argv[2]) : 31;

    constexpr int kRigs = 4;
    Rig pooled(messages, 2, false);
    Rig serial(messages, 0, false);
    Rig pooled_writer(messages, 2, true);
    Rig serial_writer(messages, 0, true);
    Rig* rigs[kRigs] = {&pooled, &serial, &pooled_writer, &serial_writer};

    // The expected sums: every row's handle and damage (both rigs spawned the same handles).
    Sums expected;
    std::vector<Entity> entities;
    std::vector<float> damage;
    pooled.world.each<const Health>([&](Entity e, const Health& h) {
        entities.push_back(e);
        damage.push_back(h.hp);
        expected.targets += e.bits;
        expected.damage += h.hp;
    });
    expected.count = static_cast<std::uint32_t>(entities.size());

    // The yardstick: the same values pushed into a vector and read back with the same sums.
    std::vector<Hit> hits;
    hits.reserve(messages);
    Sums loop_sums;
    auto loop = [&] {
        hits.clear();
        for (std::size_t i = 0; i < entities.size(); ++i) hits.push_back(Hit{entities[i], damage[i]});
        Sums sums;
        for (const Hit& h : hits) {
            sums.targets += h.target.bits;
            sums.damage += h.damage;
        }
        sums.count = static_cast<std::uint32_t>(hits.size());
        loop_sums = sums;
    };

    std::uint64_t wrong = 0;  // frames (or loops) whose sums differ from the expected ones
    auto check = [&](const Sums& s) {
        if (s.count != expected.count || s.targets != expected.targets || s.damage != expected.damage) ++wrong;
    };

    // Warm up: pages, buffer capacities, the workers.
    for (int f = 0; f < 5; ++f) {
        loop();
        check(loop_sums);
        for (Rig* rig : rigs) {
            rig->frame();
            check(rig->seen);
        }
    }
    // The split below reads the publisher's wave and then the consumer's.
    for (Rig* rig : rigs) {
        if (rig->scheduler->last_frame_waves().size() != 2) {
            std::fprintf(stderr, "topics bench: the plan has %zu waves, not 2 (the publisher's, then the consumer's):\n%s\n",
                         rig->scheduler->last_frame_waves().size(), rig->scheduler->explain_plan().c_str());
            return 1;
        }
    }
    // Iterations per sample, each variant sized on its own speed.
    auto iterations = [](double one_second) { return std::max(1, static_cast<int>(kSampleSeconds / std::max(one_second, 1e-7))); };
    const int loop_iterations = iterations(bench::time_both(loop).wall);
    int frame_iterations[kRigs];
    for (int i = 0; i < kRigs; ++i) frame_iterations[i] = iterations(bench::time_both([&] { rigs[i]->frame(); }).wall);

    Measured base("std::vector<Hit> push + read (baseline)", 0, false);
    Measured measured[kRigs] = {{"ctx.publish frame, 2 workers (pool)", 2, false},
                                {"ctx.publish frame, serial executor", 0, false},
                                {"TopicWriter frame, 2 workers (pool)", 2, true},
                                {"TopicWriter frame, serial executor", 0, true}};
    for (int rep = 0; rep < repetitions; ++rep) {
        double loop_us = 0;
        double frame_us[kRigs] = {};
        Split parts[kRigs];  // summed over each sample's frames
        for (int k = 0; k < 1 + kRigs; ++k) {
            const int which = (k + rep) % (1 + kRigs);  // 0: the loop, then the rigs
            if (which == 0) {
                loop_us = bench::time_both([&] {
                              for (int i = 0; i < loop_iterations; ++i) loop();
                          }).wall * 1e6 / loop_iterations;
                check(loop_sums);
            } else {
                Rig& rig = *rigs[which - 1];
                const int n = frame_iterations[which - 1];
                Split& sum = parts[which - 1];
                frame_us[which - 1] = bench::time_both([&] {
                                          for (int i = 0; i < n; ++i) {
                                              rig.frame();
                                              check(rig.seen);
                                              rig.add_split(sum);
                                              rig.count_runners(measured[which - 1].by_runner);
                                          }
                                      }).wall * 1e6 / n;
            }
        }
        base.us.push_back(loop_us);
        for (int i = 0; i < kRigs; ++i) {
            Measured& m = measured[i];
            m.us.push_back(frame_us[i]);
            m.over_loop.push_back(frame_us[i] / loop_us);
            // The sample's frames split by the timeline, per frame; the rest is what the wall
            // time leaves (so the parts add up to the frame).
            const int n = frame_iterations[i];
            const Split& sum = parts[i];
            m.publish.push_back(sum.publish / n);
            m.merge.push_back(sum.merge / n);
            m.consume.push_back(sum.consume / n);
            m.rest.push_back(frame_us[i] - (sum.publish + sum.merge + sum.consume) / n);
        }
        bench::consume(loop_sums.damage);
    }
    if (wrong != 0) {
        std::fprintf(stderr, "topics bench: %llu frames or loops read sums or counts other than the rows' "
                             "(expected %u messages, damage %.2f, targets %llu)\n",
                     static_cast<unsigned long long>(wrong), expected.count, expected.damage,
                     static_cast<unsigned long long>(expected.targets));
        return 1;
    }

    const double loop_us = bench::median(base.us);
    std::printf("topics: %u messages a frame (hit: target entity, damage f32) published by a kernel, read back by a "
                "main-thread system; %d repetitions, median wall µs\n",
                messages, repetitions);
    std::printf("%-40s %10s %9s %8s   %s\n", "variant", "µs", "ns/msg", "/ loop", "publish wave + merge + consume + rest, µs");
    std::printf("%-40s %10.1f %9.2f %8.2f\n", base.label, loop_us, loop_us * 1e3 / messages, 1.0);
    std::vector<std::string> json_runs;
    for (const Measured& m : measured) {
        const double us = bench::median(m.us), ratio = bench::median(m.over_loop);
        const double publish = bench::median(m.publish), merge = bench::median(m.merge), consume = bench::median(m.consume),
                     rest = bench::median(m.rest);
        std::printf("%-40s %10.1f %9.2f %8.2f   %.1f + %.1f + %.1f + %.1f\n", m.label, us, us * 1e3 / messages, ratio, publish,
                    merge, consume, rest);
        json_runs.push_back(bench::json_object({bench::json_member("workers", std::to_string(m.workers)),
                                                bench::json_member("writer", m.writer ? "true" : "false"),
                                                bench::json_member("frame_us", bench::json_number(us)),
                                                bench::json_member("over_vector", bench::json_number(ratio)),
                                                bench::json_member("publish_us", bench::json_number(publish)),
                                                bench::json_member("merge_us", bench::json_number(merge)),
                                                bench::json_member("consume_us", bench::json_number(consume)),
                                                bench::json_member("rest_us", bench::json_number(rest))}));
    }
    // Where the publisher's batches ran: on this 2-core machine one worker often runs them all.
    for (const Measured& m : measured) {
        if (m.workers == 0) continue;
        std::printf("%s: the publisher's batches of the sampled frames ran on", m.label);
        for (std::size_t r = 0; r < m.by_runner.size(); ++r) {
            std::printf("%s %s %llu", r == 0 ? "" : ",", r == 0 ? "the coordinator" : ("worker " + std::to_string(r - 1)).c_str(),
                        static_cast<unsigned long long>(m.by_runner[r]));
        }
        std::printf("\n");
    }
    const int missed = bench::report_targets({
        {"topics_2_workers_over_vector", bench::median(measured[0].over_loop), 2.0, true, "x"},
        {"topics_2_workers_writer_over_vector", bench::median(measured[2].over_loop), 2.0, true, "x"},
    });
    const bool written = bench::write_json(
        json_path, bench::json_object({bench::json_member("messages", std::to_string(messages)),
                                       bench::json_member("repetitions", std::to_string(repetitions)),
                                       bench::json_member("vector_us", bench::json_number(loop_us)),
                                       bench::json_member("runs", bench::json_array(json_runs))}));
    return written ? (missed > 0 ? 2 : 0) : 1;
}
