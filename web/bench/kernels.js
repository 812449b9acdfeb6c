// The benchmark page's kernel module (loadEcsia({ kernels })): DESIGN.md's workloads written as JS
// kernels, measured by the `kernels` workload of workloads.js. Also used by e2e/kernels.spec.js
// (the responsiveness check with JS kernels running).

/** move: position += velocity * dt over the batch's rows (x and y interleaved, like the JS loop peer). */
export function move(chunk, dt) {
  const p = chunk.columns.position;
  const v = chunk.columns.velocity;
  for (let i = 0, n = 2 * chunk.count; i < n; i++) p[i] += v[i] * dt;
}

/** The heavy workload's sub-steps per entity per frame (DESIGN.md). */
export const HEAVY_STEPS = 512;

// The math of the C++ Heavy systems, in JS (Math.sin/cos/exp in f64, stored as f32).
function heavyRows(h, count) {
  for (let i = 0; i < count; i++) {
    let a = h[2 * i];
    let b = h[2 * i + 1];
    for (let s = 0; s < HEAVY_STEPS; s++) {
      a = a * 0.999 + Math.sin(b + 0.1) * 0.01;
      b = b * 0.999 + Math.cos(a) * 0.01 + Math.exp(-a * a) * 0.001;
    }
    h[2 * i] = a;
    h[2 * i + 1] = b;
  }
}

export function heavy0(chunk) { heavyRows(chunk.columns.heavy0, chunk.count); }
export function heavy1(chunk) { heavyRows(chunk.columns.heavy1, chunk.count); }
export function heavy2(chunk) { heavyRows(chunk.columns.heavy2, chunk.count); }
export function heavy3(chunk) { heavyRows(chunk.columns.heavy3, chunk.count); }
export function heavy4(chunk) { heavyRows(chunk.columns.heavy4, chunk.count); }
export function heavy5(chunk) { heavyRows(chunk.columns.heavy5, chunk.count); }
export function heavy6(chunk) { heavyRows(chunk.columns.heavy6, chunk.count); }
export function heavy7(chunk) { heavyRows(chunk.columns.heavy7, chunk.count); }

/** Does nothing: what remains is the per-batch cost of calling a JS kernel. */
export function nothing() {}

/**
 * hierarchy: worldPos = the parent's worldPos + local (a cascade system over ChildOf with
 * parentReads: ['worldPos']; at depth 0 chunk.parent is undefined: worldPos = local).
 */
export function propagate(chunk) {
  const local = chunk.columns.local;
  const pos = chunk.columns.worldPos;
  const up = chunk.parent?.worldPos;
  if (up === undefined) {
    for (let i = 0, n = 2 * chunk.count; i < n; i++) pos[i] = local[i];
  } else {
    for (let i = 0, n = 2 * chunk.count; i < n; i++) pos[i] = up[i] + local[i];
  }
}

/** lookup: sum = the target's position x + y, one chunk.lookup per row (lookups: ['position']). */
export function lookupEach(chunk) {
  const t = chunk.columns.target;
  const sum = chunk.columns.sum;
  const pos = chunk.lookups.position;
  for (let i = 0; i < chunk.count; i++) {
    const at = chunk.lookup('position', t[i]);
    sum[i] = at < 0 ? 0 : pos[at] + pos[at + 1];
  }
}

/** lookup: the same through one chunk.lookupAll of the batch's target column. */
export function lookupAll(chunk) {
  const sum = chunk.columns.sum;
  const pos = chunk.lookups.position;
  const at = chunk.lookupAll('position', chunk.columns.target);
  for (let i = 0; i < chunk.count; i++) sum[i] = at[i] < 0 ? 0 : pos[at[i]] + pos[at[i] + 1];
}

/**
 * lookup's baseline for the same memory traffic: sum = the target's position x + y read straight
 * from the heap view at an index precomputed on the page (targetAt), no handle check, no row search.
 */
export function directRandom(chunk) {
  const at = chunk.columns.targetAt;
  const sum = chunk.columns.sum;
  const pos = chunk.lookups.position;
  for (let i = 0; i < chunk.count; i++) sum[i] = pos[at[i]] + pos[at[i] + 1];
}

/** lookup's baseline: sum = the row's own position x + y, read from its column. */
export function directRead(chunk) {
  const p = chunk.columns.position;
  const sum = chunk.columns.sum;
  for (let i = 0; i < chunk.count; i++) sum[i] = p[2 * i] + p[2 * i + 1];
}

/** shoot: one 'hit' message per row (the topics workload): its target and the row's power. */
export function shoot(chunk, dt, commands) {
  const power = chunk.columns.power;
  const entities = chunk.entities;
  for (let i = 0; i < chunk.count; i++) commands.publish('hit', { target: entities[i], damage: power[i] });
}

/** echo: the shoot kernel's values written into the row's own column instead of published. */
export function echo(chunk) {
  const power = chunk.columns.power;
  const echoed = chunk.columns.echo;  // { target: u32, damage: f32 }: a DataView (mixed types)
  const entities = chunk.entities;
  for (let i = 0; i < chunk.count; i++) {
    echoed.setUint32(8 * i, entities[i], true);
    echoed.setFloat32(8 * i + 4, power[i], true);
  }
}

/** shootMany: the shoot kernel's messages in one commands.publishMany call. */
export function shootMany(chunk, dt, commands) {
  commands.publishMany('hit', chunk.count, { target: chunk.entities, damage: chunk.columns.power });
}
