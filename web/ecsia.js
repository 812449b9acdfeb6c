// ecsia for the browser. loadEcsia() picks a wasm build and returns the engine (Ecsia), whose
// createWorld() makes a World (web/world.js); world.createScheduler() makes a Scheduler
// (web/scheduler.js). Types and the reference: web/ecsia.d.ts. The raw Embind objects stay
// private (web/internal/engine.js says how other web/ modules reach them).
//
//   threaded  web/dist/ecsia_threaded.mjs: shared memory, a pool of Web Workers. Needs a
//             cross-origin isolated page (SharedArrayBuffer).
//   single    web/dist/ecsia_single.mjs: no threads; same results. Loaded, with exactly one
//             warning, where threads are off.
//   your own  loadEcsia({ module: prefix }) loads <prefix>_threaded.mjs or <prefix>_single.mjs,
//             a module built with ecsia_add_browser_module(<name> SOURCES ...) (wasm/browser_module.cmake):
//             the engine plus your C++ systems and components, registered by name.
//   debug      web/dist/ecsia_{threaded,single}_debug.mjs (loadEcsia({ debug: true })): the same
//             modules built with ECSIA_ACCESS_CHECKS, where a kernel that reads or writes a
//             component its system did not declare fails its batch with a diagnostic naming both;
//             with `kernels`, JS kernels whose results depend on state kept between calls are
//             named too (web/internal/kernel_runtime.js, "the debug check").
//
// Errors: bad input throws an Error whose message names the operation and the problem, and
// nothing changes (G5). Errors from the engine also carry `.code` (e.g. 'StaleEntity').
// Thread rule: everything here runs on the page's main thread and never blocks it.

import { describe, isPlainObject, NULL_ENTITY } from './internal/checks.js';
import { attachInternals, autoWorkers, Engine, releaseModule } from './internal/engine.js';
import { moduleFiles } from './internal/module_files.js';
import { World } from './world.js';

import { importKernelModule, importKernelTwin, kernelFactoryOptions, startWorkerKernels, withLoadDeadline } from './internal/kernel_module.js';

export { NULL_ENTITY };

const MODULES = {
  threaded: () => import('./dist/ecsia_threaded.mjs'),
  single: () => import('./dist/ecsia_single.mjs'),
  // loadEcsia({ debug: true }): the same modules built with ECSIA_ACCESS_CHECKS
  threaded_debug: () => import('./dist/ecsia_threaded_debug.mjs'),
  single_debug: () => import('./dist/ecsia_single_debug.mjs'),
};
const OPTIONS = ['threads', 'onDiagnostic', 'kernels', 'module', 'debug'];

const COI_HEADERS = '"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp"';

/** Why threads are off, as one sentence, or null when they are on. */
function fallbackWarning(threads, isolated, shared) {
  const reasons = [];
  if (threads === 0) reasons.push('options.threads is 0');
  if (!isolated) reasons.push('the page is not cross-origin isolated (crossOriginIsolated is false)');
  if (!shared) reasons.push('SharedArrayBuffer is not available');
  if (reasons.length === 0) return null;
  let message = `ecsia: worker threads are off, the single-threaded build is loaded: ${reasons.join('; ')}.`;
  if (!isolated || !shared) {
    message += ` To turn threads on, serve the page with the response headers ${COI_HEADERS}.`;
  }
  return message;
}

// Where a page author finds how to make their bundler or dev server serve the package's files.
const BUNDLER_RECIPES = 'the "Bundlers" section of the ecsia-wasm README (https://www.npmjs.com/package/ecsia-wasm#bundlers)';

/**
 * Why this context cannot run the engine, or null in a page or a worker. Only `typeof` looks at
 * globals, so a server-side render pass that imports this module (or calls loadEcsia) touches no
 * browser global.
 */
function notBrowserReason() {
  if (typeof document === 'object' && document !== null) return null;  // a page
  if (typeof WorkerGlobalScope === 'function') return null;  // a (dedicated or shared) worker
  return 'loadEcsia: ecsia runs in a browser (a page or a Web Worker), and this context has neither ' +
    'a document nor a WorkerGlobalScope (server-side rendering, Node, or a test runner without a DOM). ' +
    'Importing the package there is fine; call loadEcsia() in code that runs in the browser only.';
}

