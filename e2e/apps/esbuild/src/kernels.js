// The app's kernel module (loadEcsia({ kernels })): each exported function is a kernel, run in
// row batches on the workers. integrate is the built-in Move written in JS, rounded as the C++
// kernel rounds (a float product, then a float sum), so both give the same stateHash.
export function integrate(chunk, dt) {
  const p = chunk.columns.position;  // Float32Array views over this batch's rows: x0, y0, x1, ...
  const v = chunk.columns.velocity;
  for (let i = 0, n = 2 * chunk.count; i < n; i += 1) p[i] += Math.fround(v[i] * dt);
}
