// read_snapshot(): the validating half of restore(). Nothing here changes the world; everything a
// commit relies on is checked: header, checksum, every count and length against the bytes left,
// the schema against the world's, and the entity bookkeeping for consistency (each slot alive in
// exactly one row, free or retired; handles within the layout; ticks within the world tick).

#include <algorithm>
#include <cstdio>
#include <memory>
#include <cstring>
#include <map>
#include <string>

#include "ecsia/base/little_endian.hpp"
#include "ecsia/snapshot/checksum.hpp"
#include "ecsia/snapshot/handle_runs.hpp"
#include "ecsia/snapshot/snapshot_format.hpp"
#include "ecsia/snapshot/snapshot_image.hpp"
#include "ecsia/snapshot/snapshot_input.hpp"

namespace ecsia {

namespace fmt = snapshot_format;

namespace {

using Access = SnapshotAccess;

[[noreturn]] void bad(const std::string& message) { throw Error(ErrorCode::BadSnapshot, message); }
[[noreturn]] void mismatch(const std::string& message) { throw Error(ErrorCode::SnapshotMismatch, message); }

std::string str(std::uint64_t value) { return std::to_string(value); }

using little_endian::load_u32;
using little_endian::load_u64;

// Bounds-checked little-endian reads of one section's body. Every read names what it reads, so a
// short or hostile section says where it went wrong.
class SectionReader {
public:
    // `input`: the snapshot, whose first byte padding aligns offsets from.
    SectionReader(SnapshotInput& input, const std::byte* data, std::size_t size, const char* section)
        : input_(&input), p_(data), end_(data + size), section_(section) {}

    std::size_t left() const noexcept { return static_cast<std::size_t>(end_ - p_); }
    const std::byte* data() const noexcept { return p_; }
    const std::byte* take(std::uint64_t size, const char* what) {
        const std::byte* at = skip(size, what);
        input_->need(at, static_cast<std::size_t>(size));
        return at;
    }
    // An array of rows: read where it lies, or copied to `into` (spare memory for it) and read
    // there; with `compare`, `*same` says whether it equals the bytes there.
    const std::byte* take_rows(std::uint64_t size, const char* what, std::byte* into, const std::byte* compare = nullptr,
                               bool* same = nullptr) {
        const std::byte* at = skip(size, what);
        return input_->rows(at, static_cast<std::size_t>(size), into, compare, same);
    }
    // An array of values read into spare memory, compared with the column's own while equal
    // (SnapshotInput::rows_into_spare()); `*unchanged`: the length of the equal leading part.
    const std::byte* take_rows_into_spare(std::uint64_t size, const char* what, std::byte* into, const std::byte* own,
                                          std::size_t* unchanged) {
        const std::byte* at = skip(size, what);
        *unchanged = input_->rows_into_spare(at, static_cast<std::size_t>(size), into, own);
        return into;
    }
    // Skips the zero bytes before an array of rows, up to the next offset that is a multiple of 8.
    void align(const char* what) {
        const std::size_t pad = (fmt::kArrayAlignment - static_cast<std::size_t>(p_ - input_->data()) % fmt::kArrayAlignment) % fmt::kArrayAlignment;
        const std::byte* at = take(pad, what);
        for (std::size_t i = 0; i < pad; ++i) {
            if (at[i] != std::byte{0}) fail(std::string("the padding before ") + what + " is not zero");
        }
    }
    std::uint8_t u8(const char* what) { return static_cast<std::uint8_t>(*take(1, what)); }
    std::uint32_t u32(const char* what) { return load_u32(take(4, what)); }
    std::uint64_t u64(const char* what) { return load_u64(take(8, what)); }
    std::string_view name(const char* what) {
        const std::uint32_t size = u32(what);
        if (size == 0 || size > fmt::kMaxNameBytes) fail(std::string(what) + " has length " + str(size) + " (1.." + str(fmt::kMaxNameBytes) + " allowed)");
        return {reinterpret_cast<const char*>(take(size, what)), size};
    }
    // A count of records of at least `min_bytes` each: more than the bytes left could hold is
    // refused before anything is allocated for them.
    std::uint32_t count(const char* what, std::size_t min_bytes) {
        const std::uint32_t n = u32(what);
        check_count(n, what, min_bytes);
        return n;
    }
    // The same for a count read before.
    void check_count(std::uint32_t n, const char* what, std::size_t min_bytes) const {
        if (std::uint64_t(n) * min_bytes > left()) {
            fail(std::string(what) + " is " + str(n) + ", more than the " + str(left()) + " bytes left can hold");
        }
    }
    void expect_end() {
        if (left() != 0) fail(str(left()) + " unexpected bytes at the end of the section");
    }
    [[noreturn]] void fail(const std::string& message) const { bad(std::string("snapshot section ") + section_ + ": " + message); }

private:
    const std::byte* skip(std::uint64_t size, const char* what) {
        if (size > left()) fail(std::string(what) + " needs " + str(size) + " bytes, only " + str(left()) + " are left");
        const std::byte* at = p_;
        p_ += size;
        return at;
    }

