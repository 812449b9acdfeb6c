#pragma once
// Column: one component's elements for every row of a table, contiguous, laid out as the
// component's descriptor says, plus per-row change ticks. Type-erased: it moves bytes, never calls
// constructors (components are trivially copyable by definition).
// Serial phase only, except element and tick writes to distinct rows, which workers may make in a
// wave because the plan gives each row range of a written component to exactly one batch.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "ecsia/base/ids.hpp"
#include "ecsia/schema/component_desc.hpp"

namespace ecsia {

// Column storage that a growth replaced, kept alive until release() by a caller whose input may
// lie in it: the world copies values in after growing a table, and a value may be a row of that
// very table (spawn(get<T>(e)) for an e of the table the spawn grows).
class RetiredStorage {
public:
    RetiredStorage() = default;
    RetiredStorage(const RetiredStorage&) = delete;
    RetiredStorage& operator=(const RetiredStorage&) = delete;
    ~RetiredStorage() { release(); }
    // Frees what was kept. Inline: every call that may grow a table ends with it.
    void release() noexcept {
        if (!kept_.empty()) [[unlikely]] release_kept();
    }

private:
    friend class Column;
    void release_kept() noexcept;
    std::vector<std::pair<std::byte*, std::size_t>> kept_;  // storage, its alignment
};

class Column {
public:
    explicit Column(const ComponentDesc& desc);
    ~Column();
    Column(Column&& other) noexcept;
    Column& operator=(Column&&) = delete;
    Column(const Column&) = delete;

    ComponentId component() const noexcept { return component_; }
    std::uint32_t element_size() const noexcept { return element_size_; }
    std::byte* data() noexcept { return data_; }
    const std::byte* data() const noexcept { return data_; }
    std::byte* element(std::uint32_t row) noexcept { return data_ + std::size_t(row) * element_size_; }
    const std::byte* element(std::uint32_t row) const noexcept { return data_ + std::size_t(row) * element_size_; }

    // When each row got this component, and when its value last changed.
    //
    // Changed ticks have two parts: a per-row array, and a bulk stamp that raises rows
    // [0, bulk_changed_rows()) to at least bulk_changed_tick(). The bulk stamp is how a write of a
    // whole table (the common kernel case) costs O(1) instead of a fill of one tick per row.
    // changed_tick(row) and the filters read both parts as they are. changed_ticks() first folds
    // the bulk stamp into the array (O(rows) once per stamp), so its values are exact; like every
    // other structural access it is serial-phase only, the const overload included.
    // The non-const pointers may be written through, so they forget the uniform-tick memo below.
    Tick* added_ticks() noexcept {
        uniform_added_.known = false;
        ++added_version_;
        return added_ticks_.data();
    }
    const Tick* added_ticks() const noexcept { return added_ticks_.data(); }
    Tick* changed_ticks() noexcept {
        settle_bulk_from(0);
        uniform_changed_.known = false;
        ++changed_version_;
        return changed_ticks_.data();
    }
    const Tick* changed_ticks() const noexcept {
        settle_bulk_from(0);
        return changed_ticks_.data();
    }
    // The per-row part alone, without folding in the bulk stamp: for readers that apply it.
    const Tick* own_changed_ticks() const noexcept { return changed_ticks_.data(); }
    Tick changed_tick(std::uint32_t row) const noexcept {
        const Tick own = changed_ticks_[row];
        return row < bulk_changed_rows_ && bulk_changed_tick_ > own ? bulk_changed_tick_ : own;
    }
    std::uint32_t bulk_changed_rows() const noexcept { return bulk_changed_rows_; }
    Tick bulk_changed_tick() const noexcept { return bulk_changed_tick_; }
    // The newest changed tick of any row: lets a `changed` filter skip a whole table in O(1).
    Tick max_changed_tick() const noexcept { return max_changed_tick_; }
    Tick max_added_tick() const noexcept { return max_added_tick_; }
    void mark_changed(std::uint32_t row, Tick tick) noexcept;
    // Marks rows [begin, end) changed at `tick`. A prefix range (begin == 0), or one that continues
    // the bulk stamp at its tick, becomes the bulk stamp in O(1) when ticks have not gone
    // backwards; any other range is stamped row by row.
    void mark_changed_range(std::uint32_t begin, std::uint32_t end, Tick tick) noexcept;
    void mark_added(std::uint32_t row, Tick tick) noexcept;

