#include "ecsia/schedule/scheduler.hpp"

#include <algorithm>

#include "ecsia/base/error.hpp"
#include "ecsia/base/monotonic_clock.hpp"
#include "ecsia/schedule/system_registry.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia {

struct Scheduler::Batch {
    std::uint32_t system = 0;
    std::uint32_t id = 0;
    TableIndex table = 0;
    std::uint32_t row_begin = 0;
    std::uint32_t row_end = 0;
    CommandBuffer commands;
    WriteLog log;
    EntityReservation reservation;
    bool failed = false;  // written by the one thread that runs the batch, read after the fence
    std::string error;
    // Its run time (a dispatched batch), or its system's whole inline run (on the system's last
    // inline batch; 0 on the others); and who ran it. Same rule as `failed`.
    std::int64_t ns = 0;
    std::uint32_t runner = WorkerPool::kCoordinator;

    void fail(const char* why) {
        failed = true;
        error = why;
    }
};

namespace {
constexpr const char* kNonStandardException = "a non-standard exception";
}  // namespace

Scheduler::Scheduler(World& world, SchedulerOptions options) : world_(&world), options_(options) {
    if (options_.batch_rows == 0) throw Error(ErrorCode::BadValue, "batch_rows must be at least 1");
    check_system_registry();  // a name registered twice fails at start-up, not at the first lookup
    world.attach(*this);
    if (options_.workers == 0) return;
    try {
        pool_ = std::make_unique<WorkerPool>(options_.workers);
        if (options_.wait_for_workers) pool_->wait_ready(options_.startup_deadline);
    } catch (const Error& error) {
        if (pool_ && !options_.wait_for_workers) {
            // Threads that may still be starting must not be joined on a thread that may not block.
            pool_->dispose(false);
            (void)pool_.release();
        }
        pool_.reset();
        world.diagnostics().report(std::string(error.what()) + "; running with the serial executor instead");
    }
}

void detail::SchedulerTesting::force_placement(Scheduler& scheduler, std::optional<WavePlacement> placement) noexcept {
    scheduler.forced_placement_ = placement;
}

const PlacementModel& detail::SchedulerTesting::model(const Scheduler& scheduler) noexcept { return scheduler.placement_; }

Scheduler::~Scheduler() {
    dispose();
    if (world_ != nullptr) world_->detach(*this);
}

World& Scheduler::world() const {
    if (world_ == nullptr) throw Error(ErrorCode::Disposed, "the scheduler's world was destroyed");
    return *world_;
}

void Scheduler::set_state(FrameState state) noexcept {
    state_ = state;
    if (world_ != nullptr) world_->cursors().set_in_frame(in_frame());
}

void Scheduler::on_world_destroyed() noexcept {
    dispose();
    world_ = nullptr;
}

WorkerStats Scheduler::worker_stats(std::uint32_t worker) const {
    if (worker >= workers()) {
        throw Error(ErrorCode::BadValue, "worker_stats(" + std::to_string(worker) + "): this scheduler has " +
                                             std::to_string(workers()) + " worker(s)");
    }
    return pool_->stats(worker);
}

void Scheduler::add_system(SystemDesc system) {
    world();
    if (state_ == FrameState::Disposed) throw Error(ErrorCode::Disposed, "the scheduler was disposed");
    if (in_frame()) throw Error(ErrorCode::WrongPhase, "add_system during a frame");
    for (const SystemDesc& existing : systems_) {
        if (existing.name == system.name) throw Error(ErrorCode::DuplicateName, "a system named '" + system.name + "' already exists");
    }
    if (!system.kernel && !system.main_thread) {
        throw Error(ErrorCode::BadDefinition, "system '" + system.name + "' has neither a kernel nor a main-thread function");
    }
    if (system.kernel && system.main_thread) {
        throw Error(ErrorCode::BadDefinition, "system '" + system.name +
                                                  "' has both a kernel and a main-thread function: give it one of them");
    }
    for (const auto* list : {&system.reads, &system.writes}) {
        for (ComponentId id : *list) world_->components().desc(id);
    }
    if (!system.query_set) {
        system.query = QueryDesc{};
        system.query.with = system.reads;
        system.query.with.insert(system.query.with.end(), system.writes.begin(), system.writes.end());
        std::sort(system.query.with.begin(), system.query.with.end());
        system.query.with.erase(std::unique(system.query.with.begin(), system.query.with.end()), system.query.with.end());
    }
    world_->query(system.query);  // validates the query's component ids
    queries_.push_back(std::make_unique<QueryCache>(system.query));
    runs_once_.push_back(system.query.required().empty() && system.query.without.empty());
    cursor_slots_.push_back(world_->cursors().slot(system.name));
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
    systems_.push_back(std::move(system));
    run_tick_.push_back(0);
    placement_.resize(systems_.size());
    plan_valid_ = false;
}