// The module's promise rejected. A .wasm that is not wasm (typically a dev server's index.html
// sent for a file it does not serve: "expected magic word 00 61 73 6d, found 3c 21 64 6f") gets
// an error naming the URL fetched and the README's recipes; anything else is passed on.
function explainLoadFailure(error, variant, url) {
  const text = String(error instanceof Error ? error.message : error);
  const magic = /expected magic word 00 61 73 6d, found ((?:[0-9a-f]{2} ?){4})/.exec(text);
  if (magic === null) return error;
  const bytes = magic[1].trim().split(' ').map((h) => parseInt(h, 16));
  const shown = bytes.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
  const looksHtml = shown === '<!do' || shown.startsWith('<');
  const message = `loadEcsia: ${url ?? `the ${variant} build's .wasm`} is not a WebAssembly file: it starts with ` +
    `${magic[1].trim()} ("${shown}")${looksHtml ? ', an HTML page' : ''}, not the wasm magic word 00 61 73 6d. ` +
    `The server or bundler sent something else in place of the package's dist/ecsia_${variant}.wasm; ` +
    `see ${BUNDLER_RECIPES} for the configuration that serves it.`;
  const explained = new Error(message, { cause: error });
  explained.url = url;
  return explained;
}

/**
 * Loads the engine.
 * @param {{threads?: 'auto'|number, onDiagnostic?: (message: string) => void, kernels?: string|URL, module?: string|URL, debug?: boolean}} [options]
 *   threads: 'auto' (default) uses one worker per logical core except the page's own
 *   (navigator.hardwareConcurrency - 1, at least 1, at most the build's pool), so the workers and
 *   the page's thread never share a core; `ecsia.workers` says what it chose. A number asks for
 *   that many, 0 loads the single-threaded build. onDiagnostic receives every warning
 *   (default: console.warn). kernels: the URL of an ES module whose exported functions are JS
 *   kernels (scheduler.addSystem({ kernel })); a string is resolved against the page's address.
 *   It is imported on the page first, then on every worker; a module that fails to load rejects
 *   naming its URL. `ecsia.kernels` lists the kernel names. module: the URL prefix of a browser
 *   module of your own (ecsia_add_browser_module): `<prefix>_threaded.mjs` or `<prefix>_single.mjs`
 *   is loaded instead of the engine's own module. A string is resolved against the page
 *   (document.baseURI); a URL, e.g. new URL("./dist/mygame", import.meta.url), is taken as it is.
 *   When the module's files are missing, the promise rejects naming every URL it tried; when the
 *   module registered a system or component name twice, it rejects naming it. `ecsia.systems`
 *   lists the module's registered C++ systems. debug (default false): load the module built with
 *   declared-access checks (slower kernels; for development), and check JS kernels for results
 *   that depend on state kept between calls; with `module`, that module's `_debug` variant
 *   (ecsia_add_browser_module(... VARIANTS threaded_debug single_debug)).
 * Rejects outside a browser page or worker (a server-side render pass: importing this module is
 * safe there, loading is not), and, naming the URL, when the .wasm fetched is not WebAssembly
 * (a dev server or bundler that sent its index.html instead: see the README's bundler recipes).
 */
