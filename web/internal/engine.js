// Internal to the JS layer (never exported by web/ecsia.js): what sits behind the public objects.
//
// The public classes (Ecsia, World, Scheduler, Query) hold no Embind object a user could reach:
// each registers its internal side here with attachInternals(), and other web/ modules get it back
// with internalsOf(publicObject). What each kind registers:
//   Ecsia      -> Engine     (the raw Embind module, the heap, the stack-restoring call)
//   World      -> WorldCore  (web/internal/world_core.js: the raw world, component layouts)
//   Scheduler  -> { engine, world: WorldCore, raw() }   (the raw scheduler; throws once disposed)
// Thread rule: the page's main thread.

import { watchWorkerCrashes } from './worker_crashes.js';

const internals = new WeakMap();  // public object -> its internal side

export function attachInternals(publicObject, internal) {
  internals.set(publicObject, internal);
}

/** The internal side of an object this JS layer made; a TypeError for anything else. */
export function internalsOf(publicObject, what = 'object') {
  const internal = internals.get(publicObject);
  if (internal === undefined) throw new TypeError(`ecsia: not an ecsia ${what} (made by loadEcsia)`);
  return internal;
}

/**
 * Ends a loaded module that will not be used (loadEcsia failed after its factory resolved): its
 * pool's Web Workers are terminated, so a failed load leaves no threads behind.
 */
export function releaseModule(module) {
  module?.PThread?.terminateAllThreads?.();
}

/**
 * loadEcsia({ threads: 'auto' })'s worker count: a worker per logical core but the one the page's
 * own thread needs (it runs the serial slot, the merge and its share of a wave's batches, and
 * renders): more workers than that only take turns on the cores, and every wave then pays their
 * wake-up and preemption. At least one worker, at most the build's pool; 2 cores when the browser
 * does not say. (The benchmark page measures with the same rule.)
 */
export function autoWorkers(hardwareConcurrency, poolSize) {
  const cores = Number.isInteger(hardwareConcurrency) && hardwareConcurrency > 0 ? hardwareConcurrency : 2;
  return Math.min(Math.max(1, cores - 1), poolSize);
}

/** One loaded wasm module: the raw Embind surface and the heap it shares with JS. */
export class Engine {
  #heap;           // the heap's ArrayBuffer (or SharedArrayBuffer) views were last made over
  #heapEpoch = 0;  // how often the heap buffer was replaced (memory growth)
  #views;          // { buffer, u8, u32, f64, dv } over #heap
  #memory;         // the shared WebAssembly.Memory (threaded build), or undefined

  constructor(module, { variant, workers, diagnose, workerKernels = false, kernels = [] }) {
    /** The raw Embind module (module.World, module.Scheduler, module._malloc, ...). */
    this.module = module;
    this.variant = variant;
    this.workers = workers;
    /** Every warning of this engine goes here (G3): to onDiagnostic, then to each watcher (watchDiagnostics). */
    this.diagnose = (message) => {
      try {
        diagnose(message);
      } catch (error) {
        // The handler runs inside the engine call that reports: a throw would unwind through it.
        console.error(`ecsia: options.onDiagnostic threw for the diagnostic "${message}"; the engine goes on:`, error);
      }
      for (const watcher of this.#diagnosticWatchers) {
        try {
          watcher(message);
        } catch {
          // A watcher (the devtools panel) must not keep the others, or the engine, from going on.
        }
      }
    };
    /** The kernel module's kernel names, in kernel-id order (web/internal/kernel_module.js); [] without one. */
    this.kernels = kernels;
    /** Whether the pool workers imported a kernel module (threaded build, loadEcsia({ kernels })). */
    this.workerKernels = workerKernels;
    /** Messages of the pool workers that crashed, oldest first (web/internal/worker_crashes.js). */
    this.workerCrashes = watchWorkerCrashes(module, this.diagnose).crashes;
    this.#memory = module.wasmMemory instanceof WebAssembly.Memory && typeof SharedArrayBuffer === 'function' &&
      module.wasmMemory.buffer instanceof SharedArrayBuffer ? module.wasmMemory : undefined;
    this.#heap = this.#currentHeap();
    this.#views = Engine.#makeViews(this.#heap);
    // Threaded modules count every futex wait of the page's thread (wasm/worker_heap.cpp); a
    // module without the count (the single build, a user's own module built otherwise) says 0.
    this.#pageWaits = typeof module._ecsia_page_waits === 'function' ? this.direct('_ecsia_page_waits') : () => 0;
  }

  #pageWaits;
  #diagnosticWatchers = new Set();

  /** Calls watcher(message) for every diagnostic from now on (the devtools panel); returns the unsubscribe. */
  watchDiagnostics(watcher) {
    this.#diagnosticWatchers.add(watcher);
    return () => this.#diagnosticWatchers.delete(watcher);
  }

  /**
   * How many times the page's thread has waited on a futex (a contended lock, a condition
   * variable, a join) since the module loaded: a busy spin in a browser. The engine never makes
   * it wait (G2); Scheduler.update() reports any wait of its frame.
   */
  pageWaits() {
    return this.#pageWaits() >>> 0;
  }