const Plan& Scheduler::plan() {
    const World& world = this->world();
    if (!plan_valid_) {
        plan_ = make_plan(systems_, world.components());
        plan_valid_ = true;
    }
    return plan_;
}

const std::int32_t* Scheduler::fence_word() const noexcept {
    return pool_ ? pool_->fence().done_epoch_address() : nullptr;
}

double Scheduler::now_us() const {
    return static_cast<double>(monotonic_ns() - frame_start_ns_) * 1e-3;
}

void Scheduler::update(float dt) {
    begin_frame(dt);
    while (step() == FrameStatus::Waiting) {
        pool_->fence().wait_until(epoch_, deadline_);
    }
}

void Scheduler::begin_frame(float dt) {
    world();
    if (state_ == FrameState::Disposed) throw Error(ErrorCode::Disposed, "the scheduler was disposed");
    if (in_frame()) throw Error(ErrorCode::WrongPhase, "a frame is already running: finish it before starting another");
    // A stalled wave leaves the world in the wave phase until its worker returns.
    if (state_ == FrameState::Stalled) recover_from_stall();
    if (world_->phase() != WorldPhase::Serial) throw Error(ErrorCode::WrongPhase, "the world is in a wave");
    plan();
    set_state(FrameState::Running);
    dt_ = dt;
    wave_ = 0;
    waves_.clear();
    frame_start_ns_ = monotonic_ns();
}

FrameStatus Scheduler::step() {
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
        dispose_now();
        return FrameStatus::Done;
    }
    return status;
}

FrameStatus Scheduler::run_waves() {
    while (wave_ < plan_.waves.size()) {
        if (dispose_requested_) return FrameStatus::Done;  // step() finishes the disposal
        if (state_ == FrameState::Dispatched) {
            if (!pool_->fence().done(epoch_)) {
                if (std::chrono::steady_clock::now() < deadline_) return FrameStatus::Waiting;
                set_state(FrameState::Stalled);
                throw Error(ErrorCode::WorkerFailure,
                            "wave " + std::to_string(wave_) + " did not finish within " +
                                std::to_string(options_.wave_deadline.count()) +
                                " ms; its results will be dropped once the stalled worker returns");
            }
            set_state(FrameState::Running);
            learn_from_wave(true);
            finish_wave(true);
            ++wave_;
            continue;
        }
        const std::vector<std::uint32_t>& wave = plan_.waves[wave_];
        // A wave begins where the previous one ended (the frame's start for the first): one
        // clock read per wave, which matters in wasm, where a read is a round trip through JS.
        const double begin_us = waves_.empty() ? 0.0 : waves_.back().end_us;
        waves_.push_back(WaveTiming{static_cast<std::uint32_t>(wave_), 0, begin_us, 0});
        run_main_thread_systems(wave);
        if (dispose_requested_) return FrameStatus::Done;  // a main-thread system disposed the scheduler
        prepare_batches(wave);
        waves_.back().batches = static_cast<std::uint32_t>(batches_.size());
        detail::WorldAccess::set_phase(*world_, WorldPhase::Wave);
        const WavePlacement placement = choose_placement();
        waves_.back().placement = placement;
        if (placement != WavePlacement::Inline) {
            dispatch_ns_ = monotonic_ns();
            epoch_ = pool_->dispatch(static_cast<std::uint32_t>(batches_.size()), &Scheduler::run_batch, this);
            deadline_ = std::chrono::steady_clock::now() + options_.wave_deadline;
            set_state(FrameState::Dispatched);
            if (placement == WavePlacement::Shared) help_with_wave();
            poll_fence();
            continue;  // fast waves are often done already: check before reporting Waiting
        }
        run_batches_inline();
        if (pool_) learn_from_wave(false);
        finish_wave(true);
        ++wave_;
    }
    set_state(FrameState::Idle);
    ++frames_;
    world_->cursors().count_frame();
    // The frame's last system ran at the world's tick; writes made between frames (a page's
    // set(), a test's direct access) must be newer than every system's last run, so that
    // `changed` filters see them next frame. Here, not in a binding, so every build agrees.
    world_->advance_tick();
    last_waves_.swap(waves_);
    return FrameStatus::Done;
}

