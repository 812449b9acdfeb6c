// Internal to the JS layer: where the files of a browser module of your own are
// (ecsia_add_browser_module(<name> ...) writes them side by side), and loading its factory with
// an error that names every URL tried when they are not there.
//
//   <prefix>_threaded.mjs  <prefix>_threaded.wasm  <prefix>_threaded.worker.js
//   <prefix>_single.mjs    <prefix>_single.wasm
//
// The page checks the files first (HEAD requests) because a missing .worker.js or .wasm would
// otherwise surface as a pool that never starts or an abort deep inside the module.
// Thread rule: the page's main thread.

import { describe } from './checks.js';

const EXTENSIONS = {
  threaded: ['.mjs', '.wasm', '.worker.js'],
  single: ['.mjs', '.wasm'],
  threaded_debug: ['.mjs', '.wasm', '.worker.js'],  // loadEcsia({ debug: true, module })
  single_debug: ['.mjs', '.wasm'],
};

function resolvePrefix(op, prefix) {
  if (prefix instanceof URL) return new URL(prefix.href);
  if (typeof prefix !== 'string' || prefix === '') {
    throw new Error(`${op}: options.module must be a URL prefix (a string or a URL, e.g. new URL("./dist/mygame", import.meta.url)), got ${describe(prefix)}`);
  }
  const base = globalThis.document?.baseURI ?? globalThis.location?.href;
  try {
    return base === undefined ? new URL(prefix) : new URL(prefix, base);
  } catch {
    throw new Error(`${op}: options.module '${prefix}' is not a URL`);
  }
}

// Whether a URL answers with the file: 'ok', or why not (a status, a network error, or HTML in
// place of a module, which is what a dev server's fallback route sends for a missing file).
async function probe(url) {
  let response;
  try {
    response = await fetch(url, { method: 'HEAD', cache: 'no-store' });
  } catch (error) {
    return `not reachable: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (response.status === 405 || response.status === 501) return 'ok';  // a host without HEAD: let the import tell
  if (!response.ok) return `HTTP ${response.status}`;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/html')) return 'served HTML, not the file';
  return 'ok';
}

/** The files of the module at `prefix`, with importFactory(variant) and describe(variant). */
export function moduleFiles(op, prefix) {
  const base = resolvePrefix(op, prefix);
  if (/(_threaded|_single)(_debug)?(\.mjs)?$|\.mjs$/.test(base.pathname)) {
    throw new Error(`${op}: options.module is the prefix of the module's files, without '_threaded.mjs' or '_single.mjs' (got '${base.href}')`);
  }
  const urlsOf = (variant) => EXTENSIONS[variant].map((ext) => {
    const url = new URL(base.href);
    url.pathname = `${base.pathname}_${variant}${ext}`;
    return url.href;
  });
  return {
    prefix: base.href,
    /** The URLs of a variant's files, the .mjs first. */
    urls: urlsOf,
    describe: (variant) => `'${base.href}' (${variant}: ${urlsOf(variant)[0]})`,
    async importFactory(variant) {
      const urls = urlsOf(variant);
      const results = await Promise.all(urls.map(probe));
      if (results.some((r) => r !== 'ok')) {
        const tried = urls.map((url, i) => `${url} (${results[i]})`).join(', ');
        throw new Error(`${op}: no ${variant} browser module at '${base.href}'; tried ${tried}. ` +
          'Build it with ecsia_add_browser_module(<name> SOURCES ... OUTPUT_DIRECTORY <dir>) and pass the URL of <dir>/<name>.');
      }
      let namespace;
      try {
        namespace = await import(/* @vite-ignore */ /* webpackIgnore: true */ urls[0]);
      } catch (error) {
        throw new Error(`${op}: the ${variant} browser module ${urls[0]} did not load: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (typeof namespace.default !== 'function') {
        throw new Error(`${op}: ${urls[0]} is not a browser module made by ecsia_add_browser_module (no factory as its default export)`);
      }
      return namespace.default;
    },
  };
}
