// Loads on the page but throws in a worker (no `document` there): the page loads, and every
// batch on a worker fails naming the reason (e2e/kernels.spec.js).
if (typeof document === 'undefined') throw new Error('this module needs a document');
export function integrate(chunk, dt) {
  const p = chunk.columns.position;
  for (let i = 0; i < chunk.count; i++) p[2 * i] += dt;
}