void Scheduler::run_main_thread_systems(const std::vector<std::uint32_t>& wave) {
    for (std::uint32_t s : wave) {
        if (!plan_.main_thread[s]) continue;
        run_tick_[s] = world_->advance_tick();
        // A throwing system ends only itself, like a failing batch: what it did before it threw
        // stands (it had full access to the world), and the frame goes on.
        try {
            systems_[s].main_thread(*world_, dt_);
        } catch (const std::exception& error) {
            world_->diagnostics().report("main-thread system '" + systems_[s].name + "' threw: " + error.what() +
                                        "; what it did before stands, and the frame goes on");
        } catch (...) {
            world_->diagnostics().report("main-thread system '" + systems_[s].name + "' threw " + kNonStandardException +
                                        "; what it did before stands, and the frame goes on");
        }
        if (dispose_requested_ || world_ == nullptr) return;
        world_->flush();
        world_->cursors().set_last_run(cursor_slots_[s], run_tick_[s]);
    }
}

Scheduler::Batch& Scheduler::next_batch() {
    if (batches_.size() == batch_pool_.size()) batch_pool_.push_back(std::make_unique<Batch>());
    Batch& batch = *batch_pool_[batches_.size()];
    batch.id = static_cast<std::uint32_t>(batches_.size());
    batch.commands.clear();
    batch.log.clear();
    batch.failed = false;
    batch.error.clear();
    batch.ns = 0;
    batch.runner = WorkerPool::kCoordinator;
    batches_.push_back(&batch);
    return batch;
}

void Scheduler::prepare_batches(const std::vector<std::uint32_t>& wave) {
    batches_.clear();
    for (std::uint32_t s : wave) {
        if (plan_.main_thread[s]) continue;
        run_tick_[s] = world_->advance_tick();
        const std::size_t first = batches_.size();
        QueryCache& query = *queries_[s];
        if (runs_once_[s]) {
            Batch& batch = next_batch();
            batch.system = s;
            batch.table = 0;
            batch.row_begin = batch.row_end = 0;
        } else {
            runs_.clear();
            std::uint64_t rows = 0;
            query.for_each_chunk(detail::WorldAccess::tables(*world_), world_->cursors().last_run(cursor_slots_[s]), run_tick_[s], nullptr, [&](Chunk& chunk) {
                runs_.push_back(RowRun{chunk.table().index(), chunk.row_begin(), chunk.row_end()});
                rows += chunk.size();
            });
            const std::uint32_t batch_rows = rows_per_batch(rows);
            for (const RowRun& run : runs_) {
                for (std::uint32_t begin = run.begin; begin < run.end; begin += batch_rows) {
                    Batch& batch = next_batch();
                    batch.system = s;
                    batch.table = run.table;
                    batch.row_begin = begin;
                    batch.row_end = run.end - begin > batch_rows ? begin + batch_rows : run.end;
                }
            }
        }
        const std::uint32_t spawns = systems_[s].spawns_per_batch;
        for (std::size_t b = first; b < batches_.size(); ++b) {
            batches_[b]->reservation = EntityReservation{};
            if (spawns == 0) continue;
            try {
                batches_[b]->reservation = detail::WorldAccess::reserve(*world_, spawns);
            } catch (const Error& error) {
                world_->diagnostics().report("system '" + systems_[s].name + "' batch " + std::to_string(b) +
                                            " got no reserved handles (" + error.what() + "); its spawns are assigned at merge");
            }
        }
    }
}

