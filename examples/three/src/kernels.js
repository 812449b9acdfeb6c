// The app's kernel module (loadEcsia({ kernels })): each exported function is a JS kernel, run in
// row batches on the workers. A kernel depends on its arguments only (every worker has its own
// instance of this module), so the constants below are all it shares. They are exported for the
// page's setup (main.js: circular orbits); only exported functions are kernels.

export const GM = 400_000;      // the central mass's pull: one orbit takes ~10 s at radius 100
export const SOFTENING2 = 400;  // squared: keeps the pull finite for bodies that pass near the centre

// Each body falls toward the centre and moves on (semi-implicit Euler: velocity first, then
// position with the new velocity, so orbits neither spiral in nor fly off over time).
export function orbit(chunk, dt) {
  const p = chunk.columns.position;  // x0, y0, z0, x1, ... for this batch's rows
  const v = chunk.columns.velocity;
  for (let i = 0, n = 3 * chunk.count; i < n; i += 3) {
    const x = p[i], y = p[i + 1], z = p[i + 2];
    const r2 = x * x + y * y + z * z + SOFTENING2;
    const pull = (GM * dt) / (r2 * Math.sqrt(r2));
    v[i] -= pull * x;
    v[i + 1] -= pull * y;
    v[i + 2] -= pull * z;
    p[i] += v[i] * dt;
    p[i + 1] += v[i + 1] * dt;
    p[i + 2] += v[i + 2] * dt;
  }
}
