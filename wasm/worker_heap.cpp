// The threaded browser modules' allocator split (G2: the page's thread never waits on a lock a
// worker holds). Linked into threaded browser modules only (wasm/browser_module.cmake), with
// -Wl,--wrap for emscripten_builtin_{malloc,free,memalign}, emscripten_futex_wait and
// __cxa_guard_acquire. It also initialises, on the page, the function-local statics every worker
// would otherwise initialise (InitialisedOnThePage below).
//
// Why: Emscripten 3.1.6's malloc is dlmalloc behind one pthread mutex. A pool worker that
// allocates or frees (a command buffer or write log growing, a JS kernel's glue, a C++ kernel's
// own std::string, an exception, its thread's TLS block as it starts or exits) while the page
// allocates makes the page wait for that mutex, and on the page a futex wait is a busy spin
// (emscripten_futex_wait.c, futex_wait_busy): the page stalls while the worker holds the lock.
//
// What: malloc and its family (dlmalloc's symbols are weak aliases) and Emscripten's own
// emscripten_builtin_* entry points (wrapped at link time: its thread start-up and exit use them)
// are routed by thread, so that
//   - the page (emscripten_is_main_browser_thread) is the only thread that ever enters dlmalloc;
//   - every other thread allocates from the worker heap below: power-of-two size classes, each a
//     lock-free stack of free blocks, fresh memory carved from 1 MiB superblocks (or a region of
//     its own for blocks of 256 KiB and more) taken with a compare-and-swap on sbrk's break, which
//     is how Emscripten's sbrk itself is thread-safe (sbrk.c), growing the wasm memory if needed;
//   - a block is the worker heap's when its 64 KiB region is marked so (a byte per region);
//     anyone frees such a block with a lock-free push onto its class's stack;
//   - a worker that frees a dlmalloc block (one the page allocated) pushes it onto a lock-free
//     list that the page hands to dlmalloc at its next malloc or free.
// So no thread but the page ever holds dlmalloc's mutex, and everything the page shares with the
// workers here is a compare-and-swap, never a lock: the contention is impossible, not unlikely.
// Worker-heap memory is reused by class and never returned to dlmalloc.
//
// The page-wait counter: every emscripten_futex_wait call on the page is counted (the link wraps
// it), so a wait on any lock or condition is seen, not only the ones Emscripten warns about; the
// JS scheduler reports the waits of an update() as a diagnostic (web/scheduler.js), naming where
// the first was (its call stack, kept only when a wait is counted).
//
// malloc_usable_size is left to dlmalloc: valid for the page's blocks only (realloc below uses it
// for those alone).

#include <emscripten/em_js.h>
#include <emscripten/em_macros.h>
#include <emscripten/heap.h>
#include <emscripten/threading.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>

extern "C" {
// dlmalloc itself (the link wraps the emscripten_builtin_* names: __real_ is the original).
void* __real_emscripten_builtin_malloc(size_t size);
void __real_emscripten_builtin_free(void* ptr);
void* __real_emscripten_builtin_memalign(size_t alignment, size_t size);
size_t malloc_usable_size(const void* ptr);  // dlmalloc's (not replaced): page blocks only
int __real_emscripten_futex_wait(volatile void* address, uint32_t value, double max_wait_ms);
int _emscripten_thread_supports_atomics_wait(void);
int __real___cxa_guard_acquire(std::uint64_t* guard);  // libc++abi's (the link wraps it)
int __cxa_thread_atexit(void (*destructor)(void*), void* object, void* dso_symbol);
}

static_assert(sizeof(void*) == 4, "the worker heap packs a wasm32 address and a tag into 64 bits");
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "the worker heap's stacks must be lock-free");