void Scheduler::poll_fence() const {
    if (options_.step_poll.count() <= 0) return;
    const std::int64_t until = monotonic_ns() + std::chrono::nanoseconds(options_.step_poll).count();
    while (!pool_->fence().done(epoch_) && monotonic_ns() < until) {
    }
}

std::uint32_t Scheduler::rows_per_batch(std::uint64_t rows) const noexcept {
    // About a sixteenth of the system's rows, so that a small system still spreads over the
    // workers; at least kMinBatchRows, so per-batch bookkeeping (~0.1-0.2 µs in wasm) stays small
    // next to even the lightest kernel; at most batch_rows. A function of the rows alone, never of
    // the worker count, so batch ids, failures and per-batch reservations match for every count.
    constexpr std::uint64_t kTargetBatches = 16;
    constexpr std::uint32_t kMinBatchRows = 256;
    constexpr std::uint64_t kRowMultiple = 16;  // batches start on cache lines of 4-byte fields
    const std::uint64_t share = ((rows + kTargetBatches - 1) / kTargetBatches + kRowMultiple - 1) / kRowMultiple * kRowMultiple;
    const std::uint32_t floor = std::min(kMinBatchRows, options_.batch_rows);
    return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(share, floor, options_.batch_rows));
}

WavePlacement Scheduler::choose_placement() {
    if (!pool_ || batches_.empty()) return WavePlacement::Inline;
    if (forced_placement_) return *forced_placement_;
    WaveShape shape;
    shape.known = true;
    shape.batches = static_cast<std::uint32_t>(batches_.size());
    shape.workers = pool_->size();
    shape.coordinator_budget_ns =
        options_.wait_for_workers ? -1.0 : static_cast<double>(std::chrono::nanoseconds(options_.coordinator_slice).count());
    for (const Batch* batch : batches_) {
        const double per_row = placement_.ns_per_row(batch->system);
        if (per_row < 0) {
            shape.known = false;
            break;
        }
        const double batch_ns = per_row * std::max<std::uint32_t>(1, batch->row_end - batch->row_begin);
        shape.work_ns += batch_ns;
        shape.largest_batch_ns = std::max(shape.largest_batch_ns, batch_ns);
    }
    return placement_.decide(shape);
}

void Scheduler::help_with_wave() {
    // The coordinator would otherwise only wait: it claims batches from the same counter as the
    // workers. A coordinator that must stay live stops after its slice (checked before each
    // claim, so it overruns by at most one batch), leaving the rest to the workers.
    if (options_.wait_for_workers) {
        while (pool_->help()) {
        }
        return;
    }
    const std::int64_t until = monotonic_ns() + std::chrono::nanoseconds(options_.coordinator_slice).count();
    while (monotonic_ns() < until && pool_->help()) {
    }
}

void Scheduler::learn_from_wave(bool dispatched) {
    // Per system: its rows (one per batch for a system without a query) and their run time. A
    // system's batches are consecutive in batch-id order.
    const std::int64_t seen_done_ns = dispatched ? monotonic_ns() : 0;
    std::size_t b = 0;
    while (b < batches_.size()) {
        const std::uint32_t system = batches_[b]->system;
        std::uint64_t rows = 0;
        std::int64_t ns = 0;
        for (; b < batches_.size() && batches_[b]->system == system; ++b) {
            rows += std::max<std::uint32_t>(1, batches_[b]->row_end - batches_[b]->row_begin);
            ns += batches_[b]->ns;
        }
        placement_.observe_system(system, rows, static_cast<double>(ns));
    }
    if (!dispatched) return;
    // The pool's overhead: the wave's wall time (dispatch to the coordinator seeing the fence)
    // beyond the busiest runner's own work.
    runner_ns_.assign(pool_->size() + 1, 0.0);
    for (const Batch* batch : batches_) {
        const std::size_t slot = batch->runner == WorkerPool::kCoordinator ? pool_->size() : batch->runner;
        runner_ns_[slot] += static_cast<double>(batch->ns);
    }
    const double busiest = *std::max_element(runner_ns_.begin(), runner_ns_.end());
    placement_.observe_dispatch(static_cast<double>(seen_done_ns - dispatch_ns_) - busiest);
}

