#pragma once
// Shared by the snapshot tests: the determinism scenario run with a snapshot in the middle, and
// what "exactly unchanged" means for a restore that was refused.

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin/scenario.hpp"
#include "ecsia/snapshot/snapshot.hpp"
#include "ecsia/snapshot/snapshot_restorer.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "ecsia/world/world_access.hpp"

namespace test {

inline std::vector<std::byte> to_bytes(const std::vector<unsigned char>& in) {
    std::vector<std::byte> out(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<std::byte>(in[i]);
    return out;
}

// A SnapshotSource over bytes in memory that counts what a SnapshotRestorer pulls from it, and
// throws std::logic_error (which no test expects) if asked for bytes outside them.
class VectorSource : public ecsia::SnapshotSource {
public:
    explicit VectorSource(const std::vector<std::byte>& bytes) : bytes_(bytes) {}
    std::size_t size() const override { return bytes_.size(); }
    void copy(std::size_t offset, std::size_t size, std::byte* to) override {
        if (offset > bytes_.size() || size > bytes_.size() - offset) throw std::logic_error("a restorer asked for bytes past the snapshot");
        if (size > 0) std::memcpy(to, bytes_.data() + offset, size);
        copied += size;
        ++calls;
    }
    std::size_t copied = 0;
    std::size_t calls = 0;

private:
    const std::vector<std::byte>& bytes_;
};

// restore(world, bytes) through `restorer`, from a VectorSource over the bytes.
inline void restore_pulled(ecsia::SnapshotRestorer& restorer, ecsia::World& world, const std::vector<std::byte>& bytes) {
    VectorSource source(bytes);
    restorer.restore(world, source);
}

// A world running the determinism scenario, as a test sets it up (the same options everywhere,
// so snapshots of one restore into another).
struct ScenarioRun {
    explicit ScenarioRun(std::uint32_t workers, std::uint64_t seed = 1)
        : world(ecsia::WorldOptions{1u << 16, 22}), scheduler(world, options(workers)) {
        world.diagnostics().set_sink([this](const std::string&) { ++diagnostics; });
        ecsia::builtin::setup_scenario(world, scheduler, seed, observer_log);
    }
    static ecsia::SchedulerOptions options(std::uint32_t workers) {
        ecsia::SchedulerOptions o;
        o.workers = workers;
        o.batch_rows = 128;  // many batches, so batch order matters
        return o;
    }
    // Runs `frames` frames; returns the state hash after each.
    std::vector<std::uint64_t> run(std::uint32_t frames) {
        std::vector<std::uint64_t> hashes;
        for (std::uint32_t f = 0; f < frames; ++f) {
            scheduler.update(1.0f / 60);
            hashes.push_back(ecsia::state_hash(world));
        }
        return hashes;
    }

    std::vector<std::uint64_t> observer_log;  // before world: observers hold a reference to it
    ecsia::World world;
    ecsia::Scheduler scheduler;
    std::size_t diagnostics = 0;
};

// The components of rich_world(), defined in `world` in the same order.
inline void define_rich_components(ecsia::World& world) {
    using ecsia::FieldType;
    world.define_component("pos", {{"x", FieldType::F32}, {"y", FieldType::F32}});
    world.define_component("mixed", {{"flag", FieldType::Bool}, {"big", FieldType::F64}, {"small", FieldType::I16}});
    world.define_component("link", {{"target", FieldType::Entity}});
    world.define_component("frozen", {});
}

// A small world that uses every part of the format: several tables (one emptied), a tag, bool,
// f64 and entity fields, a free list with an order, per-row and uniform ticks, a bulk changed
// stamp, system cursors and a queued change event.
inline void fill_rich_world(ecsia::World& world) {
    using namespace ecsia;
    define_rich_components(world);
    const ComponentId pos = world.component_id("pos"), mixed = world.component_id("mixed");
    const ComponentId link = world.component_id("link"), frozen = world.component_id("frozen");
    std::vector<Entity> all;
    for (std::uint32_t i = 0; i < 40; ++i) {
        const float p[2] = {float(i), float(i) * 0.5f};
        all.push_back(world.spawn_with(std::vector<ComponentValue>{{pos, p, 8}}));
        ecsia::detail::WorldAccess::advance_tick(world);
    }
    for (std::uint32_t i = 0; i < 40; i += 4) {
        std::byte m[24] = {};
        m[0] = std::byte{1};
        const double big = i * 1.25;
        std::memcpy(m + 8, &big, 8);
        world.add(all[i], ComponentValue{mixed, m, 24});
    }
    for (std::uint32_t i = 1; i < 40; i += 5) {
        const Entity target = all[(i + 7) % 40];
        world.add(all[i], ComponentValue{link, &target, 4});
        world.add(all[i], ComponentValue{frozen, nullptr, 0});
    }
    for (std::uint32_t i = 2; i < 40; i += 6) world.despawn(all[i]);
    const Entity lonely = world.spawn();
    world.add(lonely, ComponentValue{frozen, nullptr, 0});
    world.despawn(lonely);  // leaves the {frozen} table empty
    SystemCursors& cursors = ecsia::detail::WorldAccess::cursors(world);
    cursors.set_last_run(cursors.slot("Mover"), ecsia::detail::WorldAccess::advance_tick(world));
    cursors.set_last_run(cursors.slot("Idle"), 0);
    cursors.count_frame();
    cursors.count_frame();
    QueryDesc q;
    q.with = {pos};
    world.query(q).for_each_chunk([&](Chunk& chunk) { chunk.write<float>(pos); });  // a bulk stamp
    world.observe(ObserverEvent::OnChange, pos, [](ObserverContext&) {});
    const float moved[2] = {-1.0f, -2.0f};
    world.set_bytes(all[5], pos, 0, moved, 8);  // a change event waiting for flush()
}

// Adds to a rich world two tables whose rows are spawned together, so that a snapshot stores them
// as runs of handles (format 4): 80 entities of tags only (the first of them reuse the slots left on
// the free list, up to the rich world's 8, which start runs of their own: at most 9 runs, fewer
// than 80 / 8) and then 32 with values (one run). The rich world's own tables are churned, and
// listed. A change fill_rich_world() left queued stays queued.
inline void add_run_tables(ecsia::World& world) {
    using namespace ecsia;
    const ComponentId pos = world.component_id("pos"), mixed = world.component_id("mixed"), frozen = world.component_id("frozen");
    const float p[2] = {7, 8};
    const std::byte m[24] = {};
    for (int i = 0; i < 80; ++i) world.spawn_with(std::vector<ComponentValue>{{frozen, nullptr, 0}});
    for (int i = 0; i < 32; ++i) world.spawn_with(std::vector<ComponentValue>{{pos, p, 8}, {mixed, m, 24}, {frozen, nullptr, 0}});
}

}  // namespace test
