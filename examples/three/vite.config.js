// The Vite settings ecsia-wasm needs (npm/README.md's Vite recipe), and two of this app's own.
import { defineConfig } from 'vite';
import { ecsiaKernels } from 'ecsia-wasm/vite';

// Threads need a cross-origin isolated page: the dev server and `vite preview` send both headers
// (your production host must send them too; without them the single-threaded build loads).
const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  // `import kernels from './kernels.js?ecsia-kernels'`: the kernel module's URL, built as a module
  // of its own with whatever it imports (a plain new URL() copies the file alone, or inlines it).
  plugins: [ecsiaKernels()],
  base: './',  // dist/ works from any folder (e2e/three.spec.js serves it as /examples/three/dist/)
  server: { headers: crossOriginIsolation },
  preview: { headers: crossOriginIsolation },
  // Pre-bundling would copy the Emscripten glue into node_modules/.vite/deps, away from its .wasm.
  optimizeDeps: { exclude: ['ecsia-wasm'] },
  // three.js's WebGLRenderer alone is ~600 kB minified: one chunk of that size is expected here.
  build: { chunkSizeWarningLimit: 800 },
});