    // Reallocates to hold `capacity` rows, keeping the first `rows`. Returns true if data moved.
    // With `retired`, the old storage is kept there instead of freed.
    bool reserve(std::uint32_t capacity, std::uint32_t rows, RetiredStorage* retired = nullptr);
    // Writes the component's default element: zero bytes, entity fields null.
    [[gnu::always_inline]] void init_row(std::uint32_t row, Tick tick) noexcept;
    void copy_row_from(std::uint32_t row, const Column& source, std::uint32_t source_row) noexcept;
    // copy_row_from of `count` rows: source rows [source_row, +count) to rows [row, +count), which
    // are freshly appended.
    void copy_rows_from(std::uint32_t row, const Column& source, std::uint32_t source_row, std::uint32_t count) noexcept;
    // init_row of rows [row, +count).
    void init_rows(std::uint32_t row, std::uint32_t count, Tick tick) noexcept;
    // Moves row `last` into `row` (swap-remove); `last` is the table's last row, which then leaves.
    // Part of Table::swap_remove, which applies it to every column: a whole row moves, so the
    // matches between tick arrays below still hold and it leaves their versions alone.
    void move_last_into(std::uint32_t row, std::uint32_t last) noexcept;
    // Every row leaves (the table is emptied): no stamp or memo may cover rows appended later.
    void forget_rows() noexcept {
        bulk_changed_rows_ = 0;
        uniform_added_.known = false;
        uniform_changed_.known = false;
    }
    // Reorders the first order.size() rows: row i takes what row order[i] held (elements and
    // ticks). `order` must be a permutation of [0, rows). `scratch` is reused memory.
    void permute_rows(const std::vector<std::uint32_t>& order, std::vector<std::byte>& scratch);
    // A hint that `row` (< the table's row count) is about to be moved or overwritten: fetches its
    // element and ticks for writing. Changes nothing.
    void prefetch_row(std::uint32_t row) const noexcept {
        if (data_ != nullptr) __builtin_prefetch(data_ + std::size_t(row) * element_size_, 1);
        __builtin_prefetch(added_ticks_.data() + row, 1);
        __builtin_prefetch(changed_ticks_.data() + row, 1);
    }

private:
    friend class SnapshotAccess;  // snapshot/: reads and replaces the whole state
    friend class Table;           // carries added_matches_reference_ across its row operations

    // A memo for snapshot/: "each of the first `rows` rows of this per-row tick array holds `tick`",
    // recorded when a snapshot found it so or a restore wrote it so. Every per-row tick write
    // forgets it, so while it is known a snapshot or restore of the column skips its O(rows) pass
    // over the array (a rollback restores the same ticks frame after frame). Serial phase only,
    // like every per-row tick write (waves write ticks through write logs, merged serially).
    struct UniformTicks {
        bool known = false;
        std::uint32_t rows = 0;
        Tick tick = 0;
    };
    // A memo for snapshot/ that two per-row tick arrays are equal, so that a snapshot stores one
    // as the same as the other without comparing them: "this column's per-row changed ticks equal
    // its added ticks" (changed_matches_added_: a column nobody wrote row by row since its rows
    // were added) and "this column's added ticks equal those of its table's reference column"
    // (added_matches_reference_; Table::ticks_reference, the column a snapshot writes first:
    // components added together). Recorded when a snapshot found the arrays equal, at the arrays'
    // versions then, and true while both versions are still those: every write to a row's added
    // tick raises added_version_, every write to a row's per-row changed tick raises
    // changed_version_, so any write forgets the memo, and the row operations that provably keep
    // the arrays equal (a row whose ticks are equal in both appended, a whole row moved) record it
    // again at the new versions.
    struct TicksMatch {
        bool known = false;
        std::uint64_t version = 0;        // this array's version when recorded
        std::uint64_t other_version = 0;  // the other array's

        bool holds(std::uint64_t mine, std::uint64_t other) const noexcept { return known && version == mine && other_version == other; }
    };
    bool changed_matches_added() const noexcept { return changed_matches_added_.holds(changed_version_, added_version_); }
    void record_changed_matches_added() const noexcept { changed_matches_added_ = {true, changed_version_, added_version_}; }
    bool added_matches(const Column& reference) const noexcept {
        return added_matches_reference_.holds(added_version_, reference.added_version_);
    }
    void record_added_matches(const Column& reference) const noexcept {
        added_matches_reference_ = {true, added_version_, reference.added_version_};
    }

    // Folds the bulk stamp of rows [from, bulk_changed_rows_) into their per-row ticks and shrinks
    // the stamp to [0, from): needed before a row from outside the stamp moves under it. Const
    // because it never changes any row's changed tick, only where it is stored.
    void settle_bulk_from(std::uint32_t from) const noexcept;

