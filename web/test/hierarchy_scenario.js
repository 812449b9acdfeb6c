// Page-side set-up of the hierarchy scenario (kernels in ./kernels/hierarchy.js), used by
// e2e/hierarchy.spec.js: a seeded ChildOf forest, a cascade system that propagates world
// positions and a kernel that restructures the forest every frame.
import { rng } from './rng.js';

export const HIERARCHY_KERNELS_URL = new URL('./kernels/hierarchy.js', import.meta.url);

/**
 * A forest of `nodes` (the first `roots` without a parent; each other one under a random node
 * spawned before it in a shuffled order, so parents and children sit anywhere in the table).
 */
export function buildForest(world, { nodes, roots, seed = 7 }) {
  world.defineComponent('localPos', { x: 'f32', y: 'f32' });
  world.defineComponent('worldPos', { x: 'f32', y: 'f32' });
  world.defineComponent('level', { d: 'u32' });
  const next = rng(seed);
  const handles = [];
  for (let i = 0; i < nodes; i++) {
    handles.push(world.spawn({ localPos: { x: next(40), y: next(9) }, worldPos: {}, level: {} }));
  }
  const order = handles.slice();
  for (let i = order.length - 1; i > 0; i--) {
    const j = next(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (let i = roots; i < order.length; i++) world.addPair(order[i], 'ChildOf', order[next(i)]);
  return handles;
}

function entitiesWith(world, names) {
  const out = [];
  for (const chunk of world.query({ with: names }).chunks()) {
    for (let i = 0; i < chunk.count; i++) out.push(chunk.entities[i]);
  }
  return out;
}

/** Every live node's worldPos against its parent's (or its own localPos at a root); the first mismatch or null. */
export function checkPropagation(world) {
  for (const e of entitiesWith(world, ['localPos', 'worldPos'])) {
    const parent = world.targetOf(e, 'ChildOf');
    const local = world.get(e, 'localPos');
    const base = parent === null ? { x: 0, y: 0 } : world.get(parent, 'worldPos');
    const expected = { x: base.x + local.x, y: base.y + local.y };
    const got = world.get(e, 'worldPos');
    if (got.x !== expected.x || got.y !== expected.y) return { entity: e, parent, got, expected };
  }
  return null;
}

/**
 * Runs the scenario for `frames` frames on `workers` workers (undefined: the engine's; 0: serial);
 * returns the state hash after each frame, what each frame's check found, and counts.
 */
export async function runHierarchy(loadEcsia, { threads, workers, frames, nodes = 3000, roots = 40, batchRows = 64, restructure = true }) {
  const diagnostics = [];
  const ecsia = await loadEcsia({ threads, kernels: HIERARCHY_KERNELS_URL, onDiagnostic: (m) => diagnostics.push(m) });
  const world = ecsia.createWorld({ maxEntities: 1 << 16 });
  buildForest(world, { nodes, roots });
  const scheduler = world.createScheduler({ workers, batchRows });
  if (restructure) {
    scheduler.addSystem({ name: 'Restructure', kernel: 'restructure', reads: [], writes: ['localPos'], spawnsPerBatch: 2, before: ['Propagate'] });
  }
  scheduler.addSystem({
    name: 'Propagate', kernel: 'propagate', reads: ['localPos'], writes: ['worldPos', 'level'],
    cascade: 'ChildOf', parentReads: ['worldPos'],
  });
  const hashes = [];
  const mismatches = [];
  for (let f = 0; f < frames; f++) {
    await scheduler.update(1 / 60);
    hashes.push(world.stateHash());
    mismatches.push(checkPropagation(world));
  }
  let deepest = 0;
  for (const e of entitiesWith(world, ['level'])) deepest = Math.max(deepest, world.get(e, 'level').d);
  const out = {
    variant: ecsia.variant, workers: scheduler.workers, hashes, mismatches, deepest,
    alive: world.count(['localPos']), children: world.subjectsOf('ChildOf', '*').length,
    diagnostics: diagnostics.filter((m) => !m.includes('threads are off')),
  };
  scheduler.dispose();
  world.dispose();
  return out;
}