    SnapshotInput* input_;
    const std::byte* p_;
    const std::byte* end_;
    const char* section_;
};

// Splits the payload into its sections, in the one order the format allows.
class Sections {
public:
    explicit Sections(SnapshotInput& input)
        : input_(input), p_(input.data() + fmt::kHeaderSize), end_(input.data() + input.size()) {}
    // The next section's reader. Every body but TABL's is all structure, staged whole here; TABL's
    // is staged as its reader goes, so that its arrays of rows can go elsewhere.
    SectionReader next(std::uint32_t tag, const char* name) {
        const std::size_t left = static_cast<std::size_t>(end_ - p_);
        if (left < fmt::kSectionHeaderSize) bad(std::string("snapshot ends before section ") + name);
        input_.need(p_, fmt::kSectionHeaderSize);
        const std::uint32_t found = load_u32(p_);
        if (found != tag) bad(std::string("snapshot has no section ") + name + " where it should start");
        const std::uint64_t size = load_u64(p_ + 4);
        if (size > left - fmt::kSectionHeaderSize) {
            bad(std::string("snapshot section ") + name + " claims " + str(size) + " bytes, only " +
                str(left - fmt::kSectionHeaderSize) + " are left");
        }
        const std::byte* body = p_ + fmt::kSectionHeaderSize;
        p_ = body + size;
        if (tag != fmt::kTableSection) input_.need(body, static_cast<std::size_t>(size));
        return SectionReader(input_, body, static_cast<std::size_t>(size), name);
    }
    void expect_end() const {
        if (p_ != end_) bad("snapshot has " + str(static_cast<std::size_t>(end_ - p_)) + " bytes after its last section");
    }

private:
    SnapshotInput& input_;
    const std::byte* p_;
    const std::byte* end_;
};

void check_checksum(SnapshotInput& bytes) {
    if (bytes.payload_checksum() != load_u64(bytes.data() + fmt::kChecksumOffset)) {
        bad("snapshot checksum does not match: the bytes were damaged or changed");
    }
}

// The checksum is checked here when all the bytes are in memory, and by read_snapshot() after its
// last read when they are pulled in as it reads.
void check_header(SnapshotInput& bytes) {
    if (bytes.size() < fmt::kHeaderSize) bad("snapshot is truncated: " + str(bytes.size()) + " bytes, shorter than its 32-byte header");
    bytes.need(bytes.data(), fmt::kHeaderSize);
    if (std::memcmp(bytes.data(), fmt::kMagic, sizeof fmt::kMagic) != 0) bad("these bytes are not an ecsia snapshot (no ECSIASNP magic)");
    const std::uint32_t version = load_u32(bytes.data() + fmt::kVersionOffset);
    if (version != fmt::kFormatVersion) {
        bad("snapshot format version " + str(version) + " is not supported (this build reads version " + str(fmt::kFormatVersion) + ")");
    }
    if (load_u32(bytes.data() + fmt::kFlagsOffset) != 0) bad("snapshot header has unknown flags set");
    const std::uint64_t payload = load_u64(bytes.data() + fmt::kPayloadSizeOffset);
    const std::size_t present = bytes.size() - fmt::kHeaderSize;
    if (payload > present) bad("snapshot is truncated: its header says " + str(payload) + " payload bytes, " + str(present) + " are present");
    if (payload < present) bad("snapshot has " + str(present - payload) + " bytes beyond the " + str(payload) + " its header says");
    if (!bytes.pulled()) check_checksum(bytes);
}

void read_world(SectionReader r, const World& world, SnapshotImage& image) {
    const EntityPool& pool = world.entities();
    const std::uint32_t index_bits = r.u32("index_bits");
    const std::uint32_t max_entities = r.u32("max_entities");
    image.tick = r.u32("tick");
    image.frames = r.u64("frames");
    if (index_bits < 1 || index_bits > 31) r.fail("index_bits " + str(index_bits) + " is not 1..31");
    if (max_entities == 0 || max_entities >= (1u << index_bits)) r.fail("max_entities " + str(max_entities) + " does not fit " + str(index_bits) + " index bits");
    if (image.tick == 0) r.fail("the world tick is 0 (ticks start at 1)");
    if (index_bits != pool.layout().index_bits()) {
        mismatch("snapshot handles have " + str(index_bits) + " index bits, this world's have " + str(pool.layout().index_bits()));
    }
    if (max_entities != pool.max_entities()) {
        mismatch("snapshot was taken from a world with max_entities " + str(max_entities) + ", this world has " + str(pool.max_entities()));
    }
    const std::uint32_t cursors = r.count("the number of system cursors", 9);
    image.cursors.reserve(cursors);
    for (std::uint32_t c = 0; c < cursors; ++c) {
        const std::string_view name = r.name("a system name");
        const Tick last_run = r.u32("a system's last-run tick");
        if (last_run > image.tick) r.fail("system '" + std::string(name) + "' last ran at tick " + str(last_run) + ", after the world tick " + str(image.tick));
        for (const SnapshotImage::Cursor& seen : image.cursors) {
            if (seen.name == name) r.fail("system '" + std::string(name) + "' is listed twice");
        }
        image.cursors.push_back({name, last_run});
    }
    r.expect_end();
}

std::string describe_fields(const std::vector<FieldDesc>& fields, std::uint32_t size) {
    std::string out = "{";
    for (const FieldDesc& f : fields) {
        out += (out.size() > 1 ? ", " : " ") + f.name + ": " + std::string(field_type_name(f.type)) + " at " + str(f.offset);
    }
    return out + (fields.empty() ? "} (a tag)" : " }") + ", " + str(size) + " bytes";
}

// A field list as the components and pair sections give it: per field a name, a type, an offset.
// `owner` names the fields' component or relation in errors.
std::vector<FieldDesc> read_fields(SectionReader& r, const std::string& owner) {
    const std::uint32_t field_count = r.count("a field count", 9);
    std::vector<FieldDesc> fields;
    fields.reserve(field_count);
    for (std::uint32_t f = 0; f < field_count; ++f) {
        std::string field(r.name("a field name"));
        const std::uint8_t type = r.u8("a field type");
        const std::uint32_t offset = r.u32("a field offset");
        if (type > static_cast<std::uint8_t>(FieldType::Entity)) r.fail("field '" + owner + "." + field + "' has unknown type code " + str(type));
        fields.push_back({std::move(field), static_cast<FieldType>(type), offset});
    }
    return fields;
}

bool same_fields(const std::vector<FieldDesc>& a, const std::vector<FieldDesc>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t f = 0; f < a.size(); ++f) {
        if (a[f].name != b[f].name || a[f].type != b[f].type || a[f].offset != b[f].offset) return false;
    }
    return true;
}

// The snapshot's components, each matched to this world's component of the same name and layout.
std::vector<const ComponentDesc*> read_components(SectionReader r, const World& world) {
    const ComponentRegistry& registry = world.components();
    const std::uint32_t count = r.count("the number of components", 17);
    std::vector<const ComponentDesc*> out;
    out.reserve(count);
    for (std::uint32_t c = 0; c < count; ++c) {
        const std::string name(r.name("a component name"));
        const std::uint32_t size = r.u32("a component size");
        const std::uint32_t alignment = r.u32("a component alignment");
        const std::vector<FieldDesc> fields = read_fields(r, name);
        const ComponentId id = registry.find(name);
        if (id == kNoComponent) {
            mismatch("snapshot needs component '" + name + "', which this world does not define (define it, with the same fields, before restoring)");
        }
        const ComponentDesc& desc = registry.desc(id);
        if (desc.size != size || desc.alignment != alignment || !same_fields(desc.fields, fields)) {
            // A relation's presence is a tag in the registry: its name there is the relation's.
            mismatch("component '" + name + "' is defined differently here: the snapshot's is " + describe_fields(fields, size) +
                     ", this world's is " + (desc.relation ? "a relation" : describe_fields(desc.fields, desc.size)));
        }
        if (!out.empty() && !(out.back()->name < name)) r.fail("component '" + name + "' is not listed in ascending name order");
        out.push_back(&desc);
    }
    r.expect_end();
    return out;
}

// Slot coverage while reading: each slot must end up alive, free or retired exactly once.
enum Covered : std::uint8_t { kUncovered = 0, kCovered = 1 };

// Whether the ENTS body says exactly what the world's pool holds now: the same slot count, the same
// free list (indices and generations, in order) and the same retired slots (ascending, as the
// writer lists them), with no handle reserved. Reads within `size` only and never throws: a body
// that differs in any way, short or hostile ones included, is simply not the pool's, and
// read_entities() then checks it in full.
bool is_pools_own(const std::byte* body, std::size_t size, const EntityPool& pool) {
    if (pool.allocated_count() != pool.alive_count()) return false;
    const auto& slots = Access::slots(pool);
    const auto& free_list = Access::free_indices(pool);
    const std::uint64_t expected = 4 + 4 + 8 * std::uint64_t(free_list.size()) + 4 + 4 * std::uint64_t(pool.retired_count());
    if (size != expected) return false;
    if (load_u32(body) != pool.slot_count() || load_u32(body + 4) != free_list.size()) return false;
    const std::byte* at = body + 8;
    for (std::uint32_t index : free_list) {
        if (load_u32(at) != index || load_u32(at + 4) != slots[index].generation) return false;
        at += 8;
    }
    if (load_u32(at) != pool.retired_count()) return false;
    at += 4;
    if (pool.retired_count() == 0) return true;
    for (std::uint32_t index = 0; index < slots.size(); ++index) {
        if (slots[index].state != Access::SlotState::Retired) continue;
        if (load_u32(at) != index) return false;
        at += 4;
    }
    return true;
}

void read_entities(SectionReader r, const World& world, SnapshotImage& image, std::vector<std::uint8_t>& covered) {
    const EntityPool& pool = world.entities();
    const std::uint32_t slots = r.u32("the slot count");
    if (slots > pool.max_entities()) r.fail(str(slots) + " slots exceed max_entities " + str(pool.max_entities()));
    const std::uint32_t free_count = r.count("the free-list length", 8);
    if (free_count > slots) r.fail("a free list of " + str(free_count) + " is longer than the " + str(slots) + " slots");
    image.slots.assign(slots, Access::Slot{});
    covered.assign(slots, kUncovered);
    const std::uint32_t max_live = pool.layout().max_live_generation();
    image.free_indices.reserve(free_count);
    for (std::uint32_t i = 0; i < free_count; ++i) {
        const std::uint32_t index = r.u32("a free slot");
        const std::uint32_t generation = r.u32("a free slot's generation");
        if (index >= slots) r.fail("free slot " + str(index) + " is not below the slot count " + str(slots));
        if (generation > max_live) r.fail("free slot " + str(index) + " has generation " + str(generation) + ", above the layout's last " + str(max_live));
        if (covered[index] != kUncovered) r.fail("slot " + str(index) + " is listed twice");
        covered[index] = kCovered;
        image.slots[index] = Access::Slot{generation, Access::SlotState::Free};
        image.free_indices.push_back(index);
    }
    const std::uint32_t retired = r.count("the retired-slot count", 4);
    for (std::uint32_t i = 0; i < retired; ++i) {
        const std::uint32_t index = r.u32("a retired slot");
        if (index >= slots) r.fail("retired slot " + str(index) + " is not below the slot count " + str(slots));
        if (covered[index] != kUncovered) r.fail("slot " + str(index) + " is listed twice");
        covered[index] = kCovered;
        image.slots[index] = Access::Slot{max_live, Access::SlotState::Retired};
    }
    r.expect_end();
}

// Whether every table's rows hold the same handles, in the same order, as the world's table of the
// same index (tables on either side without a counterpart being empty; read_tables() compared the
// rows). With is_pools_own() this
// means the snapshot's entity bookkeeping is the world's own, which its invariants keep valid.
bool are_worlds_rows(const std::vector<SnapshotImage::TableImage>& tables, const TableGraph& graph) {
    const std::size_t current = graph.table_count();
    for (std::size_t t = 0; t < tables.size(); ++t) {
        const SnapshotImage::TableImage& table = tables[t];
        if (t >= current) {
            if (table.rows != 0) return false;
            continue;
        }
        if (!table.worlds_rows) return false;
    }
    for (std::size_t t = tables.size(); t < current; ++t) {
        if (graph.table(static_cast<TableIndex>(t)).size() != 0) return false;
    }
    return true;
}

// The per-row half of the entity checks: every row's handle fits the layout and names a slot no
// other row, free-list entry or retired entry names; then every slot is covered. Builds the
// pool's new slots and the entity locations.
void check_rows(SectionReader& r, const HandleLayout& layout, SnapshotImage& image, std::vector<std::uint8_t>& covered) {
    const std::uint32_t slots = static_cast<std::uint32_t>(image.slots.size());
    image.locations.reset(layout);
    image.locations.resize(slots);
    for (TableIndex t = 0; t < image.tables.size(); ++t) {
        const SnapshotImage::TableImage& table = image.tables[t];
        const auto check = [&](std::uint32_t row, Entity entity) {
            const std::uint32_t index = layout.index(entity);
            const std::uint32_t generation = layout.generation(entity);
            if (entity.is_null() || index >= slots || generation > layout.max_live_generation()) {
                r.fail("table " + str(t) + " row " + str(row) + " holds handle " + str(entity.bits) + ", which no live entity can have");
            }
            if (covered[index] != kUncovered) r.fail("table " + str(t) + " row " + str(row) + ": slot " + str(index) + " is already used");
            covered[index] = kCovered;
            image.slots[index] = Access::Slot{generation, Access::SlotState::Alive};
            image.locations.set(index, EntityLocation{t, row, entity});
        };
        if (table.runs == nullptr) {
            for (std::uint32_t row = 0; row < table.rows; ++row) check(row, Entity{load_u32(table.entities + 4 * std::size_t(row))});
            continue;
        }
        for (std::uint32_t run = 0, row = 0; run < table.run_count; ++run) {
            const std::uint32_t first = load_u32(table.runs + 8 * std::size_t(run));
            const std::uint32_t length = load_u32(table.runs + 8 * std::size_t(run) + 4);
            for (std::uint32_t i = 0; i < length; ++i, ++row) check(row, Entity{first + i});
        }
    }
    for (std::uint32_t index = 0; index < slots; ++index) {
        if (covered[index] == kUncovered) r.fail("slot " + str(index) + " is neither alive in a table, free nor retired");
    }
}

// `into`: spare memory for a per-row array (RestoreSpares), or nullptr. `earlier`: the table's
// tick arrays read before this one, in the order listed (what kTicksSame refers to).
template <typename Where>
SnapshotImage::Ticks read_ticks(SectionReader& r, std::uint32_t rows, Tick max, const char* what, std::vector<Tick>* into,
                                const std::vector<SnapshotImage::Ticks>& earlier, const Where& where) {
    const std::uint32_t kind = r.u32(what);
    SnapshotImage::Ticks ticks;
    if (kind == fmt::kTicksUniform) {
        ticks.uniform = r.u32(what);
        ticks.highest = rows > 0 ? ticks.uniform : 0;
    } else if (kind == fmt::kTicksSame) {
        const std::uint32_t array = r.u32(what);
        if (array >= earlier.size()) {
            r.fail(where() + ": " + what + " are those of tick array " + str(array) + ", not one before them (" + str(earlier.size()) + " are)");
        }
        ticks = earlier[array];
        ticks.shared = true;
    } else if (kind == fmt::kTicksRuns) {
        // At least one run when there are rows, each of one row or more, adding up to the rows.
        ticks.run_count = r.count(what, 8);
        ticks.runs = r.take(std::uint64_t(ticks.run_count) * 8, what);
        if (rows > 0 && ticks.run_count == 0) r.fail(where() + ": " + what + " have no runs for " + str(rows) + " rows");
        std::uint64_t covered = 0;
        for (std::uint32_t i = 0; i < ticks.run_count; ++i) {
            const std::uint32_t length = load_u32(ticks.runs + 8 * std::size_t(i) + 4);
            if (length == 0) r.fail(where() + ": run " + str(i) + " of its " + what + " is empty");
            ticks.highest = std::max(ticks.highest, load_u32(ticks.runs + 8 * std::size_t(i)));
            covered += length;
        }
        if (covered != rows) r.fail(where() + ": its runs of " + what + " hold " + str(covered) + " rows, its row count is " + str(rows));
    } else if (kind == fmt::kTicksPerRow) {
        r.align(what);
        ticks.per_row = r.take_rows(std::uint64_t(rows) * 4, what, into != nullptr ? reinterpret_cast<std::byte*>(into->data()) : nullptr);
        for (std::uint32_t row = 0; row < rows; ++row) ticks.highest = std::max(ticks.highest, load_u32(ticks.per_row + 4 * std::size_t(row)));
    } else {
        r.fail(where() + ": " + what + " have unknown encoding " + str(kind));
    }
    if (ticks.highest > max) r.fail(where() + ": " + what + " reach tick " + str(ticks.highest) + ", above the column's maximum " + str(max));
    return ticks;
}

// A table's rows stored as runs of handles: at least one run when it has rows, each of one row or
// more, adding up to its row count. Their handles are checked as listed ones are (check_rows())
// unless they are the world's own.
template <typename Where>
void read_runs(SectionReader& r, SnapshotImage::TableImage& table, const Where& where) {
    table.run_count = r.count("a table's run count", 8);
    table.runs = r.take(std::uint64_t(table.run_count) * 8, "a table's runs");
    std::uint64_t rows = 0;
    for (std::uint32_t i = 0; i < table.run_count; ++i) {
        const std::uint32_t length = load_u32(table.runs + 8 * std::size_t(i) + 4);
        if (length == 0) r.fail(where() + ": run " + str(i) + " of its entities is empty");
        rows += length;
    }
    if (rows != table.rows) r.fail(where() + ": its runs of entities hold " + str(rows) + " rows, its row count is " + str(table.rows));
}

// Everything of the TABL section but the per-row entity checks (check_rows(), done after it only
// when the rows are not the world's own). With `spares`, the arrays of rows of each table the
// world has room for are read into them (snapshot_input.hpp). With `compare_rows`, each table's
// rows are compared with those of the world's table of the same index as they are read
// (TableImage::worlds_rows).
// `slots`: the snapshot's slot count, which the rows of all tables together cannot pass (each row's
// entity has a slot of its own).
void read_tables(SectionReader& r, const std::vector<const ComponentDesc*>& components, const TableGraph& graph,
                 std::uint32_t slots, RestoreSpares* spares, bool compare_rows, SnapshotImage& image) {
    const std::uint32_t tables = r.count("the table count", 8);
    std::uint64_t total_rows = 0;
    if (tables == 0) r.fail("there are no tables (table 0, the empty one, always exists)");
    image.tables.resize(tables);
    std::map<std::vector<ComponentId>, TableIndex> signatures;
    std::vector<SnapshotImage::Ticks> tick_arrays;  // one table's, in the order listed (kTicksSame)
    for (TableIndex t = 0; t < tables; ++t) {
        // Names for error messages, built only when one is needed (restore should not allocate per table).
        auto where = [t] { return "table " + str(t); };
        SnapshotImage::TableImage& table = image.tables[t];
        const std::uint32_t columns = r.count("a table's column count", 4);
        if (columns > components.size()) r.fail(where() + " has " + str(columns) + " columns, more than the " + str(components.size()) + " components");
        std::vector<std::uint32_t> listed(columns);
        for (std::uint32_t c = 0; c < columns; ++c) {
            listed[c] = r.u32("a table's component");
            if (listed[c] >= components.size()) r.fail(where() + " names component " + str(listed[c]) + " of " + str(components.size()));
            if (c > 0 && listed[c] <= listed[c - 1]) r.fail(where() + " does not list its components in ascending order");
            table.signature.push_back(components[listed[c]]->id);
        }
        // Columns are listed in the snapshot world's id order; this world's ids may order them
        // differently, and a Table keeps them in ascending id order.
        std::vector<std::uint32_t> order(columns);
        for (std::uint32_t c = 0; c < columns; ++c) order[c] = c;
        std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return table.signature[a] < table.signature[b]; });
        std::sort(table.signature.begin(), table.signature.end());
        if (t == 0 && columns != 0) r.fail("table 0 must be the empty table");
        if (!signatures.emplace(table.signature, t).second) r.fail(where() + " has the same components as table " + str(signatures[table.signature]));