    ComponentId component_;
    std::uint32_t element_size_;
    // Column data starts on a cache line: with batches that start on multiples of 16 rows
    // (Scheduler), a kernel's vector loads then do not straddle cache lines.
    static constexpr std::uint32_t kColumnAlignment = 64;
    std::uint32_t alignment_;
    std::byte* data_ = nullptr;
    std::vector<std::byte> default_element_;
    std::vector<Tick> added_ticks_;
    mutable std::vector<Tick> changed_ticks_;  // mutable: settle_bulk_from (see changed_ticks())
    Tick max_changed_tick_ = 0;
    Tick max_added_tick_ = 0;
    // Invariant: bulk_changed_rows_ <= the table's row count, so rows appended later are never
    // covered by a stamp they did not receive.
    mutable std::uint32_t bulk_changed_rows_ = 0;
    Tick bulk_changed_tick_ = 0;
    // mutable: a snapshot (of a const world) records what it found.
    mutable UniformTicks uniform_added_;
    mutable UniformTicks uniform_changed_;
    // 64 bits: a version that wrapped around could come back to one a memo was recorded at.
    std::uint64_t added_version_ = 0;
    mutable std::uint64_t changed_version_ = 0;  // mutable: settle_bulk_from
    mutable TicksMatch changed_matches_added_;
    mutable TicksMatch added_matches_reference_;
};

// The per-row operations are defined here, inline, because structural changes (a command flush
// applies millions of records a second) call them once per column per row moved, and the call
// overhead was a large share of their cost.

namespace detail {
// Element sizes are a handful of small constants; switching on the common ones turns a row copy
// into a move or two instead of a C library call.
inline void copy_element(std::byte* to, const std::byte* from, std::uint32_t size) noexcept {
    switch (size) {
        case 0: return;
        case 4: std::memcpy(to, from, 4); return;
        case 8: std::memcpy(to, from, 8); return;
        case 12: std::memcpy(to, from, 12); return;
        case 16: std::memcpy(to, from, 16); return;
        default: std::memcpy(to, from, size); return;
    }
}
}  // namespace detail

inline void Column::mark_changed(std::uint32_t row, Tick tick) noexcept {
    // A tick older than the bulk stamp must replace, not be raised by it (ticks only go backwards
    // when a caller stamps an old tick on purpose).
    if (row < bulk_changed_rows_ && tick < bulk_changed_tick_) settle_bulk_from(row);
    changed_ticks_[row] = tick;
    ++changed_version_;
    uniform_changed_.known = false;
    if (tick > max_changed_tick_) max_changed_tick_ = tick;
}

inline void Column::mark_added(std::uint32_t row, Tick tick) noexcept {
    // The row's two ticks become equal; only a fold of the bulk stamp (mark_changed's, into the
    // rows after it) can make others differ.
    const bool matched = changed_matches_added() && !(row < bulk_changed_rows_ && tick < bulk_changed_tick_);
    added_ticks_[row] = tick;
    ++added_version_;
    uniform_added_.known = false;
    if (tick > max_added_tick_) max_added_tick_ = tick;
    mark_changed(row, tick);
    if (matched) record_changed_matches_added();
}

inline void Column::init_row(std::uint32_t row, Tick tick) noexcept {
    detail::copy_element(element(row), default_element_.data(), element_size_);
    mark_added(row, tick);
}

inline void Column::copy_row_from(std::uint32_t row, const Column& source, std::uint32_t source_row) noexcept {
    detail::copy_element(element(row), source.element(source_row), element_size_);
    const bool matched = changed_matches_added() && row >= bulk_changed_rows_;
    // `row` is freshly appended, so normally outside this column's bulk stamp; settle if not.
    if (row < bulk_changed_rows_) settle_bulk_from(row);
    const Tick added = source.added_ticks_[source_row];
    const Tick changed = source.changed_tick(source_row);
    added_ticks_[row] = added;
    changed_ticks_[row] = changed;
    ++added_version_;
    ++changed_version_;
    if (matched && added == changed) record_changed_matches_added();
    uniform_added_.known = false;
    uniform_changed_.known = false;
    if (added > max_added_tick_) max_added_tick_ = added;
    if (changed > max_changed_tick_) max_changed_tick_ = changed;
}

inline void Column::move_last_into(std::uint32_t row, std::uint32_t last) noexcept {
    if (last < bulk_changed_rows_) {
        // Both rows are under the bulk stamp, which keeps covering `row`; the freed slot leaves it
        // so that the next appended row does not inherit a stamp it never received.
        bulk_changed_rows_ = last;
    } else if (row < bulk_changed_rows_) {
        settle_bulk_from(row);  // a row from outside the stamp lands under it
    }
    // One row fewer: the memo's row count no longer holds (and the moved row's ticks land at `row`).
    uniform_added_.known = false;
    uniform_changed_.known = false;
    if (row == last) return;
    detail::copy_element(element(row), element(last), element_size_);
    added_ticks_[row] = added_ticks_[last];
    changed_ticks_[row] = changed_ticks_[last];
}

}  // namespace ecsia
