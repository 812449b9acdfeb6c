#include "ecsia/snapshot/snapshot_restorer.hpp"

#include <optional>
#include <span>
#include <vector>

#include "ecsia/snapshot/restore_spares.hpp"
#include "ecsia/snapshot/snapshot.hpp"
#include "ecsia/snapshot/snapshot_image.hpp"
#include "ecsia/snapshot/snapshot_input.hpp"

namespace ecsia {

struct SnapshotRestorer::Memory {
    std::vector<std::byte> staging;
    std::vector<std::byte> bounce = std::vector<std::byte>(SnapshotInput::kPiece);
    RestoreSpares spares;
};

SnapshotRestorer::SnapshotRestorer() : memory_(std::make_unique<Memory>()) {}
SnapshotRestorer::~SnapshotRestorer() = default;

void SnapshotRestorer::restore(World& world, SnapshotSource& source) {
    detail::require_between_frames(world, "restore");
    std::optional<SnapshotImage> image;
    try {
        SnapshotInput input(source, memory_->staging, memory_->bounce.data());
        image = read_snapshot(world, input, &memory_->spares);
    } catch (const Error&) {
        // Refused. Pulled in as it is read, the checksum can only be checked last, so damaged bytes
        // may have been refused for what the damage did instead: read them whole, as restore()
        // does, for the error restore() gives (damage reported as such). The spares may hold parts
        // of the refused bytes; they are spares.
        std::vector<std::byte>& whole = memory_->staging;
        whole.resize(source.size());
        source.copy(0, whole.size(), whole.data());
        ecsia::restore(world, std::span<const std::byte>(whole.data(), whole.size()));
        return;  // not reached: both readers refuse the same bytes
    }
    commit_snapshot(world, *image);
}

}  // namespace ecsia