        table.rows = r.u32("a table's row count");
        // Where they are: a rollback only compares them with the table's own.
        const Table* own = t < graph.table_count() ? &graph.table(t) : nullptr;
        const bool comparable = compare_rows && own != nullptr && own->size() == table.rows;
        const std::uint32_t encoding = r.u32("a table's entity encoding");
        if (encoding == fmt::kRowsListed) {
            r.check_count(table.rows, "a table's row count", 4);
            r.align("a table's entities");
            table.entities = r.take_rows(std::uint64_t(table.rows) * 4, "a table's entities", nullptr,
                                         comparable ? reinterpret_cast<const std::byte*>(own->entities()) : nullptr, &table.worlds_rows);
        } else if (encoding == fmt::kRowsRuns) {
            read_runs(r, table, where);
            table.worlds_rows = comparable && rows_follow_runs(own->entities(), Access::counted_rows(*own), table.runs, table.run_count);
        } else {
            r.fail(where() + ": its entities have unknown encoding " + str(encoding));
        }
        table.worlds_rows = comparable && table.worlds_rows;
        // Runs hold more rows than their bytes: the rows of all tables together are bounded by
        // the slots instead, before anything is allocated for them.
        total_rows += table.rows;
        if (total_rows > slots) r.fail("its tables hold " + str(total_rows) + " rows by table " + str(t) + ", more than the " + str(slots) + " entity slots");
        table.spare = spares != nullptr ? spares->for_table(graph, t, table.signature, table.rows) : nullptr;
        RestoreSpares::TableSpare* const spare = table.spare;

