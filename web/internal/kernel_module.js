// Loading a kernel module for loadEcsia({ kernels }): the page imports it first (so a 404, a syntax
// error or a throw at import rejects at once, naming the URL), then the engine is created with a
// KernelRuntime for the page's own inline batches and, in the threaded build, every pool worker
// is sent the runtime's and the module's URLs once it has loaded (startWorkerKernels,
// wasm/worker_kernels.post.js) and imports both there. See wasm/js_kernel.hpp for how a batch
// reaches a kernel.
// Thread rule: the page's main thread.

import { describe } from './checks.js';
import { KernelRuntime, kernelNames } from './kernel_runtime.js';

// How long the engine may take to start its workers and have them import the kernel module.
// Loading takes well under a second; this only turns a worker that never answers (a module
// import that never settles) into a rejection instead of a hang.
export const KERNEL_LOAD_DEADLINE_MS = 15000;

/**
 * Imports the kernel module on the page. `kernels`: a URL, or a string resolved against the
 * page's address. Returns { url, namespace, names }; rejects naming the URL when it fails.
 */
// A data: URL is the whole module: name it by its start only.
function shortUrl(url) {
  return url.startsWith('data:') && url.length > 80 ? `${url.slice(0, 60)}... (a data: URL of ${url.length} characters)` : url;
}

// A bundler that inlines a small kernel module as a data: URL (Vite's build does, below
// build.assetsInlineLimit) copies it without the modules it imports, and a data: URL has no base
// for their relative URLs: say so, since the import error alone does not.
function inlinedHint(url) {
  if (!url.startsWith('data:')) return '';
  return '. The kernel module reached the page as a data: URL (a bundler inlined it), where its imports of other ' +
    'modules cannot be resolved: let the bundler emit it as a module of its own (with Vite: the ecsiaKernels() ' +
    'plugin of ecsia-wasm/vite and an import of \'./kernels.js?ecsia-kernels\'), as the "JS kernels on the ' +
    'workers" section of the ecsia-wasm README says';
}

export async function importKernelModule(kernels) {
  let url;
  if (kernels instanceof URL) {
    url = kernels.href;
  } else if (typeof kernels === 'string' && kernels !== '') {
    try {
      url = new URL(kernels, globalThis.location?.href).href;
    } catch {
      throw new Error(`loadEcsia: options.kernels ${describe(kernels)} is not a URL`);
    }
  } else {
    throw new Error(`loadEcsia: options.kernels must be a URL or a string (the kernel module's address), got ${describe(kernels)}`);
  }
  let namespace;
  try {
    namespace = await import(/* webpackIgnore: true */ /* @vite-ignore */ url);
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Error(`loadEcsia: the kernel module ${shortUrl(url)} failed to load: ${why}${inlinedHint(url)}`);
  }
  const names = kernelNames(namespace);
  if (names.length === 0) throw new Error(`loadEcsia: the kernel module ${url} exports no functions (each exported function is a kernel)`);
  return { url, namespace, names };
}

// The kernel runtime the pool workers import (web/internal/kernel_runtime.js has no imports). A
// literal new URL of import.meta.url on purpose: Vite and webpack then emit the file with
// the bundle (as it is, or minified as the ES module it is) and put its final URL here; unbundled,
// it is the package's own file. esbuild emits nothing for it: its recipe copies it beside the bundle.
const RUNTIME_URL = new URL('./kernel_runtime.js', import.meta.url).href;

// The debug check's second instance of a kernel module: the same file under another URL (a module
// is instantiated once per URL, fragment included).
function twinUrl(url) {
  const twin = new URL(url);
  twin.hash = 'ecsia-debug-check';
  return twin.href;
}

/**
 * loadEcsia({ debug: true }): imports a second instance of the kernel module on the page for the
 * debug check (web/internal/kernel_runtime.js) and sets `kernelModule.twin` = { url, namespace }.
 * Where that cannot be had, says why through `diagnose`, and batches are not checked.
 */
export async function importKernelTwin(kernelModule, diagnose) {
  const url = twinUrl(kernelModule.url);
  let namespace;
  try {
    namespace = await import(/* webpackIgnore: true */ /* @vite-ignore */ url);
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    diagnose(`ecsia: the debug check of JS kernels is off: a second instance of the kernel module (${url}) failed to load: ${why}`);
    return;
  }
  if (namespace === kernelModule.namespace) {
    diagnose(`ecsia: the debug check of JS kernels is off: importing ${url} gave the kernel module's own instance, not a second one`);
    return;
  }
  kernelModule.twin = { url, namespace };
}

/**
 * Sets the factory options that give the engine `kernelModule`'s kernels on the page. In the
 * threaded build the workers' runtime is imported on the page first: where it cannot load (a
 * bundler that did not emit it), this rejects at once, naming it, before any worker starts.
 */
export async function kernelFactoryOptions(kernelModule, variant, moduleArg) {
  moduleArg.ecsiaKernels = new KernelRuntime(kernelModule.namespace, moduleArg, kernelModule.url, null, kernelModule.twin?.namespace ?? null);
  if (variant !== 'threaded') return;
  try {
    await import(/* webpackIgnore: true */ /* @vite-ignore */ RUNTIME_URL);
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Error(`loadEcsia: the workers' kernel runtime, ${RUNTIME_URL}, failed to load: ${why} ` +
      '(a bundler that does not emit `new URL(..., import.meta.url)` files must have it copied beside the bundle; see the ecsia-wasm README)');
  }
}

