// The rollback game's kernel module (loadEcsia({ kernels })): its movers' systems, as JS kernels
// run in row batches on the workers (on the page in the single build).

/** Move: position += velocity * dt, rounded to f32 as the columns hold it. */
export function integrate(chunk, dt) {
  const p = chunk.columns.position;  // Float32Array views over this batch's rows: x0, y0, x1, ...
  const v = chunk.columns.velocity;
  for (let i = 0, n = 2 * chunk.count; i < n; i += 1) p[i] += Math.fround(v[i] * dt);
}

/** Bounce: turns velocities back at the edges of the square from 0 to 1000. */
export function bounce(chunk) {
  const p = chunk.columns.position;
  const v = chunk.columns.velocity;
  for (let i = 0, n = 2 * chunk.count; i < n; i += 1) {
    if ((p[i] < 0 && v[i] < 0) || (p[i] > 1000 && v[i] > 0)) v[i] = -v[i];
  }
}
