#include "ecsia/schedule/wave_merge.hpp"

#include <cstring>
#include <string>

#include "ecsia/world/world_access.hpp"

namespace ecsia {

namespace {

bool has_entity_field(const ComponentDesc& desc) noexcept {
    for (const FieldDesc& field : desc.fields) {
        if (field.type == FieldType::Entity) return true;
    }
    return false;
}

}  // namespace

void WaveMerge::retire_pending_names(World& world, const std::vector<Batch*>& batches) {
    // The ring positions the wave's names took, whether or not it merges: its kernels had them.
    std::uint64_t span = 0;
    for (const Batch* batch : batches) {
        const CommandBuffer& commands = batch->commands;
        const std::uint64_t taken = commands.pending_names().span(commands.named_overflow_spawns());
        if (taken > span) span = taken;
    }
    if (span == 0) return;
    SystemCursors& cursors = detail::WorldAccess::cursors(world);
    const std::uint64_t size = PendingNames::ring_size(world.entities().layout());
    const std::uint64_t before = cursors.pending_positions();
    const std::uint64_t after = before + span;
    cursors.advance_pending_positions(span);
    // Laps of the ring that positions [0, end) touch.
    const auto laps = [size](std::uint64_t end) { return end == 0 ? 0 : (end - 1) / size + 1; };
    if (laps(after) > laps(before) && laps(after) >= 2) {
        world.diagnostics().report(
            "pending handles started over in frame " + std::to_string(cursors.frames()) + ": the " + std::to_string(size) +
            " pending-handle names of this world's index layout were all handed out, and this wave's reuse them (G4); "
            "a pending handle kept from before the last " + std::to_string(size) +
            " names (outside its own batch, where it is not valid) could now name one of this wave's spawns instead of being refused");
    }
}

void WaveMerge::collect_in_place_pending(World& world, const std::vector<Batch*>& batches, bool merge_results) {
    const HandleLayout& layout = world.entities().layout();
    const ComponentRegistry& registry = world.components();
    TableGraph& tables = detail::WorldAccess::tables(world);
    std::size_t dropped = 0;
    for (Batch* batch : batches) {
        // A batch whose commands will not apply spawns nothing: no pending handle in its rows can
        // be given a real one.
        const bool applies = merge_results && !batch->failed;
        for (const WrittenRange& range : batch->log.ranges()) {
            if (range.component >= registry.size()) continue;
            const ComponentDesc& desc = registry.desc(range.component);
            if (!has_entity_field(desc)) continue;
            // Checked as merge_write_logs checks them: an unmerged wave's logs were not.
            if (range.table >= tables.table_count()) continue;
            Table& table = tables.table(range.table);
            Column* column = table.column(range.component);
            if (column == nullptr || range.row_begin > range.row_end || range.row_end > table.size()) continue;
            for (std::uint32_t row = range.row_begin; row < range.row_end; ++row) {
                std::byte* element = column->element(row);
                for (const FieldDesc& field : desc.fields) {
                    if (field.type != FieldType::Entity) continue;
                    Entity value;
                    std::memcpy(&value.bits, element + field.offset, 4);
                    if (!layout.is_pending(value)) continue;
                    if (applies) {
                        batch->commands.note_in_place_pending({table.entities()[row], range.component, field.offset, value});
                    } else {
                        std::memcpy(element + field.offset, &kNullEntity.bits, 4);
                        ++dropped;
                    }
                }
            }
        }
    }
    if (dropped != 0) {
        world.diagnostics().report(std::to_string(dropped) +
                                   " entity field(s) written in place held a pending handle of a batch whose commands were "
                                   "dropped (so its spawns never happened); they were set to null");
    }
}

void WaveMerge::merge(World& world, std::vector<Batch*>& batches, std::span<const Tick> run_tick,
                      std::span<const SystemDesc> systems, bool merge_results) {
    retire_pending_names(world, batches);
    collect_in_place_pending(world, batches, merge_results);
    buffers_.clear();
    buffer_systems_.clear();
    reservations_.clear();
    for (Batch* batch : batches) {
        for (const std::string& note : batch->notes) {
            world.diagnostics().report_for(systems[batch->system].name, "system '" + systems[batch->system].name + "' batch " +
                                                                        std::to_string(batch->id) + ": " + note);
        }
        // Most batches record nothing and reserve nothing: World::apply need not see them.
        const CommandBuffer& commands = batch->commands;
        if (!batch->failed && commands.record_count() == 0 && batch->reservation.size() == 0 &&
            commands.in_place_pending().empty() && commands.message_count() == 0) {
            continue;
        }
        reservations_.push_back(&batch->reservation);
        if (batch->failed) {
            world.diagnostics().report_for(systems[batch->system].name, "system '" + systems[batch->system].name + "' failed in batch " +
                                       std::to_string(batch->id) + ": " + batch->error + "; its " +
                                       std::to_string(commands.record_count()) + " command(s)" +
                                       (commands.message_count() == 0 ? std::string()
                                                                      : " and " + std::to_string(commands.message_count()) + " message(s)") +
                                       " were dropped");
        } else if (merge_results) {
            buffers_.push_back(&batch->commands);
            buffer_systems_.push_back(batch->system);
            if (commands.unnamed_overflow_spawns() != 0) {
                world.diagnostics().report_for(systems[batch->system].name,
                    "system '" + systems[batch->system].name + "' batch " + std::to_string(batch->id) + ": " +
                    std::to_string(commands.unnamed_overflow_spawns()) + " spawn(s) beyond the " +
                    std::to_string(commands.pending_names().limit) +
                    " pending handles a batch of its wave can have got the null handle; they were spawned, but "
                    "no command of the batch could name them (reserve handles with spawns_per_batch)");
            }
        }
    }
    if (!merge_results && !batches.empty()) {
        world.diagnostics().report("the results of " + std::to_string(batches.size()) +
                                   " batch(es) of an unfinished wave were dropped");
    }
    if (merge_results) {
        logs_.clear();
        ticks_.clear();
        for (Batch* batch : batches) {
            logs_.push_back(&batch->log);
            ticks_.push_back(run_tick[batch->system]);
        }
        detail::WorldAccess::merge_write_logs(world, logs_, ticks_);
    }
    // Once apply starts, the reservations are its to return (also when it throws): nothing of
    // this wave may be merged a second time.
    merged_.swap(batches);
    batches.clear();
    // One apply per system (its batches are adjacent), so that what its commands cause (a skipped
    // record, an observer that throws) names it; the reservations return once, after them all,
    // exactly as one apply of every buffer would return them.
    try {
        const std::span<CommandBuffer* const> buffers(buffers_);
        for (std::size_t begin = 0; begin < buffers.size();) {
            std::size_t end = begin + 1;
            while (end < buffers.size() && buffer_systems_[end] == buffer_systems_[begin]) ++end;
            const Diagnostics::Source source(world.diagnostics(), systems[buffer_systems_[begin]].name);
            detail::WorldAccess::apply(world, buffers.subspan(begin, end - begin), {});
            begin = end;
        }
    } catch (...) {
        detail::WorldAccess::apply(world, {}, reservations_);
        throw;
    }
    detail::WorldAccess::apply(world, {}, reservations_);
}

std::size_t WaveMerge::drop(World& world, std::vector<Batch*>& batches) {
    retire_pending_names(world, batches);
    collect_in_place_pending(world, batches, false);
    reservations_.clear();
    for (Batch* batch : batches) reservations_.push_back(&batch->reservation);
    const std::size_t dropped = batches.size();
    batches.clear();
    detail::WorldAccess::apply(world, {}, reservations_);
    return dropped;
}

}  // namespace ecsia
