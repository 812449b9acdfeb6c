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
    if (same != nullptr) *same = true;
    if (n == 0) return at;
    if (!pulled()) {
        if (compare != nullptr) *same = same_bytes(at, compare, n);
        return at;
    }
    // Sums a piece into the checksum, comparing it in the same pass until a difference is found.
    const auto feed = [&](const std::byte* piece, std::size_t offset, std::size_t size) {
        if (compare != nullptr && *same) *same = sum_.update_compare(piece, compare + offset, size);
        else sum_.update(piece, size);
    };
    // Everything before the array is structure the reader has read, so staged: sum it first, the
    // checksum being over the bytes in order.
    need(at, 0);
    sum_staged_to(at);
    std::byte* const to = into != nullptr ? into : staging_ + (at - data_);
    // Its first bytes may be staged already (read ahead with the structure before it).
    const std::size_t staged = std::min(n, static_cast<std::size_t>(std::max(ready_, at) - at));
    if (staged > 0) {
        if (into != nullptr) std::memcpy(into, at, staged);
        feed(to, 0, staged);
    }
    for (std::size_t done = staged; done < n;) {
        const std::size_t piece = std::min(kPiece, n - done);
        source_->copy(static_cast<std::size_t>(at - data_) + done, piece, to + done);
        feed(to + done, done, piece);
        done += piece;
    }
    // Read into spare memory, the array leaves its place in the staging buffer unfilled: nothing reads it.
    ready_ = std::max(ready_, at + n);
    summed_ = at + n;
    return to;
}

std::size_t SnapshotInput::rows_into_spare(const std::byte* at, std::size_t n, std::byte* into, const std::byte* own) {
    if (n == 0) return 0;
    if (own == nullptr) {
        rows(at, n, into);
        return 0;
    }
    need(at, 0);
    sum_staged_to(at);
    bool leading = true;  // every piece so far equals the own array's
    std::size_t unchanged = 0;
    const std::size_t staged = std::min(n, static_cast<std::size_t>(std::max(ready_, at) - at));
    if (staged > 0) {
        if (sum_.update_compare(at, own, staged)) {
            unchanged = staged;
        } else {
            std::memcpy(into, at, staged);
            leading = false;
        }
    }
    for (std::size_t done = staged; done < n;) {
        const std::size_t piece = std::min(kPiece, n - done);
        const std::size_t offset = static_cast<std::size_t>(at - data_) + done;
        if (leading) {
            source_->copy(offset, piece, bounce_);
            if (sum_.update_compare(bounce_, own + done, piece)) {
                unchanged += piece;
            } else {
                std::memcpy(into + done, bounce_, piece);
                leading = false;
            }
        } else {
            source_->copy(offset, piece, into + done);
            sum_.update(into + done, piece);
        }
        done += piece;
    }
    ready_ = std::max(ready_, at + n);
    summed_ = at + n;
    return unchanged;
}

std::uint64_t SnapshotInput::payload_checksum() {
    const std::size_t header = std::min(size_, snapshot_format::kHeaderSize);
    if (!pulled()) return checksum(data_ + header, size_ - header);
    need(data_ + size_, 0);
    sum_staged_to(data_ + size_);
    return sum_.value();
}

}  // namespace ecsia
