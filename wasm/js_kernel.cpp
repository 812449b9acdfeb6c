#include "js_kernel.hpp"

#include <emscripten/emscripten.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>

#include "ecsia/relation/relation_store.hpp"
#include "ecsia/world/world.hpp"
#include "ecsia/world/world_access.hpp"

namespace ecsia::wasm {

namespace {

// What the JS side told C++ about its last failure on this thread (ecsia_kernel_error_buffer).
thread_local std::string js_failure;

std::uint32_t address_of(const void* p) noexcept {
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p));
}

// What the scheduler handed the batch (its world, lookups' columns, topics): the exports below
// do for a JS kernel what KernelContext's calls do for a C++ one.
const ecsia::KernelContext::Wiring& wiring_of(const ecsia::KernelContext* context) noexcept {
    return ecsia::detail::KernelContextAccess::wiring(*context);
}

void append_json_string(std::string& out, const std::string& text) {
    out += '"';
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            static const char* const kHex = "0123456789abcdef";
            out += "\\u00";
            out += kHex[(c >> 4) & 0xF];
            out += kHex[c & 0xF];
        } else {
            out += c;
        }
    }
    out += '"';
}

// `,"size":N,"fields":[[name,type,offset],...]}`: the end of a component's or topic's entry.
void append_layout_json(std::string& json, const ecsia::ComponentDesc& desc) {
    json += ",\"size\":" + std::to_string(desc.size) + ",\"fields\":[";
    for (std::size_t f = 0; f < desc.fields.size(); ++f) {
        if (f != 0) json += ',';
        json += '[';
        ecsia::wasm::append_json_string(json, desc.fields[f].name);
        json += ",\"" + std::string(ecsia::field_type_name(desc.fields[f].type)) + "\"," + std::to_string(desc.fields[f].offset) + ']';
    }
    json += "]}";
}

// ECSIA_JS_KERNEL_LAYOUT as a JSON object, made on the main thread before any worker starts (a
// namespace-scope constant: no worker initialises it).
std::string layout_json() {
    std::string out = "{";
#define ECSIA_LAYOUT_ENTRY(name, value) out += "\"" #name "\":" + std::to_string(static_cast<long long>(value)) + ",";
    ECSIA_JS_KERNEL_LAYOUT(ECSIA_LAYOUT_ENTRY)
#undef ECSIA_LAYOUT_ENTRY
    out.back() = '}';
    return out;
}
const std::string kLayoutJson = layout_json();

// Whether `count` more messages of `topic` (a topic id of the batch's world) fit in the batch's
// outbox (kMaxBatchMessageBytes): the exports below answer 0 instead of letting reserve_messages
// throw through JS (a C++ exception would reach the kernel as a bare number).
bool room_fits(const ecsia::KernelContext* context, std::uint32_t topic, std::uint32_t count) {
    const ecsia::TopicStore* topics = wiring_of(context).topics;
    if (topics == nullptr || topic >= topics->size()) return false;
    const std::uint64_t size = topics->topic(topic).layout.size;
    std::uint64_t held = 0;
    for (const ecsia::CommandBuffer::Outbox& outbox : context->commands.outboxes()) {
        if (outbox.topic == topic) held = outbox.count;
    }
    return (held + count) * size < ecsia::wasm::kMaxBatchMessageBytes;
}

}  // namespace

}  // namespace ecsia::wasm

// Runs on the calling thread (a pool worker, or the page for inline batches). Never lets a JS
// exception escape: with JS-based C++ exceptions one would unwind the worker's wasm frames past
// every catch and kill the pthread (docs: ../shared/notes/js-kernels.md).
// clang-format off
// heap_bytes: the heap's size now, so that the runtime fetches wasmMemory.buffer (a slow getter
// for shared memory) only when the heap grew since its last batch.
EM_JS(int, ecsia_js_run_kernel, (const std::uint32_t* batch, float dt, double heap_bytes), {
    try {
        var runtime = Module['ecsiaKernels'];
        if (!runtime) return -1;  // kNoRuntime
        return runtime.run(batch, dt, wasmMemory, heap_bytes);
    } catch (e) {
        return -2;  // kRuntimeBroke
    }
});
// clang-format on