        table.columns.resize(columns);
        tick_arrays.clear();
        for (std::uint32_t c = 0; c < columns; ++c) {
            const ComponentDesc& desc = *components[listed[c]];
            auto column_where = [&] { return where() + " column '" + desc.name + "'"; };
            std::uint32_t slot = 0;
            while (order[slot] != c) ++slot;
            SnapshotImage::ColumnImage& column = table.columns[slot];
            column.summary.max_added = r.u32("a column's max added tick");
            column.summary.max_changed = r.u32("a column's max changed tick");
            column.summary.bulk_rows = r.u32("a column's bulk changed rows");
            column.summary.bulk_tick = r.u32("a column's bulk changed tick");
            const Access::TickSummary& s = column.summary;
            if (s.max_added > image.tick || s.max_changed > image.tick) r.fail(column_where() + " has ticks after the world tick " + str(image.tick));
            if (s.bulk_rows > table.rows) r.fail(column_where() + " stamps " + str(s.bulk_rows) + " rows of " + str(table.rows));
            if (s.bulk_rows > 0 && s.bulk_tick > s.max_changed) r.fail(column_where() + " has a bulk stamp above its maximum changed tick");
            Column* const into = spare != nullptr ? &spare->columns[slot] : nullptr;
            column.added = read_ticks(r, table.rows, s.max_added, "added ticks", into != nullptr ? &Access::added_ticks(*into) : nullptr,
                                      tick_arrays, column_where);
            tick_arrays.push_back(column.added);
            column.changed = read_ticks(r, table.rows, s.max_changed, "changed ticks", into != nullptr ? &Access::own_changed_ticks(*into) : nullptr,
                                        tick_arrays, column_where);
            tick_arrays.push_back(column.changed);
            r.align("a column's values");
            const std::uint64_t value_bytes = std::uint64_t(table.rows) * desc.size;
            const bool has_bool = std::any_of(desc.fields.begin(), desc.fields.end(), [](const FieldDesc& f) { return f.type == FieldType::Bool; });
            if (into != nullptr && !has_bool) {
                // Bool fields are checked below from the bytes read, so only columns without them skip writing equal pieces.
                const Column& own_column = own->columns()[slot];
                column.values = r.take_rows_into_spare(value_bytes, "a column's values", into->data(), own_column.data(), &column.values_unchanged);
            } else {
                column.values = r.take_rows(value_bytes, "a column's values", into != nullptr ? into->data() : nullptr);
            }
            for (const FieldDesc& field : desc.fields) {
                if (field.type != FieldType::Bool) continue;
                // A bool byte other than 0 or 1 is undefined behaviour for C++ code that reads it.
                for (std::uint32_t row = 0; row < table.rows; ++row) {
                    const auto byte = static_cast<std::uint8_t>(column.values[std::size_t(row) * desc.size + field.offset]);
                    if (byte > 1) r.fail(column_where() + " row " + str(row) + ": bool field '" + field.name + "' holds " + str(byte));
                }
            }
        }
    }
}