  /**
   * Function-local statics (C++ `static` in a function) first initialised on a worker thread since
   * the module loaded, and where the first was: { count, site } (site: a call stack, or null).
   * The page waits when it reaches a static a worker is initialising (libc++abi guards them all
   * with one lock), so the engine's own worker code initialises none (wasm/worker_heap.cpp);
   * { count: 0, site: null } for a module that does not count them.
   */
  workerStaticInits() {
    const module = this.module;
    if (typeof module._ecsia_worker_static_inits !== 'function') return { count: 0, site: null };
    const count = module._ecsia_worker_static_inits() >>> 0;
    const at = module._ecsia_worker_static_site() >>> 0;
    if (at === 0) return { count, site: null };
    const u8 = this.views().u8;
    let end = at;
    while (end < u8.length && u8[end] !== 0) end += 1;
    // TextDecoder takes no view of shared memory: copy the bytes first.
    return { count, site: new TextDecoder().decode(u8.slice(at, end)) };
  }

  /**
   * Where the page's thread waited since the last call, as call chains (innermost first, the
   * wait's own frames left out): the first few counted waits' stacks (wasm/worker_heap.cpp),
   * taken and forgotten. [] when none (or the module does not record them).
   */
  pageWaitSites() {
    const sites = this.module.ecsiaPageWaitSites;
    if (!Array.isArray(sites) || sites.length === 0) return [];
    this.module.ecsiaPageWaitSites = [];
    return sites.map(describeWaitSite);
  }

  /**
   * Views over the whole heap as it is now: { buffer, u8: Uint8Array, u32: Uint32Array, f64:
   * Float64Array, dv: DataView }. Take them again after any call into wasm (the heap may have grown).
   */
  views() {
    this.heapState();
    return this.#views;
  }

  /**
   * views() without asking the heap for its buffer when the views last made reach `end` bytes
   * (the per-entity calls: Memory.buffer is a slow getter for shared memory). Sound for both
   * builds: a shared heap's older buffer still maps the same memory up to its own length, and a
   * plain heap's buffer stays current until growth detaches it (its length is then 0).
   */
  viewsCovering(end) {
    const views = this.#views;
    return end <= views.u8.length ? views : this.views();
  }

  /**
   * The wasm function behind the C export `name` (e.g. '_ecsia_world_set'). Emscripten 3.1.6
   * first installs a stand-in that looks the export up on every call (`Module["asm"]["xy"]`, then
   * `.apply(null, arguments)`) and replaces only the Module property on its first call, so a
   * reference kept before that stays the slow stand-in forever: about 0.1 µs a call. The stand-in's
   * text names the instance export it forwards to; when that cannot be read, the export as the
   * module has it (correct, only slower).
   */
  direct(name) {
    const module = this.module;
    const exported = module[name];
    if (typeof exported !== 'function') throw new Error(`ecsia: the engine module has no export ${name}`);
    const forwarded = /Module\["asm"\]\["([^"]+)"\]/.exec(Function.prototype.toString.call(exported));
    const raw = forwarded === null ? undefined : module.asm?.[forwarded[1]];
    return typeof raw === 'function' ? raw : exported;
  }

  static #makeViews(buffer) {
    return { buffer, u8: new Uint8Array(buffer), u32: new Uint32Array(buffer), f64: new Float64Array(buffer), dv: new DataView(buffer) };
  }

  /**
   * The heap buffer now, and a count that changes whenever it was replaced. Shared memory gets a
   * new (larger) SharedArrayBuffer object on growth; plain memory detaches the old buffer.
   */
  heapState() {
    const buffer = this.#currentHeap();
    if (buffer !== this.#heap) {
      this.#heap = buffer;
      this.#heapEpoch += 1;
      this.#views = Engine.#makeViews(buffer);
    }
    return { buffer, epoch: this.#heapEpoch };
  }

  /**
   * Calls fn() (which calls into the raw module). A binding that throws leaves the wasm stack
   * pointer where the throw found it (a JS exception skips the wasm epilogues; wasm/js_error.hpp),
   * so it is restored here; engine errors (those with a `.code`) get `label` in front.
   */
  call(label, fn) {
    const module = this.module;
    const sp = module.stackSave();
    try {
      return fn();
    } catch (error) {
      module.stackRestore(sp);
      if (error instanceof Error && typeof error.code === 'string') error.message = `${label}: ${error.message}`;
      throw error;
    }
  }

  // Per call of every value access, so no lookup on the (large, slow) module object when it can
  // be helped: shared memory is read through the cached Memory (a grown one gives a new buffer);
  // the single build's plain memory detaches the old buffer on growth (byteLength 0), and only
  // then is the module's current HEAPU8 looked up.
  #currentHeap() {
    if (this.#memory !== undefined) return this.#memory.buffer;
    if (this.#heap !== undefined && this.#heap.byteLength !== 0) return this.#heap;
    return this.module.HEAPU8.buffer;
  }
}

// A stack from wasm/worker_heap.cpp's wait hook as one line: each frame's function name (wasm
// frames by name where the module keeps names, else wasm-function[index]), innermost first,
// from the first frame outside the hook and Emscripten's futex wait.
function describeWaitSite(stack) {
  const frames = String(stack).split('\n').slice(1).map((line) => {
    const at = line.trim().replace(/^at /, '');
    const named = /^(.*?) \((.*)\)$/.exec(at);
    if (named !== null) return named[1];
    const wasm = /(wasm-function\[\d+\])/.exec(at);
    return wasm !== null ? wasm[1] : at.replace(/^.*\//, '');
  });
  const own = /ecsia_keep_page_wait_site|emscripten_futex_wait/;
  let first = 0;
  while (first < frames.length && own.test(frames[first])) first += 1;
  return frames.slice(first).join(' < ');
}
