// Kernels for e2e/placement.spec.js: the debug check of JS kernels (loadEcsia({ debug: true }))
// must name the two that keep state between calls at module level, and none of the others.

/** position += velocity * dt; pure (the scenario's). */
export { integrate } from './scenario.js';

/**
 * seen.x = position.x; pure. Spawns two entities per batch (one reserved handle, one pending with
 * spawnsPerBatch: 1) and sets each through its handle.
 */
export function copy(chunk, dt, commands) {
  const p = chunk.columns.position;
  const seen = chunk.columns.seen;
  for (let i = 0; i < chunk.count; i++) seen[i] = p[2 * i];
  for (let k = 0; k < 2; k++) {
    const child = commands.spawn({ seen: { x: chunk.count } });
    commands.set(child, 'seen', { x: chunk.count + k + 0.5 });
  }
}

/** A call counter at module level: every row gets the calls this instance has seen. */
let calls = 0;
export function count(chunk) {
  calls += 1;
  const t = chunk.columns.tally;
  for (let i = 0; i < chunk.count; i++) t[i] = calls;
}

/** A cache at module level: memo.x = the position.x its first call saw for the entity (stale later). */
const firstSeen = new Map();
export function cached(chunk) {
  const p = chunk.columns.position;
  const memo = chunk.columns.memo;
  const entities = chunk.entities;
  for (let i = 0; i < chunk.count; i++) {
    if (!firstSeen.has(entities[i])) firstSeen.set(entities[i], p[2 * i]);
    memo[i] = firstSeen.get(entities[i]);
  }
}
