// What a server-side render pass does with the package: it imports it (the module graph of a
// page is loaded on the server too) and, if a component calls it there, runs loadEcsia().
// Every browser global is a trap while the import runs; prints one JSON line for
// e2e/package.spec.js: { touched, exports, errors }.
const BROWSER_GLOBALS = [
  'window', 'document', 'navigator', 'location', 'self', 'crossOriginIsolated', 'Worker',
  'WorkerGlobalScope', 'importScripts', 'XMLHttpRequest', 'localStorage', 'HTMLElement',
];
const touched = [];
const saved = new Map();
for (const name of BROWSER_GLOBALS) {
  saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      touched.push(name);
      return undefined;
    },
  });
}
const ecsia = await import('ecsia-wasm');
for (const name of BROWSER_GLOBALS) {
  const descriptor = saved.get(name);
  if (descriptor) Object.defineProperty(globalThis, name, descriptor);
  else delete globalThis[name];
}

const errors = [];
for (const options of [undefined, { threads: 'many' }]) {
  try {
    await ecsia.loadEcsia(options);
    errors.push('loadEcsia() resolved');
  } catch (error) {
    errors.push(error instanceof Error ? error.message : `not an Error: ${error}`);
  }
}
console.log(JSON.stringify({ touched, exports: Object.keys(ecsia), errors }));
