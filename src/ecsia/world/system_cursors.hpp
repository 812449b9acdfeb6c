#pragma once
// SystemCursors: the part of a scheduler's state that later frames depend on, kept in the world so
// that a snapshot carries it (snapshot/snapshot.hpp). It holds how many frames have run over this
// world (what a kernel sees as KernelContext::frame) and, per system name, the tick of that
// system's last run (what its changed/added filters compare rows against). A Scheduler reads and
// writes these instead of keeping its own, so a fresh Scheduler with the same systems over a
// restored world replays exactly as the original did.
//
// Two schedulers over one world that both have a system named X share X's cursor, and both count
// their frames here: the cursors describe the world's history, not one scheduler's.
// Serial phase, coordinator thread.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ecsia/base/ids.hpp"

namespace ecsia {

class SystemCursors {
public:
    // The slot of the system named `name`, added (never run: last run 0) when it is new. Slots are
    // never removed, so a slot a scheduler holds stays valid across restores.
    std::uint32_t slot(std::string_view name) {
        for (std::uint32_t i = 0; i < names_.size(); ++i) {
            if (names_[i] == name) return i;
        }
        names_.emplace_back(name);
        last_run_.push_back(0);
        return static_cast<std::uint32_t>(names_.size() - 1);
    }
    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(names_.size()); }
    const std::string& name(std::uint32_t slot) const noexcept { return names_[slot]; }
    Tick last_run(std::uint32_t slot) const noexcept { return last_run_[slot]; }
    void set_last_run(std::uint32_t slot, Tick tick) noexcept { last_run_[slot] = tick; }

    // Frames completed over this world, by any scheduler.
    std::uint64_t frames() const noexcept { return frames_; }
    void count_frame() noexcept { ++frames_; }

    // Pending-handle ring positions handed out over this world, by any scheduler, wave after wave
    // (command/command_buffer.hpp, PendingNames). Not snapshot state, and a restore leaves it
    // alone: the count goes on, so a pending handle kept from before a restore is still refused.
    std::uint64_t pending_positions() const noexcept { return pending_positions_; }
    void advance_pending_positions(std::uint64_t positions) noexcept { pending_positions_ += positions; }

    // True from a scheduler's begin_frame until its frame ends: snapshot and restore are refused
    // then, because half a frame cannot be replayed.
    bool in_frame() const noexcept { return in_frame_; }
    void set_in_frame(bool in_frame) noexcept { in_frame_ = in_frame; }

private:
    friend class SnapshotAccess;
    std::vector<std::string> names_;  // by slot, in the order systems first appeared
    std::vector<Tick> last_run_;      // by slot; 0 = never ran (sees every row as changed)
    std::uint64_t frames_ = 0;
    std::uint64_t pending_positions_ = 0;
    bool in_frame_ = false;
};

}  // namespace ecsia