void read_pending(SectionReader r, const std::vector<const ComponentDesc*>& components, SnapshotImage& image) {
    const std::uint32_t count = r.count("the number of queued changes", 8);
    image.pending.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        const Entity entity{r.u32("a queued change's entity")};
        const std::uint32_t component = r.u32("a queued change's component");
        if (component >= components.size()) r.fail("a queued change names component " + str(component) + " of " + str(components.size()));
        image.pending.push_back({entity, components[component]->id});
    }
    r.expect_end();
}

// Pairs: every check the World's pair calls make, on the snapshot's entities (image.slots, or the
// pool's own when the snapshot keeps them), plus what ties pairs to tables: a subject's table has
// the relation's presence component, and exactly its subjects' tables do.
void read_pairs(SectionReader r, const World& world, SnapshotImage& image) {
    const ComponentRegistry& registry = world.components();
    const EntityPool& pool = world.entities();
    const HandleLayout& layout = pool.layout();
    auto store = std::make_unique<RelationStore>(world.relations());
    store->clear_pairs();
    const std::uint32_t slots = image.keeps_entities ? pool.slot_count() : static_cast<std::uint32_t>(image.slots.size());
    auto alive = [&](Entity e) {
        if (image.keeps_entities) return pool.is_alive(e);
        const std::uint32_t index = layout.index(e);
        if (e.is_null() || index >= image.slots.size()) return false;
        return image.slots[index].state == SnapshotAccess::SlotState::Alive && image.slots[index].generation == layout.generation(e);
    };
    auto table_of = [&](Entity e) -> const SnapshotImage::TableImage& {
        const TableIndex t = image.keeps_entities ? world.locate(e).table : image.locations[layout.index(e)].table;
        return image.tables[t];
    };
    auto rows_with = [&](ComponentId id) {
        std::uint64_t rows = 0;
        for (const SnapshotImage::TableImage& table : image.tables) {
            if (std::binary_search(table.signature.begin(), table.signature.end(), id)) rows += table.rows;
        }
        return rows;
    };
    auto handle = [](Entity e) {
        char text[16];
        std::snprintf(text, sizeof text, "0x%08x", e.bits);
        return std::string(text);
    };

    // Pairs that break their relation's options: damage for the built-in relations (every world
    // defines them alike); for a user's relation, a world that defines it with other options.
    auto against_options = [&](const RelationStore::Relation& relation, const std::string& name, const std::string& what) {
        if (relation.id == World::kChildOf || relation.id == World::kIsA) r.fail(what);
        mismatch(what + ": this world defines '" + name +
                 "' with other options than the world that took the snapshot (define it with the same exclusive and acyclic "
                 "options before restoring)");
    };

    const std::uint32_t relations = r.count("the number of relations with pairs", 16);
    std::string previous;
    for (std::uint32_t i = 0; i < relations; ++i) {
        const std::string name(r.name("a relation name"));
        if (i > 0 && !(previous < name)) r.fail("relation '" + name + "' is not listed in ascending name order");
        previous = name;
        const ComponentId id = registry.find(name);
        if (id == kNoComponent || !registry.desc(id).relation) {
            mismatch("snapshot has pairs of relation '" + name + "', which this world does not define (define it, with the same fields, before restoring)");
        }
        RelationStore::Relation& relation = *store->find(id);
        const std::uint32_t size = r.u32("a relation's data size");
        const std::vector<FieldDesc> fields = read_fields(r, name);
        if (size != relation.data.size || !same_fields(relation.data.fields, fields)) {
            mismatch("relation '" + name + "' has pair data defined differently here: the snapshot's is " + describe_fields(fields, size) +
                     ", this world's is " + describe_fields(relation.data.fields, relation.data.size));
        }
        const std::uint32_t subjects = r.count("a relation's subject count", 12);
        if (subjects == 0) r.fail("relation '" + name + "' is listed without subjects");
        std::uint32_t last_subject = 0;
        for (std::uint32_t s = 0; s < subjects; ++s) {
            const Entity subject{r.u32("a pair's subject")};
            if (!alive(subject)) r.fail("a '" + name + "' pair's subject " + handle(subject) + " is not alive");
            if (s > 0 && layout.index(subject) <= last_subject) r.fail("'" + name + "' subjects are not in ascending index order");
            last_subject = layout.index(subject);
            const SnapshotImage::TableImage& table = table_of(subject);
            if (!std::binary_search(table.signature.begin(), table.signature.end(), id)) {
                r.fail("subject " + handle(subject) + " has '" + name + "' pairs but its table lacks the relation");
            }
            const std::uint32_t targets = r.count("a subject's target count", 4 + std::size_t(size));
            if (targets == 0) r.fail("subject " + handle(subject) + " is listed without '" + name + "' targets");
            if (relation.options.exclusive && targets > 1) {
                against_options(relation, name, "subject " + handle(subject) + " has " + str(targets) + " targets of exclusive relation '" + name + "'");
            }
            std::uint32_t last_target = 0;
            for (std::uint32_t t = 0; t < targets; ++t) {
                const Entity target{r.u32("a pair's target")};
                if (!alive(target)) r.fail("a '" + name + "' pair's target " + handle(target) + " is not alive");
                if (t > 0 && layout.index(target) <= last_target) r.fail("'" + name + "' targets are not in ascending index order");
                last_target = layout.index(target);
                if (relation.options.acyclic && target == subject) {
                    against_options(relation, name, "'" + name + "' is acyclic, but " + handle(subject) + " is paired with itself");
                }
                store->insert(relation, subject, target, r.take(size, "a pair's data"));
            }
        }
    }
    r.expect_end();
    for (RelationStore::Relation& relation : store->all()) {
        const std::string& name = registry.desc(relation.id).name;
        if (rows_with(relation.id) != relation.subjects) {
            r.fail(str(rows_with(relation.id)) + " rows have relation '" + name + "' in their table, but " + str(relation.subjects) + " subjects have its pairs");
        }
        if (!relation.options.acyclic || relation.pairs == 0) continue;
        // Depth-first with on-path marks: a target met again on the current path closes a cycle.
        std::vector<std::uint8_t> state(slots, 0);  // 0 unseen, 1 on the path, 2 done
        std::vector<std::pair<std::uint32_t, std::size_t>> path;
        for (std::uint32_t start = 0; start < relation.by_subject.size(); ++start) {
            if (state[start] != 0 || relation.by_subject[start].targets.empty()) continue;
            state[start] = 1;
            path.push_back({start, 0});
            while (!path.empty()) {
                auto& [at, next] = path.back();
                const TargetList& up = relation.by_subject[at].targets;
                if (at >= relation.by_subject.size() || next >= relation.by_subject[at].targets.size()) {
                    state[at] = 2;
                    path.pop_back();
                    continue;
                }
                const std::uint32_t target = layout.index(up[next++]);
                if (state[target] == 1) against_options(relation, name, "the '" + name + "' pairs form a cycle, and the relation is acyclic");
                if (state[target] == 0) {
                    state[target] = 1;
                    if (target < relation.by_subject.size()) {
                        path.push_back({target, 0});
                    } else {
                        state[target] = 2;
                    }
                }
            }
        }
    }
    image.relations = std::move(store);
}

