// EMSCRIPTEN_BINDINGS(ecsia_scheduler): systems, the resumable frame, the plan.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#ifdef __EMSCRIPTEN_PTHREADS__
#include <emscripten/threading.h>
#endif

#include <array>
#include <climits>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "ecsia/base/monotonic_clock.hpp"
#include "ecsia/schedule/placement.hpp"
#include "ecsia/schedule/system_registry.hpp"
#include "ecsia/topic/topic_store.hpp"
#include "ecsia/world/registered_components.hpp"
#include "boundary_constants.hpp"
#include "js_error.hpp"
#include "js_values.hpp"
#include "scheduler_binding.hpp"
#include "ecsia/threads/worker_pool.hpp"
#include "ecsia/threads/wave_fence.hpp"

using emscripten::val;

namespace ecsia::wasm {

namespace {

#ifdef __EMSCRIPTEN_PTHREADS__
// memory.atomic.notify on the fence's done word resolves the page's Atomics.waitAsync on it.
void wake_js_waiters(const void* address) { emscripten_futex_wake(const_cast<void*>(address), INT_MAX); }

// Workers sleep on their wake word with a real futex wait (libc++'s atomic wait polls here).
void futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t seen) {
    emscripten_futex_wait(reinterpret_cast<void*>(word), seen, INFINITY);
}
void futex_wake(std::atomic<std::uint32_t>* word) { emscripten_futex_wake(reinterpret_cast<void*>(word), 1); }
#endif

// The shared clock's ms (wasm/shared_clock.lib.js, a JS library function: unlike EM_JS, it can be
// declared noexcept, which keeps every clock read inside a frame's try block a direct call).
extern "C" double ecsia_shared_clock_ms() noexcept;

std::int64_t now_ns() noexcept { return static_cast<std::int64_t>(ecsia_shared_clock_ms() * 1e6); }

// One part of a record the page decodes (a frame record, the User Timing queue). Each part's size
// is the boundary's (boundary_constants.hpp): an array of that size refuses one more value at
// compile time.
template <std::size_t N>
void append(std::vector<double>& out, const std::array<double, N>& part) {
    out.insert(out.end(), part.begin(), part.end());
}

}  // namespace

SchedulerBinding::SchedulerBinding(WorldBinding& world, std::uint32_t workers, std::uint32_t batch_rows,
                                   double wave_deadline_ms, double fence_poll_us)
    : world_(world) {
    if (workers > ECSIA_WASM_POOL_SIZE) {
        throw Error(ErrorCode::WorkerFailure, "this module was built with " + std::to_string(ECSIA_WASM_POOL_SIZE) +
                                                  " pooled workers; " + std::to_string(workers) + " were asked for");
    }
    SchedulerOptions options;
    options.workers = workers;
    options.batch_rows = batch_rows == 0 ? SchedulerOptions{}.batch_rows : batch_rows;
    options.wave_deadline = std::chrono::milliseconds(static_cast<long long>(wave_deadline_ms));
    options.wait_for_workers = false;  // the page's main thread never blocks; workers start on their own
    options.step_poll = std::chrono::microseconds(static_cast<long long>(fence_poll_us));
    scheduler_ = std::make_unique<Scheduler>(world.world(), options);
}

SchedulerBinding::~SchedulerBinding() { dispose(); }

void SchedulerBinding::add_system(const std::string& name) {
    scheduler_->add_system(make_system(world_.world(), name));
}