export async function loadEcsia(options = {}) {
  const notBrowser = notBrowserReason();
  if (notBrowser !== null) throw new Error(notBrowser);
  if (!isPlainObject(options)) throw new Error(`loadEcsia: options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw new Error(`loadEcsia: unknown option '${key}' (known: ${OPTIONS.join(', ')})`);
  }
  const threads = options.threads ?? 'auto';
  if (threads !== 'auto' && !(Number.isInteger(threads) && threads >= 0)) {
    throw new Error(`loadEcsia: options.threads must be 'auto' or a whole number >= 0, got ${describe(threads)}`);
  }
  const { onDiagnostic } = options;
  if (onDiagnostic !== undefined && typeof onDiagnostic !== 'function') {
    throw new Error(`loadEcsia: options.onDiagnostic must be a function, got ${describe(onDiagnostic)}`);
  }
  const diagnose = onDiagnostic ?? ((message) => console.warn(message));
  const debug = options.debug ?? false;
  if (typeof debug !== 'boolean') throw new Error(`loadEcsia: options.debug must be true or false, got ${describe(debug)}`);
  const files = options.module === undefined ? null : moduleFiles('loadEcsia', options.module);
  const kernelModule = options.kernels === undefined ? null : await importKernelModule(options.kernels);
  if (kernelModule !== null && debug) await importKernelTwin(kernelModule, diagnose);

  const isolated = globalThis.crossOriginIsolated === true;
  const shared = typeof SharedArrayBuffer === 'function';
  const warning = fallbackWarning(threads, isolated, shared);
  const variant = warning === null ? 'threaded' : 'single';
  if (warning !== null) diagnose(warning);

  // The variant's files: <name>_<variant>[_debug].mjs.
  const fileVariant = debug ? `${variant}_debug` : variant;
  const factory = files === null ? (await MODULES[fileVariant]()).default : await files.importFactory(fileVariant);
  const moduleArgs = {
    print: (text) => console.log(text),
    printErr: (text) => diagnose(`ecsia (wasm): ${text}`),
    // The Web Workers the threaded module starts: the workers this engine will use, no more
    // (wasm/browser_module.cmake clamps it to the build's pool, and the count is settled below).
    ecsiaPoolSize: threads === 'auto' ? autoWorkers(globalThis.navigator?.hardwareConcurrency, Infinity) : threads,
  };
  if (kernelModule !== null) await kernelFactoryOptions(kernelModule, variant, moduleArgs);
  let module;
  try {
    module = await withLoadDeadline(factory(moduleArgs), kernelModule);
  } catch (error) {
    // ecsiaWasmUrl: set by the module's post-js (wasm/wasm_url.post.js) before it fetches.
    throw explainLoadFailure(error, variant, moduleArgs.ecsiaWasmUrl);
  }
  const where = files === null ? 'the engine module' : `the module ${files.describe(fileVariant)}`;
  let systems;
  try {
    // The pool workers have loaded; each imports the kernel module before any thread runs there.
    if (kernelModule !== null && variant === 'threaded') {
      await withLoadDeadline(startWorkerKernels(module, kernelModule, where, diagnose), kernelModule);
    }
    try {
      // Throws DuplicateName when a name was registered twice: a start-up error, reported now.
      systems = module.registeredSystems();
      module.registeredComponents();
    } catch (error) {
      throw new Error(`loadEcsia: ${where} cannot start: ${error instanceof Error ? error.message : String(error)}`);
    }
  } catch (error) {
    releaseModule(module);
    throw error;
  }

  let workers = 0;
  const poolSize = module.poolSize;
  if (variant === 'threaded') {
    if (threads === 'auto') {
      workers = autoWorkers(globalThis.navigator?.hardwareConcurrency, poolSize);
    } else if (threads > poolSize) {
      diagnose(`ecsia: ${threads} worker threads were asked for, but the threaded build has a pool of ${poolSize}; using ${poolSize}.`);
      workers = poolSize;
    } else {
      workers = threads;
    }
  }
  const workerKernels = kernelModule !== null && variant === 'threaded';
  // Counted, not assumed: the module's own list of its Web Workers (all idle until a scheduler starts).
  const startedWorkers = variant === 'threaded' ? (module.PThread?.unusedWorkers?.length ?? 0) + (module.PThread?.runningWorkers?.length ?? 0) : 0;
  return new Ecsia(module, { variant, workers, startedWorkers, diagnose, workerKernels }, kernelModule?.names ?? [], Object.freeze([...systems]));
}

class Ecsia {
  #engine;

  constructor(module, { variant, workers, startedWorkers, diagnose, workerKernels }, kernels, systems) {
    this.#engine = new Engine(module, { variant, workers, diagnose, workerKernels, kernels: Object.freeze([...kernels]) });
    attachInternals(this, this.#engine);
    /** 'threaded' | 'single' */
    this.variant = variant;
    /** Worker threads in use; 0 in the single build. */
    this.workers = workers;
    /** The most workers this build can run. */
    this.maxWorkers = module.poolSize;
    /**
     * The Web Workers loadEcsia started for the pool: as many as `workers` (the rest of the build's
     * pool is never started), 0 in the single build.
     */
    this.startedWorkers = startedWorkers;
    /** The kernel module's kernels (its exported functions' names, sorted); [] without one. */
    this.kernels = this.#engine.kernels;
    /** The names of the C++ systems the module registered (ECSIA_REGISTER_SYSTEM), sorted. */
    this.systems = systems;
    /** True for the debug module (loadEcsia({ debug: true })): kernels' access is checked. */
    this.debug = module.accessChecks === true;
  }

  /** @param {{maxEntities?: number}} [options] */
  createWorld(options = {}) {
    if (!isPlainObject(options)) throw new Error(`createWorld: options must be an object, got ${describe(options)}`);
    const maxEntities = options.maxEntities ?? 1 << 20;
    if (!Number.isInteger(maxEntities) || maxEntities < 1 || maxEntities > 0x3fffff) {
      throw new Error(`createWorld: maxEntities must be a whole number from 1 to 4194303, got ${describe(maxEntities)}`);
    }
    const engine = this.#engine;
    const raw = engine.call('createWorld', () => new engine.module.World(maxEntities));
    return new World(engine, raw);
  }
}
