// ecsia for the browser. loadEcsia() picks a wasm build and returns the engine (Ecsia), whose
// createWorld() makes a World (web/world.js); world.createScheduler() makes a Scheduler
// (web/scheduler.js). Types and the reference: web/ecsia.d.ts. The raw Embind objects stay
// private (web/internal/engine.js says how other web/ modules reach them).
//
//   threaded  web/dist/ecsia_threaded.mjs: shared memory, a pool of Web Workers. Needs a
//             cross-origin isolated page (SharedArrayBuffer).
//   single    web/dist/ecsia_single.mjs: no threads; same results. Loaded, with exactly one
//             warning, where threads are off.
//
// Errors: bad input throws an Error whose message names the operation and the problem, and
// nothing changes (G5). Errors from the engine also carry `.code` (e.g. 'StaleEntity').
// Thread rule: everything here runs on the page's main thread and never blocks it.

import { describe, isPlainObject, NULL_ENTITY } from './internal/checks.js';
import { attachInternals, Engine } from './internal/engine.js';
import { World } from './world.js';

export { NULL_ENTITY };

const MODULES = {
  threaded: () => import('./dist/ecsia_threaded.mjs'),
  single: () => import('./dist/ecsia_single.mjs'),
};

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

/**
 * Loads the engine.
 * @param {{threads?: 'auto'|number, onDiagnostic?: (message: string) => void}} [options]
 *   threads: 'auto' (default) uses navigator.hardwareConcurrency workers (at least 2), a number
 *   asks for that many, 0 loads the single-threaded build. onDiagnostic receives every warning
 *   (default: console.warn).
 */
export async function loadEcsia(options = {}) {
  if (!isPlainObject(options)) throw new Error(`loadEcsia: options must be an object, got ${describe(options)}`);
  const threads = options.threads ?? 'auto';
  if (threads !== 'auto' && !(Number.isInteger(threads) && threads >= 0)) {
    throw new Error(`loadEcsia: options.threads must be 'auto' or a whole number >= 0, got ${describe(threads)}`);
  }
  const { onDiagnostic } = options;
  if (onDiagnostic !== undefined && typeof onDiagnostic !== 'function') {
    throw new Error(`loadEcsia: options.onDiagnostic must be a function, got ${describe(onDiagnostic)}`);
  }
  const diagnose = onDiagnostic ?? ((message) => console.warn(message));

  const isolated = globalThis.crossOriginIsolated === true;
  const shared = typeof SharedArrayBuffer === 'function';
  const warning = fallbackWarning(threads, isolated, shared);
  const variant = warning === null ? 'threaded' : 'single';
  if (warning !== null) diagnose(warning);

  const factory = (await MODULES[variant]()).default;
  const module = await factory({
    print: (text) => console.log(text),
    printErr: (text) => diagnose(`ecsia (wasm): ${text}`),
  });

  let workers = 0;
  const poolSize = module.poolSize;
  if (variant === 'threaded') {
    if (threads === 'auto') {
      workers = Math.min(Math.max(2, globalThis.navigator?.hardwareConcurrency ?? 2), poolSize);
    } else if (threads > poolSize) {
      diagnose(`ecsia: ${threads} worker threads were asked for, but the threaded build has a pool of ${poolSize}; using ${poolSize}.`);
      workers = poolSize;
    } else {
      workers = threads;
    }
  }
  return new Ecsia(module, variant, workers, diagnose);
}

class Ecsia {
  #engine;

  constructor(module, variant, workers, diagnose) {
    this.#engine = new Engine(module, { variant, workers, diagnose });
    attachInternals(this, this.#engine);
    /** 'threaded' | 'single' */
    this.variant = variant;
    /** Worker threads in use; 0 in the single build. */
    this.workers = workers;
    /** The most workers this build can run. */
    this.maxWorkers = module.poolSize;
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