void Scheduler::run_batch(void* self, std::uint32_t job, std::uint32_t worker) {
    auto* scheduler = static_cast<Scheduler*>(self);
    scheduler->run_batch(*scheduler->batches_[job], worker);
}

void Scheduler::run_batch(Batch& batch, std::uint32_t runner) noexcept {
    const std::int64_t start = monotonic_ns();
    try {
        run_kernel(batch);
    } catch (const std::exception& error) {
        batch.fail(error.what());
    } catch (...) {
        batch.fail(kNonStandardException);
    }
    batch.ns = monotonic_ns() - start;
    batch.runner = runner;
}

void Scheduler::run_kernel(Batch& batch) {
    Chunk chunk(detail::WorldAccess::tables(*world_).table(batch.table), batch.row_begin, batch.row_end,
                run_tick_[batch.system], &batch.log);
    KernelContext context{chunk, dt_, batch.commands, batch.reservation, world_->entities().layout(), batch.id,
                          world_->cursors().frames()};
    context.pending_blocks_claimed = &pending_blocks_claimed_;
#if ECSIA_ACCESS_CHECKS
    chunk.set_access(access_[batch.system].get());
#endif
    systems_[batch.system].kernel(context);
}

// Out of line and without a try of its own: see run_batches_inline.
[[gnu::noinline]] void Scheduler::run_kernels_from(std::size_t& next) {
    for (; next < batches_.size(); ++next) {
        Batch& batch = *batches_[next];
        run_kernel(batch);
        // One clock read per system, not per batch: a wave kept inline is a short one. The
        // serial executor (no pool) has nothing to decide and reads no clock.
        if (pool_ && (next + 1 == batches_.size() || batches_[next + 1]->system != batch.system)) {
            const std::int64_t now = monotonic_ns();
            batch.ns = now - segment_start_ns_;
            segment_start_ns_ = now;
        }
    }
}

void Scheduler::run_batches_inline() noexcept {
    // With wasm's JS-based exceptions every call made inside a try block is a round trip through
    // JS; one try around the whole run (resumed after a failing batch) keeps the kernel calls
    // direct. Same outcome as run_batch per batch: a failure marks its batch, the rest run.
    std::size_t next = 0;
    if (pool_) segment_start_ns_ = monotonic_ns();
    while (next < batches_.size()) {
        try {
            run_kernels_from(next);
        } catch (const std::exception& error) {
            batches_[next++]->fail(error.what());
        } catch (...) {
            batches_[next++]->fail(kNonStandardException);
        }
    }
}