// Prefab names: each names an alive entity of the snapshot whose table has the Prefab tag, no
// handle or name twice, and every row with the tag has a name (as define_prefab keeps them).
void read_prefabs(SectionReader r, const World& world, SnapshotImage& image) {
    const EntityPool& pool = world.entities();
    const HandleLayout& layout = pool.layout();
    auto alive = [&](Entity e) {
        if (image.keeps_entities) return pool.is_alive(e);
        const std::uint32_t index = layout.index(e);
        if (e.is_null() || index >= image.slots.size()) return false;
        return image.slots[index].state == SnapshotAccess::SlotState::Alive && image.slots[index].generation == layout.generation(e);
    };
    auto has_tag = [](const SnapshotImage::TableImage& table) {
        return std::binary_search(table.signature.begin(), table.signature.end(), World::kPrefab);
    };
    auto handle = [](Entity e) {
        char text[16];
        std::snprintf(text, sizeof text, "0x%08x", e.bits);
        return std::string(text);
    };
    const std::uint32_t prefabs = r.count("the number of prefabs", 9);
    image.prefab_names.reserve(prefabs);
    for (std::uint32_t i = 0; i < prefabs; ++i) {
        const Entity prefab{r.u32("a prefab's handle")};
        const std::string name(r.name("a prefab's name"));
        if (!alive(prefab)) r.fail("prefab '" + name + "' names " + handle(prefab) + ", which is not alive");
        const TableIndex t = image.keeps_entities ? world.locate(prefab).table : image.locations[layout.index(prefab)].table;
        if (!has_tag(image.tables[t])) r.fail("prefab '" + name + "' names " + handle(prefab) + ", which is not a prefab (its table lacks the Prefab tag)");
        for (const World::PrefabName& earlier : image.prefab_names) {
            if (earlier.name == name) r.fail("prefab name '" + name + "' is listed twice");
            if (earlier.prefab == prefab) r.fail(handle(prefab) + " is listed as prefab '" + earlier.name + "' and as '" + name + "'");
        }
        image.prefab_names.push_back(World::PrefabName{prefab, name});
    }
    r.expect_end();
    std::uint64_t rows = 0;
    for (const SnapshotImage::TableImage& table : image.tables) {
        if (has_tag(table)) rows += table.rows;
    }
    if (rows != image.prefab_names.size()) {
        r.fail(str(rows) + " rows have the Prefab tag, but " + str(image.prefab_names.size()) + " prefabs have names");
    }
}

