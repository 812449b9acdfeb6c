// The demo's kernel module (loadEcsia({ kernels })): Move written as a JS kernel. It runs in row
// batches on the worker pool, next to the C++ kernels Attract and Bounce, and gives the same
// state hash at every worker count.

/**
 * position += velocity * dt over the batch's rows (x and y interleaved). A particle that crosses
 * the view's middle (x = 500) publishes a 'crossed' message (topic), which the page's Events
 * system counts: the same messages, in the same order, at every worker count.
 */
export function move(chunk, dt, commands) {
  const p = chunk.columns.position;
  const v = chunk.columns.velocity;
  for (let i = 0, n = chunk.count; i < n; i++) {
    const x = p[2 * i];
    const moved = x + v[2 * i] * dt;
    p[2 * i] = moved;
    p[2 * i + 1] += v[2 * i + 1] * dt;
    if ((x < 500) !== (p[2 * i] < 500)) commands.publish('crossed', { entity: chunk.entities[i], rightward: p[2 * i] >= 500 });
  }
}

/** Orbit: each body's angle advances by its angular speed. */
export function orbit(chunk, dt) {
  const o = chunk.columns.orbit;  // { radius, angle, speed }: f32 x 3
  for (let i = 0; i < chunk.count; i++) o[3 * i + 1] += o[3 * i + 2] * dt;
}

/**
 * Place: a cascade over ChildOf, parents first: a body's position is its parent's (the centre of
 * the view for a sun) plus its orbit's offset. chunk.parent.position is each row's parent's
 * position, already placed this frame by the level above.
 */
export function place(chunk) {
  const o = chunk.columns.orbit;
  const p = chunk.columns.position;
  const up = chunk.parent?.position;
  for (let i = 0; i < chunk.count; i++) {
    const radius = o[3 * i];
    const angle = o[3 * i + 1];
    p[2 * i] = (up ? up[2 * i] : 500) + radius * Math.cos(angle);
    p[2 * i + 1] = (up ? up[2 * i + 1] : 500) + radius * Math.sin(angle);
  }
}
