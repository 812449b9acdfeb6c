// ecsia-wasm/vite: a Vite plugin for kernel modules. The workers import a kernel module by URL,
// so it must reach the build as a module of its own. Vite's `new URL("./kernels.js",
// import.meta.url)` copies the file as an asset (inlined as a data: URL when small), without the
// modules it imports; with this plugin, `import kernels from "./kernels.js?ecsia-kernels"` gives
// the URL of the module bundled with its imports, its exports kept as they are:
//
//   // vite.config.js                          // the page
//   plugins: [ecsiaKernels()]                  import kernels from "./kernels.js?ecsia-kernels";
//                                              const ecsia = await loadEcsia({ kernels });
//
// Under `vite` (the dev server) the URL is the module as the dev server serves it, imports
// rewritten like any other module; under `vite build` it is an emitted chunk of its own. It runs
// in Node, in Vite's process: nothing of it reaches the page.

const QUERY = '?ecsia-kernels';
const PREFIX = '\0ecsia-kernels:';

/**
 * The plugin: `plugins: [ecsiaKernels()]` in the Vite config.
 * @returns {object} a Vite plugin
 */
export function ecsiaKernels() {
  let command = 'serve';
  let root = '/';
  let base = '/';
  return {
    name: 'ecsia-kernels',
    // Before Vite's own resolver, which would take the query for an asset's.
    enforce: 'pre',
    configResolved(config) {
      command = config.command;
      root = slashes(config.root).replace(/\/?$/, '/');
      base = config.base.endsWith('/') ? config.base : `${config.base}/`;
    },
    async resolveId(source, importer) {
      if (!source.endsWith(QUERY)) return null;
      const resolved = await this.resolve(source.slice(0, -QUERY.length), importer, { skipSelf: true });
      if (resolved === null || resolved.external) {
        this.error(`ecsiaKernels: cannot find the kernel module '${source.slice(0, -QUERY.length)}' (imported by ${importer ?? 'the config'})`);
      }
      return PREFIX + resolved.id;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length);
      if (command === 'serve') {
        // The dev server serves a file of the project at its path from the root, any other by /@fs/.
        const path = slashes(file);
        const served = path.startsWith(root) ? path.slice(root.length) : `@fs/${path.replace(/^\//, '')}`;
        // Resolved against the importing module's URL (the dev server's own), not the page's
        // location: the same under a test runner in Node.
        return `export default new URL(${JSON.stringify(base + served)}, import.meta.url).href;\n`;
      }
      // A chunk of its own that keeps the module's exports (they are the kernels' names).
      const reference = this.emitFile({ type: 'chunk', id: file, preserveSignature: 'strict' });
      return `export default new URL(import.meta.ROLLUP_FILE_URL_${reference}, import.meta.url).href;\n`;
    },
  };
}

function slashes(path) {
  return path.replace(/\\/g, '/');
}
