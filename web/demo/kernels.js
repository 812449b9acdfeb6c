// The demo's kernel module (loadEcsia({ kernels })): Move written as a JS kernel. It runs in row
// batches on the worker pool, next to the C++ kernels Attract and Bounce, and gives the same
// state hash at every worker count.

/** position += velocity * dt over the batch's rows (x and y interleaved). */
export function move(chunk, dt) {
  const p = chunk.columns.position;
  const v = chunk.columns.velocity;
  for (let i = 0, n = 2 * chunk.count; i < n; i++) p[i] += v[i] * dt;
}