void SchedulerBinding::add_main_thread_system(const std::string& name, const val& reads, const val& writes,
                                              const val& before, const val& after, const val& run, QueryBinding* query,
                                              int cascade, const val& parent_reads, const val& publishes,
                                              const val& consumes) {
    if (run.typeOf().as<std::string>() != "function") {
        throw Error(ErrorCode::BadValue, "system '" + name + "' needs a run(world, dt) function");
    }
    SystemDesc system;
    system.name = name;
    system.reads = component_ids_of(world_.world().components(), reads, "system '" + name + "' reads");
    system.writes = component_ids_of(world_.world().components(), writes, "system '" + name + "' writes");
    system.before = names_of(before, "system '" + name + "' before");
    system.after = names_of(after, "system '" + name + "' after");
    system.cascade = cascade < 0 ? kNoComponent : static_cast<RelationId>(cascade);
    system.parent_reads = component_ids_of(world_.world().components(), parent_reads, "system '" + name + "' parentReads");
    system.publishes = topic_ids_of(world_.world(), publishes, "system '" + name + "' publishes");
    system.consumes = topic_ids_of(world_.world(), consumes, "system '" + name + "' consumes");
    if (query == nullptr) {
        system.main_thread = [run](World&, float dt) { run(dt, 0); };
    } else {
        system.query = query->desc();
        system.query_set = true;
        // With a cascade, run(dt, chunks, depth, parents) once per level: `parents` is the address
        // of uint32 words, parent_reads.size() per chunk, each the address of that chunk's
        // parents' values of one parent read (0 at depth 0).
        auto parents = std::make_shared<std::vector<std::uint32_t>>();
        // Views of the declared writes are write access: taken over every chunk before the page's
        // code runs, as a JS kernel takes it over its batch, so its writes count even if it throws.
        system.main_thread_chunks = [run, query, parents, written = system.writes, reads = system.parent_reads,
                                     cascaded = system.cascade != kNoComponent](World&, float dt, std::span<Chunk> chunks) {
            for (Chunk& chunk : chunks) {
                for (ComponentId id : written) {
                    if (chunk.has(id)) chunk.write_raw(id);
                }
            }
            const std::uint32_t count = query->set_records(chunks);
            if (!cascaded) {
                run(dt, count);
                return;
            }
            parents->assign(chunks.size() * reads.size(), 0);
            for (std::size_t c = 0; c < chunks.size(); ++c) {
                const ParentView* parent = chunks[c].parent();
                for (std::size_t k = 0; parent != nullptr && k < reads.size(); ++k) {
                    (*parents)[c * reads.size() + k] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(parent->raw(reads[k])));
                }
            }
            const std::uint32_t depth = chunks.empty() ? 0 : chunks[0].depth();
            run(dt, count, depth, static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(parents->data())));
        };
    }
    scheduler_->add_system(std::move(system));
}

int SchedulerBinding::begin_and_step(float dt) {
    scheduler_->begin_frame(dt);
    return step();
}

int SchedulerBinding::step() {
    if (scheduler_->step() == FrameStatus::Waiting) return kWaiting;
    if (timing_queue_on_) {
        const auto& waves = scheduler_->last_frame_waves();
        append(timing_queue_, std::array<double, kTIMING_QUEUE_FRAME>{frames(), double(waves.size())});
        for (const WaveTiming& t : waves) {
            append(timing_queue_, std::array<double, kTIMING_QUEUE_WAVE>{double(t.wave), double(static_cast<std::uint8_t>(t.placement)),
                                                                         t.begin_us, t.end_us});
        }
    }
    return kDone;
}

void SchedulerBinding::set_timing_queue(bool on) {
    // The page takes the queue at least every 64 frames (web/internal/user_timing.js).
    constexpr std::size_t kFrames = 64, kWaves = 8;
    constexpr std::size_t kReserved = kFrames * (kTIMING_QUEUE_FRAME + kWaves * kTIMING_QUEUE_WAVE);
    if (on) {
        timing_queue_.reserve(kReserved + 1);
        timing_taken_.reserve(kReserved + 1);
        if (timing_queue_.empty()) timing_queue_.push_back(0);  // the count, written when taken
    }
    timing_queue_on_ = on;
}

std::uint32_t SchedulerBinding::take_timing_queue() {
    if (timing_queue_.empty()) timing_queue_.push_back(0);  // never turned on: an empty queue
    timing_queue_[0] = double(timing_queue_.size() - 1);
    // The two buffers trade places, each keeping its capacity: no copy, no allocation.
    timing_queue_.swap(timing_taken_);
    timing_queue_.assign(1, 0.0);
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(timing_taken_.data()));
}

std::uint32_t SchedulerBinding::add_extract(const val& components, const val& with, const val& without) {
    const ComponentRegistry& registry = world_.world().components();
    QueryDesc rows;
    rows.with = component_ids_of(registry, with, "with");
    rows.without = component_ids_of(registry, without, "without");
    std::vector<ComponentId> ids = component_ids_of(registry, components, "components");
    const std::size_t words = 4 + ids.size();
    const ExtractId id = scheduler_->add_extract(std::move(ids), std::move(rows));
    if (extract_records_.size() <= id) extract_records_.resize(id + 1);
    extract_records_[id].assign(words, 0);
    return id;
}