namespace {

constexpr std::uint32_t kRegionBits = 16;  // 64 KiB regions
constexpr std::uint32_t kRegionSize = 1u << kRegionBits;
constexpr std::uint32_t kRegions = 1u << (32 - kRegionBits);
constexpr std::uint32_t kSuperblock = 1u << 20;    // small blocks are carved from 1 MiB pieces
constexpr std::uint32_t kLargeClass = 18;          // blocks of 256 KiB and more get their own regions
constexpr std::uint32_t kSmallestClass = 5;        // 32-byte blocks: a 16-byte header + 16 bytes
constexpr std::uint32_t kLargestClass = 30;        // 1 GiB, MAXIMUM_MEMORY
constexpr std::uint32_t kHeader = 16;              // keeps payloads 16-byte aligned
constexpr std::uint32_t kAlignedKind = 0xA11;      // a header that points back to its block

// The header before every worker-heap payload. `next` links free blocks; `kind` is the size class,
// or kAlignedKind for the header memalign puts before an aligned payload, whose `base` is then the
// payload of the block that holds it.
struct Header {
    std::atomic<std::uint32_t> next;
    std::uint32_t kind;
    std::uint32_t base;
    std::uint32_t unused;
};
static_assert(sizeof(Header) == kHeader);

std::atomic<std::uint8_t> g_worker_region[kRegions];  // 1: a 64 KiB region of the worker heap

// A stack of blocks linked through their first word, with a tag beside the top address so that
// a pop never succeeds on a top that was popped and pushed again meanwhile (ABA): (tag << 32) | top.
class TaggedStack {
public:
    // `link` is where this block's next address lives.
    template <typename Link>
    void push(std::uint32_t block, Link link) noexcept {
        // relaxed: the release CAS below publishes the link and whatever the block holds.
        std::uint64_t top = head_.load(std::memory_order_relaxed);
        do {
            link(block).store(static_cast<std::uint32_t>(top), std::memory_order_relaxed);
        } while (!head_.compare_exchange_weak(top, bump(top, block), std::memory_order_release, std::memory_order_relaxed));
    }
    template <typename Link>
    std::uint32_t pop(Link link) noexcept {
        // acquire: pairs with push's release, so the top's link (and contents) are visible.
        std::uint64_t top = head_.load(std::memory_order_acquire);
        for (;;) {
            const std::uint32_t block = static_cast<std::uint32_t>(top);
            if (block == 0) return 0;
            // relaxed: may read a link another thread is rewriting after popping this block; the tag
            // then makes the CAS fail. Blocks are never returned to the system, so the read is safe.
            const std::uint32_t next = link(block).load(std::memory_order_relaxed);
            // acquire on success and failure: a retry reads the new top's link.
            if (head_.compare_exchange_weak(top, bump(top, next), std::memory_order_acquire, std::memory_order_acquire)) {
                return block;
            }
        }
    }

private:
    static std::uint64_t bump(std::uint64_t top, std::uint32_t block) noexcept {
        return (((top >> 32) + 1) << 32) | block;
    }
    std::atomic<std::uint64_t> head_{0};
};

Header* header_at(std::uint32_t block) noexcept { return reinterpret_cast<Header*>(block); }
std::atomic<std::uint32_t>& header_link(std::uint32_t block) noexcept { return header_at(block)->next; }
// The first word of a dlmalloc payload (at least 4 bytes, 4-aligned).
std::atomic<std::uint32_t>& first_word(std::uint32_t block) noexcept {
    return *reinterpret_cast<std::atomic<std::uint32_t>*>(block);
}

TaggedStack g_free[kLargestClass + 1];  // per class: free worker-heap blocks (header addresses)
// dlmalloc blocks workers freed, for the page to hand to dlmalloc. Only the page takes from it,
// all at once (exchange), so no ABA: a plain address is enough.
std::atomic<std::uint32_t> g_page_frees{0};
// (low 32 bits: next free byte, high: end) of the superblock small blocks are carved from.
std::atomic<std::uint64_t> g_carve{0};
std::atomic<std::uint32_t> g_page_waits{0};
// Function-local statics first initialised on a thread other than the page, and where the first
// one was (a call stack, written once by the worker that claims g_static_site_claimed).
std::atomic<std::uint32_t> g_worker_static_inits{0};
std::atomic<bool> g_static_site_claimed{false};
std::atomic<bool> g_static_site_ready{false};
constexpr std::uint32_t kSiteBytes = 4096;
char g_static_site[kSiteBytes];

bool on_page() noexcept { return emscripten_is_main_browser_thread() != 0; }

bool is_worker_block(const void* payload) noexcept {
    // acquire: pairs with mark_regions; a block reaches this thread only after its region was
    // marked (the marking thread made it before handing the block out).
    return g_worker_region[reinterpret_cast<std::uintptr_t>(payload) >> kRegionBits].load(std::memory_order_acquire) != 0;
}

void mark_regions(std::uint32_t start, std::uint32_t size) noexcept {
    for (std::uint32_t r = start >> kRegionBits; r < (start + size) >> kRegionBits; ++r) {
        g_worker_region[r].store(1, std::memory_order_release);  // see is_worker_block
    }
}

// `size` bytes (a multiple of kRegionSize) at a region boundary, from sbrk's break: the same
// compare-and-swap loop as Emscripten's sbrk (sequentially consistent, as there), so dlmalloc's
// sbrk calls on the page and these never wait for each other. 0 when memory cannot grow.
std::uint32_t take_regions(std::uint32_t size) noexcept {
    auto* brk = reinterpret_cast<std::atomic<std::uintptr_t>*>(emscripten_get_sbrk_ptr());
    for (;;) {
        std::uintptr_t old_brk = brk->load(std::memory_order_seq_cst);
        const std::uint64_t start = (static_cast<std::uint64_t>(old_brk) + kRegionSize - 1) & ~std::uint64_t{kRegionSize - 1};
        const std::uint64_t end = start + size;
        if (end > emscripten_get_heap_max()) return 0;
        // Another thread may grow the memory meanwhile: resize_heap then refuses, and the size is
        // read again.
        if (end > emscripten_get_heap_size() && !emscripten_resize_heap(static_cast<std::size_t>(end)) &&
            end > emscripten_get_heap_size()) {
            return 0;
        }
        if (brk->compare_exchange_strong(old_brk, static_cast<std::uintptr_t>(end), std::memory_order_seq_cst)) {
            mark_regions(static_cast<std::uint32_t>(start), size);
            return static_cast<std::uint32_t>(start);
        }
    }
}

std::uint64_t carve_word(std::uint32_t next, std::uint32_t end) noexcept {
    return (static_cast<std::uint64_t>(end) << 32) | next;
}

// A block never handed out before, of class `k` (2^k bytes with its header). 0: out of memory.
std::uint32_t fresh_block(std::uint32_t k) noexcept {
    const std::uint32_t size = 1u << k;
    if (k >= kLargeClass) return take_regions(size);
    // acquire: a superblock installed by another thread is marked before this thread carves it.
    std::uint64_t carve = g_carve.load(std::memory_order_acquire);
    for (;;) {
        const std::uint32_t next = static_cast<std::uint32_t>(carve);
        const std::uint32_t end = static_cast<std::uint32_t>(carve >> 32);
        if (end - next >= size) {
            // acq_rel: acquire as above; release hands the rest of the superblock on.
            if (g_carve.compare_exchange_weak(carve, carve_word(next + size, end), std::memory_order_acq_rel)) return next;
            continue;
        }
        const std::uint32_t piece = take_regions(kSuperblock);
        if (piece == 0) return 0;
        if (g_carve.compare_exchange_strong(carve, carve_word(piece + size, piece + kSuperblock), std::memory_order_acq_rel)) {
            return piece;
        }
        // Another thread installed a superblock meanwhile: this one is cut into blocks of this
        // class, so none of it is lost (a rare race; up to 32,768 pushes for the smallest class).
        for (std::uint32_t at = piece + size; at + size <= piece + kSuperblock; at += size) {
            header_at(at)->kind = k;
            g_free[k].push(at, header_link);
        }
        return piece;
    }
}

std::uint32_t class_of(std::size_t bytes) noexcept {
    std::uint32_t k = kSmallestClass;
    while (k <= kLargestClass && (std::size_t{1} << k) - kHeader < bytes) ++k;
    return k;  // kLargestClass + 1: too large
}

void* worker_malloc(std::size_t bytes) noexcept {
    const std::uint32_t k = class_of(bytes);
    if (k > kLargestClass) {
        errno = ENOMEM;
        return nullptr;
    }
    std::uint32_t block = g_free[k].pop(header_link);
    if (block == 0) block = fresh_block(k);
    if (block == 0) {
        errno = ENOMEM;
        return nullptr;
    }
    header_at(block)->kind = k;
    return reinterpret_cast<void*>(block + kHeader);
}

// The header address of the worker-heap block that holds `payload` (an aligned payload's points back).
std::uint32_t block_of(const void* payload) noexcept {
    std::uint32_t block = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(payload)) - kHeader;
    if (header_at(block)->kind == kAlignedKind) block = header_at(block)->base - kHeader;
    return block;
}

