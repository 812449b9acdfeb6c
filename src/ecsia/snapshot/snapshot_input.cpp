#include "ecsia/snapshot/snapshot_input.hpp"

#include <algorithm>
#include <cstring>

#include "ecsia/snapshot/same_bytes.hpp"
#include "ecsia/snapshot/snapshot_format.hpp"

namespace ecsia {

namespace {

// How far past what the reader needs a pulled input stages at once: the structure between two
// arrays of rows is a few dozen bytes per column, so one pull usually reaches the next array.
constexpr std::size_t kReadAhead = 512;

}  // namespace

SnapshotInput::SnapshotInput(std::span<const std::byte> bytes) noexcept
    : data_(bytes.data()), size_(bytes.size()), ready_(bytes.data() + bytes.size()), summed_(bytes.data()) {}

SnapshotInput::SnapshotInput(SnapshotSource& source, std::vector<std::byte>& staging, std::byte* bounce)
    : size_(source.size()), source_(&source), bounce_(bounce) {
    staging.resize(size_);
    staging_ = staging.data();
    data_ = staging_;
    ready_ = data_;
    summed_ = data_ + std::min(size_, snapshot_format::kHeaderSize);  // the checksum covers the payload only
}

void SnapshotInput::pull_to(const std::byte* end) {
    const std::byte* const last = data_ + size_;
    const std::byte* const to = std::min(last, std::max(end, ready_ + kReadAhead));
    const std::size_t from = static_cast<std::size_t>(ready_ - data_);
    source_->copy(from, static_cast<std::size_t>(to - ready_), staging_ + from);
    ready_ = to;
}

void SnapshotInput::sum_staged_to(const std::byte* end) {
    if (end <= summed_) return;
    sum_.update(summed_, static_cast<std::size_t>(end - summed_));
    summed_ = end;
}

const std::byte* SnapshotInput::rows(const std::byte* at, std::size_t n, std::byte* into, const std::byte* compare, bool* same) {
    if (!pulled()) {
        if (same != nullptr) *same = compare == nullptr || n == 0 || same_bytes(at, compare, n);
        return at;
    }
    // Read into spare memory, the array leaves its place in the staging buffer unfilled: nothing
    // reads it.
    std::byte* const to = into != nullptr ? into : staging_ + (at - data_);
    const std::size_t equal = pull_array(at, n, to, compare, false);
    if (same != nullptr) *same = compare == nullptr || equal == n;
    return to;
}

std::size_t SnapshotInput::rows_into_spare(const std::byte* at, std::size_t n, std::byte* into, const std::byte* own) {
    return pull_array(at, n, into, own, true);
}

std::size_t SnapshotInput::pull_array(const std::byte* at, std::size_t n, std::byte* to, const std::byte* compare, bool skip_equal) {
    if (n == 0) return 0;
    // Everything before the array is structure the reader has read, so staged: sum it first, the
    // checksum being over the bytes in order.
    need(at, 0);
    sum_staged_to(at);
    bool leading = compare != nullptr;  // every piece so far equals the compared bytes
    std::size_t equal = 0;
    // Takes a piece that arrived at `bytes` (`to`, the bounce buffer, or the staging buffer).
    const auto take = [&](const std::byte* bytes, std::size_t done, std::size_t size) {
        if (leading) {
            if (sum_.update_compare(bytes, compare + done, size)) {
                equal += size;
                if (skip_equal) return;
            } else {
                leading = false;
            }
        } else {
            sum_.update(bytes, size);
        }
        if (bytes != to + done) std::memcpy(to + done, bytes, size);
    };
    // Its first bytes may be staged already (read ahead with the structure before it).
    const std::size_t staged = std::min(n, static_cast<std::size_t>(std::max(ready_, at) - at));
    if (staged > 0) take(at, 0, staged);
    for (std::size_t done = staged; done < n;) {
        const std::size_t piece = std::min(kPiece, n - done);
        std::byte* const land = skip_equal && leading ? bounce_ : to + done;
        source_->copy(static_cast<std::size_t>(at - data_) + done, piece, land);
        take(land, done, piece);
        done += piece;
    }
    ready_ = std::max(ready_, at + n);
    summed_ = at + n;
    return equal;
}

std::uint64_t SnapshotInput::payload_checksum() {
    const std::size_t header = std::min(size_, snapshot_format::kHeaderSize);
    if (!pulled()) return checksum(data_ + header, size_ - header);
    need(data_ + size_, 0);
    sum_staged_to(data_ + size_);
    return sum_.value();
}

}  // namespace ecsia