/**
 * Gives every pool worker of a loaded threaded module the kernel module (wasm/worker_kernels.post.js)
 * and waits for all of them. A worker that cannot import the runtime rejects; one that cannot
 * import the kernel module (but the page could) is reported once through `diagnose`, and its
 * batches fail with the reason.
 */
export async function startWorkerKernels(module, kernelModule, where, diagnose) {
  if (typeof module.ecsiaLoadWorkerKernels !== 'function') {
    throw new Error(`loadEcsia: ${where} cannot run JS kernels on its workers: it was linked without ` +
      'wasm/worker_kernels.post.js (build it with this ecsia\'s ecsia_add_browser_module)');
  }
  const answers = await module.ecsiaLoadWorkerKernels(RUNTIME_URL, kernelModule.url, kernelModule.twin?.url ?? null);
  const runtimeError = answers.find((answer) => answer.runtimeError !== undefined);
  if (runtimeError !== undefined) {
    throw new Error(`loadEcsia: the workers' kernel runtime, ${RUNTIME_URL}, failed to load on a worker: ${runtimeError.runtimeError}`);
  }
  for (const loadError of new Set(answers.map((answer) => answer.loadError).filter((e) => e !== null))) {
    diagnose(`ecsia: the kernel module ${kernelModule.url} failed to load on a worker: ${loadError}; its batches there will fail`);
  }
  for (const twinError of new Set(answers.map((answer) => answer.twinError).filter((e) => e !== undefined && e !== null))) {
    diagnose(`ecsia: the debug check of JS kernels is off on a worker: a second instance of the kernel module (${kernelModule.twin.url}) failed to load there: ${twinError}`);
  }
}

/** `promise`, or a rejection naming the kernel module once KERNEL_LOAD_DEADLINE_MS have passed. */
export function withLoadDeadline(promise, kernelModule) {
  if (kernelModule === null) return promise;
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(
      `loadEcsia: the engine's workers did not start within ${KERNEL_LOAD_DEADLINE_MS / 1000} s after importing the kernel module ${kernelModule.url}`)), KERNEL_LOAD_DEADLINE_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const QUERY_TERMS = ['with', 'without', 'optional', 'changed', 'added'];
// Pair terms ([relation, target] lists): checked and resolved by the scheduler, which has the world.
const PAIR_TERMS = ['pairs', 'withoutPairs'];

/**
 * Checks the kernel-specific parts of addSystem({ kernel, query, spawnsPerBatch }) and returns
 * the kernel's id, the query's terms as arrays (its pair terms as given: the scheduler resolves
 * them) and the handles to reserve per batch. Throws
 * naming the system and what is wrong.
 */
export function kernelSystemParts(op, name, spec, kernels) {
  const { kernel } = spec;
  if (typeof kernel !== 'string') {
    throw new Error(`scheduler.${op}('${name}'): kernel must be the name of an exported function of the kernel module, got ${describe(kernel)}`);
  }
  const kernelId = kernels.indexOf(kernel);
  if (kernelId < 0) {
    throw new Error(kernels.length === 0
      ? `scheduler.${op}('${name}'): kernel '${kernel}' cannot run: no kernel module was loaded (loadEcsia({ kernels: url }))`
      : `scheduler.${op}('${name}'): unknown kernel '${kernel}' (the kernel module has: ${kernels.join(', ')})`);
  }
  const query = {};
  if (spec.query !== undefined) {
    if (typeof spec.query !== 'object' || spec.query === null || Array.isArray(spec.query)) {
      throw new Error(`scheduler.${op}('${name}'): query must be an object { with, without, optional, changed, added, pairs, withoutPairs }, got ${describe(spec.query)}`);
    }
    for (const key of Object.keys(spec.query)) {
      if (!QUERY_TERMS.includes(key) && !PAIR_TERMS.includes(key) && key !== 'prefabs') {
        throw new Error(`scheduler.${op}('${name}'): query has no term '${key}' (terms: ${[...QUERY_TERMS, ...PAIR_TERMS, 'prefabs'].join(', ')})`);
      }
    }
    for (const term of QUERY_TERMS) {
      const value = spec.query[term] ?? [];
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
        throw new Error(`scheduler.${op}('${name}'): query.${term} must be an array of component names, got ${describe(value)}`);
      }
      query[term] = value;
    }
    for (const term of PAIR_TERMS) if (spec.query[term] !== undefined) query[term] = spec.query[term];
    if (spec.query.prefabs !== undefined && typeof spec.query.prefabs !== 'boolean') {
      throw new Error(`scheduler.${op}('${name}'): query.prefabs must be true or false, got ${describe(spec.query.prefabs)}`);
    }
  }
  query.prefabs = spec.query?.prefabs === true;
  const spawnsPerBatch = spec.spawnsPerBatch ?? 0;
  if (!Number.isInteger(spawnsPerBatch) || spawnsPerBatch < 0 || spawnsPerBatch > 65536) {
    throw new Error(`scheduler.${op}('${name}'): spawnsPerBatch must be a whole number from 0 to 65536, got ${describe(spawnsPerBatch)}`);
  }
  return { kernelId, query, spawnsPerBatch };
}
