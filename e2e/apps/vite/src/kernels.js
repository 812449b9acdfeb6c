// The app's kernel module (loadEcsia({ kernels })): each exported function is a kernel, named by
// its export and run in row batches on the workers (on the page in the single build). It may
// import other modules, as any ES module does.
import { outside } from './edges.js';

export function integrate(chunk, dt) {
  const p = chunk.columns.position;  // Float32Array views over this batch's rows: x0, y0, x1, ...
  const v = chunk.columns.velocity;
  for (let i = 0, n = 2 * chunk.count; i < n; i += 1) p[i] += Math.fround(v[i] * dt);
}

// Turns velocities back at the edges of the square.
export function bounce(chunk) {
  const p = chunk.columns.position;
  const v = chunk.columns.velocity;
  for (let i = 0, n = 2 * chunk.count; i < n; i += 1) {
    if (outside(p[i], v[i])) v[i] = -v[i];
  }
}
