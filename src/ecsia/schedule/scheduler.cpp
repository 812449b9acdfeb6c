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

    void fail(const char* why) {
        failed = true;
        error = why;
    }
};

namespace {
constexpr const char* kNonStandardException = "a non-standard exception";
}  // namespace

Scheduler::Scheduler(World& world, SchedulerOptions options) : world_(world), options_(options) {
    if (options_.batch_rows == 0) throw Error(ErrorCode::BadValue, "batch_rows must be at least 1");
    check_system_registry();  // a name registered twice fails at start-up, not at the first lookup
    if (options_.workers == 0) return;
    try {
        pool_ = std::make_unique<WorkerPool>(options_.workers);
        if (options_.wait_for_workers) pool_->wait_ready(options_.startup_deadline);
    } catch (const Error& error) {
        pool_.reset();
        world_.diagnostics().report(std::string(error.what()) + "; running with the serial executor instead");
    }
}

Scheduler::~Scheduler() { dispose(); }

void Scheduler::add_system(SystemDesc system) {
    if (in_frame_) throw Error(ErrorCode::WrongPhase, "add_system during a frame");
    for (const SystemDesc& existing : systems_) {
        if (existing.name == system.name) throw Error(ErrorCode::DuplicateName, "a system named '" + system.name + "' already exists");
    }
    if (!system.kernel && !system.main_thread) {
        throw Error(ErrorCode::BadDefinition, "system '" + system.name + "' has neither a kernel nor a main-thread function");
    }
    for (const auto* list : {&system.reads, &system.writes}) {
        for (ComponentId id : *list) world_.components().desc(id);
    }
    if (!system.query_set) {
        system.query = QueryDesc{};
        system.query.with = system.reads;
        system.query.with.insert(system.query.with.end(), system.writes.begin(), system.writes.end());
        std::sort(system.query.with.begin(), system.query.with.end());
        system.query.with.erase(std::unique(system.query.with.begin(), system.query.with.end()), system.query.with.end());
    }
    world_.query(system.query);  // validates the query's component ids
    queries_.push_back(std::make_unique<QueryCache>(system.query));
    runs_once_.push_back(system.query.required().empty() && system.query.without.empty());
    cursor_slots_.push_back(world_.cursors().slot(system.name));
    systems_.push_back(std::move(system));
    run_tick_.push_back(0);
    plan_valid_ = false;
}

const Plan& Scheduler::plan() {
    if (!plan_valid_) {
        plan_ = make_plan(systems_, world_.components());
        plan_valid_ = true;
    }
    return plan_;
}

const std::int32_t* Scheduler::fence_word() const noexcept {
    return pool_ ? pool_->fence().done_epoch_address() : nullptr;
}

void Scheduler::set_in_frame(bool in_frame) noexcept {
    in_frame_ = in_frame;
    world_.cursors().set_in_frame(in_frame);
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
    if (disposed_) throw Error(ErrorCode::Disposed, "the scheduler was disposed");
    if (in_frame_) throw Error(ErrorCode::WrongPhase, "a frame is already running: finish it before starting another");
    // A stalled wave leaves the world in the wave phase until its worker returns.
    if (stalled_) recover_from_stall();
    if (world_.phase() != WorldPhase::Serial) throw Error(ErrorCode::WrongPhase, "the world is in a wave");
    plan();
    set_in_frame(true);
    dt_ = dt;
    wave_ = 0;
    dispatched_ = false;
    waves_.clear();
    frame_start_ns_ = monotonic_ns();
}