std::uint32_t SchedulerBinding::acquire_extract(std::uint32_t id) {
    const ExtractBuffer& buffer = scheduler_->acquire_extract(id);
    std::vector<std::uint32_t>& record = extract_records_[id];
    const auto address = [](const void* p) { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p)); };
    record[0] = static_cast<std::uint32_t>(buffer.frame());
    record[1] = static_cast<std::uint32_t>(buffer.frame() >> 32);
    record[2] = buffer.count();
    record[3] = address(buffer.entities());
    for (std::size_t c = 4; c < record.size(); ++c) record[c] = address(buffer.column(c - 4));
    return address(record.data());
}

void SchedulerBinding::remove_extract(std::uint32_t id) {
    scheduler_->remove_extract(id);
    extract_records_[id].clear();
}

std::uint32_t SchedulerBinding::fence_address() const {
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(scheduler_->fence_word()));
}

val SchedulerBinding::plan() {
    const Plan& plan = scheduler_->plan();
    val waves = val::array();
    for (const auto& wave : plan.waves) {
        val names = val::array();
        for (std::uint32_t s : wave) names.call<void>("push", scheduler_->systems()[s].name);
        waves.call<void>("push", names);
    }
    return waves;
}

std::string SchedulerBinding::explain() { return scheduler_->explain_plan(); }

val SchedulerBinding::describe_plan() {
    const Plan& plan = scheduler_->plan();
    const World& world = world_.world();
    const auto& systems = scheduler_->systems();
    const auto names = [](const auto& ids, auto&& name_of) {
        val out = val::array();
        for (auto id : ids) out.call<void>("push", std::string(name_of(id)));
        return out;
    };
    const auto component = [&](ComponentId id) -> const std::string& { return world.components().desc(id).name; };
    const auto topic = [&](TopicId id) -> const std::string& { return world.topics().topic(id).layout.name; };
    val waves = val::array();
    for (const auto& wave : plan.waves) {
        val described = val::array();
        for (std::uint32_t s : wave) {
            const SystemDesc& desc = systems[s];
            const PlacementReason& reason = plan.reasons[s];
            val system = val::object();
            system.set("name", desc.name);
            system.set("thread", std::string(plan.main_thread[s] ? "main" : "workers"));
            system.set("reads", names(desc.reads, component));
            system.set("writes", names(desc.writes, component));
            system.set("parentReads", names(desc.parent_reads, component));
            system.set("lookups", names(desc.lookups, component));
            system.set("publishes", names(desc.publishes, topic));
            system.set("consumes", names(desc.consumes, topic));
            system.set("cascade", desc.cascade == kNoComponent ? val::null() : val(component(desc.cascade)));
            system.set("after", reason.follows < 0 ? val::null() : val(systems[reason.follows].name));
            system.set("why", reason.why);
            described.call<void>("push", system);
        }
        waves.call<void>("push", described);
    }
    return waves;
}
std::string SchedulerBinding::recover_from_trap() { return scheduler_ ? scheduler_->recover_from_trap() : std::string(); }

std::uint32_t SchedulerBinding::last_frame_record() {
    const auto& waves = scheduler_->last_frame_waves();
    const bool timeline = scheduler_->last_frame_timed();
    const std::span<const ecsia::BatchTiming> batches =
        timeline ? std::span<const ecsia::BatchTiming>(scheduler_->last_frame_batches()) : std::span<const ecsia::BatchTiming>();
    std::vector<double>& out = frame_record_;
    out.clear();
    // Decoded by web/internal/frame_record.js.
    append(out, std::array<double, kFRAME_RECORD_HEADER>{double(waves.size()), double(batches.size()), double(scheduler_->workers()),
                                                 timeline ? 1.0 : 0.0, frames(), double(scheduler_->systems().size())});
    for (const WaveTiming& t : waves) {
        append(out, std::array<double, kFRAME_RECORD_WAVE>{double(t.wave), double(t.batches), t.begin_us, t.end_us,
                                                   double(static_cast<std::uint8_t>(t.placement)), t.serial_end_us, t.merged_us});
    }
    for (const ecsia::BatchTiming& t : batches) {
        const double lane = t.runner == ecsia::BatchTiming::kCoordinator ? -1 : double(t.runner);
        append(out, std::array<double, kFRAME_RECORD_BATCH>{double(t.wave), double(t.system), double(t.first_row), double(t.rows), lane,
                                                    t.begin_us, t.end_us});
    }
    for (std::uint32_t w = 0; w < scheduler_->workers(); ++w) {
        const WorkerStats stats = scheduler_->worker_stats(w);
        append(out, std::array<double, kFRAME_RECORD_WORKER>{double(stats.busy_ns), double(stats.jobs_run)});
    }
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(out.data()));
}