// Bytes usable at `payload` in a worker-heap block.
std::size_t worker_usable(const void* payload) noexcept {
    const std::uint32_t block = block_of(payload);
    const std::uint32_t end = block + (1u << header_at(block)->kind);
    return end - static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(payload));
}

void worker_free(void* payload) noexcept {
    const std::uint32_t block = block_of(payload);
    g_free[header_at(block)->kind].push(block, header_link);
}

void* worker_memalign(std::size_t alignment, std::size_t bytes) noexcept {
    if (alignment <= kHeader) return worker_malloc(bytes);
    if (bytes > SIZE_MAX - alignment - kHeader) {
        errno = ENOMEM;
        return nullptr;
    }
    void* raw = worker_malloc(bytes + alignment + kHeader);
    if (raw == nullptr) return nullptr;
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (base + kHeader + alignment - 1) & ~(alignment - 1);
    Header* back = reinterpret_cast<Header*>(aligned - kHeader);
    back->kind = kAlignedKind;
    back->base = static_cast<std::uint32_t>(base);
    return reinterpret_cast<void*>(aligned);
}

// Before the page enters dlmalloc: hand it the blocks workers freed.
void page_housekeeping() noexcept {
    // relaxed: a hint; the exchange below decides.
    if (g_page_frees.load(std::memory_order_relaxed) == 0) return;
    // acquire: pairs with the release push in page_free_later; the links are visible.
    std::uint32_t block = g_page_frees.exchange(0, std::memory_order_acquire);
    while (block != 0) {
        const std::uint32_t next = first_word(block).load(std::memory_order_relaxed);
        __real_emscripten_builtin_free(reinterpret_cast<void*>(block));
        block = next;
    }
}

