// Page-side set-up of the topics scenario (kernels in ./kernels/topics.js), used by
// e2e/topics.spec.js: units publish hits from JS kernels on the workers, the page publishes
// heals, a main-thread JS system applies both, a consumer kernel tallies the hits.
import { rng } from './rng.js';

export const TOPICS_KERNELS_URL = new URL('./kernels/topics.js', import.meta.url);

/**
 * Runs `frames` frames; returns { variant, workers, hashes, seen, tally, diagnostics }: the state
 * hash after each frame, and every message the main-thread consumer saw (as [topic, fields...]).
 */
export async function runTopics(loadEcsia, { threads, workers, frames, units = 3000, snapshotAt = -1, restore = null }) {
  const diagnostics = [];
  const ecsia = await loadEcsia({ threads, kernels: TOPICS_KERNELS_URL, onDiagnostic: (m) => diagnostics.push(m) });
  const world = ecsia.createWorld({ maxEntities: 1 << 16 });
  world.defineComponent('unit', { cooldown: 'i32', power: 'i32' });
  world.defineComponent('aim', { at: 'entity' });
  world.defineComponent('health', { hp: 'f32' });
  world.defineComponent('tally', { count: 'u32', damage: 'u32', digest: 'u32' });
  world.defineTopic('hit', { source: 'entity', target: 'entity', damage: 'f32' });
  world.defineTopic('heal', { target: 'entity', amount: 'f32' });
  const next = rng(11);
  const handles = world.spawnMany(units, { unit: { cooldown: Array.from({ length: units }, () => 1 + next(6)), power: Array.from({ length: units }, () => 1 + next(9)) }, health: { hp: 100 } });
  for (let i = 0; i < units; i++) world.add(handles[i], 'aim', { at: handles[next(units)] });
  world.spawn({ tally: {} });
  const scheduler = world.createScheduler({ workers, batchRows: 256 });
  const seen = [];
  // Registered before the publishers: the plan still runs it after them.
  scheduler.addSystem({
    name: 'ApplyHits', writes: ['health'], consumes: ['hit', 'heal'],
    run(w, dt, chunks, messages) {
      for (const m of messages.heal) {
        seen.push(['heal', m.target, m.amount]);
        if (w.isAlive(m.target) && w.has(m.target, 'health')) w.set(m.target, 'health', { hp: w.get(m.target, 'health').hp + m.amount });
      }
      const { source, target, damage } = messages.hit.fields;
      for (let i = 0; i < messages.hit.count; i++) {
        seen.push(['hit', source[i], target[i], damage[i]]);
        const t = target[i];
        if (w.isAlive(t) && w.has(t, 'health')) w.set(t, 'health', { hp: w.get(t, 'health').hp - damage[i] });
      }
    },
  });
  scheduler.addSystem({ name: 'Shoot', kernel: 'shoot', reads: ['aim'], writes: ['unit'], publishes: ['hit'], spawnsPerBatch: 4 });
  scheduler.addSystem({ name: 'Tally', kernel: 'tally', writes: ['tally'], consumes: ['hit'] });
  const hashes = [];
  const seenAfter = [];  // seen.length after each frame
  let snapshot = null;
  // restore: { bytes, from }: the world of frame `from`, taken by a run with snapshotAt = from.
  if (restore !== null) world.restore(restore.bytes);
  for (let f = restore === null ? 0 : restore.from; f < frames; f++) {
    // The page publishes between frames, in call order.
    for (let k = 0; k < f % 3; k++) world.publish('heal', { target: handles[(f * 7 + k) % units], amount: k + 1 });
    if (f === snapshotAt) snapshot = world.snapshot();
    await scheduler.update(1 / 60);
    hashes.push(world.stateHash());
    seenAfter.push(seen.length);
  }
  const [tally] = [...world.query({ with: ['tally'] }).chunks()].map((c) => Array.from(c.columns.tally));
  const out = { variant: ecsia.variant, workers: scheduler.workers, hashes, seen, seenAfter, tally, plan: scheduler.explainPlan(), diagnostics, snapshot };
  scheduler.dispose();
  world.dispose();
  return out;
}