void Scheduler::finish_wave(bool merge_results) {
    detail::WorldAccess::set_phase(*world_, WorldPhase::Serial);
    if (!waves_.empty()) waves_.back().end_us = now_us();
    std::vector<CommandBuffer*>& buffers = merge_buffers_;
    std::vector<EntityReservation*>& reservations = merge_reservations_;
    buffers.clear();
    reservations.clear();
    for (Batch* batch : batches_) {
        // Most batches record nothing and reserve nothing: World::apply need not see them.
        if (!batch->failed && batch->commands.record_count() == 0 && batch->reservation.size() == 0) continue;
        reservations.push_back(&batch->reservation);
        if (batch->failed) {
            world_->diagnostics().report("system '" + systems_[batch->system].name + "' failed in batch " +
                                         std::to_string(batch->id) + ": " + batch->error + "; its " +
                                         std::to_string(batch->commands.record_count()) + " command(s) were dropped");
        } else if (merge_results) {
            buffers.push_back(&batch->commands);
        }
    }
    if (!merge_results && !batches_.empty()) {
        world_->diagnostics().report("the results of " + std::to_string(batches_.size()) +
                                     " batch(es) of an unfinished wave were dropped");
    }
    if (merge_results) {
        merge_logs_.clear();
        merge_ticks_.clear();
        for (Batch* batch : batches_) {
            merge_logs_.push_back(&batch->log);
            merge_ticks_.push_back(run_tick_[batch->system]);
        }
        detail::WorldAccess::merge_write_logs(*world_, merge_logs_, merge_ticks_);
    }
    // Once apply starts, the reservations are its to return (also when it throws): nothing of
    // this wave may be merged a second time.
    std::vector<Batch*>& merged = merged_batches_;
    merged.swap(batches_);
    batches_.clear();
    world_->apply(buffers, reservations);
    if (merge_results) {
        for (Batch* batch : merged) world_->cursors().set_last_run(cursor_slots_[batch->system], run_tick_[batch->system]);
    }
    world_->flush();
}

void Scheduler::fail_frame() noexcept {
    // A stalled wave is still out: recover_from_stall merges nothing of it once its worker returns.
    if (state_ == FrameState::Stalled || state_ == FrameState::Disposed) return;
    set_state(FrameState::Idle);
    if (world_ == nullptr) return;
    detail::WorldAccess::set_phase(*world_, WorldPhase::Serial);
    // Batches prepared but never merged: give their handles back, drop their results.
    merge_reservations_.clear();
    for (Batch* batch : batches_) merge_reservations_.push_back(&batch->reservation);
    const std::size_t dropped = batches_.size();
    batches_.clear();
    try {
        world_->apply({}, merge_reservations_);
        world_->diagnostics().report("frame " + std::to_string(frames_) + " ended early at wave " + std::to_string(wave_) +
                                     " by an error (rethrown to the caller); " + std::to_string(dropped) +
                                     " unmerged batch(es) were dropped");
    } catch (...) {
        // Only a failing allocation gets here; the world stays consistent either way.
    }
}

void Scheduler::recover_from_stall() {
    if (!pool_->idle()) {
        throw Error(ErrorCode::WorkerFailure, "a worker is still running a batch that missed its deadline");
    }
    set_state(FrameState::Idle);
    finish_wave(false);
}

void Scheduler::abandon_frame(const std::string& why) {
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

void Scheduler::dispose() {
    if (state_ == FrameState::Disposed) return;
    if (stepping_ > 0) {
        // Inside the frame (a main-thread system, an observer, a serial kernel): the frame's own
        // lists are in use below us. step() disposes once that call returns.
        dispose_requested_ = true;
        return;
    }
    dispose_now();
}

void Scheduler::dispose_now() {
    dispose_requested_ = false;
    if (state_ == FrameState::Disposed) return;
    const bool workers_may_run_on = pool_ && !options_.wait_for_workers && !pool_->idle();
    if (pool_) pool_->dispose(options_.wait_for_workers);
    if (workers_may_run_on) {
        // A detached worker may still be inside a batch: touch none of them, and keep their
        // buffers and the pool alive for the life of the process (a few KB per such dispose).
        if (world_ != nullptr) {
            world_->diagnostics().report("frame abandoned: the scheduler was disposed while " +
                                         std::to_string(batches_.size()) +
                                         " batch(es) were running; their results and reserved handles are dropped");
            detail::WorldAccess::set_phase(*world_, WorldPhase::Serial);
        }
        batches_.clear();
        for (auto& batch : batch_pool_) (void)batch.release();
    } else {
        abandon_frame("the scheduler was disposed");
    }
    set_state(FrameState::Disposed);
    if (pool_ && !options_.wait_for_workers) (void)pool_.release();
}
}  // namespace ecsia
