#pragma once
// JS kernels: systems whose kernel is a function of the page's kernel module (loadEcsia({ kernels })),
// run in row batches like a C++ system. The C++ kernel built here is what the scheduler calls per
// batch, on a pool worker or inline; it
//   1. takes write access to the declared writes (so the batch's write log covers its rows, exactly
//      as a C++ kernel's write<T>() does) and read access to the declared reads,
//   2. lays out a batch descriptor (below) and calls the JS side through EM_JS on the calling
//      thread: `Module.ecsiaKernels.run(...)` (web/internal/kernel_runtime.js), which every pool worker and
//      the page have, because loadEcsia sends each loaded pool worker the runtime's and the kernel
//      module's URLs to import before any thread runs (wasm/worker_kernels.post.js),
//   3. turns a JS failure (the kernel threw, or the module did not load on that worker) into an
//      ecsia::Error, so the batch fails, its commands are dropped, and the merge reports it.
//   4. turns what the debug check found (loadEcsia({ debug: true }): the batch run again on a second
//      instance of the kernel module gave other results) into a note on the batch
//      (KernelContext::note), once per system; the batch's results stand.
// The JS side never lets an exception escape EM_JS (that would kill the worker) and allocates
// nothing in the wasm heap while the user's kernel runs: its commands are encoded in JS and
// copied into the batch's CommandBuffer after the kernel returned (ecsia_kernel_commit), because
// memory growth detaches a non-shared heap's views, and the kernel's views must stay valid.
//
// Batch descriptor (uint32 words, in this thread's scratch; indexes below are kBatch* constants):
//   0 system token (unique per JS kernel system, never reused)   1 kernel id (index in ecsia.kernels)
//   2 row count        3 address of the batch's first entity     4 address of the KernelContext
//   5 components in the world's registry plus its topics (the JS schema cache is refreshed when
//   it changes)
//   6 address of the World   7 declared components (n)   8 the chunk's depth (a cascade system's
//   level; 0 otherwise)   9 parent reads (m)   10 lookups (k)   11 with lookups: the address of
//   this thread's scratch of `row count` (at least 1) int32 for chunk.lookupAll, else 0
//   12 topics it publishes (p)   13 topics it consumes (c)
//   then n x { component id, column
//   address of the batch's first row, or 0 when the table lacks it or it is a tag }, then m x
//   { component id, address of the rows' parents' values gathered for the batch
//   (query/parent_view.hpp), or 0 at depth 0 }, then k x { component id, address of the batch's
//   lookup record }.
// Lookup record (uint32 words, kLookup* indexes; the same for every lookup of the batch): where
// the entity table is (detail::WorldAccess::entity_memory), so that chunk.lookup checks a handle
// and finds its row in JS, and the world's storage generation, which keys the addresses of the
// columns by table JS asks for (ecsia_kernel_lookup_columns):
//   0 the locations' address (EntityLocations::Placed: a table-and-row word, then the handle
//   placed there or null; two uint32 per slot)   1 slots in it   2 index bits, which are also a
//   table-and-row word's row bits (the table's code is the bits above)   3, 4 storage generation
//   (low, high 32 bits)   5 the slots' tables' address (one uint32 per slot: the table when the
//   code is the escape)   6 the escape code
// Thread rule: make_js_kernel_system on the page's main thread; the kernel on any worker.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ecsia/schedule/system.hpp"
#include "ecsia/world/world.hpp"