FrameStatus Scheduler::step() {
    if (!in_frame_) throw Error(ErrorCode::WrongPhase, "step() outside a frame: call begin_frame first");
    while (wave_ < plan_.waves.size()) {
        if (dispatched_) {
            if (!pool_->fence().done(epoch_)) {
                if (std::chrono::steady_clock::now() < deadline_) return FrameStatus::Waiting;
                stalled_ = true;
                dispatched_ = false;
                set_in_frame(false);
                throw Error(ErrorCode::WorkerFailure,
                            "wave " + std::to_string(wave_) + " did not finish within " +
                                std::to_string(options_.wave_deadline.count()) +
                                " ms; its results will be dropped once the stalled worker returns");
            }
            dispatched_ = false;
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
        prepare_batches(wave);
        waves_.back().batches = static_cast<std::uint32_t>(batches_.size());
        world_.set_phase(WorldPhase::Wave);
        if (pool_ && !batches_.empty()) {
            epoch_ = pool_->dispatch(static_cast<std::uint32_t>(batches_.size()), &Scheduler::run_batch, this);
            deadline_ = std::chrono::steady_clock::now() + options_.wave_deadline;
            dispatched_ = true;
            poll_fence();
            continue;  // fast waves are often done already: check before reporting Waiting
        }
        run_batches_inline();
        finish_wave(true);
        ++wave_;
    }
    set_in_frame(false);
    ++frames_;
    world_.cursors().count_frame();
    // The frame's last system ran at the world's tick; writes made between frames (a page's
    // set(), a test's direct access) must be newer than every system's last run, so that
    // `changed` filters see them next frame. Here, not in a binding, so every build agrees.
    world_.advance_tick();
    last_waves_.swap(waves_);
    return FrameStatus::Done;
}

void Scheduler::run_main_thread_systems(const std::vector<std::uint32_t>& wave) {
    for (std::uint32_t s : wave) {
        if (!plan_.main_thread[s]) continue;
        run_tick_[s] = world_.advance_tick();
        systems_[s].main_thread(world_, dt_);
        world_.flush();
        world_.cursors().set_last_run(cursor_slots_[s], run_tick_[s]);
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
    batches_.push_back(&batch);
    return batch;
}

void Scheduler::prepare_batches(const std::vector<std::uint32_t>& wave) {
    batches_.clear();
    for (std::uint32_t s : wave) {
        if (plan_.main_thread[s]) continue;
        run_tick_[s] = world_.advance_tick();
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
            query.for_each_chunk(world_.tables(), world_.cursors().last_run(cursor_slots_[s]), run_tick_[s], nullptr, [&](Chunk& chunk) {
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
                batches_[b]->reservation = world_.reserve(spawns);
            } catch (const Error& error) {
                world_.diagnostics().report("system '" + systems_[s].name + "' batch " + std::to_string(b) +
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

bool Scheduler::run_batch(void* self, std::uint32_t job, std::uint32_t) {
    auto* scheduler = static_cast<Scheduler*>(self);
    return scheduler->run_batch(*scheduler->batches_[job]);
}

bool Scheduler::run_batch(Batch& batch) noexcept {
    try {
        run_kernel(batch);
        return true;
    } catch (const std::exception& error) {
        batch.fail(error.what());
    } catch (...) {
        batch.fail(kNonStandardException);
    }
    return false;
}

void Scheduler::run_kernel(Batch& batch) {
    Chunk chunk(world_.tables().table(batch.table), batch.row_begin, batch.row_end, run_tick_[batch.system], &batch.log);
    KernelContext context{chunk, dt_, batch.commands, batch.reservation, world_.entities().layout(), batch.id,
                          world_.cursors().frames()};
    systems_[batch.system].kernel(context);
}

// Out of line and without a try of its own: see run_batches_inline.
[[gnu::noinline]] void Scheduler::run_kernels_from(std::size_t& next) {
    for (; next < batches_.size(); ++next) run_kernel(*batches_[next]);
}

void Scheduler::run_batches_inline() noexcept {
    // With wasm's JS-based exceptions every call made inside a try block is a round trip through
    // JS; one try around the whole run (resumed after a failing batch) keeps the kernel calls
    // direct. Same outcome as run_batch per batch: a failure marks its batch, the rest run.
    std::size_t next = 0;
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
    world_.set_phase(WorldPhase::Serial);
    if (!waves_.empty()) waves_.back().end_us = now_us();
    std::vector<CommandBuffer*>& buffers = merge_buffers_;
    std::vector<EntityReservation*>& reservations = merge_reservations_;
    buffers.clear();
    reservations.clear();
    if (merge_results) {
        merge_logs_.clear();
        merge_ticks_.clear();
        for (Batch* batch : batches_) {
            merge_logs_.push_back(&batch->log);
            merge_ticks_.push_back(run_tick_[batch->system]);
        }
        world_.merge_write_logs(merge_logs_, merge_ticks_);
    }
    for (Batch* batch : batches_) {
        // Most batches record nothing and reserve nothing: World::apply need not see them.
        if (!batch->failed && batch->commands.record_count() == 0 && batch->reservation.size() == 0) continue;
        reservations.push_back(&batch->reservation);
        if (batch->failed) {
            world_.diagnostics().report("system '" + systems_[batch->system].name + "' failed in batch " +
                                        std::to_string(batch->id) + ": " + batch->error + "; its " +
                                        std::to_string(batch->commands.record_count()) + " command(s) were dropped");
        } else if (merge_results) {
            buffers.push_back(&batch->commands);
        }
    }
    if (!merge_results && !batches_.empty()) {
        world_.diagnostics().report("the results of " + std::to_string(batches_.size()) +
                                    " batch(es) of an unfinished wave were dropped");
    }
    world_.apply(buffers, reservations);
    world_.flush();
    if (merge_results) {
        for (Batch* batch : batches_) world_.cursors().set_last_run(cursor_slots_[batch->system], run_tick_[batch->system]);
    }
    batches_.clear();
}

void Scheduler::recover_from_stall() {
    if (!pool_->idle()) {
        throw Error(ErrorCode::WorkerFailure, "a worker is still running a batch that missed its deadline");
    }
    stalled_ = false;
    finish_wave(false);
}

void Scheduler::abandon_frame(const std::string& why) {
    if (!in_frame_ && !stalled_) return;
    world_.diagnostics().report("frame abandoned: " + why);
    set_in_frame(false);
    stalled_ = false;
    dispatched_ = false;
    finish_wave(false);
}

void Scheduler::dispose() {
    if (disposed_) return;
    disposed_ = true;
    const bool workers_may_run_on = pool_ && !options_.wait_for_workers && !pool_->idle();
    if (pool_) pool_->dispose(options_.wait_for_workers);
    if (workers_may_run_on) {
        // A detached worker may still be inside a batch: touch none of them, and keep their
        // buffers and the pool alive for the life of the process (a few KB per such dispose).
        world_.diagnostics().report("frame abandoned: the scheduler was disposed while " +
                                    std::to_string(batches_.size()) +
                                    " batch(es) were running; their results and reserved handles are dropped");
        world_.set_phase(WorldPhase::Serial);
        set_in_frame(false);
        stalled_ = dispatched_ = false;
        batches_.clear();
        for (auto& batch : batch_pool_) (void)batch.release();
    } else {
        abandon_frame("the scheduler was disposed");
    }
    if (pool_ && !options_.wait_for_workers) (void)pool_.release();
}
}  // namespace ecsia
