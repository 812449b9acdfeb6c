// snapshot(): writes the format of snapshot_format.hpp. Small fields go into an owned buffer;
// rows, tick arrays and column values are referenced where they lie, so the bytes are copied
// once, by whoever assembles them (SnapshotSegments::copy_to, or the JS API's Uint8Array).

#include <algorithm>
#include <cstring>
#include <string>

#include "ecsia/base/little_endian.hpp"
#include "ecsia/snapshot/checksum.hpp"
#include "ecsia/snapshot/handle_runs.hpp"
#include "ecsia/snapshot/snapshot.hpp"
#include "ecsia/snapshot/snapshot_access.hpp"
#include "ecsia/snapshot/snapshot_format.hpp"
#include "ecsia/snapshot/same_bytes.hpp"
#include "ecsia/snapshot/word_runs.hpp"
#include "ecsia/world/world_access.hpp"

namespace ecsia {

namespace fmt = snapshot_format;

class SnapshotWriter {
public:
    explicit SnapshotWriter(SnapshotSegments& out) : out_(out) {
        out_.owned_.clear();
        out_.pieces_.clear();
        out_.ranges_.clear();
        out_.size_ = 0;
    }

    void u8(std::uint8_t value) { owned(&value, 1); }
    void u32(std::uint32_t value) {
        unsigned char word[4];
        little_endian::store_u32(word, value);
        owned(word, 4);
    }
    void u64(std::uint64_t value) {
        unsigned char word[8];
        little_endian::store_u64(word, value);
        owned(word, 8);
    }
    void str(const std::string& text) {
        u32(static_cast<std::uint32_t>(text.size()));
        owned(text.data(), text.size());
    }
    // Zero bytes up to the next offset that is a multiple of 8: before every array of rows, so
    // that it lies in the snapshot as it lies in memory, 8-aligned (the JS API copies it straight
    // from the columns, which V8 does at full speed only when both sides are aligned alike).
    void align() {
        static constexpr unsigned char kZeros[fmt::kArrayAlignment] = {};
        const std::size_t pad = (fmt::kArrayAlignment - out_.size_ % fmt::kArrayAlignment) % fmt::kArrayAlignment;
        if (pad > 0) owned(kZeros, pad);
    }
    // `size` bytes appended to the owned buffer, for the caller to fill: a list of words is
    // stored in one go (a call per word costs ~10 ns natively and ~40 ns in wasm, where a call
    // that may throw goes through a JS trampoline, and free lists and runs have thousands).
    unsigned char* span(std::size_t size) {
        if (out_.pieces_.empty() || out_.pieces_.back().external != nullptr) {
            out_.pieces_.push_back({nullptr, out_.owned_.size(), 0});
        }
        const std::size_t at = out_.owned_.size();
        out_.owned_.resize(at + size);
        out_.pieces_.back().size += size;
        out_.size_ += size;
        return reinterpret_cast<unsigned char*>(out_.owned_.data() + at);
    }
    // `size` bytes of memory the writer may use until its next call of scratch (not snapshot bytes).
    unsigned char* scratch(std::size_t size) {
        if (out_.scratch_.size() < size) out_.scratch_.resize(size);
        return out_.scratch_.data();
    }
    // Bytes that stay where they are until the snapshot is assembled.
    void external(const void* data, std::size_t size) {
        if (size == 0) return;
        out_.pieces_.push_back({static_cast<const std::byte*>(data), 0, size});
        out_.size_ += size;
    }
    // Writes a section header; returns where its body-size field is, for end_section.
    std::size_t begin_section(std::uint32_t tag) {
        u32(tag);
        const std::size_t field = out_.owned_.size();
        u64(0);
        body_start_ = out_.size_;
        return field;
    }
    void end_section(std::size_t field) {
        little_endian::store_u64(out_.owned_.data() + field, out_.size_ - body_start_);
    }
    // Fills in the header (payload size, and the checksum unless copy_to_sealed will) and the ranges.
    void finish(bool with_checksum) {
        for (const SnapshotSegments::Piece& piece : out_.pieces_) {
            const std::byte* data = piece.external != nullptr ? piece.external : out_.owned_.data() + piece.offset;
            out_.ranges_.push_back({data, piece.size});
        }
        little_endian::store_u64(out_.owned_.data() + fmt::kPayloadSizeOffset, out_.size_ - fmt::kHeaderSize);
        if (with_checksum) out_.seal();
    }

private:
    void owned(const void* data, std::size_t size) {
        if (out_.pieces_.empty() || out_.pieces_.back().external != nullptr) {
            out_.pieces_.push_back({nullptr, out_.owned_.size(), 0});
        }
        const auto* bytes = static_cast<const std::byte*>(data);
        out_.owned_.insert(out_.owned_.end(), bytes, bytes + size);
        out_.pieces_.back().size += size;
        out_.size_ += size;
    }