extern "C" {

// The exports web/internal/kernel_runtime.js calls while a batch runs. `context` is the batch's
// KernelContext (descriptor word kBatchContext); only that batch's thread calls them.

// A reserved handle for a spawn, or the null handle when the batch's reservation is exhausted.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_kernel_take(ecsia::KernelContext* context) {
    return context->reservation.take().bits;
}

// The stand-in handle of the batch's next overflow spawn (one whose record targets null), named
// as KernelContext::spawn names it (the batch's PendingNames): another batch's or an earlier
// frame's pending handle names nothing in this batch's buffer, and the merge refuses it instead
// of taking it for a different new entity. Null once the batch's names are used up.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_kernel_pending(ecsia::KernelContext* context) {
    return ecsia::detail::KernelContextAccess::next_pending(*context).bits;
}

// Room for `records` encoded records (`words` words) at the end of the batch's command buffer.
EMSCRIPTEN_KEEPALIVE std::uint32_t* ecsia_kernel_commit(ecsia::KernelContext* context, std::uint32_t words,
                                                        std::uint32_t records) {
    return context->commands.append_encoded(words, records);
}

// After a kernel returned: room for `count` messages of `topic` (one the system publishes, which
// the JS side checked) in the batch's outbox, for JS to copy its packed messages into; 0 for a
// topic id the world does not have.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_kernel_messages(ecsia::KernelContext* context, std::uint32_t topic, std::uint32_t count) {
    if (!ecsia::wasm::room_fits(context, topic, count)) return 0;
    const std::uint32_t size = ecsia::wasm::wiring_of(context).topics->topic(topic).layout.size;
    return ecsia::wasm::address_of(context->commands.reserve_messages(topic, size, count));
}

// publishMany's room: the same for `count` messages that JS writes field by field (the values of
// the field at offset o from `room + count * o`), which the merge copies an array at a time.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_kernel_messages_by_field(ecsia::KernelContext* context, std::uint32_t topic, std::uint32_t count) {
    if (!ecsia::wasm::room_fits(context, topic, count)) return 0;
    const std::uint32_t size = ecsia::wasm::wiring_of(context).topics->topic(topic).layout.size;
    return ecsia::wasm::address_of(context->commands.reserve_messages_by_field(topic, size, count));
}

// commands.instantiate's prefab values: the address of `entity`'s element of `component`, or 0 when
// the entity is not alive or lacks it (World::find_bytes). Allocates nothing and cannot throw: a
// kernel calls it while it runs.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_kernel_element_of(const ecsia::KernelContext* context, std::uint32_t component,
                                                           std::uint32_t entity) {
    const ecsia::World* world = ecsia::wasm::wiring_of(context).world;
    return world == nullptr ? 0 : ecsia::wasm::address_of(world->find_bytes(ecsia::Entity{entity}, component));
}

// The batch descriptor's, lookup record's and command records' numbers by the names the kernel
// runtime uses (ECSIA_JS_KERNEL_LAYOUT), as a NUL-terminated JSON object.
EMSCRIPTEN_KEEPALIVE const char* ecsia_kernel_layout() { return ecsia::wasm::kLayoutJson.c_str(); }

// chunk.lookup's columns of `component` (one of the system's lookups, which the JS side checked):
// the address of the scheduler's array of the column's first element by table (LookupColumns,
// refreshed before the wave; an element 0 where a table lacks the component), which JS reads from
// the heap while the storage generation stays. Allocates nothing and cannot throw.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_kernel_lookup_columns(const ecsia::KernelContext* context, std::uint32_t component) {
    const ecsia::LookupColumnCache* columns = ecsia::wasm::wiring_of(context).lookup_columns;
    if (columns == nullptr || !columns->covers(component)) return 0;
    return ecsia::wasm::address_of(columns->of(component).by_table);
}

