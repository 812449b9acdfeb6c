// Page-side set-up of the hierarchy scenario (kernels in ./kernels/hierarchy.js), used by
// e2e/hierarchy.spec.js: a seeded ChildOf forest, a cascade system that propagates world
// positions and a kernel that restructures the forest every frame.
import { propagate } from './kernels/hierarchy.js';
import { rng } from './rng.js';

export const HIERARCHY_KERNELS_URL = new URL('./kernels/hierarchy.js', import.meta.url);

/**
 * A forest of `nodes` (the first `roots` without a parent; each other one under a random node
 * spawned before it in a shuffled order, so parents and children sit anywhere in the table).
 * `define: false`: the caller defined localPos, worldPos and level.
 */
export function buildForest(world, { nodes, roots, seed = 7, define = true }) {
  if (define) {
    world.defineComponent('localPos', { x: 'f32', y: 'f32' });
    world.defineComponent('worldPos', { x: 'f32', y: 'f32' });
    world.defineComponent('level', { d: 'u32' });
  }
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

/** Every live node's 'seen' (PeekParents) against world.targetOf and its parent's localPos.x: the first mismatch or null. */
function checkPeeked(world) {
  for (const e of entitiesWith(world, ['seen'])) {
    const parent = world.targetOf(e, 'ChildOf');
    const expected = { parent, parentLocalX: parent === null ? -1 : world.get(parent, 'localPos').x };
    const got = world.get(e, 'seen');
    if (got.parent !== expected.parent || got.parentLocalX !== expected.parentLocalX) return { entity: e, got, expected };
  }
  return null;
}

/**
 * Runs the scenario for `frames` frames on `workers` workers (undefined: the engine's; 0: serial);
 * returns the state hash after each frame, what each frame's check found, and counts. The
 * propagation is the JS kernel, or with mainThread a main-thread system, or with cpp the C++
 * kernels PropagateCpp and PeekParents of the test module (with seen, the default with cpp, the
 * forest's nodes get the component PeekParents writes).
 */
export async function runHierarchy(loadEcsia, { threads, workers, frames, nodes = 3000, roots = 40, batchRows = 64, restructure = true,
  mainThread = false, cpp = false, seen = cpp }) {
  const diagnostics = [];
  const ecsia = await loadEcsia({ threads, kernels: HIERARCHY_KERNELS_URL, onDiagnostic: (m) => diagnostics.push(m) });
  const world = ecsia.createWorld({ maxEntities: 1 << 16 });
  const handles = buildForest(world, { nodes, roots });
  if (seen) {
    // The C++ kernels (web/test/modules/hierarchy_systems.cpp): PeekParents writes what
    // ctx.target_of and ctx.lookup found for the forest's first nodes (Restructure's new nodes
    // have no 'seen'). Without cpp, the same tables for the JS kernel, 'seen' left as it is.
    world.defineComponent('seen', { parent: 'entity', parentLocalX: 'f32' });
    for (const e of handles) world.add(e, 'seen');
  }
  const scheduler = world.createScheduler({ workers, batchRows });
  if (restructure) {
    scheduler.addSystem({ name: 'Restructure', kernel: 'restructure', reads: [], writes: ['localPos'], spawnsPerBatch: 2, before: [cpp ? 'PropagateCpp' : 'Propagate'] });
  }
  // mainThread: the same propagation as a main-thread system, called level by level with chunks
  // shaped like a kernel's (the kernel module's own function, run on the page).
  const levels = [];
  if (cpp) {
    scheduler.addSystem('PropagateCpp');
    scheduler.addSystem('PeekParents');
  } else scheduler.addSystem(mainThread
    ? {
      name: 'Propagate', reads: ['localPos'], writes: ['worldPos', 'level'], query: { with: ['localPos', 'worldPos', 'level'] },
      cascade: 'ChildOf', parentReads: ['worldPos'],
      run(w, dt, chunks) {
        levels.push(chunks.length === 0 ? -1 : chunks[0].depth);
        for (const chunk of chunks) propagate(chunk);
      },
    }
    : {
      name: 'Propagate', kernel: 'propagate', reads: ['localPos'], writes: ['worldPos', 'level'],
      cascade: 'ChildOf', parentReads: ['worldPos'],
    });
  const hashes = [];
  const mismatches = [];
  const peeked = [];  // cpp: per frame, the first node whose 'seen' is not what the world says, or null
  for (let f = 0; f < frames; f++) {
    await scheduler.update(1 / 60);
    hashes.push(world.stateHash());
    mismatches.push(checkPropagation(world));
    if (cpp) peeked.push(checkPeeked(world));
  }
  let deepest = 0;
  for (const e of entitiesWith(world, ['level'])) deepest = Math.max(deepest, world.get(e, 'level').d);
  const out = {
    variant: ecsia.variant, workers: scheduler.workers, hashes, mismatches, peeked, deepest, levels,
    seen: seen ? world.count(['seen']) : 0,
    alive: world.count(['localPos']), children: world.subjectsOf('ChildOf', '*').length,
    diagnostics: diagnostics.filter((m) => !m.includes('threads are off')),
  };
  scheduler.dispose();
  world.dispose();
  return out;
}

/**
 * The mixed scenario (G1 across everything that changes structure): the forest above with its
 * Restructure and Propagate kernels, JS kernels instantiating prefabs under spawner rows
 * (spawnFromPrefab), a C++ kernel re-parenting nodes and instantiating prefabs under them by
 * commands (Regroup), the C++ systems Move and Bounce over movers, and a main-thread JS system that
 * adds and removes pairs of a relation with data and re-parents nodes, choosing by a counter kept
 * in a component (so a restored world chooses the same). Returns { world, scheduler }.
 */
export function mixedScenario(ecsia, { workers, seed = 5 }) {
  const world = ecsia.createWorld({ maxEntities: 1 << 16 });
  defineMixed(world);
  const handles = buildForest(world, { nodes: 1500, roots: 20, seed, define: false });
  const orc = world.definePrefab('orc', { health: { hp: 30, regen: 0.25 }, localPos: { x: 1, y: 1 }, worldPos: {}, level: {} });
  const boss = world.definePrefab('orcBoss', { health: { hp: 300 } }, { extends: orc });
  for (let i = 0; i < 60; i++) world.add(handles[i * 7], 'spawner', { prefab: i % 4 === 0 ? boss : orc, every: 3 + (i % 4), n: 0 });
  for (let i = 0; i < 200; i++) world.spawn({ position: { x: i * 3, y: i * 2 }, velocity: { dx: 1 + (i % 5), dy: -2 } });
  world.spawn({ clock: {} });
  const scheduler = world.createScheduler({ workers, batchRows: 64 });
  addMixedSystems(scheduler);
  return { world, scheduler };
}

/** The definitions of the mixed scenario (for a world that restores its snapshot). */
export function defineMixed(world) {
  world.defineComponent('localPos', { x: 'f32', y: 'f32' });
  world.defineComponent('worldPos', { x: 'f32', y: 'f32' });
  world.defineComponent('level', { d: 'u32' });
  world.defineComponent('health', { hp: 'i32', regen: 'f32' });
  world.defineComponent('spawner', { prefab: 'u32', every: 'u32', n: 'u32' });
  world.defineComponent('clock', { frame: 'u32' });
  world.defineRelation('Follows', { gap: 'f32' });
}

/** The mixed scenario's systems, in the order their plan needs. */
export function addMixedSystems(scheduler) {
  scheduler.addSystem('Move');
  scheduler.addSystem('Bounce');
  scheduler.addSystem({ name: 'Restructure', kernel: 'restructureMixed', reads: [], writes: ['localPos'], spawnsPerBatch: 2 });
  scheduler.addSystem({ name: 'Spawn', kernel: 'spawnFromPrefab', reads: [], writes: ['spawner'], spawnsPerBatch: 1, after: ['Restructure'] });
  scheduler.addSystem('Regroup');  // C++ (web/test/modules/hierarchy_systems.cpp): pairs and prefabs by commands
  scheduler.addSystem({
    name: 'Gardener', reads: [], writes: ['clock'], after: ['Spawn'],
    run(world) {
      const [chunk] = world.query({ with: ['clock'] }).chunks();
      const clock = chunk.entities[0];
      const frame = world.get(clock, 'clock').frame + 1;
      world.set(clock, 'clock', { frame });
      const nodes = [];
      for (const c of world.query({ with: ['localPos'] }).chunks()) for (let i = 0; i < c.count; i++) nodes.push(c.entities[i]);
      nodes.sort((a, b) => a - b);
      if (nodes.length < 4) return;
      for (let k = 0; k < 6; k++) {
        const a = nodes[(frame * 31 + k * 97) % nodes.length];
        const b = nodes[(frame * 17 + k * 53 + 1) % nodes.length];
        if (a === b) continue;
        if (k % 3 === 0) world.addPair(a, 'Follows', b, { gap: frame + k });
        else if (k % 3 === 1) world.removePair(a, 'Follows', '*');
        else {
          try { world.addPair(a, 'ChildOf', b); } catch { /* a cycle: refused, nothing changed */ }
        }
      }
    },
  });
  scheduler.addSystem({
    name: 'Propagate', kernel: 'propagate', reads: ['localPos'], writes: ['worldPos', 'level'],
    cascade: 'ChildOf', parentReads: ['worldPos'], after: ['Gardener', 'Regroup'],
  });
}

/**
 * Runs the mixed scenario `frames` frames; takes a snapshot after `snapshotAt` of them; returns the
 * hash, the pair observers' events and the propagation check of every frame, the snapshot, and
 * what the frames made.
 */
export async function runMixed(loadEcsia, { threads, workers, frames, snapshotAt }) {
  const diagnostics = [];
  const ecsia = await loadEcsia({ threads, kernels: HIERARCHY_KERNELS_URL, onDiagnostic: (m) => diagnostics.push(m) });
  const { world, scheduler } = mixedScenario(ecsia, { workers });
  // Every pair added and removed, in the order the observers see them: kernels' commands at the
  // merge (re-parenting, prefab instances' IsA, Regroup's C++ commands), exclusive replacements,
  // cascade despawns and the main-thread system's calls. A frame's events, joined, per frame.
  const events = [];
  for (const relation of ['ChildOf', 'IsA', 'Follows']) {
    for (const event of ['add', 'remove']) world.observe(event, relation, (subject, target) => events.push(`${event} ${relation} ${subject}>${target}`));
  }
  const pairEvents = [];
  const hashes = [];
  const mismatches = [];  // per frame: the first node whose world position is not its parent's + its own
  let snapshot = null;
  for (let f = 0; f < frames; f++) {
    await scheduler.update(1 / 60);
    hashes.push(world.stateHash());
    pairEvents.push(events.splice(0).join(' '));
    mismatches.push(checkPropagation(world));
    if (f + 1 === snapshotAt) snapshot = Array.from(world.snapshot());
  }
  const out = {
    variant: ecsia.variant, hashes, pairEvents, snapshot, instances: world.query({ with: ['health'] }).count(),
    // Regroup's orcs: instances without the position that Spawn's overrides give.
    regrouped: world.query({ with: ['health'], without: ['position'], pairs: [['ChildOf', '*']] }).count(),
    children: world.subjectsOf('ChildOf', '*').length, follows: world.subjectsOf('Follows', '*').length,
    mismatches, diagnostics: diagnostics.filter((m) => !m.includes('threads are off')),
  };
  scheduler.dispose();
  world.dispose();
  return out;
}

/** Restores `snapshot` into a fresh world of the mixed scenario and runs `frames` frames: their hashes. */
export async function replayMixed(loadEcsia, { threads, workers, snapshot, frames }) {
  const ecsia = await loadEcsia({ threads, kernels: HIERARCHY_KERNELS_URL, onDiagnostic: () => {} });
  const world = ecsia.createWorld({ maxEntities: 1 << 16 });
  defineMixed(world);
  world.restore(new Uint8Array(snapshot));
  const scheduler = world.createScheduler({ workers, batchRows: 64 });
  addMixedSystems(scheduler);
  const hashes = [];
  for (let f = 0; f < frames; f++) {
    await scheduler.update(1 / 60);
    hashes.push(world.stateHash());
  }
  scheduler.dispose();
  world.dispose();
  return { variant: ecsia.variant, hashes };
}