// Topics: each one this world defines, with the same fields; cursors between the first message
// kept and the end; the messages' bytes.
void read_topics(SectionReader r, const World& world, SnapshotImage& image) {
    const TopicStore& store = world.topics();
    image.topics.assign(store.size(), TopicStore::Topic{});
    std::vector<bool> seen(store.size(), false);
    const std::uint32_t topics = r.count("the number of topics", 25);
    for (std::uint32_t t = 0; t < topics; ++t) {
        const std::string name(r.name("a topic's name"));
        const TopicId id = store.find(name);
        if (id == kNoTopic) mismatch("snapshot has topic '" + name + "', which this world does not define (define it, with the same fields, before restoring)");
        if (seen[id]) r.fail("topic '" + name + "' is listed twice");
        seen[id] = true;
        const ComponentDesc& layout = store.topic(id).layout;
        const std::uint32_t fields = r.count("a topic's number of fields", 6);
        bool same = fields == layout.fields.size();
        for (std::uint32_t f = 0; f < fields; ++f) {
            const std::string_view field = r.name("a topic field's name");
            const std::uint8_t type = r.u8("a topic field's type");
            same = same && layout.fields[f].name == field && static_cast<std::uint8_t>(layout.fields[f].type) == type;
        }
        if (!same) mismatch("topic '" + name + "' is defined with other fields here than in the snapshot");
        TopicStore::Topic& topic = image.topics[id];
        topic.first = r.u64("a topic's first sequence");
        topic.count = r.u32("a topic's message count");
        const std::uint32_t consumers = r.count("a topic's number of consumers", 13);
        for (std::uint32_t c = 0; c < consumers; ++c) {
            TopicStore::Consumer consumer{std::string(r.name("a consumer's name")), r.u64("a consumer's cursor")};
            if (consumer.cursor < topic.first || consumer.cursor > topic.first + topic.count) {
                r.fail("consumer '" + consumer.name + "' of topic '" + name + "' is at message " + str(consumer.cursor) +
                       ", outside the " + str(topic.count) + " kept from " + str(topic.first));
            }
            for (const TopicStore::Consumer& earlier : topic.consumers) {
                if (earlier.name == consumer.name) r.fail("consumer '" + consumer.name + "' of topic '" + name + "' is listed twice");
            }
            topic.consumers.push_back(std::move(consumer));
        }
        if (topic.count != 0 && topic.consumers.empty()) r.fail("topic '" + name + "' keeps messages without consumers");
        topic.fields.resize(layout.fields.size());
        for (std::size_t f = 0; f < layout.fields.size(); ++f) {
            const std::uint64_t size = std::uint64_t(topic.count) * field_size(layout.fields[f].type);
            const std::byte* bytes = r.take(size, "a topic field's messages");
            topic.fields[f].assign(bytes, bytes + size);
        }
    }
    r.expect_end();
}

}  // namespace