    SnapshotSegments& out_;
    std::size_t body_start_ = 0;
};

namespace {

using Access = SnapshotAccess;

// An earlier tick array of the same table that may hold the same ticks: its number in the
// table's list of arrays, and its memory when it was stored (kTicksSame names it) or its uniform
// memo when it was written as one tick; neither: no candidate. `equal`: a memo says the arrays are
// equal (Column::TicksMatch), so they are not compared.
struct SameCandidate {
    std::uint32_t index = 0;
    const Tick* ticks = nullptr;
    const Access::UniformTicks* uniform = nullptr;
    bool equal = false;

    // The candidate an array written as `as` makes for later arrays.
    static SameCandidate of(std::uint32_t index, const Tick* ticks, std::uint32_t as, const Access::UniformTicks& uniform) {
        if (as == fmt::kTicksUniform) return SameCandidate{index, nullptr, &uniform};
        return SameCandidate{index, ticks};
    }
    // Whether an array written as `as` (its uniform memo `uniform`) holds this candidate's ticks.
    bool holds(std::uint32_t as, const Access::UniformTicks& mine) const {
        if (as == fmt::kTicksSame) return ticks != nullptr;
        return as == fmt::kTicksUniform && this->uniform != nullptr && this->uniform->tick == mine.tick && this->uniform->rows == mine.rows;
    }
};

// How many of a tick array's first words write_ticks looks at to guess whether it has few runs.
constexpr std::uint32_t kProbeWords = 1024;

// Writes one tick array in the smallest encoding it finds, and returns which: uniform (one word),
// the same as `candidate`, runs of equal ticks, or one tick per row.
std::uint32_t write_ticks(SnapshotWriter& w, const Tick* ticks, std::uint32_t rows, Access::UniformTicks& uniform,
                          SameCandidate candidate) {
    // Most columns have one tick for every row (spawned together, written whole): one word then.
    // The column remembers that until a row's tick is written, so the next snapshot (or a restore)
    // of it does not scan the rows again.
    const bool remembered = uniform.known && uniform.rows == rows;
    if (rows > 0 && !remembered && candidate.equal && candidate.uniform != nullptr) {
        uniform = *candidate.uniform;  // equal to an array of one tick: that tick
    } else if (rows > 0 && !remembered) {
        if (candidate.ticks != nullptr &&
            (candidate.equal || same_bytes(reinterpret_cast<const std::byte*>(ticks), reinterpret_cast<const std::byte*>(candidate.ticks),
                                           std::size_t(rows) * sizeof(Tick)))) {
            w.u32(fmt::kTicksSame);
            w.u32(candidate.index);
            return fmt::kTicksSame;
        }
        const std::uint32_t limit = std::max<std::uint32_t>(rows / fmt::kRowsPerTickRun, 1);
        // Ticks with few runs (rows added in a few frames) are written as runs in one pass. Ticks
        // with many are counted first, which stops sooner once they are too many to store as runs.
        // Their first words tell which is likely; either way the encoding is the same.
        const std::uint32_t probe = std::min<std::uint32_t>(rows, kProbeWords);
        const bool few_runs = count_word_runs(ticks, 0, probe, probe, 0) <= probe / 16;
        unsigned char* const written = few_runs ? w.scratch(8 * std::size_t(limit)) : nullptr;
        const std::uint32_t runs = few_runs ? write_equal_word_runs_within(ticks, rows, limit, written) : count_word_runs(ticks, 0, rows, limit, 0);
        if (runs == 1) {
            uniform = Access::UniformTicks{true, rows, ticks[0]};
        } else if (runs <= limit) {
            w.u32(fmt::kTicksRuns);
            w.u32(runs);
            unsigned char* out = w.span(8 * std::size_t(runs));
            if (few_runs) std::memcpy(out, written, 8 * std::size_t(runs));
            else write_equal_word_runs(ticks, rows, out);
            return fmt::kTicksRuns;
        }
    }
    if (rows > 0 && uniform.known && uniform.rows == rows) {
        w.u32(fmt::kTicksUniform);
        w.u32(uniform.tick);
        return fmt::kTicksUniform;
    }
    w.u32(fmt::kTicksPerRow);
    w.align();
    w.external(ticks, std::size_t(rows) * sizeof(Tick));
    return fmt::kTicksPerRow;
}

// A table's rows: as runs of consecutive handles when there are at most rows / kRowsPerRun of them
// (a table spawned together is one run), listed otherwise. The first run is scanned only past the
// rows the table knows count up (Table::counted_rows_), and its length is recorded there: a table
// still one run, as its last snapshot found it, is not scanned at all. `starts`: scratch for the
// runs' first rows.
void write_entities(SnapshotWriter& w, const Table& table, std::vector<std::uint32_t>& starts) {
    const Entity* const entities = table.entities();
    const std::uint32_t rows = table.size();
    const std::uint32_t most = rows / fmt::kRowsPerRun;
    std::uint32_t& counted = Access::counted_rows(table);
    starts.clear();
    bool listed = most == 0;
    if (!listed && rows > 0) {
        // The first run, then a count of the others, which gives up on a shuffled table early;
        // only rows in few runs are walked run by run.
        starts.push_back(0);
        counted = next_run_start(entities, std::max<std::uint32_t>(counted, 1), rows);
        static_assert(sizeof(Entity) == sizeof(std::uint32_t), "rows of handles are counted as u32 words");
        listed = counted < rows && 1 + count_word_runs(reinterpret_cast<const std::uint32_t*>(entities), counted, rows, most - 1, 1) > most;
        for (std::uint32_t start = counted; !listed && start < rows; start = next_run_start(entities, start + 1, rows)) {
            starts.push_back(start);
        }
    }
    if (listed) {
        w.u32(fmt::kRowsListed);
        w.align();
        w.external(entities, std::size_t(rows) * sizeof(Entity));
        return;
    }
    w.u32(fmt::kRowsRuns);
    w.u32(static_cast<std::uint32_t>(starts.size()));
    unsigned char* out = w.span(8 * starts.size());
    for (std::size_t r = 0; r < starts.size(); ++r, out += 8) {
        const std::uint32_t end = r + 1 < starts.size() ? starts[r + 1] : rows;
        little_endian::store_u32(out, entities[starts[r]].bits);
        little_endian::store_u32(out + 4, end - starts[r]);
    }
}

}  // namespace

void SnapshotSegments::take(const World& world, bool checksum) {
    detail::require_between_frames(world, "snapshot");
    const EntityPool& pool = Access::pool(world);
    if (pool.allocated_count() != pool.alive_count()) {
        throw Error(ErrorCode::WrongPhase, "snapshot while " + std::to_string(pool.allocated_count() - pool.alive_count()) +
                                               " handle(s) are reserved and not spawned: release or spawn them first");
    }
    const TableGraph& graph = Access::graph(world);
    const ComponentRegistry& registry = world.components();
    const auto& pending = Access::pending_changes(world);

    // The components the tables and queued changes use, in name order (so that equal states give
    // equal bytes whatever order their worlds registered components in); later sections index them.
    constexpr std::uint32_t kUnused = 0xFFFFFFFFu;
    std::vector<std::uint32_t>& index_of = component_index_;
    index_of.assign(registry.size(), kUnused);
    for (TableIndex t = 0; t < graph.table_count(); ++t) {
        for (ComponentId id : graph.table(t).signature()) index_of[id] = 0;
    }
    for (const auto& change : pending) index_of[change.component] = 0;
    std::vector<ComponentId>& used = components_;
    used.clear();
    for (ComponentId id = 0; id < registry.size(); ++id) {
        if (index_of[id] != kUnused) used.push_back(id);
    }
    std::sort(used.begin(), used.end(), [&](ComponentId a, ComponentId b) { return registry.desc(a).name < registry.desc(b).name; });
    for (std::uint32_t i = 0; i < used.size(); ++i) index_of[used[i]] = i;
    std::vector<std::uint32_t>& columns = columns_;

    SnapshotWriter w(*this);
    for (unsigned char c : fmt::kMagic) w.u8(c);
    w.u32(fmt::kFormatVersion);
    w.u32(0);  // flags
    w.u64(0);  // payload size, filled in by finish()
    w.u64(0);  // checksum, filled in by finish()

    std::size_t section = w.begin_section(fmt::kWorldSection);
    w.u32(pool.layout().index_bits());
    w.u32(pool.max_entities());
    w.u32(world.tick());
    const SystemCursors& cursors = detail::WorldAccess::cursors(world);
    w.u64(cursors.frames());
    w.u32(cursors.size());
    for (std::uint32_t c = 0; c < cursors.size(); ++c) {
        w.str(cursors.name(c));
        w.u32(cursors.last_run(c));
    }
    w.end_section(section);

    section = w.begin_section(fmt::kComponentSection);
    w.u32(static_cast<std::uint32_t>(used.size()));
    for (ComponentId id : used) {
        const ComponentDesc& desc = registry.desc(id);
        w.str(desc.name);
        w.u32(desc.size);
        w.u32(desc.alignment);
        w.u32(static_cast<std::uint32_t>(desc.fields.size()));
        for (const FieldDesc& field : desc.fields) {
            w.str(field.name);
            w.u8(static_cast<std::uint8_t>(field.type));
            w.u32(field.offset);
        }
    }
    w.end_section(section);

    section = w.begin_section(fmt::kEntitySection);
    const auto& slots = Access::slots(pool);
    const auto& free_list = Access::free_indices(pool);
    w.u32(pool.slot_count());
    w.u32(static_cast<std::uint32_t>(free_list.size()));
    unsigned char* out = w.span(8 * free_list.size());
    for (std::uint32_t index : free_list) {
        little_endian::store_u32(out, index);
        little_endian::store_u32(out + 4, slots[index].generation);
        out += 8;
    }
    w.u32(pool.retired_count());
    out = w.span(4 * std::size_t(pool.retired_count()));
    // Stops at the last retired slot: a world without any (the usual case) scans none of its
    // slots, which at 100,000 entities cost as much as the checksum of the whole snapshot in wasm.
    for (std::uint32_t index = 0, left = pool.retired_count(); left > 0 && index < slots.size(); ++index) {
        if (slots[index].state != Access::SlotState::Retired) continue;
        little_endian::store_u32(out, index);
        out += 4;
        --left;
    }
    w.end_section(section);

    section = w.begin_section(fmt::kTableSection);
    w.u32(graph.table_count());
    for (TableIndex t = 0; t < graph.table_count(); ++t) {
        const Table& table = graph.table(t);
        const std::uint32_t rows = table.size();
        const std::vector<ComponentId>& signature = table.signature();
        columns.resize(signature.size());
        for (std::uint32_t c = 0; c < columns.size(); ++c) columns[c] = c;
        std::sort(columns.begin(), columns.end(), [&](std::uint32_t a, std::uint32_t b) { return index_of[signature[a]] < index_of[signature[b]]; });
        w.u32(static_cast<std::uint32_t>(columns.size()));
        for (std::uint32_t c : columns) w.u32(index_of[signature[c]]);
        w.u32(rows);
        write_entities(w, table, run_starts_);
        // The first column's added ticks: the rows' components were mostly added together, so a
        // later column's added ticks are often the same array. The columns' memos of that compare
        // with the table's reference column (Table::ticks_reference), which is the first written.
        SameCandidate first_added;
        const Column* const first = columns.empty() || columns[0] != table.ticks_reference() ? nullptr : &table.columns()[columns[0]];
        for (std::uint32_t k = 0; k < columns.size(); ++k) {
            const Column& column = table.columns()[columns[k]];
            const Access::TickSummary summary = Access::summary(column);
            w.u32(summary.max_added);
            w.u32(summary.max_changed);
            w.u32(summary.bulk_rows);
            w.u32(summary.bulk_tick);
            const Tick* added = Access::added_ticks(column).data();
            SameCandidate added_candidate = first_added;
            const bool versus_first = k > 0 && first != nullptr;
            added_candidate.equal = versus_first && Access::added_matches(column, *first);
            const std::uint32_t added_as = write_ticks(w, added, rows, Access::uniform_added(column), added_candidate);
            if (versus_first && !added_candidate.equal && rows > 0 && added_candidate.holds(added_as, Access::uniform_added(column))) {
                Access::record_added_matches(column, *first);
            }
            if (k == 0) first_added = SameCandidate::of(0, added, added_as, Access::uniform_added(column));
            // A column no one wrote row by row since its rows were added: its changed ticks are its added ones.
            SameCandidate own_added = SameCandidate::of(2 * k, added, added_as, Access::uniform_added(column));
            own_added.equal = Access::changed_matches_added(column);
            const std::uint32_t changed_as = write_ticks(w, Access::own_changed_ticks(column).data(), rows, Access::uniform_changed(column), own_added);
            if (!own_added.equal && rows > 0 && own_added.holds(changed_as, Access::uniform_changed(column))) {
                Access::record_changed_matches_added(column);
            }
            w.align();
            w.external(column.data(), std::size_t(rows) * column.element_size());
        }
    }
    w.end_section(section);

    section = w.begin_section(fmt::kPendingSection);
    w.u32(static_cast<std::uint32_t>(pending.size()));
    for (const auto& change : pending) {
        w.u32(change.entity.bits);
        w.u32(index_of[change.component]);
    }
    w.end_section(section);

    section = w.begin_section(fmt::kPairSection);
    const RelationStore& relations = world.relations();
    const std::vector<RelationStore::Relation>& all_relations = relations.all();
    std::vector<std::uint32_t>& with_pairs = relations_;
    with_pairs.clear();
    for (std::uint32_t i = 0; i < all_relations.size(); ++i) {
        if (all_relations[i].pairs != 0) with_pairs.push_back(i);
    }
    std::sort(with_pairs.begin(), with_pairs.end(), [&](std::uint32_t a, std::uint32_t b) {
        return registry.desc(all_relations[a].id).name < registry.desc(all_relations[b].id).name;
    });
    w.u32(static_cast<std::uint32_t>(with_pairs.size()));
    for (std::uint32_t i : with_pairs) {
        const RelationStore::Relation* r = &all_relations[i];
        w.str(registry.desc(r->id).name);
        w.u32(r->data.size);
        // The data's fields, as the components section gives a component's (version 9): a world
        // with other fields of the same size must not take the bytes as its own.
        w.u32(static_cast<std::uint32_t>(r->data.fields.size()));
        for (const FieldDesc& field : r->data.fields) {
            w.str(field.name);
            w.u8(static_cast<std::uint8_t>(field.type));
            w.u32(field.offset);
        }
        w.u32(r->subjects);
        for (std::uint32_t slot = 0; slot < r->by_subject.size(); ++slot) {
            const auto& entry = r->by_subject[slot];
            if (entry.targets.empty()) continue;
            const std::size_t targets = entry.targets.size();
            unsigned char* pairs = w.span(8 + targets * (4 + std::size_t(r->data.size)));
            little_endian::store_u32(pairs, pool.alive_at(slot).bits);
            little_endian::store_u32(pairs + 4, static_cast<std::uint32_t>(targets));
            pairs += 8;
            for (std::size_t i = 0; i < targets; ++i) {
                little_endian::store_u32(pairs, entry.targets[i].bits);
                if (r->data.size > 0) std::memcpy(pairs + 4, entry.data.data() + i * r->data.size, r->data.size);
                pairs += 4 + r->data.size;
            }
        }
    }
    w.end_section(section);

    section = w.begin_section(fmt::kPrefabSection);
    w.u32(static_cast<std::uint32_t>(world.prefab_names().size()));
    for (const World::PrefabName& prefab : world.prefab_names()) {
        w.u32(prefab.prefab.bits);
        w.str(prefab.name);
    }
    w.end_section(section);

    section = w.begin_section(fmt::kTopicSection);
    const TopicStore& topics = world.topics();
    w.u32(topics.size());
    for (TopicId id = 0; id < topics.size(); ++id) {
        const TopicStore::Topic& topic = topics.topic(id);
        w.str(topic.layout.name);
        w.u32(static_cast<std::uint32_t>(topic.layout.fields.size()));
        for (const FieldDesc& field : topic.layout.fields) {
            w.str(field.name);
            w.u8(static_cast<std::uint8_t>(field.type));
        }
        w.u64(topic.first);
        w.u32(topic.count);
        w.u32(static_cast<std::uint32_t>(topic.consumers.size()));
        for (const TopicStore::Consumer& consumer : topic.consumers) {
            w.str(consumer.name);
            w.u64(consumer.cursor);
        }
        for (const FieldBytes& field : topic.fields) w.external(field.data(), field.size());
    }
    w.end_section(section);
    w.finish(checksum);
}

void SnapshotSegments::seal() noexcept {
    if (owned_.size() < fmt::kHeaderSize) return;  // nothing taken yet: no header to seal
    // The header is the first 32 owned bytes, so the payload starts 32 bytes into range 0.
    Checksum sum;
    std::size_t skip = fmt::kHeaderSize;
    for (const Range& range : ranges_) {
        const std::size_t from = skip < range.size ? skip : range.size;
        skip -= from;
        sum.update(range.data + from, range.size - from);
    }
    little_endian::store_u64(owned_.data() + fmt::kChecksumOffset, sum.value());
}

void SnapshotSegments::copy_to(std::byte* out) const noexcept {
    for (const Range& range : ranges_) {
        std::memcpy(out, range.data, range.size);
        out += range.size;
    }
}

void SnapshotSegments::copy_to_sealed(std::byte* out) const noexcept {
    Checksum sum;
    std::byte* at = out;
    std::size_t skip = fmt::kHeaderSize;
    for (const Range& range : ranges_) {
        const std::size_t header = skip < range.size ? skip : range.size;
        std::memcpy(at, range.data, header);
        skip -= header;
        sum.update_copy(at + header, range.data + header, range.size - header);
        at += range.size;
    }
    little_endian::store_u64(out + fmt::kChecksumOffset, sum.value());
}

std::vector<std::byte> SnapshotSegments::bytes() const {
    std::vector<std::byte> out(size_);
    copy_to(out.data());
    return out;
}

void snapshot(const World& world, std::vector<std::byte>& out) {
    SnapshotSegments segments;
    segments.take(world, /*checksum=*/false);
    out.resize(segments.size());
    segments.copy_to_sealed(out.data());
}

std::vector<std::byte> snapshot(const World& world) {
    std::vector<std::byte> out;
    snapshot(world, out);
    return out;
}

}  // namespace ecsia
