// The Vite settings ecsia-wasm needs (the README's Vite recipe is this file).
import { defineConfig } from 'vite';
import { ecsiaKernels } from 'ecsia-wasm/vite';

// Threads need a cross-origin isolated page: the dev server and `vite preview` send both headers.
// (Production hosting must send them too; without them the single-threaded build loads.)
export const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  // `import kernels from './kernels.js?ecsia-kernels'`: the kernel module's URL, bundled with the
  // modules it imports (without it, `vite build` copies the file alone, or inlines it).
  plugins: [ecsiaKernels()],
  server: { headers: crossOriginIsolation },
  preview: { headers: crossOriginIsolation },
  // Pre-bundling would copy the Emscripten glue into node_modules/.vite/deps, away from its .wasm
  // (the dev server then answers the .wasm request with index.html).
  optimizeDeps: { exclude: ['ecsia-wasm'] },
  // The pthread worker imports the glue as an ES module; Vite 5-7 builds fail without this
  // (Vite 8 uses it by default).
  worker: { format: 'es' },
});