// chunk.lookupAll: out[i] becomes where the element of `component` (one of the system's lookups,
// which the JS side checked) of the handle handles[i] is, as an index in units of `unit` bytes
// (its view's element size), or -1, for i < count. `handles` is either `out` itself or does not
// overlap it (a column of handles is read where it lies).
// Memory-bound: each handle costs a random load (its slot's location, which also says whether it
// is alive) and the load of its element later; the CPU overlaps them across handles only as far as
// its window of instructions reaches. So the loop is short and has no branch on the table:
// everything it reads but the location is in locals (stores through `out` could alias the world's
// fields and make the compiler reload them each time), and an element's address becomes an index
// by a shift.
EMSCRIPTEN_KEEPALIVE void ecsia_kernel_lookup_many(const ecsia::KernelContext* context, std::uint32_t component,
                                                   const std::uint32_t* handles, std::int32_t* out, std::uint32_t count,
                                                   std::uint32_t unit) {
    const ecsia::World* world = ecsia::wasm::wiring_of(context).world;
    const ecsia::LookupColumnCache* columns = ecsia::wasm::wiring_of(context).lookup_columns;
    if (world == nullptr || columns == nullptr || !columns->covers(component)) {
        std::fill(out, out + count, -1);
        return;
    }
    const ecsia::LookupMemo memo = ecsia::LookupMemo::of(*world, component, columns->of(component));
    // A view's element size is a power of two: a shift, where a division per handle costs more
    // than the rest of the loop in wasm.
    const unsigned shift = static_cast<unsigned>(std::countr_zero(unit));
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::byte* element = memo.find(ecsia::Entity{handles[i]});
        out[i] = element == nullptr ? -1 : static_cast<std::int32_t>(ecsia::wasm::address_of(element) >> shift);
    }
}

// chunk.targetOf: `subject`'s target of an exclusive relation (the JS side checked that), or the
// null handle when it has none or is not alive. Allocates nothing and cannot throw.
EMSCRIPTEN_KEEPALIVE std::uint32_t ecsia_kernel_target_of(const ecsia::KernelContext* context, std::uint32_t subject,
                                                          std::uint32_t relation) {
    const ecsia::World* world = ecsia::wasm::wiring_of(context).world;
    const ecsia::Entity entity{subject};
    if (world == nullptr || !world->is_alive(entity)) return ecsia::kNullEntity.bits;
    const ecsia::RelationStore::Relation* r = world->relations().find(relation);
    if (r == nullptr) return ecsia::kNullEntity.bits;
    const std::span<const ecsia::Entity> targets = world->relations().targets(*r, entity);
    return targets.empty() ? ecsia::kNullEntity.bits : targets.front().bits;
}

// `bytes` bytes for the UTF-8 message of a failure, read by the kernel after the JS call returns.
EMSCRIPTEN_KEEPALIVE char* ecsia_kernel_error_buffer(std::uint32_t bytes) {
    ecsia::wasm::js_failure.assign(bytes, '\0');
    return ecsia::wasm::js_failure.data();
}

// The world's components and relations as JSON (NUL-terminated, valid until this thread's next
// call), in id order:
// {"indexBits":22,"components":[{"id":2,"name":"position","size":8,"fields":[["x","f32",0],...]},...],
//  "topics":[{"id":0,"name":"hit","size":8,"fields":[["target","entity",0],...]},...]}
// A relation's entry has "relation":true, its options, and its pair data's size and fields.
// The registry only changes on the serial slot, so reading it during a wave is safe.
EMSCRIPTEN_KEEPALIVE const char* ecsia_kernel_schema(const ecsia::World* world) {
    thread_local std::string json;
    json.clear();
    const ecsia::ComponentRegistry& registry = world->components();
    json += "{\"indexBits\":" + std::to_string(world->entities().layout().index_bits()) + ",\"components\":[";
    for (std::size_t id = 0; id < registry.size(); ++id) {
        const ecsia::ComponentDesc& named = registry.desc(static_cast<ecsia::ComponentId>(id));
        const ecsia::RelationStore::Relation* relation =
            named.relation ? world->relations().find(static_cast<ecsia::RelationId>(id)) : nullptr;
        const ecsia::ComponentDesc& desc = relation != nullptr ? relation->data : named;
        if (id != 0) json += ',';
        json += "{\"id\":" + std::to_string(id) + ",\"name\":";
        ecsia::wasm::append_json_string(json, named.name);
        if (relation != nullptr) {
            json += std::string(",\"relation\":true,\"exclusive\":") + (relation->options.exclusive ? "true" : "false") +
                    ",\"acyclic\":" + (relation->options.acyclic ? "true" : "false");
        }
        ecsia::wasm::append_layout_json(json, desc);
    }
    json += "],\"topics\":[";
    const ecsia::TopicStore& topics = world->topics();
    for (ecsia::TopicId id = 0; id < topics.size(); ++id) {
        const ecsia::ComponentDesc& layout = topics.topic(id).layout;
        if (id != 0) json += ',';
        json += "{\"id\":" + std::to_string(id) + ",\"name\":";
        ecsia::wasm::append_json_string(json, layout.name);
        ecsia::wasm::append_layout_json(json, layout);
    }
    json += "]}";
    return json.c_str();
}

}  // extern "C"