namespace ecsia::wasm {

inline constexpr std::uint32_t kBatchToken = 0;
inline constexpr std::uint32_t kBatchKernel = 1;
inline constexpr std::uint32_t kBatchCount = 2;
inline constexpr std::uint32_t kBatchEntities = 3;
inline constexpr std::uint32_t kBatchContext = 4;
inline constexpr std::uint32_t kBatchSchemaSize = 5;
inline constexpr std::uint32_t kBatchWorld = 6;
inline constexpr std::uint32_t kBatchComponents = 7;
inline constexpr std::uint32_t kBatchDepth = 8;
inline constexpr std::uint32_t kBatchParentReads = 9;
inline constexpr std::uint32_t kBatchLookups = 10;
inline constexpr std::uint32_t kBatchScratch = 11;
inline constexpr std::uint32_t kBatchPublishes = 12;
inline constexpr std::uint32_t kBatchConsumes = 13;
inline constexpr std::uint32_t kBatchHeader = 14;

inline constexpr std::uint32_t kLookupLocations = 0;
inline constexpr std::uint32_t kLookupLocationCount = 1;
inline constexpr std::uint32_t kLookupIndexBits = 2;
inline constexpr std::uint32_t kLookupGenerationLow = 3;
inline constexpr std::uint32_t kLookupGenerationHigh = 4;
inline constexpr std::uint32_t kLookupTables = 5;
inline constexpr std::uint32_t kLookupEscape = 6;
inline constexpr std::uint32_t kLookupRecordWords = 7;
// A location's shape in words (EntityLocations::Placed), for chunk.lookup's reads of them.
inline constexpr std::uint32_t kLocationWords = sizeof(EntityLocations::Placed) / 4;
inline constexpr std::uint32_t kLocationTableRowWord = offsetof(EntityLocations::Placed, table_row) / 4;
inline constexpr std::uint32_t kLocationHandleWord = offsetof(EntityLocations::Placed, entity) / 4;
static_assert(sizeof(EntityLocations::Placed) % 4 == 0 && sizeof(TableIndex) == 4,
              "chunk.lookup reads locations and tables as uint32 words");

// Status codes of a batch's run (the runtime's return value; ecsia_js_run_kernel).
inline constexpr int kRan = 0;
inline constexpr int kThrew = 1;          // js_failure holds the message
inline constexpr int kDiffered = 2;       // ran; the debug check's second run differed (js_failure says how)
inline constexpr int kNoRuntime = -1;     // this thread's module has no Module.ecsiaKernels
inline constexpr int kRuntimeBroke = -2;  // the runtime itself threw (a bug): js_failure is empty

// The most message bytes a batch's outbox of one topic may hold (2 GiB: wasm32's heap, and the
// byte counts stay within 32 bits). publishMany refuses a call past it with a clear error; the
// room exports answer 0 past it.
inline constexpr std::uint32_t kMaxBatchMessageBytes = 1u << 31;

// Every number above that web/internal/kernel_runtime.js uses, with the name it uses, and the
// command records' op codes and header packing (command/command_buffer.hpp): the runtime reads
// them from the module by name when it starts (ecsia_kernel_layout), so they are written only
// here. X(JS name, value).
#define ECSIA_JS_KERNEL_LAYOUT(X)                                                                          \
    X(TOKEN, kBatchToken) X(KERNEL, kBatchKernel) X(COUNT, kBatchCount) X(ENTITIES, kBatchEntities)        \
    X(CONTEXT, kBatchContext) X(SCHEMA_SIZE, kBatchSchemaSize) X(WORLD, kBatchWorld)                      \
    X(COMPONENTS, kBatchComponents) X(DEPTH, kBatchDepth) X(PARENT_READS, kBatchParentReads)              \
    X(LOOKUPS, kBatchLookups) X(SCRATCH, kBatchScratch) X(PUBLISHES, kBatchPublishes)                     \
    X(CONSUMES, kBatchConsumes) X(HEADER, kBatchHeader)                                                    \
    X(LR_LOCATIONS, kLookupLocations) X(LR_LOCATION_COUNT, kLookupLocationCount)                          \
    X(LR_TABLES, kLookupTables) X(LR_ESCAPE, kLookupEscape) X(LOCATION_WORDS, kLocationWords)             \
    X(LOCATION_TABLE_ROW_WORD, kLocationTableRowWord) X(LOCATION_HANDLE_WORD, kLocationHandleWord)        \
    X(LR_INDEX_BITS, kLookupIndexBits) X(LR_GENERATION_LO, kLookupGenerationLow)                         \
    X(LR_GENERATION_HI, kLookupGenerationHigh)                                                            \
    X(SPAWN, CommandOp::Spawn) X(DESPAWN, CommandOp::Despawn) X(ADD, CommandOp::Add)                      \
    X(REMOVE, CommandOp::Remove) X(SET, CommandOp::Set) X(ADD_PAIR, CommandOp::AddPair)                   \
    X(REMOVE_PAIR, CommandOp::RemovePair) X(INSTANTIATE, CommandOp::Instantiate)                          \
    X(COUNT_SHIFT, kCommandCountShift) X(MAX_MESSAGE_BYTES, kMaxBatchMessageBytes)                        \
    X(RAN, kRan) X(THREW, kThrew) X(DIFFERED, kDiffered) X(RUNTIME_BROKE, kRuntimeBroke)

struct JsKernelSpec {
    std::string name;           // the system's
    std::string kernel;         // the kernel's export name (for messages)
    std::uint32_t kernel_id;    // its index in the sorted list of the module's kernels
    std::uint32_t spawns_per_batch = 0;  // handles reserved per batch for commands.spawn
    std::vector<ComponentId> reads;
    std::vector<ComponentId> writes;
    std::vector<std::string> before;
    std::vector<std::string> after;
    // Extra query terms. The query requires reads + writes + with, minus `optional`.
    QueryDesc query;
    // SystemDesc::cascade and parent_reads: rows in depth order, with the parents' values.
    RelationId cascade = kNoComponent;
    std::vector<ComponentId> parent_reads;
    // SystemDesc::lookups: read through chunk.lookup (the lookup record, ecsia_kernel_lookup_columns).
    std::vector<ComponentId> lookups;
    // SystemDesc::publishes and consumes: commands.publish, and the kernel's 4th argument.
    std::vector<TopicId> publishes;
    std::vector<TopicId> consumes;
};

// A component both read and written gets one view, tracked as written. Names must already be ids.
SystemDesc make_js_kernel_system(World& world, JsKernelSpec spec);

}  // namespace ecsia::wasm