val SchedulerBinding::system_names() const {
    val names = val::array();
    for (const SystemDesc& system : scheduler_->systems()) names.call<void>("push", system.name);
    return names;
}

void SchedulerBinding::dispose() {
    if (scheduler_) scheduler_->dispose();
}

namespace {

// The module's registered names; throws DuplicateName when a name was registered twice, which
// loadEcsia() turns into a rejection at start-up.
val registered_names(const std::vector<std::string>& names) {
    val out = val::array();
    for (const std::string& name : names) out.call<void>("push", name);
    return out;
}
val registered_systems_js() { return rethrow_as_js([] { return registered_names(registered_systems()); }); }
val registered_components_js() { return rethrow_as_js([] { return registered_names(registered_components()); }); }

SchedulerBinding* make_scheduler(WorldBinding& world, std::uint32_t workers, std::uint32_t batch_rows, double deadline_ms,
                                 double fence_poll_us) {
    return rethrow_as_js([&] { return new SchedulerBinding(world, workers, batch_rows, deadline_ms, fence_poll_us); });
}

}  // namespace

}  // namespace ecsia::wasm

EMSCRIPTEN_BINDINGS(ecsia_scheduler) {
    using ecsia::wasm::Guarded;
    using ecsia::wasm::SchedulerBinding;
    ecsia::install_monotonic_source(&ecsia::wasm::now_ns);
#ifdef __EMSCRIPTEN_PTHREADS__
    ecsia::WaveFence::set_wake_hook(&ecsia::wasm::wake_js_waiters);
    ecsia::WorkerPool::set_wake_word_hooks({&ecsia::wasm::futex_wait, &ecsia::wasm::futex_wake});
#endif
    emscripten::function("registeredSystems", &ecsia::wasm::registered_systems_js);
    emscripten::function("registeredComponents", &ecsia::wasm::registered_components_js);
    emscripten::class_<SchedulerBinding>("Scheduler")
        .constructor(&ecsia::wasm::make_scheduler, emscripten::allow_raw_pointers())
        .function("addSystem", &Guarded<&SchedulerBinding::add_system>::call)
        .function("addMainThreadSystem", &Guarded<&SchedulerBinding::add_main_thread_system>::call, emscripten::allow_raw_pointers())
        .function("removeSystem", &Guarded<&SchedulerBinding::remove_system>::call)
        .function("step", &Guarded<&SchedulerBinding::step>::call)
        .function("beginAndStep", &Guarded<&SchedulerBinding::begin_and_step>::call)
        .function("fenceAddress", &Guarded<&SchedulerBinding::fence_address>::call)
        .function("waitingEpoch", &Guarded<&SchedulerBinding::waiting_epoch>::call)
        .function("inFrame", &Guarded<&SchedulerBinding::in_frame>::call)
        .function("plan", &Guarded<&SchedulerBinding::plan>::call)
        .function("explain", &Guarded<&SchedulerBinding::explain>::call)
        .function("describePlan", &Guarded<&SchedulerBinding::describe_plan>::call)
        .function("recoverFromTrap", &Guarded<&SchedulerBinding::recover_from_trap>::call)
        .function("lastFrameRecord", &Guarded<&SchedulerBinding::last_frame_record>::call)
        .function("systemNames", &Guarded<&SchedulerBinding::system_names>::call)
        .function("setTimingQueue", &Guarded<&SchedulerBinding::set_timing_queue>::call)
        .function("takeTimingQueue", &Guarded<&SchedulerBinding::take_timing_queue>::call)
        .function("setRecordTimeline", &Guarded<&SchedulerBinding::set_record_timeline>::call)
        .function("recordsTimeline", &Guarded<&SchedulerBinding::records_timeline>::call)
        .function("addExtract", &Guarded<&SchedulerBinding::add_extract>::call)
        .function("acquireExtract", &Guarded<&SchedulerBinding::acquire_extract>::call)
        .function("removeExtract", &Guarded<&SchedulerBinding::remove_extract>::call)
        .function("workers", &Guarded<&SchedulerBinding::workers>::call)
        .function("frames", &Guarded<&SchedulerBinding::frames>::call)
        .function("dispose", &Guarded<&SchedulerBinding::dispose>::call);
}
