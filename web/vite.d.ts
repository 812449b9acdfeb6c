/**
 * ecsia-wasm/vite: a Vite plugin for kernel modules. With it in the Vite config
 * (`plugins: [ecsiaKernels()]`), `import kernels from "./kernels.js?ecsia-kernels"` gives the URL
 * of the kernel module bundled with the modules it imports (under `vite build`), or as the dev
 * server serves it (under `vite`), for `loadEcsia({ kernels })`. Runs in Vite's process only.
 */
export function ecsiaKernels(): EcsiaKernelsPlugin;

/** The plugin object: give it to Vite's `plugins` (its hooks are Vite's business). */
export interface EcsiaKernelsPlugin {
  readonly name: 'ecsia-kernels';
  readonly enforce: 'pre';
}

// A TypeScript page declares the import it makes, e.g. in its env.d.ts:
//   declare module '*?ecsia-kernels' { const url: string; export default url; }
