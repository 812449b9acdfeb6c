#include "ecsia/schedule/scheduler.hpp"

#include <algorithm>
#include <atomic>
#include <limits>

#include "ecsia/base/error.hpp"
#include "ecsia/base/monotonic_clock.hpp"
#include "ecsia/extract/frame_extract.hpp"
#include "ecsia/query/query_cache.hpp"
#include "ecsia/schedule/batch.hpp"
#include "ecsia/schedule/batching.hpp"
#include "ecsia/schedule/cascade_order.hpp"
#include "ecsia/schedule/deciding_executor.hpp"
#include "ecsia/schedule/executor.hpp"
#include "ecsia/schedule/lookup_columns.hpp"
#include "ecsia/schedule/serial_executor.hpp"
#include "ecsia/schedule/system_registry.hpp"
#include "ecsia/schedule/wave_merge.hpp"
#include "ecsia/world/world_access.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define ECSIA_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ECSIA_LEAK_CHECKED 1
#endif
#endif
#if defined(ECSIA_LEAK_CHECKED)
#include <sanitizer/lsan_interface.h>
#endif

namespace ecsia {

namespace {

// A block left allocated on purpose, for detached workers that may still use it: not a leak for
// LeakSanitizer (what it reaches is kept too); nothing in other builds.
void keep_for_process([[maybe_unused]] const void* block) noexcept {
#if defined(ECSIA_LEAK_CHECKED)
    __lsan_ignore_object(block);
#endif
}

// Steps of every scheduler in the process are numbered apart, so that a thread's record of its
// last batch (run_kernel) never matches a step of another scheduler, even one at a freed one's
// address. relaxed: only uniqueness is needed; the dispatch publishes the value to the workers.
std::uint64_t next_step_serial() noexcept {
    static std::atomic<std::uint64_t> steps{0};
    return steps.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace


// Everything a Scheduler keeps. The frame's members are Impl's own, so a batch's kernel call
// (BatchRunner) reaches them without going through the Scheduler.
class Scheduler::Impl final : public WorldDependent, private BatchRunner {
public:
    Impl(World& world, SchedulerOptions options);
    ~Impl();

    void add_system(SystemDesc system);
    void remove_system(std::string_view name);
    const Plan& plan();
    void update(float dt);
    void begin_frame(float dt);
    FrameStatus step();
    bool in_frame() const noexcept { return state_ == FrameState::Running || state_ == FrameState::Dispatched; }
    WorkerStats worker_stats(std::uint32_t worker) const;
    ExtractId add_extract(std::vector<ComponentId> components, QueryDesc rows);
    const ExtractBuffer& acquire_extract(ExtractId id);
    void remove_extract(ExtractId id);
    void dispose();
    std::string recover_from_trap();
    void on_world_destroyed() noexcept override;
    bool consumes(TopicId topic, std::string_view system) const noexcept override;
    void claim_consumers() override;

    World* world_;  // null once the world is destroyed
    SchedulerOptions options_;
    std::vector<SystemDesc> systems_;
    std::vector<std::unique_ptr<QueryCache>> queries_;  // by system
    std::vector<bool> runs_once_;                       // by system: no query terms, one batch a frame
    std::vector<std::unique_ptr<CascadeOrder>> cascades_;  // by system: null unless it declared a cascade
    std::vector<std::uint32_t> unordered_cascades_;        // prepare_batches: this wave's kernel cascade systems whose order failed
    // by system: its slot in the world's cursors, which holds the tick of its previous run (in
    // the world, so that a snapshot carries it and a fresh scheduler resumes from it)
    std::vector<std::uint32_t> cursor_slots_;
    std::vector<Tick> run_tick_;                        // by system: tick of its run this frame
    // by system: the messages of its consumed topics it sees in this frame's run (fixed when the
    // run begins, marked seen when it ends), and a kernel's views over them
    std::vector<std::vector<TopicWindow>> windows_;
    std::vector<std::vector<TopicMessages>> messages_;
#if ECSIA_ACCESS_CHECKS
    std::vector<std::unique_ptr<DeclaredAccess>> access_;  // by system: what its chunks may touch
#endif
    Plan plan_;
    bool plan_valid_ = false;
    // The executor the frame calls: serial_ without workers (or when they could not start),
    // otherwise threaded_, a DecidingExecutor.
    SerialExecutor serial_;
    std::unique_ptr<Executor> threaded_;
    Executor* executor_ = &serial_;
    WaveMerge merge_;
    std::vector<std::unique_ptr<FrameExtract>> extracts_;  // by ExtractId; null once removed

    // The frame in progress.
    FrameState state_ = FrameState::Idle;
    int stepping_ = 0;               // > 0 while step() runs: a dispose() from inside waits for it
    bool dispose_requested_ = false;  // dispose() was called from inside step()
    const Executor* detached_ = nullptr;  // the executor a dispose left workers running in (kept for the process)
    float dt_ = 0;
    std::size_t wave_ = 0;
    std::chrono::steady_clock::time_point deadline_;  // of the dispatched wave
    std::int64_t frame_start_ns_ = 0;  // monotonic_ns()
    std::uint64_t frames_ = 0;
    std::uint64_t consumer_restores_seen_ = 0;  // TopicStore::consumer_restores at the last claim
    // Batches of the current wave by batch id; the storage is reused across waves and frames.
    std::vector<std::unique_ptr<Batch>> batch_pool_;
    std::vector<Batch*> batches_;
    // The wave's batches by step: step d holds level d of its cascade systems, and step 0 every
    // other batch too. Steps run one after another (each like a wave of its own, fence included),
    // all merged together at the wave's end; without cascade systems a wave is one step.
    std::vector<std::vector<Batch*>> steps_;
    std::size_t step_ = 0;
    std::vector<RowRun> level_runs_;     // prepare_batches: one level's row runs (reused)
    std::vector<std::uint32_t> batch_depths_;  // prepare_batches: each batch's depth level, by batch id (reused)
    std::vector<RowRun> runs_;          // prepare_batches: one system's matched row runs (reused)
    LookupColumnCache lookup_columns_;  // the wave's looked-up columns by table (refresh_lookup_columns)
    std::vector<BatchBounds> bounds_;   // prepare_batches: the wave's batches as batching cut them (reused)
    std::vector<Chunk> main_chunks_;    // a main-thread system's chunks (reused)
    WriteLog main_log_;                 // their writes (reused)
    // A main-thread cascade system's level: its chunks' parent reads and room for their copies,
    // by chunk then parent read, and the views over them (reused).
    std::vector<std::vector<std::byte>> main_parent_copies_;
    std::vector<ParentView::Read> main_parent_reads_;
    std::vector<std::vector<const std::byte*>> main_parent_addresses_;  // into the copies, for column<T>()
    std::vector<ParentView> main_parents_;
    std::vector<WaveTiming> waves_;
    std::vector<WaveTiming> last_waves_;
    // The timeline (record_timeline): asked for between frames, and in effect for a whole frame
    // from its start (read by the workers in run_kernel: written before any wave is dispatched,
    // so the dispatch publishes it).
    bool timeline_requested_ = false;
    bool timeline_ = false;
    bool last_timeline_ = false;  // timeline_ of the last frame that ended (last_frame_timed)
    // The step running now, unique in the process (next_step_serial): run_kernel knows from it
    // whether a thread's previous batch was of the same step (written before the step is
    // dispatched, like timeline_).
    std::uint64_t step_serial_ = 0;
    std::vector<BatchTiming> batch_timings_;
    std::vector<BatchTiming> last_batch_timings_;
    // Each worker's clock offset from the coordinator's, in µs, as the interval causality leaves
    // (see record_batch_timings), narrowed frame after frame; by runner.
    struct ClockWindow {
        double low = 0, high = 0;
        bool known = false;
    };
    std::vector<ClockWindow> worker_clocks_;

private:
    void run_kernel(Batch& batch) override;  // BatchRunner: the executors call it
    // BatchRunner, asked on the coordinator after each inline batch (the thread that would have
    // destroyed the world, on_world_destroyed's, so the read is ordered with the write).
    bool world_gone() const noexcept override { return world_ == nullptr; }
    void poll_fence() const;
    void run_main_thread_systems(const std::vector<std::uint32_t>& wave);
    void run_main_thread_system(std::uint32_t s);
    void run_main_thread_cascade(std::uint32_t s);
    // Puts a cascade system's rows in depth order; false (reported) when its relation's pairs
    // form a cycle: the system does not run this frame, as if it had no rows, and its topics'
    // messages and its changed-since tick wait for the run that comes.
    bool order_cascade(std::uint32_t s);
    void merge_main_thread_writes(std::uint32_t s);
    void check_cascade(const SystemDesc& system) const;
    void check_lookups(const SystemDesc& system) const;
    void check_topics(const SystemDesc& system) const;
    void open_windows(std::uint32_t s);
    void close_windows(std::uint32_t s);
    // Removes the topic consumers of `system` that no other dependent of the world claims.
    void release_consumers(const SystemDesc& system);
    void prepare_batches(const std::vector<std::uint32_t>& wave);
    void refresh_lookup_columns(const std::vector<std::uint32_t>& wave);
    void append_cascade_batches(std::uint32_t s, std::vector<std::uint32_t>& depths);
    // Parent read `k` of cascade system `s` for rows [begin, end) of `table`, with `copy` sized
    // as its room for read()'s array.
    ParentView::Read parent_read(std::uint32_t s, std::size_t k, TableIndex table, std::uint32_t begin, std::uint32_t end,
                                 std::vector<std::byte>& copy) const;
    bool start_steps();
    FrameStatus run_waves();
    void capture_extracts() noexcept;
    void finish_wave(bool merge_results);
    // After a wave's merge (also one that threw): its consumers' windows close, its systems' last runs move.
    void mark_wave_seen();
    void record_batch_timings();
    void fail_frame() noexcept;
    void abandon_frame(const std::string& why);
    void set_state(FrameState state) noexcept;  // also tells the world whether a frame runs (snapshots are refused mid-frame)
    void recover_from_stall();
    void dispose_now();
    // dispose() for a destructor (this scheduler's, or the world's: on_world_destroyed).
    void dispose_before_destruction() noexcept;
    World& world() const;
    double now_us() const;
};

Scheduler::Impl::Impl(World& world, SchedulerOptions options) : world_(&world), options_(options) {
    if (options_.batch_rows == 0) throw Error(ErrorCode::BadValue, "batch_rows must be at least 1");
    check_system_registry();  // a name registered twice fails at start-up, not at the first lookup
    detail::WorldAccess::attach(world, *this);
    if (options_.workers > 0) {
        PoolExecutorOptions pool;
        pool.workers = options_.workers;
        pool.may_block = options_.wait_for_workers;
        pool.startup_deadline = options_.startup_deadline;
        pool.coordinator_slice = options_.coordinator_slice;
        try {
            threaded_ = std::make_unique<DecidingExecutor>(pool);
            executor_ = threaded_.get();
        } catch (const Error& error) {
            world.diagnostics().report(std::string(error.what()) + "; running with the serial executor instead");
        }
    }
}

Scheduler::Impl::~Impl() {
    dispose_before_destruction();
    if (world_ != nullptr) detail::WorldAccess::detach(*world_, *this);
}

World& Scheduler::Impl::world() const {
    if (world_ == nullptr) throw Error(ErrorCode::Disposed, "the scheduler's world was destroyed");
    return *world_;
}

void Scheduler::Impl::set_state(FrameState state) noexcept {
    state_ = state;
    if (world_ != nullptr) detail::WorldAccess::cursors(*world_).set_in_frame(in_frame());
}

void Scheduler::Impl::release_consumers(const SystemDesc& system) {
    // Another scheduler of the world may run a system of the same name: the cursors it claims stay.
    detail::WorldAccess::topics(*world_).retain_consumers([&](TopicId topic, std::string_view name) {
        return name != system.name || detail::WorldAccess::consumer_claimed(*world_, topic, name, this);
    });
}

void Scheduler::Impl::claim_consumers() {
    if (world_ == nullptr || state_ == FrameState::Disposed) return;
    TopicStore& topics = detail::WorldAccess::topics(*world_);
    for (const SystemDesc& system : systems_) {
        for (TopicId topic : system.consumes) topics.add_consumer(topic, system.name);
    }
}

bool Scheduler::Impl::consumes(TopicId topic, std::string_view system) const noexcept {
    for (const SystemDesc& s : systems_) {
        if (s.name == system) return std::find(s.consumes.begin(), s.consumes.end(), topic) != s.consumes.end();
    }
    return false;
}

void Scheduler::Impl::on_world_destroyed() noexcept {
    dispose_before_destruction();
    world_ = nullptr;
}

WorkerStats Scheduler::Impl::worker_stats(std::uint32_t worker) const {
    if (worker >= executor_->workers()) {
        throw Error(ErrorCode::BadValue, "worker_stats(" + std::to_string(worker) + "): this scheduler has " +
                                             std::to_string(executor_->workers()) + " worker(s)");
    }
    return executor_->worker_stats(worker);
}

void Scheduler::Impl::add_system(SystemDesc system) {
    world();
    if (state_ == FrameState::Disposed) throw Error(ErrorCode::Disposed, "the scheduler was disposed");
    if (in_frame()) throw Error(ErrorCode::WrongPhase, "add_system during a frame");
    // A stalled wave's worker may still be running a kernel of systems_: recover first, as
    // begin_frame does (WorkerFailure while that worker is still out).
    if (state_ == FrameState::Stalled) recover_from_stall();
    for (const SystemDesc& existing : systems_) {
        if (existing.name == system.name) throw Error(ErrorCode::DuplicateName, "a system named '" + system.name + "' already exists");
    }
    std::vector<const char*> bodies;
    if (system.kernel) bodies.push_back("a kernel");
    if (system.main_thread) bodies.push_back("a main-thread function");
    if (system.main_thread_chunks) bodies.push_back("a main-thread chunk function");
    if (bodies.empty()) {
        throw Error(ErrorCode::BadDefinition, "system '" + system.name + "' has neither a kernel nor a main-thread function");
    }
    if (bodies.size() > 1) {
        const std::string which = bodies.size() == 2 ? std::string("both ") + bodies[0] + " and " + bodies[1]
                                                     : std::string(bodies[0]) + ", " + bodies[1] + " and " + bodies[2];
        throw Error(ErrorCode::BadDefinition, "system '" + system.name + "' has " + which + ": give it one of them");
    }
    for (const auto* list : {&system.reads, &system.writes, &system.parent_reads, &system.lookups}) {
        for (ComponentId id : *list) world_->components().desc(id);
    }
    const auto refuse_itself = [&system](const std::vector<std::string>& names, const char* order) {
        if (std::find(names.begin(), names.end(), system.name) != names.end()) {
            throw Error(ErrorCode::BadDefinition, "system '" + system.name + "' names itself in " + order + ": a system cannot run " +
                                                      order + " itself");
        }
    };
    refuse_itself(system.before, "before");
    refuse_itself(system.after, "after");
    check_cascade(system);
    check_lookups(system);
    check_topics(system);
    if (!system.query_set) {
        system.query = QueryDesc{};
        system.query.with = system.reads;
        system.query.with.insert(system.query.with.end(), system.writes.begin(), system.writes.end());
        std::sort(system.query.with.begin(), system.query.with.end());
        system.query.with.erase(std::unique(system.query.with.begin(), system.query.with.end()), system.query.with.end());
    }
    world_->query(system.query);  // validates the query's component ids
    queries_.push_back(std::make_unique<QueryCache>(system.query));
    queries_.back()->bind_relations(&world_->relations());
    runs_once_.push_back(system.query.required().empty() && system.query.without.empty() &&
                         system.query.without_pairs.empty());
    if (system.cascade != kNoComponent) {
        if (runs_once_.back()) {
            runs_once_.pop_back();
            queries_.pop_back();
            throw Error(ErrorCode::BadDefinition, "system '" + system.name + "' declares a cascade but its query has no terms: it has no rows to order");
        }
        cascades_.push_back(std::make_unique<CascadeOrder>(system.cascade, world_->components().desc(system.cascade).name,
                                                           system.parent_reads));
    } else {
        cascades_.push_back(nullptr);
    }
    cursor_slots_.push_back(detail::WorldAccess::cursors(*world_).slot(system.name));
#if ECSIA_ACCESS_CHECKS
    auto access = std::make_unique<DeclaredAccess>();
    access->system = system.name;
    access->writes = system.writes;
    access->reads = system.reads;
    access->reads.insert(access->reads.end(), system.writes.begin(), system.writes.end());
    for (auto* list : {&access->reads, &access->writes}) {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    access->registry = &world_->components();
    access_.push_back(std::move(access));
#endif
    for (TopicId topic : system.consumes) detail::WorldAccess::topics(*world_).add_consumer(topic, system.name);
    systems_.push_back(std::move(system));
    run_tick_.push_back(0);
    windows_.emplace_back();
    messages_.emplace_back();
    plan_valid_ = false;
}

void Scheduler::Impl::remove_system(std::string_view name) {
    world();
    if (state_ == FrameState::Disposed) throw Error(ErrorCode::Disposed, "the scheduler was disposed");
    if (in_frame()) throw Error(ErrorCode::WrongPhase, "remove_system during a frame");
    // A stalled wave's worker may still be running a kernel of systems_: recover first, as
    // begin_frame does (WorkerFailure while that worker is still out).
    if (state_ == FrameState::Stalled) recover_from_stall();
    const auto it = std::find_if(systems_.begin(), systems_.end(), [&](const SystemDesc& s) { return s.name == name; });
    if (it == systems_.end()) throw Error(ErrorCode::UnknownSystem, "no system named '" + std::string(name) + "' to remove");
    const auto s = static_cast<std::size_t>(it - systems_.begin());
    // Its cursor slot stays in the world (slots are never removed); its topic cursors go, so
    // the messages only it had left to read are dropped.
    if (!systems_[s].consumes.empty()) release_consumers(systems_[s]);
    auto erase = [s](auto& list) { list.erase(list.begin() + static_cast<std::ptrdiff_t>(s)); };
    erase(systems_);
    erase(queries_);
    erase(runs_once_);
    erase(cascades_);
    erase(cursor_slots_);
    erase(run_tick_);
    erase(windows_);
    erase(messages_);
#if ECSIA_ACCESS_CHECKS
    erase(access_);
#endif
    plan_valid_ = false;
}

void Scheduler::Impl::check_topics(const SystemDesc& system) const {
    const TopicStore& topics = world_->topics();
    for (const auto* list : {&system.publishes, &system.consumes}) {
        for (TopicId topic : *list) {
            if (topic >= topics.size()) {
                throw Error(ErrorCode::UnknownTopic, "system '" + system.name + "' " +
                                                         (list == &system.publishes ? "publishes" : "consumes") +
                                                         " topic id " + std::to_string(topic) + ", which is not defined");
            }
        }
    }
}

// A consumer's run sees the messages published before it began, and marks them seen when it
// ends: each message reaches each consumer once (topic/topic_store.hpp).
void Scheduler::Impl::open_windows(std::uint32_t s) {
    const SystemDesc& system = systems_[s];
    std::vector<TopicWindow>& windows = windows_[s];
    windows.clear();
    messages_[s].clear();
    if (system.consumes.empty()) return;
    const TopicStore& topics = world_->topics();
    for (TopicId topic : system.consumes) {
        windows.push_back(topics.window(topic, system.name));
        if (!plan_.main_thread[s]) messages_[s].push_back(topics.view(windows.back()));
    }
}

void Scheduler::Impl::close_windows(std::uint32_t s) {
    TopicStore& topics = detail::WorldAccess::topics(*world_);
    for (const TopicWindow& window : windows_[s]) topics.consume(window, systems_[s].name);
    windows_[s].clear();
    messages_[s].clear();
}

const Plan& Scheduler::Impl::plan() {
    const World& world = this->world();
    if (!plan_valid_) {
        plan_ = make_plan(systems_, world.components(), &world.topics());
        plan_valid_ = true;
    }
    return plan_;
}


double Scheduler::Impl::now_us() const {
    return static_cast<double>(monotonic_ns() - frame_start_ns_) * 1e-3;
}

void Scheduler::Impl::update(float dt) {
    begin_frame(dt);
    while (step() == FrameStatus::Waiting) {
        executor_->wait_until(deadline_);
    }
}

void Scheduler::Impl::begin_frame(float dt) {
    world();
    if (state_ == FrameState::Disposed) throw Error(ErrorCode::Disposed, "the scheduler was disposed");
    if (in_frame()) throw Error(ErrorCode::WrongPhase, "a frame is already running: finish it before starting another");
    // A stalled wave leaves the world in the wave phase until its worker returns.
    if (state_ == FrameState::Stalled) recover_from_stall();
    if (world_->phase() != WorldPhase::Serial) throw Error(ErrorCode::WrongPhase, "the world is in a wave");
    // Checked here, before any system runs: the frame's flushes would fail inside the observer
    // after its main-thread systems had run, and the next frame would run them again.
    if (!world_->structural_allowed()) {
        throw Error(ErrorCode::WrongPhase, "a frame cannot start inside an observer: start it after the observer returns");
    }
    // Another scheduler's frame (this one is inside one of its main-thread systems): one frame
    // at a time, or this frame's end would lift the guards of that one (snapshot, restore).
    if (detail::WorldAccess::cursors(*world_).in_frame()) {
        throw Error(ErrorCode::WrongPhase, "another scheduler's frame is running on this world: finish it first");
    }
    plan();
    // A restore may have brought topics without this scheduler's consumers: they start now. It
    // may also have brought consumers no scheduler runs (a system removed after the snapshot):
    // they go, or their topics would keep every message from now on. Only a restore changes
    // consumers behind a scheduler's back (add_system and remove_system keep them), so the
    // claim runs once after each.
    TopicStore& topics = detail::WorldAccess::topics(*world_);
    if (topics.consumer_restores() != consumer_restores_seen_) {
        consumer_restores_seen_ = topics.consumer_restores();
        claim_consumers();
        topics.retain_consumers([this](TopicId topic, std::string_view name) {
            return detail::WorldAccess::consumer_claimed(*world_, topic, name);
        });
    }
    set_state(FrameState::Running);
    world_->diagnostics().begin_frame();  // a diagnostic repeated frame after frame is said once, with a count
    dt_ = dt;
    wave_ = 0;
    waves_.clear();
    timeline_ = timeline_requested_;
    batch_timings_.clear();
    frame_start_ns_ = monotonic_ns();
}

FrameStatus Scheduler::Impl::step() {
    world();
    if (state_ == FrameState::Disposed) throw Error(ErrorCode::Disposed, "the scheduler was disposed");
    if (!in_frame()) throw Error(ErrorCode::WrongPhase, "step() outside a frame: call begin_frame first");
    if (stepping_ > 0) throw Error(ErrorCode::WrongPhase, "step() from inside the frame it would advance");
    ++stepping_;
    FrameStatus status;
    try {
        status = run_waves();
    } catch (...) {
        --stepping_;
        fail_frame();
        if (dispose_requested_) dispose_now();
        throw;
    }
    --stepping_;
    if (dispose_requested_) {
        if (status == FrameStatus::Waiting) return status;  // disposed while the wave is out: once it is back
        dispose_now();
        return FrameStatus::Done;
    }
    return status;
}

// Runs the wave's steps from step_ on: inline ones to their end, until one is dispatched to the
// workers (true: the caller checks its fence, then calls this again with the next step) or none
// is left (false: the wave is over).
bool Scheduler::Impl::start_steps() {
    static const std::vector<Batch*> kNoBatches;
    // A wave without batches still starts once (an executor's bookkeeping sees every wave).
    const std::size_t count = std::max<std::size_t>(steps_.size(), 1);
    for (; step_ < count; ++step_) {
        const std::vector<Batch*>& step = steps_.empty() ? kNoBatches : steps_[step_];
        step_serial_ = next_step_serial();
        const WavePlacement placement = executor_->start(step, *this);
        if (dispose_requested_) return false;  // an inline kernel disposed the scheduler or destroyed the world
        // The wave's placement as timing reports it: the first step's, or any that left the coordinator.
        if (step_ == 0 || placement != WavePlacement::Inline) waves_.back().placement = placement;
        if (placement != WavePlacement::Inline) {
            deadline_ = std::chrono::steady_clock::now() + options_.wave_deadline;
            set_state(FrameState::Dispatched);
            executor_->run_coordinator_share();
            poll_fence();
            return true;
        }
    }
    return false;
}

FrameStatus Scheduler::Impl::run_waves() {
    while (wave_ < plan_.waves.size()) {
        if (dispose_requested_) {
            // Disposed while the wave was out (dispose()): its batches write into the world until
            // they return, so the disposal waits for them, or for the deadline (then it detaches
            // them, as a stall does). step() finishes it.
            const bool out = state_ == FrameState::Dispatched && !executor_->done();
            return out && std::chrono::steady_clock::now() < deadline_ ? FrameStatus::Waiting : FrameStatus::Done;
        }
        if (state_ == FrameState::Dispatched) {
            // 4. wait: the wave is out on the workers.
            if (!executor_->done()) {
                if (std::chrono::steady_clock::now() < deadline_) return FrameStatus::Waiting;
                set_state(FrameState::Stalled);
                throw Error(ErrorCode::WorkerFailure,
                            "wave " + std::to_string(wave_) + " did not finish within " +
                                std::to_string(options_.wave_deadline.count()) +
                                " ms; its results will be dropped once the stalled worker returns");
            }
            set_state(FrameState::Running);
            executor_->finish();
            ++step_;
            if (start_steps()) continue;  // the next level is out on the workers
            if (dispose_requested_) return FrameStatus::Done;
            finish_wave(true);
            ++wave_;
            continue;
        }
        const std::vector<std::uint32_t>& wave = plan_.waves[wave_];
        // A wave begins where the previous one ended (the frame's start for the first): one
        // clock read per wave, which matters in wasm, where a read is a round trip through JS.
        // With the timeline, after the previous wave's merge, so that the slots do not overlap.
        const double begin_us = waves_.empty() ? 0.0 : timeline_ ? waves_.back().merged_us : waves_.back().end_us;
        waves_.push_back(WaveTiming{static_cast<std::uint32_t>(wave_), 0, begin_us, 0});
        // 1. serial slot
        run_main_thread_systems(wave);
        if (dispose_requested_) return FrameStatus::Done;  // a main-thread system disposed the scheduler
        if (timeline_) waves_.back().serial_end_us = now_us();
        // 2. batching
        prepare_batches(wave);
        refresh_lookup_columns(wave);
        waves_.back().batches = static_cast<std::uint32_t>(batches_.size());
        // 3. execution, step after step (one step unless the wave has a cascade system)
        detail::WorldAccess::set_phase(*world_, WorldPhase::Wave);
        step_ = 0;
        if (start_steps()) continue;  // fast waves are often done already: check before reporting Waiting
        if (dispose_requested_) return FrameStatus::Done;  // an inline kernel disposed the scheduler or the world
        // 5. merge (an inline wave is over as soon as it started)
        finish_wave(true);
        ++wave_;
    }
    set_state(FrameState::Idle);
    ++frames_;
    detail::WorldAccess::cursors(*world_).count_frame();
    detail::WorldAccess::topics(*world_).trim();  // what every consumer has seen
    capture_extracts();
    // The frame's last system ran at the world's tick; writes made between frames (a page's
    // set(), a test's direct access) must be newer than every system's last run, so that
    // `changed` filters see them next frame. Here, not in a binding, so every build agrees.
    detail::WorldAccess::advance_tick(*world_);
    last_waves_.swap(waves_);
    last_batch_timings_.swap(batch_timings_);
    last_timeline_ = timeline_;
    world_->diagnostics().end_frame();
    return FrameStatus::Done;
}

void Scheduler::Impl::run_main_thread_systems(const std::vector<std::uint32_t>& wave) {
    for (std::uint32_t s : wave) {
        if (!plan_.main_thread[s]) continue;
        if (cascades_[s] && !order_cascade(s)) continue;
        run_tick_[s] = detail::WorldAccess::advance_tick(*world_);
        // A throwing system ends only itself, like a failing batch: what it did before it threw
        // stands (it had full access to the world), and the frame goes on.
        const std::string& name = systems_[s].name;
        open_windows(s);
        detail::WorldAccess::set_consumer(*world_, &name, windows_[s], systems_[s].publishes);
        // The system may destroy the world: nothing of it is touched after the call until
        // world_ (nulled then) says it is still there.
        std::string failure;
        {
            Diagnostics::Source source(world_->diagnostics(), name);
            try {
                run_main_thread_system(s);
            } catch (const std::exception& error) {
                failure = std::string(": ") + error.what();
            } catch (...) {
                failure = std::string(" ") + kNonStandardException;
            }
            if (world_ == nullptr) source.dismiss();
        }
        if (world_ == nullptr) return;
        if (!failure.empty()) {
            world_->diagnostics().report_for(name, "main-thread system '" + name + "' threw" + failure +
                                                       "; what it did before stands, and the frame goes on");
        }
        detail::WorldAccess::set_consumer(*world_, nullptr, {}, {});
        close_windows(s);  // seen, also when it threw: a message never reaches a consumer twice
        // Its writes through chunks count, also when it threw or disposed the scheduler.
        merge_main_thread_writes(s);
        if (dispose_requested_) return;
        const Diagnostics::Source source(world_->diagnostics(), name);  // the observers its changes set off
        world_->flush();
        detail::WorldAccess::cursors(*world_).set_last_run(cursor_slots_[s], run_tick_[s]);
    }
}

void Scheduler::Impl::run_main_thread_system(std::uint32_t s) {
    const SystemDesc& system = systems_[s];
    if (system.main_thread) {
        system.main_thread(*world_, dt_);
        return;
    }
    main_log_.clear();
    if (cascades_[s]) {
        run_main_thread_cascade(s);
        return;
    }
    // Its query's rows as a kernel's batches see them: changed/added since its previous run,
    // chunks stamped at its tick, writes logged for the merge after it returns.
    main_chunks_.clear();
    queries_[s]->for_each_chunk(detail::WorldAccess::tables(*world_), detail::WorldAccess::cursors(*world_).last_run(cursor_slots_[s]),
                                run_tick_[s], &main_log_, [&](Chunk& chunk) {
#if ECSIA_ACCESS_CHECKS
                                    chunk.set_access(access_[s].get());
#endif
                                    main_chunks_.push_back(chunk);
                                });
    system.main_thread_chunks(*world_, dt_, main_chunks_);
}

// A main-thread system with a cascade is called once per level, in depth order, with that
// level's chunks and their parents' values as the calls before left them: what a kernel's levels
// see, on the coordinator. The order is refreshed before each level (free when nothing moved), so
// rows that a call's structural change added or moved are placed by the levels still to come, up
// to as many levels as there were when the run began (a call that deepens the tree every level
// cannot keep the frame going forever).
void Scheduler::Impl::run_main_thread_cascade(std::uint32_t s) {
    const SystemDesc& system = systems_[s];
    CascadeOrder& cascade = *cascades_[s];
    const std::size_t reads = system.parent_reads.size();
    // Ordered before the run began (order_cascade); what a level's calls change may still make a
    // cycle, which the refresh before the next level throws as the system's own failure.
    const std::uint32_t levels = std::max<std::uint32_t>(cascade.levels(), 1);  // no rows: one call, no chunks
    for (std::uint32_t depth = 0; depth < levels; ++depth) {
        if (depth > 0) cascade.refresh(*world_, queries_[s]->matched(world_->tables()));
        main_chunks_.clear();
        queries_[s]->for_each_chunk(detail::WorldAccess::tables(*world_), detail::WorldAccess::cursors(*world_).last_run(cursor_slots_[s]),
                                    run_tick_[s], &main_log_, [&](Chunk& chunk) {
                                        const TableIndex table = chunk.table().index();
                                        const std::uint32_t begin = std::max(chunk.row_begin(), cascade.level_begin(table, depth));
                                        const std::uint32_t end = std::min(chunk.row_end(), cascade.level_begin(table, depth + 1));
                                        if (begin >= end) return;
                                        Chunk& level = main_chunks_.emplace_back(chunk.table(), begin, end, run_tick_[s], &main_log_);
#if ECSIA_ACCESS_CHECKS
                                        level.set_access(access_[s].get());
#else
                                        (void)level;
#endif
                                    });
        // Sized before any view is made: the views hold spans into these vectors.
        const std::size_t views = depth > 0 ? main_chunks_.size() : 0;
        main_parent_copies_.resize(views * reads);
        main_parent_reads_.resize(views * reads);
        main_parent_addresses_.resize(views * reads);
        main_parents_.resize(views);
        for (std::size_t c = 0; c < views; ++c) {
            const Chunk& chunk = main_chunks_[c];
            for (std::size_t k = 0; k < reads; ++k) {
                ParentView::Read& read = main_parent_reads_[c * reads + k];
                read = parent_read(s, k, chunk.table().index(), chunk.row_begin(), chunk.row_end(), main_parent_copies_[c * reads + k]);
                // Copied now, and read in place from the copy: a call may change the world's
                // structure (moving or freeing the parents' rows) and still read a later chunk's
                // parents, as they were when the call began.
                ParentView::copy_parents(read, chunk.size());
                std::vector<const std::byte*>& addresses = main_parent_addresses_[c * reads + k];
                addresses.resize(chunk.size());
                for (std::uint32_t i = 0; i < chunk.size(); ++i) addresses[i] = read.copy + std::size_t(i) * read.size;
                read.parents = addresses.data();
            }
            main_parents_[c] = ParentView(std::span(main_parent_reads_).subspan(c * reads, reads), chunk.size());
            main_chunks_[c].set_cascade(depth, &main_parents_[c]);
        }
        system.main_thread_chunks(*world_, dt_, main_chunks_);
        if (dispose_requested_ || world_ == nullptr) return;
    }
}

void Scheduler::Impl::merge_main_thread_writes(std::uint32_t s) {
    if (main_log_.ranges().empty()) return;
    // A structural change the system made after writing may have shortened a table: stamp the
    // rows that are still there (a row a swap-remove moved in is stamped with them, which only
    // makes a `changed` filter see one row too many, never one too few).
    WriteLog log;
    const TableGraph& tables = world_->tables();
    for (const WrittenRange& range : main_log_.ranges()) {
        if (range.table >= tables.table_count()) continue;
        const Table& table = tables.table(range.table);
        if (!table.has(range.component)) continue;
        log.record(range.table, range.component, range.row_begin, std::min(range.row_end, table.size()));
    }
    main_log_.clear();
    try {
        detail::WorldAccess::merge_write_log(*world_, log, run_tick_[s]);
    } catch (const std::exception& error) {
        world_->diagnostics().report_for(systems_[s].name, "main-thread system '" + systems_[s].name +
                                                               "': its writes could not be tracked: " + error.what());
    }
}

void Scheduler::Impl::check_cascade(const SystemDesc& system) const {
    if (system.cascade == kNoComponent) {
        if (!system.parent_reads.empty()) {
            throw Error(ErrorCode::BadDefinition, "system '" + system.name + "' reads parents' values without a cascade relation to find the parents");
        }
        return;
    }
    const RelationOptions& options = world_->relation_options(system.cascade);  // UnknownComponent, BadValue
    const std::string& relation = world_->components().desc(system.cascade).name;
    if (!options.exclusive) {
        throw Error(ErrorCode::BadDefinition, "system '" + system.name + "' cascades over '" + relation +
                                                  "', which is not exclusive: a cascade needs one parent per row");
    }
    if (system.main_thread) {
        throw Error(ErrorCode::BadDefinition, "system '" + system.name +
                                                  "' declares a cascade but has no query: a cascade orders a query's rows");
    }
    for (ComponentId id : system.parent_reads) {
        const ComponentDesc& desc = world_->components().desc(id);
        if (desc.relation) {
            throw Error(ErrorCode::BadValue, "system '" + system.name + "' reads parents' '" + desc.name +
                                                 "', which is a relation, not a component: parents' values are components'");
        }
        if (desc.size == 0) {
            throw Error(ErrorCode::BadValue, "system '" + system.name + "' reads parents' '" + desc.name +
                                                 "', which has no fields: there is no value to read");
        }
        if (std::count(system.parent_reads.begin(), system.parent_reads.end(), id) > 1) {
            throw Error(ErrorCode::BadValue, "system '" + system.name + "' lists '" + desc.name + "' twice among the parents' values it reads");
        }
    }
}

void Scheduler::Impl::check_lookups(const SystemDesc& system) const {
    if (system.lookups.empty()) return;
    if (!system.kernel) {
        throw Error(ErrorCode::BadDefinition, "system '" + system.name +
                                                  "' declares lookups but has no kernel: a main-thread system reads the world directly");
    }
    for (ComponentId id : system.lookups) {
        const ComponentDesc& desc = world_->components().desc(id);
        const std::string what = "system '" + system.name + "' lookups '" + desc.name + "'";
        if (desc.relation) throw Error(ErrorCode::BadValue, what + ", which is a relation: kernels read pairs with target_of");
        if (desc.size == 0) throw Error(ErrorCode::BadValue, what + ", which has no fields: there is no value to read");
        if (std::count(system.writes.begin(), system.writes.end(), id) > 0) {
            throw Error(ErrorCode::BadDefinition, what + ", which it also writes: another of its batches could be writing "
                                                         "the row being read");
        }
        if (std::count(system.lookups.begin(), system.lookups.end(), id) > 1) {
            throw Error(ErrorCode::BadValue, "system '" + system.name + "' lists '" + desc.name + "' twice in lookups");
        }
    }
}

// Before a wave, in the serial phase: where the components its kernels look up lie in each table
// (LookupColumnCache, read by the kernels' lookups on any thread during the wave).
void Scheduler::Impl::refresh_lookup_columns(const std::vector<std::uint32_t>& wave) {
    for (std::uint32_t s : wave) {
        for (ComponentId id : systems_[s].lookups) lookup_columns_.refresh(*world_, id);
    }
}

bool Scheduler::Impl::order_cascade(std::uint32_t s) {
    try {
        cascades_[s]->refresh(*world_, queries_[s]->matched(world_->tables()));
        return true;
    } catch (const Error& error) {
        const std::string& name = systems_[s].name;
        world_->diagnostics().report_for(name, "system '" + name + "' did not run this frame: " + error.what() +
                                                   "; the frame goes on");
        return false;
    }
}

void Scheduler::Impl::prepare_batches(const std::vector<std::uint32_t>& wave) {
    batches_.clear();
    bounds_.clear();
    // Cascade systems first put their tables' rows in depth order: rows move within tables, so
    // this comes before any system of the wave finds its rows. One whose order cannot be made
    // gets no batches this frame and the frame goes on. A main-thread cascade system orders its
    // rows when it runs.
    unordered_cascades_.clear();
    for (std::uint32_t s : wave) {
        if (cascades_[s] && !plan_.main_thread[s] && !order_cascade(s)) unordered_cascades_.push_back(s);
    }
    std::vector<std::uint32_t>& depths = batch_depths_;
    depths.clear();
    for (std::uint32_t s : wave) {
        if (plan_.main_thread[s]) continue;
        run_tick_[s] = detail::WorldAccess::advance_tick(*world_);
        open_windows(s);
        const std::size_t first = bounds_.size();
        if (runs_once_[s]) {
            append_single_batch(s, bounds_);
        } else {
            runs_.clear();
            queries_[s]->for_each_chunk(detail::WorldAccess::tables(*world_), detail::WorldAccess::cursors(*world_).last_run(cursor_slots_[s]),
                                        run_tick_[s], nullptr, [&](Chunk& chunk) {
                                            runs_.push_back(RowRun{chunk.table().index(), chunk.row_begin(), chunk.row_end()});
                                        });
            if (cascades_[s]) {
                const bool ordered = std::find(unordered_cascades_.begin(), unordered_cascades_.end(), s) == unordered_cascades_.end();
                if (ordered) append_cascade_batches(s, depths);
            } else {
                append_batches(s, runs_, options_.batch_rows, bounds_);
            }
        }
        depths.resize(bounds_.size(), 0);
        const std::uint32_t spawns = systems_[s].spawns_per_batch;
        const std::size_t parent_reads = systems_[s].parent_reads.size();
        for (std::size_t b = first; b < bounds_.size(); ++b) {
            if (b == batch_pool_.size()) batch_pool_.push_back(std::make_unique<Batch>());
            Batch& batch = *batch_pool_[b];
            batch.reset(bounds_[b], static_cast<std::uint32_t>(b));
            batch.depth = depths[b];
            batches_.push_back(&batch);
            // Set here, on the coordinator, so that a worker's copy of parent values allocates nothing.
            batch.parent_reads.resize(batch.depth > 0 ? parent_reads : 0);
            batch.parent_copies.resize(batch.parent_reads.size());
            for (std::size_t k = 0; k < batch.parent_reads.size(); ++k) {
                batch.parent_reads[k] = parent_read(s, k, batch.table, batch.row_begin, batch.row_end, batch.parent_copies[k]);
            }
            if (spawns == 0) continue;
            try {
                batch.reservation = detail::WorldAccess::reserve(*world_, spawns);
            } catch (const Error& error) {
                world_->diagnostics().report_for(systems_[s].name, "system '" + systems_[s].name + "' batch " + std::to_string(b) +
                                            " got no reserved handles (" + error.what() + "); its spawns are assigned at merge");
            }
        }
    }
    // Steps: level d of every cascade system in step d, every other batch in step 0.
    for (std::vector<Batch*>& step : steps_) step.clear();
    for (Batch* batch : batches_) {
        if (steps_.size() <= batch->depth) steps_.resize(std::size_t(batch->depth) + 1);
        steps_[batch->depth].push_back(batch);
    }
    while (!steps_.empty() && steps_.back().empty()) steps_.pop_back();
    // Pending names for every batch (any kernel may spawn beyond its reservation), fixed here by
    // the plan and the world's earlier waves, so that no thread decides them (G1, G4).
    const HandleLayout& layout = world_->entities().layout();
    const auto stride = static_cast<std::uint32_t>(batches_.size());
    const std::uint64_t first = detail::WorldAccess::cursors(*world_).pending_positions();
    for (Batch* batch : batches_) {
        batch->commands.name_pending(PendingNames::for_batch(static_cast<std::uint32_t>(first % PendingNames::ring_size(layout)),
                                                             stride, batch->id, layout));
    }
}

void Scheduler::Impl::append_cascade_batches(std::uint32_t s, std::vector<std::uint32_t>& depths) {
    // Level after level, each level's rows (of the query's runs) batched on their own: batch ids
    // follow level order, then chunk order, and each level is cut as a system of its rows is.
    const CascadeOrder& cascade = *cascades_[s];
    for (std::uint32_t depth = 0; depth < cascade.levels(); ++depth) {
        level_runs_.clear();
        for (const RowRun& run : runs_) {
            const std::uint32_t begin = std::max(run.begin, cascade.level_begin(run.table, depth));
            const std::uint32_t end = std::min(run.end, cascade.level_begin(run.table, depth + 1));
            if (begin < end) level_runs_.push_back(RowRun{run.table, begin, end});
        }
        append_batches(s, level_runs_, options_.batch_rows, bounds_);
        depths.resize(bounds_.size(), depth);
    }
}

ParentView::Read Scheduler::Impl::parent_read(std::uint32_t s, std::size_t k, TableIndex table, std::uint32_t begin,
                                              std::uint32_t end, std::vector<std::byte>& copy) const {
    const CascadeOrder& cascade = *cascades_[s];
    copy.resize(std::size_t(end - begin) * cascade.element_size(k));
    return ParentView::Read{cascade.parent_reads()[k], cascade.element_size(k), cascade.parents(table, k) + begin, copy.data(), false};
}

void Scheduler::Impl::capture_extracts() noexcept {
    for (std::size_t id = 0; id < extracts_.size(); ++id) {
        if (!extracts_[id]) continue;
        try {
            extracts_[id]->capture(*world_, world_->frames());
        } catch (const std::exception& error) {
            // Only a failing allocation gets here: the reader keeps the previous frame's copy.
            world_->diagnostics().report("extract " + std::to_string(id) + " could not capture frame " +
                                         std::to_string(world_->frames()) + " (" + error.what() +
                                         "); its latest copy stays the previous one");
        }
    }
}

ExtractId Scheduler::Impl::add_extract(std::vector<ComponentId> components, QueryDesc rows) {
    World& world = this->world();
    if (state_ == FrameState::Disposed) throw Error(ErrorCode::Disposed, "the scheduler was disposed");
    if (in_frame()) throw Error(ErrorCode::WrongPhase, "an extract cannot be added while a frame runs");
    auto extract = std::make_unique<FrameExtract>(world, std::move(components), std::move(rows));
    extract->capture(world, world.frames());  // the state now, until the first frame ends
    extracts_.push_back(std::move(extract));
    return static_cast<ExtractId>(extracts_.size() - 1);
}

const ExtractBuffer& Scheduler::Impl::acquire_extract(ExtractId id) {
    if (id >= extracts_.size() || !extracts_[id]) throw Error(ErrorCode::Disposed, "the extract was removed");
    return extracts_[id]->acquire();
}

void Scheduler::Impl::remove_extract(ExtractId id) {
    if (id >= extracts_.size() || !extracts_[id]) throw Error(ErrorCode::Disposed, "the extract was removed");
    extracts_[id].reset();
}

void Scheduler::Impl::poll_fence() const {
    if (options_.step_poll.count() <= 0) return;
    const std::int64_t until = monotonic_ns() + std::chrono::nanoseconds(options_.step_poll).count();
    while (!executor_->done() && monotonic_ns() < until) {
    }
}

namespace {

// With the timeline recorded: when the batch this thread ran last ended, and of which scheduler
// and step. A batch that follows it in the same step began then (claiming the next batch is one
// atomic increment, far below the clock's resolution), which spares a clock read per batch: in a
// browser a read is a call into JS, ~0.4 µs.
struct LastBatchEnd {
    std::uint64_t step = 0;  // 0: none to start from
    std::int64_t ns = 0;
};
thread_local LastBatchEnd t_last_batch_end;

}  // namespace

void Scheduler::Impl::run_kernel(Batch& batch) {
    if (timeline_) {
        LastBatchEnd& last = t_last_batch_end;
        batch.begin_ns = last.step == step_serial_ ? last.ns : monotonic_ns();
        last.step = 0;  // a kernel that throws leaves no end to start from
    }
    Chunk chunk(detail::WorldAccess::tables(*world_).table(batch.table), batch.row_begin, batch.row_end,
                run_tick_[batch.system], &batch.log);
    KernelContext::Wiring wiring;
    wiring.notes = &batch.notes;
    wiring.world = world_;
    wiring.lookups = systems_[batch.system].lookups;
    wiring.lookup_columns = &lookup_columns_;
    wiring.topics = &world_->topics();
    wiring.publishes = systems_[batch.system].publishes;
    wiring.consumed = windows_[batch.system];
    wiring.consumed_messages = messages_[batch.system];
    KernelContext context{chunk, dt_, batch.commands, batch.reservation, world_->entities().layout(), batch.id,
                          world_->frames(), wiring};
#if ECSIA_ACCESS_CHECKS
    chunk.set_access(access_[batch.system].get());
#endif
    ParentView parent;
    if (batch.depth > 0) {
        // The levels above finished before this batch started (a step's fence), so the parents'
        // values the kernel reads are this frame's.
        parent = ParentView(batch.parent_reads, batch.row_end - batch.row_begin);
        chunk.set_cascade(batch.depth, &parent);
    }
    systems_[batch.system].kernel(context);
    if (timeline_) {
        batch.end_ns = monotonic_ns();
        t_last_batch_end = LastBatchEnd{step_serial_, batch.end_ns};
    }
}

void Scheduler::Impl::finish_wave(bool merge_results) {
    detail::WorldAccess::set_phase(*world_, WorldPhase::Serial);
    if (!waves_.empty()) waves_.back().end_us = now_us();
    try {
        merge_.merge(*world_, batches_, run_tick_, systems_, merge_results);
    } catch (...) {
        // The frame ends (rethrown), but the wave's kernels ran: what they saw stays seen, or the
        // next frame would run their work on the same messages and changes again.
        if (merge_results) mark_wave_seen();
        throw;
    }
    if (merge_results) mark_wave_seen();
    world_->flush();
    if (timeline_ && merge_results && !waves_.empty()) {
        record_batch_timings();
        waves_.back().merged_us = now_us();
    }
}

void Scheduler::Impl::mark_wave_seen() {
    if (wave_ < plan_.waves.size()) {
        // Every worker system of the wave ran (with or without rows): its messages are seen. A
        // cascade system that could not order its rows did not run: they wait for its next run.
        for (std::uint32_t s : plan_.waves[wave_]) {
            if (plan_.main_thread[s]) continue;
            if (std::find(unordered_cascades_.begin(), unordered_cascades_.end(), s) != unordered_cascades_.end()) continue;
            close_windows(s);
        }
    }
    for (const Batch* batch : merge_.merged()) {
        detail::WorldAccess::cursors(*world_).set_last_run(cursor_slots_[batch->system], run_tick_[batch->system]);
    }
}

void Scheduler::Impl::record_batch_timings() {
    const auto since_start_us = [this](std::int64_t ns) { return static_cast<double>(ns - frame_start_ns_) * 1e-3; };
    const WaveTiming& wave = waves_.back();
    const std::size_t first = batch_timings_.size();
    for (const Batch* batch : merge_.merged()) {  // the wave's batches in batch-id order
        const double begin_us = since_start_us(batch->begin_ns);
        // A kernel that threw left no end: its bar ends where it began.
        const double end_us = batch->end_ns != 0 ? since_start_us(batch->end_ns) : begin_us;
        batch_timings_.push_back(BatchTiming{wave.wave, batch->system, batch->row_begin,
                                             batch->row_end - batch->row_begin, batch->runner, begin_us, end_us});
    }
    // A worker's clock may be offset from the coordinator's: in the browser each thread's clock
    // starts from its own reading of the wall clock, milliseconds apart on some machines. Align
    // each worker's bars by causality: its batches began after the wave left its serial slot and
    // ended before the coordinator saw the wave end, which bounds the offset; the bounds of the
    // frames so far narrow it while they agree, and the bars shift by the middle of what is left.
    const std::uint32_t workers = executor_->workers();
    if (worker_clocks_.size() < workers) worker_clocks_.resize(workers);
    for (std::uint32_t runner = 0; runner < workers; ++runner) {
        double first_begin = std::numeric_limits<double>::infinity();
        double last_end = -first_begin;
        for (std::size_t k = first; k < batch_timings_.size(); ++k) {
            if (batch_timings_[k].runner != runner) continue;
            first_begin = std::min(first_begin, batch_timings_[k].begin_us);
            last_end = std::max(last_end, batch_timings_[k].end_us);
        }
        if (first_begin > last_end) continue;  // no batch of this wave ran there
        const double low = last_end - wave.end_us, high = first_begin - wave.serial_end_us;
        ClockWindow& clock = worker_clocks_[runner];
        if (clock.known && std::max(low, clock.low) <= std::min(high, clock.high)) {
            clock.low = std::max(low, clock.low);
            clock.high = std::min(high, clock.high);
        } else {
            clock = ClockWindow{low, high, true};  // the first bounds, or the clock moved
        }
        // Bounds that cross (clocks running at different rates) leave their middle: the best guess.
        const double offset = (clock.low + clock.high) / 2;
        for (std::size_t k = first; k < batch_timings_.size(); ++k) {
            if (batch_timings_[k].runner != runner) continue;
            batch_timings_[k].begin_us -= offset;
            batch_timings_[k].end_us -= offset;
        }
    }
}

void Scheduler::Impl::fail_frame() noexcept {
    // A stalled wave is still out: recover_from_stall merges nothing of it once its worker returns.
    if (state_ == FrameState::Stalled || state_ == FrameState::Disposed) return;
    set_state(FrameState::Idle);
    if (world_ == nullptr) return;
    detail::WorldAccess::set_phase(*world_, WorldPhase::Serial);
    // Batches prepared but never merged: give their handles back, drop their results.
    try {
        const std::size_t dropped = merge_.drop(*world_, batches_);
        world_->diagnostics().report("frame " + std::to_string(frames_) + " ended early at wave " + std::to_string(wave_) +
                                     " by an error (rethrown to the caller); " + std::to_string(dropped) +
                                     " unmerged batch(es) were dropped");
    } catch (...) {
        // Only a failing allocation gets here; the world stays consistent either way.
    }
}

void Scheduler::Impl::recover_from_stall() {
    if (!executor_->idle()) {
        throw Error(ErrorCode::WorkerFailure, "a worker is still running a batch that missed its deadline");
    }
    set_state(FrameState::Idle);
    finish_wave(false);
}

std::string Scheduler::Impl::recover_from_trap() {
    if (stepping_ == 0 || state_ == FrameState::Disposed || world_ == nullptr) return {};
    stepping_ = 0;  // the step() the trap left never returned
    std::string where = "wave " + std::to_string(wave_);
    if (wave_ < plan_.waves.size()) {
        const char* separator = " (systems ";
        for (std::uint32_t s : plan_.waves[wave_]) {
            where += separator + systems_[s].name;
            separator = ", ";
        }
        where += ")";
    }
    world_->diagnostics().report("a trap ended frame " + std::to_string(frames_) + " in " + where);
    if (state_ == FrameState::Dispatched) {
        set_state(FrameState::Stalled);  // begin_frame() drops the wave once the workers are back
    } else {
        fail_frame();
    }
    if (dispose_requested_) dispose_now();
    return where;
}

void Scheduler::Impl::abandon_frame(const std::string& why) {
    if (!in_frame() && state_ != FrameState::Stalled) return;
    set_state(FrameState::Idle);
    if (world_ == nullptr) return;
    world_->diagnostics().report("frame abandoned: " + why);
    try {
        finish_wave(false);
    } catch (const std::exception& error) {
        world_->diagnostics().report(std::string("while abandoning the frame: ") + error.what());
    }
}

void Scheduler::Impl::dispose() {
    if (state_ == FrameState::Disposed) return;
    if (stepping_ > 0 || (state_ == FrameState::Dispatched && !options_.wait_for_workers)) {
        // Inside the frame (a main-thread system, an observer, a serial kernel): the frame's own
        // lists are in use below us. Or a wave is out on the workers, whose batches write into
        // the world, and this coordinator must not block: the world stays in its wave until they
        // return. step() disposes once that call returns, or once the wave is back.
        dispose_requested_ = true;
        return;
    }
    dispose_now();
}

void Scheduler::Impl::dispose_before_destruction() noexcept {
    // No later step() can finish a disposal: a wave still out is waited for here, up to its
    // deadline, so that no batch writes into what is about to be freed. A coordinator that must
    // not block polls (its one wait: a wave's batches are short; one past the deadline stalled).
    if (state_ == FrameState::Dispatched) {
        while (!executor_->done() && std::chrono::steady_clock::now() < deadline_) {
            if (options_.wait_for_workers) executor_->wait_until(deadline_);
        }
    }
    if (stepping_ > 0) {
        if (state_ != FrameState::Disposed) dispose_requested_ = true;  // destroyed from inside the frame: step() ends it
        return;
    }
    dispose_now();  // nothing when disposed already
    // Workers detached from a wave past its deadline read this scheduler's frame (its batch
    // lists, systems, access checks) until they return. One that has returned by now is seen to
    // have (the fence's acquire orders its last reads before what is freed next); one still
    // running is the hazard the dispose's diagnostic names.
    if (detached_ != nullptr) (void)detached_->idle();
}

void Scheduler::Impl::dispose_now() {
    dispose_requested_ = false;
    if (state_ == FrameState::Disposed) return;
    const bool workers_may_run_on = !options_.wait_for_workers && !executor_->idle();
    executor_->stop(options_.wait_for_workers);
    if (workers_may_run_on) {
        // A detached worker may still be inside a batch: touch none of them, and keep their
        // buffers and the pool alive for the life of the process (a few KB per such dispose).
        if (world_ != nullptr) {
            world_->diagnostics().report("frame abandoned: the scheduler was disposed while " +
                                         std::to_string(batches_.size()) +
                                         " batch(es) were running; their results and reserved handles are dropped, "
                                         "and a pending handle they hand out is not told apart from later waves' (G4)");
            detail::WorldAccess::set_phase(*world_, WorldPhase::Serial);
        }
        batches_.clear();
        for (auto& batch : batch_pool_) keep_for_process(batch.release());
    } else {
        abandon_frame("the scheduler was disposed");
    }
    // Its systems consume nothing more: messages only they had left to read are dropped.
    if (world_ != nullptr) {
        for (const SystemDesc& system : systems_) {
            if (!system.consumes.empty()) release_consumers(system);
        }
    }
    // Counts of repeated diagnostics not yet said are said now: no later frame will.
    if (world_ != nullptr) world_->diagnostics().flush_repeats();
    set_state(FrameState::Disposed);
    if (threaded_ && !options_.wait_for_workers) {
        // Detached workers may still call back into the executor (a batch that outlived its
        // deadline): it stays alive for the life of the process, and this scheduler has none.
        if (workers_may_run_on) detached_ = threaded_.get();
        keep_for_process(threaded_.release());
        executor_ = &serial_;
    }
}

// ---- Scheduler: forwards to its Impl.

Scheduler::Scheduler(World& world, SchedulerOptions options) : impl_(std::make_unique<Impl>(world, options)) {}
Scheduler::~Scheduler() = default;

void Scheduler::add_system(SystemDesc system) { impl_->add_system(std::move(system)); }
void Scheduler::remove_system(std::string_view name) { impl_->remove_system(name); }
const std::vector<SystemDesc>& Scheduler::systems() const noexcept { return impl_->systems_; }
const Plan& Scheduler::plan() { return impl_->plan(); }
std::string Scheduler::explain_plan() { return impl_->plan().explain(impl_->systems_); }
void Scheduler::update(float dt) { impl_->update(dt); }
void Scheduler::begin_frame(float dt) { impl_->begin_frame(dt); }
FrameStatus Scheduler::step() { return impl_->step(); }
bool Scheduler::in_frame() const noexcept { return impl_->in_frame(); }
FrameState Scheduler::state() const noexcept { return impl_->state_; }
const std::int32_t* Scheduler::fence_word() const noexcept { return impl_->executor_->fence_word(); }
std::uint32_t Scheduler::waiting_epoch() const noexcept { return impl_->executor_->epoch(); }
std::uint32_t Scheduler::workers() const noexcept { return impl_->executor_->workers(); }
std::uint64_t Scheduler::frames() const noexcept { return impl_->frames_; }
const std::vector<WaveTiming>& Scheduler::last_frame_waves() const noexcept { return impl_->last_waves_; }
void Scheduler::record_timeline(bool on) noexcept { impl_->timeline_requested_ = on; }
bool Scheduler::records_timeline() const noexcept { return impl_->timeline_requested_; }
const std::vector<BatchTiming>& Scheduler::last_frame_batches() const noexcept { return impl_->last_batch_timings_; }
bool Scheduler::last_frame_timed() const noexcept { return impl_->last_timeline_; }
WorkerStats Scheduler::worker_stats(std::uint32_t worker) const { return impl_->worker_stats(worker); }
ExtractId Scheduler::add_extract(std::vector<ComponentId> components, QueryDesc rows) {
    return impl_->add_extract(std::move(components), std::move(rows));
}
const ExtractBuffer& Scheduler::acquire_extract(ExtractId id) { return impl_->acquire_extract(id); }
void Scheduler::remove_extract(ExtractId id) { impl_->remove_extract(id); }
void Scheduler::dispose() { impl_->dispose(); }
std::string Scheduler::recover_from_trap() { return impl_->recover_from_trap(); }
Executor& Scheduler::executor() const noexcept { return *impl_->executor_; }

}  // namespace ecsia