// A worker frees a dlmalloc block: the page frees it later (see page_housekeeping).
void page_free_later(void* payload) noexcept {
    const std::uint32_t block = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(payload));
    // relaxed: the release CAS publishes the link.
    std::uint32_t top = g_page_frees.load(std::memory_order_relaxed);
    do {
        first_word(block).store(top, std::memory_order_relaxed);
    } while (!g_page_frees.compare_exchange_weak(top, block, std::memory_order_release, std::memory_order_relaxed));
}

// Why the page's thread waited where it was seen waiting (in waves it shares with the workers):
// a function-local static (C++ `static` inside a function) is initialised once, by whichever
// thread gets there first, and libc++abi guards that with ONE global mutex and condition variable
// (__cxa_guard_acquire, cxa_guard_impl.h, the global-lock variant Emscripten builds). When a pool
// worker initialises a static while the page reaches the same one, the page waits on that
// condition (pthread_cond_timedwait: Emscripten's "Blocking on the main thread" warning, and a
// busy spin); while a worker is inside the guard's short critical sections for ANY static, a
// page that reaches any other uninitialised static waits on the mutex. Two such statics are
// reached by every pool worker:
//   - libc++abi's __cxa_thread_atexit keeps `static DtorsManager manager`: the first
//     thread_local with a destructor that any thread touches initialises it (wasm/js_kernel.cpp's
//     batch buffer does on each thread's first JS kernel batch: in a shared wave, the page's and a
//     worker's first batches run at the same moment);
//   - libc++'s std::__thread_local_data() keeps a static that every std::thread initialises as it
//     starts (the pool's workers, while the page goes on with its own work).
// Both are initialised here, on the page as the module starts (a static constructor: it runs
// before any pthread exists), so a worker only ever finds them done. Any other static a worker
// initialises is counted (__wrap___cxa_guard_acquire below), with where it was, so a test sees it
// (e2e/g2_stress.spec.js) before a page ever waits on it.
void noop_thread_exit(void*) noexcept {}
struct InitialisedOnThePage {
    InitialisedOnThePage() noexcept {
        __cxa_thread_atexit(&noop_thread_exit, nullptr, nullptr);
        std::__thread_local_data();
    }
};
const InitialisedOnThePage g_initialised_on_the_page;

}  // namespace

