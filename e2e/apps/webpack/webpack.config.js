// The webpack settings ecsia-wasm needs (the README's webpack recipe is this file): an ordinary
// production build, and the kernel module built as an ES module of its own. webpack 5 emits the
// .wasm files and the pthread worker from the glue's `new URL(..., import.meta.url)`, and loads
// them relative to the bundle (publicPath 'auto').
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

const app = {
  name: 'app',
  mode: 'production',
  entry: './src/index.js',
  output: { path: path.join(here, 'dist'), filename: 'main.js', clean: true },
  // The glue's pthread worker picks its module URL at run time ("Critical dependency: the request
  // of a dependency is an expression"); that import is never taken in a bundle, so say nothing.
  // The worker chunk imports the glue that starts it ("Circular dependency between chunks with
  // runtime"): it only means those two chunks cannot name each other by content hash.
  ignoreWarnings: [
    { module: /ecsia-wasm/, message: /Critical dependency/ },
    { message: /Circular dependency between chunks with runtime/ },
  ],
  // The .wasm files are large by webpack's measure; they load once, in the background.
  performance: { hints: false },
};

// The kernel module, bundled with what it imports as an ES module of its own beside main.js
// (dist/kernels.js; the workers import it by URL, and its exports are the kernels). After the app,
// whose build first empties dist/.
const kernels = {
  name: 'kernels',
  dependencies: ['app'],
  mode: 'production',
  entry: './src/kernels.js',
  experiments: { outputModule: true },
  output: { path: path.join(here, 'dist'), filename: 'kernels.js', library: { type: 'module' } },
};

export default [app, kernels];