SnapshotImage read_snapshot(const World& world, std::span<const std::byte> bytes) {
    SnapshotInput input(bytes);
    return read_snapshot(world, input, nullptr);
}

SnapshotImage read_snapshot(const World& world, SnapshotInput& bytes, RestoreSpares* spares) {
    check_header(bytes);
    SnapshotImage image;
    Sections sections(bytes);
    read_world(sections.next(fmt::kWorldSection, "WRLD"), world, image);
    const std::vector<const ComponentDesc*> components = read_components(sections.next(fmt::kComponentSection, "COMP"), world);
    // The entity bookkeeping is the costly part of a restore (a pass over every slot and row, and
    // the pool and locations built anew). When the snapshot's is the world's own (a rollback over
    // frames that spawned and despawned nothing), it is valid as the world's invariants keep it,
    // and the commit leaves it in place.
    const SectionReader entities = sections.next(fmt::kEntitySection, "ENTS");
    const EntityPool& pool = world.entities();
    std::vector<std::uint8_t> covered;
    const bool pools_own = is_pools_own(entities.data(), entities.left(), pool);
    if (!pools_own) read_entities(entities, world, image, covered);
    SectionReader tables = sections.next(fmt::kTableSection, "TABL");
    // The snapshot's slots: the pool's own, or as read_entities() read and checked them.
    const auto slots = pools_own ? pool.slot_count() : static_cast<std::uint32_t>(image.slots.size());
    read_tables(tables, components, world.tables(), slots, spares, pools_own, image);
    image.keeps_entities = pools_own && are_worlds_rows(image.tables, world.tables());
    if (!image.keeps_entities) {
        if (pools_own) read_entities(entities, world, image, covered);
        check_rows(tables, pool.layout(), image, covered);
    }
    tables.expect_end();
    read_pending(sections.next(fmt::kPendingSection, "PEND"), components, image);
    read_pairs(sections.next(fmt::kPairSection, "PAIR"), world, image);
    read_prefabs(sections.next(fmt::kPrefabSection, "PFAB"), world, image);
    read_topics(sections.next(fmt::kTopicSection, "TOPC"), world, image);
    sections.expect_end();
    if (bytes.pulled()) check_checksum(bytes);
    return image;
}

}  // namespace ecsia