// clang-format off
// Writes this thread's call stack (NUL-terminated, at most `bytes`) at `out`; runs on a worker
// only when it initialises a static, once per module.
EM_JS(void, ecsia_write_call_stack, (char* out, std::uint32_t bytes), {
    var limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 40;
    var stack = String(new Error('static initialised on a worker').stack);
    Error.stackTraceLimit = limit;
    stringToUTF8(stack, out, bytes);
});
// clang-format on

// The call stack of a counted page wait, kept for web/internal/engine.js (pageWaitSites): the
// first few since the page last took them, so a wait that spins in 1 ms slices for a long time
// keeps a handful, not thousands. Runs only when a wait is counted: nothing otherwise.
// clang-format off
EM_JS(void, ecsia_keep_page_wait_site, (), {
    var sites = Module['ecsiaPageWaitSites'] || (Module['ecsiaPageWaitSites'] = []);
    if (sites.length >= 4) return;
    var limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 40;  // V8 keeps 10 frames by default: the lock's own frames fill those
    sites.push(String(new Error('page wait').stack));
    Error.stackTraceLimit = limit;
});
// clang-format on

extern "C" {

void* malloc(size_t bytes) {
    if (!on_page()) return worker_malloc(bytes);
    page_housekeeping();
    return __real_emscripten_builtin_malloc(bytes);
}

void free(void* payload) {
    if (payload == nullptr) return;
    if (is_worker_block(payload)) {
        worker_free(payload);
    } else if (on_page()) {
        page_housekeeping();
        __real_emscripten_builtin_free(payload);
    } else {
        page_free_later(payload);
    }
}

void* memalign(size_t alignment, size_t bytes) {
    if (!on_page()) return worker_memalign(alignment, bytes);
    page_housekeeping();
    return __real_emscripten_builtin_memalign(alignment, bytes);
}

void* calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) {
        errno = ENOMEM;
        return nullptr;
    }
    void* payload = malloc(count * size);
    if (payload != nullptr) std::memset(payload, 0, count * size);
    return payload;
}

void* realloc(void* payload, size_t bytes) {
    if (payload == nullptr) return malloc(bytes);
    if (bytes == 0) {
        free(payload);
        return nullptr;
    }
    const bool worker_block = is_worker_block(payload);
    // dlmalloc_usable_size reads the chunk's header only (no lock); the page owns that block.
    const std::size_t usable = worker_block ? worker_usable(payload) : malloc_usable_size(payload);
    if (worker_block && bytes <= usable) return payload;
    void* moved = malloc(bytes);
    if (moved == nullptr) return nullptr;
    std::memcpy(moved, payload, usable < bytes ? usable : bytes);
    free(payload);
    return moved;
}

