// The netcode demo's kernel module (loadEcsia({ kernels })): the dust and shots move on the
// workers (on the page in the single build), during live frames and re-simulated ones alike.

/** position += velocity * dt, rounded to f32 as the columns hold it. */
export function integrate(chunk, dt) {
  const p = chunk.columns.position;
  const v = chunk.columns.velocity;
  for (let i = 0, n = 2 * chunk.count; i < n; i += 1) p[i] += Math.fround(v[i] * dt);
}

/** The arena wraps around: 0..1000 on both axes. */
export function wrap(chunk) {
  const p = chunk.columns.position;
  for (let i = 0, n = 2 * chunk.count; i < n; i += 1) {
    if (p[i] < 0) p[i] += 1000;
    else if (p[i] >= 1000) p[i] -= 1000;
  }
}