namespace ecsia::wasm {

namespace {

struct Declared {
    ComponentId id;
    bool written;
};

// Token 0 is never handed out, so a zeroed descriptor names no system.
std::atomic<std::uint32_t> next_token{1};

}  // namespace

SystemDesc make_js_kernel_system(World& world, JsKernelSpec spec) {
    std::vector<Declared> declared;
    auto declare = [&](ComponentId id, bool written) {
        for (Declared& d : declared) {
            if (d.id == id) {
                d.written = d.written || written;
                return;
            }
        }
        declared.push_back(Declared{id, written});
    };
    for (ComponentId id : spec.reads) declare(id, false);
    for (ComponentId id : spec.writes) declare(id, true);

    SystemDesc system;
    system.name = spec.name;
    system.reads = spec.reads;
    system.writes = spec.writes;
    system.before = std::move(spec.before);
    system.after = std::move(spec.after);
    system.spawns_per_batch = spec.spawns_per_batch;
    system.cascade = spec.cascade;
    system.parent_reads = spec.parent_reads;
    system.lookups = spec.lookups;
    system.publishes = spec.publishes;
    system.consumes = spec.consumes;
    QueryDesc query = std::move(spec.query);
    std::vector<ComponentId> with = query.with;
    for (const Declared& d : declared) with.push_back(d.id);
    std::sort(with.begin(), with.end());
    with.erase(std::unique(with.begin(), with.end()), with.end());
    with.erase(std::remove_if(with.begin(), with.end(),
                              [&](ComponentId id) {
                                  return std::find(query.optional.begin(), query.optional.end(), id) != query.optional.end();
                              }),
               with.end());
    query.with = std::move(with);
    system.query = std::move(query);
    system.query_set = true;

    // relaxed: tokens only need to be distinct; nothing is published through the counter.
    const std::uint32_t token = next_token.fetch_add(1, std::memory_order_relaxed);
    // Whether a batch already reported what the debug check found: once per system is enough.
    auto check_reported = std::make_shared<std::atomic<bool>>(false);
    system.kernel = [token, kernel_id = spec.kernel_id, kernel = spec.kernel, declared = std::move(declared),
                     parent_reads = std::move(spec.parent_reads), lookups = std::move(spec.lookups),
                     publishes = std::move(spec.publishes), world = &world, check_reported](KernelContext& context) {
        thread_local std::vector<std::uint32_t> batch;
        const KernelContext::Wiring& wiring = wiring_of(&context);
        const std::size_t listed = kBatchHeader + 2 * (declared.size() + parent_reads.size() + lookups.size());
        std::size_t topic_words = publishes.size();
        for (const TopicMessages& messages : wiring.consumed_messages) topic_words += 2 + messages.layout().fields.size();
        batch.resize(listed + topic_words);
        Chunk& chunk = context.chunk;
        batch[kBatchToken] = token;
        batch[kBatchKernel] = kernel_id;
        batch[kBatchCount] = chunk.size();
        batch[kBatchEntities] = address_of(chunk.entities());
        batch[kBatchContext] = address_of(&context);
        batch[kBatchSchemaSize] = static_cast<std::uint32_t>(world->components().size() + world->topics().size());
        batch[kBatchWorld] = address_of(world);
        batch[kBatchComponents] = static_cast<std::uint32_t>(declared.size());
        batch[kBatchDepth] = chunk.depth();
        batch[kBatchParentReads] = static_cast<std::uint32_t>(parent_reads.size());
        batch[kBatchLookups] = static_cast<std::uint32_t>(lookups.size());
        // Made before the kernel runs: while it runs nothing may allocate in the heap.
        thread_local std::vector<std::int32_t> scratch;
        if (!lookups.empty() && scratch.size() < std::max<std::size_t>(chunk.size(), 1)) scratch.resize(std::max<std::size_t>(chunk.size(), 1));
        batch[kBatchScratch] = lookups.empty() ? 0 : address_of(scratch.data());
        batch[kBatchPublishes] = static_cast<std::uint32_t>(publishes.size());
        batch[kBatchConsumes] = static_cast<std::uint32_t>(wiring.consumed.size());
        std::size_t topic_at = listed;
        for (TopicId topic : publishes) batch[topic_at++] = topic;
        for (std::size_t k = 0; k < wiring.consumed.size(); ++k) {
            const TopicMessages& messages = wiring.consumed_messages[k];
            batch[topic_at++] = wiring.consumed[k].topic;
            batch[topic_at++] = messages.count();
            for (std::size_t f = 0; f < messages.layout().fields.size(); ++f) batch[topic_at++] = address_of(messages.field_bytes(f));
        }
        for (std::size_t i = 0; i < declared.size(); ++i) {
            const Declared& d = declared[i];
            const std::byte* column = d.written ? chunk.write_raw(d.id) : chunk.raw(d.id);
            batch[kBatchHeader + 2 * i] = d.id;
            batch[kBatchHeader + 2 * i + 1] = address_of(column);
        }
        const ParentView* parents = chunk.parent();
        for (std::size_t k = 0; k < parent_reads.size(); ++k) {
            const std::size_t at = kBatchHeader + 2 * (declared.size() + k);
            batch[at] = parent_reads[k];
            batch[at + 1] = parents == nullptr ? 0 : address_of(parents->raw(parent_reads[k]));
        }
        thread_local std::uint32_t record[kLookupRecordWords];
        if (!lookups.empty()) {
            const ecsia::detail::WorldAccess::EntityMemory entities = ecsia::detail::WorldAccess::entity_memory(*world);
            const std::uint64_t generation = ecsia::detail::WorldAccess::storage_generation(*world);
            record[kLookupLocations] = address_of(entities.placed);
            record[kLookupTables] = address_of(entities.tables);
            record[kLookupEscape] = entities.escape;
            record[kLookupLocationCount] = entities.count;
            record[kLookupIndexBits] = world->entities().layout().index_bits();
            record[kLookupGenerationLow] = static_cast<std::uint32_t>(generation);
            record[kLookupGenerationHigh] = static_cast<std::uint32_t>(generation >> 32);
        }
        for (std::size_t k = 0; k < lookups.size(); ++k) {
            const std::size_t at = kBatchHeader + 2 * (declared.size() + parent_reads.size() + k);
            batch[at] = lookups[k];
            batch[at + 1] = address_of(record);
        }
        const double heap_bytes = static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0;
        const int status = ecsia_js_run_kernel(batch.data(), context.dt, heap_bytes);
        if (status == kRan) return;
        if (status == kDiffered) {
            // relaxed: the flag only picks one reporter; the note travels with its batch.
            if (!check_reported->exchange(true, std::memory_order_relaxed)) {
                context.note("JS kernel '" + kernel + "' " + js_failure);
            }
            return;
        }
        if (status == kThrew) throw std::runtime_error("JS kernel '" + kernel + "' threw: " + js_failure);
        if (status == kNoRuntime) {
            throw std::runtime_error("JS kernel '" + kernel +
                                     "' cannot run: this thread has no kernel module (loadEcsia was called without `kernels`)");
        }
        (void)kRuntimeBroke;  // the remaining status: a bug in web/internal/kernel_runtime.js, not in the kernel
        throw std::runtime_error("JS kernel '" + kernel + "': the kernel runtime failed (status " + std::to_string(status) + ")");
    };
    return system;
}

}  // namespace ecsia::wasm