void* realloc_in_place(void* payload, size_t bytes) {
    // Only a worker-heap block can stay where it is here (dlmalloc's in-place path is not reachable).
    if (payload != nullptr && is_worker_block(payload) && bytes <= worker_usable(payload)) return payload;
    return nullptr;
}

int posix_memalign(void** out, size_t alignment, size_t bytes) {
    if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void* payload = memalign(alignment, bytes);
    if (payload == nullptr) return ENOMEM;
    *out = payload;
    return 0;
}

void* aligned_alloc(size_t alignment, size_t bytes) { return memalign(alignment, bytes); }
void* valloc(size_t bytes) { return memalign(4096, bytes); }
void* pvalloc(size_t bytes) { return memalign(4096, (bytes + 4095) & ~size_t{4095}); }

// musl's internal names (atexit, locales, ...).
void* __libc_malloc(size_t bytes) { return malloc(bytes); }
void __libc_free(void* payload) { free(payload); }
void* __libc_calloc(size_t count, size_t size) { return calloc(count, size); }
void* __libc_realloc(void* payload, size_t bytes) { return realloc(payload, bytes); }

// Emscripten's own allocations (a thread's TLS block as it starts, its blocks as it exits, mmap)
// take the same routes: -Wl,--wrap=emscripten_builtin_malloc (and free, memalign).
void* __wrap_emscripten_builtin_malloc(size_t bytes) { return malloc(bytes); }
void __wrap_emscripten_builtin_free(void* payload) { free(payload); }
void* __wrap_emscripten_builtin_memalign(size_t alignment, size_t bytes) { return memalign(alignment, bytes); }

// Every futex wait goes through here (-Wl,--wrap=emscripten_futex_wait). On the page in a browser
// a wait is a busy spin: count it, so a regression shows (ecsia_page_waits, web/scheduler.js),
// and keep where it came from (the JS stack, wasm frames included), so the report names its cause.
int __wrap_emscripten_futex_wait(volatile void* address, uint32_t value, double max_wait_ms) {
    if (on_page() && !_emscripten_thread_supports_atomics_wait()) {
        g_page_waits.fetch_add(1, std::memory_order_relaxed);  // a counter read after the fact
        ecsia_keep_page_wait_site();
    }
    return __real_emscripten_futex_wait(address, value, max_wait_ms);
}

// How many times the page's thread has waited on a futex (a contended lock, a condition, a join).
EMSCRIPTEN_KEEPALIVE uint32_t ecsia_page_waits(void) {
    return g_page_waits.load(std::memory_order_relaxed);
}

// Every first initialisation of a function-local static goes through here
// (-Wl,--wrap=__cxa_guard_acquire; only statics not yet initialised call it at all: the compiler
// checks the guard's done byte first). One a worker initialises is counted: see
// InitialisedOnThePage for why that can make the page wait.
int __wrap___cxa_guard_acquire(std::uint64_t* guard) {
    const int initialise = __real___cxa_guard_acquire(guard);
    if (initialise != 0 && !on_page()) {
        g_worker_static_inits.fetch_add(1, std::memory_order_relaxed);  // a counter read after the fact
        // relaxed: only picks the one worker that writes the site; g_static_site_ready publishes it.
        if (!g_static_site_claimed.exchange(true, std::memory_order_relaxed)) {
            ecsia_write_call_stack(g_static_site, kSiteBytes);
            g_static_site_ready.store(true, std::memory_order_release);  // pairs with the acquire below
        }
    }
    return initialise;
}

// How many function-local statics were first initialised on a worker since the module loaded.
EMSCRIPTEN_KEEPALIVE uint32_t ecsia_worker_static_inits(void) {
    return g_worker_static_inits.load(std::memory_order_relaxed);
}

// The call stack of the first of them (NUL-terminated), or null when none was written yet.
EMSCRIPTEN_KEEPALIVE const char* ecsia_worker_static_site(void) {
    // acquire: pairs with the release store after the site was written.
    return g_static_site_ready.load(std::memory_order_acquire) ? g_static_site : nullptr;
}

}  // extern "C"
