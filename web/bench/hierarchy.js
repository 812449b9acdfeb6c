// The hierarchy workload: world position = parent's world position + local position through a
// ChildOf forest (by default 100,000 nodes under 1,000 roots, depth up to 8, random fan-out, the
// same shape as bench/hierarchy.cpp), every frame, measured in one page run:
//   JS loop            the nodes pre-sorted by depth with a parent-index array (the practical limit)
//   ecsia JS kernel    a cascade system (cascade: 'ChildOf', parentReads: ['worldPos']), serial
//                      executor, and with the worker count threads: 'auto' would start
//   bitECS 0.4         its idiomatic form: query(world, [Local, WorldPos, Cascade(ChildOf)])
//                      (depth order) and getRelationTargets for each node's parent
//   koota 0.6          no depth-ordered query: each node resolves its parent chain first
//                      (targetFor, memoised per frame), over koota's store arrays
// Every variant's result is checked against the JS loop's. Then re-parenting: 10,000 nodes a
// frame moved under a root (addPair calls), and the frame after them. And what a lookup costs
// (chunk.lookup of a random target's position against a read of the row's own, ns per row).
// And instantiateMany against spawnMany of the same components.
import * as bitecs from '/node_modules/bitecs/dist/core/index.mjs';
import * as koota from '/node_modules/koota/dist/index.js';
import { autoWorkers } from '../internal/engine.js';
import { interleave, median, ratio } from './timing.js';

const VERSIONS = { bitECS: '0.4.0', koota: '0.6.6' };

function xorshift(seed) {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state % n;
  };
}

// parent[i] (-1: a root; else an earlier node of depth < maxDepth), local x/y, depth.
function makeForest(nodes, roots, maxDepth, seed = 12345) {
  const next = xorshift(seed);
  const parent = new Int32Array(nodes).fill(-1);
  const depth = new Uint8Array(nodes);
  const lx = new Float32Array(nodes);
  const ly = new Float32Array(nodes);
  const open = [];  // nodes that may still take children
  for (let i = 0; i < nodes; i += 1) {
    lx[i] = next(64);
    ly[i] = next(64);
    if (i >= roots) {
      const p = open[next(open.length)];
      parent[i] = p;
      depth[i] = depth[p] + 1;
    }
    if (depth[i] < maxDepth) open.push(i);
  }
  return { nodes, parent, depth, lx, ly };
}

// The forest in depth order with parent indices into that order.
function jsLoop(forest) {
  const { nodes } = forest;
  const order = Array.from({ length: nodes }, (_, i) => i).sort((a, b) => forest.depth[a] - forest.depth[b] || a - b);
  const at = new Int32Array(nodes);
  order.forEach((node, i) => { at[node] = i; });
  const parent = new Int32Array(nodes);
  const lx = new Float32Array(nodes);
  const ly = new Float32Array(nodes);
  order.forEach((node, i) => {
    parent[i] = forest.parent[node] < 0 ? -1 : at[forest.parent[node]];
    lx[i] = forest.lx[node];
    ly[i] = forest.ly[node];
  });
  const wx = new Float32Array(nodes);
  const wy = new Float32Array(nodes);
  return {
    run(frames) {
      for (let f = 0; f < frames; f += 1) {
        for (let i = 0; i < nodes; i += 1) {
          const p = parent[i];
          if (p < 0) {
            wx[i] = lx[i];
            wy[i] = ly[i];
          } else {
            wx[i] = wx[p] + lx[i];
            wy[i] = wy[p] + ly[i];
          }
        }
      }
    },
    worldOf: (node) => [wx[at[node]], wy[at[node]]],
  };
}

function ecsiaForest(ecsia, forest, workers) {
  const world = ecsia.createWorld({ maxEntities: forest.nodes + 1024 });
  world.defineComponent('local', { x: 'f32', y: 'f32' });
  world.defineComponent('worldPos', { x: 'f32', y: 'f32' });
  const handles = Uint32Array.from(world.spawnMany(forest.nodes, { local: { x: forest.lx, y: forest.ly }, worldPos: {} }));
  for (let i = 0; i < forest.nodes; i += 1) {
    if (forest.parent[i] >= 0) world.addPair(handles[i], 'ChildOf', handles[forest.parent[i]]);
  }
  const scheduler = world.createScheduler({ workers });
  scheduler.addSystem({ name: 'Propagate', kernel: 'propagate', reads: ['local'], writes: ['worldPos'], cascade: 'ChildOf', parentReads: ['worldPos'] });
  return {
    world,
    scheduler,
    handles,
    run: async (frames) => { for (let f = 0; f < frames; f += 1) await scheduler.update(1 / 60); },
    worldOf: (node) => { const p = world.get(handles[node], 'worldPos'); return [p.x, p.y]; },
    dispose() { scheduler.dispose(); world.dispose(); },
  };
}

function bitecsForest(forest) {
  const world = bitecs.createWorld();
  const n = forest.nodes + 16;
  const Local = { x: new Float32Array(n), y: new Float32Array(n) };
  const WorldPos = { x: new Float32Array(n), y: new Float32Array(n) };
  const ChildOf = bitecs.createRelation(bitecs.makeExclusive, bitecs.withAutoRemoveSubject);
  const eids = [];
  for (let i = 0; i < forest.nodes; i += 1) {
    const eid = bitecs.addEntity(world);
    bitecs.addComponent(world, eid, Local);
    bitecs.addComponent(world, eid, WorldPos);
    Local.x[eid] = forest.lx[i];
    Local.y[eid] = forest.ly[i];
    eids.push(eid);
  }
  for (let i = 0; i < forest.nodes; i += 1) {
    if (forest.parent[i] >= 0) bitecs.addComponent(world, eids[i], ChildOf(eids[forest.parent[i]]));
  }
  return {
    run(frames) {
      for (let f = 0; f < frames; f += 1) {
        const ordered = bitecs.query(world, [Local, WorldPos, bitecs.Cascade(ChildOf)]);
        for (let i = 0; i < ordered.length; i += 1) {
          const eid = ordered[i];
          const p = bitecs.getRelationTargets(world, eid, ChildOf)[0];
          WorldPos.x[eid] = (p === undefined ? 0 : WorldPos.x[p]) + Local.x[eid];
          WorldPos.y[eid] = (p === undefined ? 0 : WorldPos.y[p]) + Local.y[eid];
        }
      }
    },
    worldOf: (node) => [WorldPos.x[eids[node]], WorldPos.y[eids[node]]],
    dispose() { bitecs.deleteWorld(world); },
  };
}

function kootaForest(forest) {
  const world = koota.createWorld();
  const Local = koota.trait({ x: 0, y: 0 });
  const WorldPos = koota.trait({ x: 0, y: 0 });
  const ChildOf = koota.relation({ exclusive: true, autoDestroy: 'source' });
  const entities = [];
  for (let i = 0; i < forest.nodes; i += 1) entities.push(world.spawn(Local({ x: forest.lx[i], y: forest.ly[i] }), WorldPos));
  for (let i = 0; i < forest.nodes; i += 1) {
    if (forest.parent[i] >= 0) entities[i].add(ChildOf(entities[forest.parent[i]]));
  }
  let stamp = new Uint32Array(1024);
  let frame = 0;
  return {
    run(frames) {
      for (let f = 0; f < frames; f += 1) {
        frame += 1;
        world.query(Local, WorldPos).useStores(([local, pos], list) => {
          const resolve = (e) => {
            const id = e.id();
            if (id >= stamp.length) {
              const grown = new Uint32Array(Math.max(2 * stamp.length, id + 1));
              grown.set(stamp);
              stamp = grown;
            }
            if (stamp[id] === frame) return id;
            const p = e.targetFor(ChildOf);
            if (p === undefined) {
              pos.x[id] = local.x[id];
              pos.y[id] = local.y[id];
            } else {
              const pid = resolve(p);
              pos.x[id] = pos.x[pid] + local.x[id];
              pos.y[id] = pos.y[pid] + local.y[id];
            }
            stamp[id] = frame;
            return id;
          };
          for (let i = 0; i < list.length; i += 1) resolve(list[i]);
        });
      }
    },
    worldOf: (node) => { const p = entities[node].get(WorldPos); return [p.x, p.y]; },
    dispose() { world.destroy(); },
  };
}

// Nodes whose result differs from the JS loop's.
function differing(forest, reference, variant) {
  let count = 0;
  for (let i = 0; i < forest.nodes; i += 1) {
    const [ax, ay] = reference.worldOf(i);
    const [bx, by] = variant.worldOf(i);
    if (ax !== bx || ay !== by) count += 1;
  }
  return count;
}

// What chunk.lookup costs: a JS kernel summing each row's target's position (random targets)
// against one summing the row's own position from its column, serial executor, ns per row. With
// `tables: 4` the entities (targets and rows alike) lie in four tables, a quarter each, at random:
// most lookups then find another table than the last one's.
async function lookupCost(ecsia, { entities, repetitions, warmupMs, settleMs, tables = 1 }) {
  const world = ecsia.createWorld({ maxEntities: entities + 1024 });
  world.defineComponent('position', { x: 'f32', y: 'f32' });
  world.defineComponent('target', { who: 'entity' });
  world.defineComponent('sum', { v: 'f32' });
  world.defineComponent('targetAt', { i: 'u32' });
  world.defineComponent('apart', {});
  world.defineComponent('aside', {});
  const next = xorshift(7);
  const xs = Float32Array.from({ length: entities }, () => next(100));
  const handles = Uint32Array.from(world.spawnMany(entities, { position: { x: xs, y: xs }, target: {}, sum: {}, targetAt: {} }));
  if (tables === 4) {
    for (let i = 0; i < entities; i += 1) {
      const quarter = next(4);
      if (quarter & 1) world.add(handles[i], 'apart');
      if (quarter & 2) world.add(handles[i], 'aside');
    }
  }
  const targets = Uint32Array.from({ length: entities }, () => next(entities));
  // Each target's position as an index of the heap's Float32Array, for directRandom.
  const heapIndex = new Map();
  for (const chunk of world.query({ with: ['position'] }).chunks()) {
    const first = chunk.columns.position.byteOffset / 4;
    chunk.entities.forEach((e, row) => heapIndex.set(e, first + 2 * row));
  }
  for (let i = 0; i < entities; i += 1) {
    world.set(handles[i], 'target', { who: handles[targets[i]] });
    world.set(handles[i], 'targetAt', { i: heapIndex.get(handles[targets[i]]) });
  }
  const make = (name, kernel, extra) => {
    const scheduler = world.createScheduler({ workers: 0 });
    scheduler.addSystem({ name, kernel, reads: ['position', 'target'], writes: ['sum'], ...extra });
    return { scheduler, run: async (frames) => { for (let f = 0; f < frames; f += 1) await scheduler.update(1 / 60); } };
  };
  const each = make('LookupEach', 'lookupEach', { lookups: ['position'] });
  const all = make('LookupAll', 'lookupAll', { lookups: ['position'] });
  const direct = make('Direct', 'directRead', {});
  const random = make('DirectRandom', 'directRandom', { lookups: ['position'], reads: ['position', 'target', 'targetAt'] });
  const { samples } = await interleave([
    { name: 'lookup', run: each.run, settle: true },
    { name: 'lookupAll', run: all.run, settle: true },
    { name: 'direct', run: direct.run, settle: true },
    { name: 'random', run: random.run, settle: true },
  ], { repetitions, warmupMs, settleMs });
  const out = {
    entities,
    tables,
    nsPerRowLookup: median(samples.lookup) * 1e6 / entities,
    nsPerRowLookupAll: median(samples.lookupAll) * 1e6 / entities,
    nsPerRowDirect: median(samples.direct) * 1e6 / entities,
    nsPerRowRandom: median(samples.random) * 1e6 / entities,
    lookupOverDirect: ratio(samples, 'lookup', 'direct'),
    lookupAllOverDirect: ratio(samples, 'lookupAll', 'direct'),
    lookupOverRandom: ratio(samples, 'lookup', 'random'),
    lookupAllOverRandom: ratio(samples, 'lookupAll', 'random'),
  };
  each.scheduler.dispose();
  all.scheduler.dispose();
  direct.scheduler.dispose();
  random.scheduler.dispose();
  world.dispose();
  return out;
}

// instantiateMany against spawnMany: `entities` entities with the same two components (one given
// per row, one from the prefab or a constant), each into a fresh world; ms per call, medians.
function prefabCost(ecsia, { entities, repetitions }) {
  const xs = Float32Array.from({ length: entities }, (_, i) => i);
  const make = () => {
    const world = ecsia.createWorld({ maxEntities: entities + 16 });
    world.defineComponent('position', { x: 'f32', y: 'f32' });
    world.defineComponent('health', { hp: 'i32', regen: 'f32' });
    return world;
  };
  const ms = { spawnMany: [], instantiateMany: [] };
  for (let rep = 0; rep < repetitions; rep += 1) {
    for (const name of rep % 2 === 0 ? ['spawnMany', 'instantiateMany'] : ['instantiateMany', 'spawnMany']) {
      const world = make();
      const orc = world.definePrefab('orc', { health: { hp: 30, regen: 0.5 } });
      const start = performance.now();
      if (name === 'spawnMany') world.spawnMany(entities, { position: { x: xs, y: 0 }, health: { hp: 30, regen: 0.5 } });
      else world.instantiateMany(orc, entities, { position: { x: xs, y: 0 } });
      ms[name].push(performance.now() - start);
      world.dispose();
    }
  }
  const out = { entities, spawnManyMs: median(ms.spawnMany), instantiateManyMs: median(ms.instantiateMany) };
  out.instantiateOverSpawn = out.instantiateManyMs / out.spawnManyMs;
  return out;
}

/** The hierarchy workload (see the top of this file). */
export async function hierarchy(env, {
  nodes = 100_000, roots = 1_000, maxDepth = 8, repetitions = 15, reparent = 10_000, reparentFrames = 5, warmupMs = 300, settleMs = 2500,
} = {}) {
  const { ecsia } = env;
  const forest = makeForest(nodes, roots, maxDepth);
  const auto = autoWorkers(globalThis.navigator?.hardwareConcurrency, ecsia.maxWorkers);
  const loop = jsLoop(forest);
  const serial = ecsiaForest(ecsia, forest, 0);
  const threaded = ecsiaForest(ecsia, forest, auto);
  const bitecsRun = bitecsForest(forest);
  const kootaRun = kootaForest(forest);
  const variants = [
    { name: 'JS loop', run: loop.run, settle: true },
    { name: 'ecsia JS kernel, serial', run: serial.run, settle: true },
    { name: `ecsia JS kernel, ${auto} worker(s)`, run: threaded.run, settle: true },
    { name: `bitECS ${VERSIONS.bitECS}`, run: bitecsRun.run, settle: true },
    { name: `koota ${VERSIONS.koota}`, run: kootaRun.run, settle: true },
  ];
  const { samples } = await interleave(variants, { repetitions, warmupMs, settleMs });
  const msPerFrame = Object.fromEntries(Object.entries(samples).map(([name, ms]) => [name, median(ms)]));
  const differ = {
    'ecsia JS kernel, serial': differing(forest, loop, serial),
    [`ecsia JS kernel, ${auto} worker(s)`]: differing(forest, loop, threaded),
    [`bitECS ${VERSIONS.bitECS}`]: differing(forest, loop, bitecsRun),
    [`koota ${VERSIONS.koota}`]: differing(forest, loop, kootaRun),
  };
  const hashesEqual = serial.world.stateHash() === threaded.world.stateHash();

  // Re-parenting: `reparent` nodes (not roots) moved under a root each frame, then the frame.
  const next = xorshift(99);
  const callMs = [];
  const frameMs = [];
  for (let f = 0; f < reparentFrames; f += 1) {
    let start = performance.now();
    for (let k = 0; k < reparent; k += 1) {
      const node = roots + next(nodes - roots);
      serial.world.addPair(serial.handles[node], 'ChildOf', serial.handles[next(roots)]);
    }
    callMs.push(performance.now() - start);
    start = performance.now();
    await serial.scheduler.update(1 / 60);
    frameMs.push(performance.now() - start);
  }
  const steady = [];
  for (let f = 0; f < 5; f += 1) {
    const start = performance.now();
    await serial.scheduler.update(1 / 60);
    steady.push(performance.now() - start);
  }
  const lookup = await lookupCost(ecsia, { entities: Math.min(nodes, 100_000), repetitions, warmupMs, settleMs });
  // The same at 20,000 rows, whose entity table and column (480 kB together) stay in a core's L2
  // cache: at 100,000 (2 MB) a lookup's second array costs misses the precomputed read does not.
  const lookupInCache = await lookupCost(ecsia, { entities: Math.min(nodes, 20_000), repetitions, warmupMs, settleMs });
  // Targets in four tables: what a lookup costs when most find another table than the last one's.
  const lookupSpread = await lookupCost(ecsia, { entities: Math.min(nodes, 100_000), repetitions, warmupMs, settleMs, tables: 4 });
  const prefab = prefabCost(ecsia, { entities: nodes, repetitions: Math.max(3, repetitions) });
  const out = {
    lookup,
    lookupInCache,
    lookupSpread,
    prefab,
    nodes, roots, maxDepth: Math.max(...forest.depth), autoWorkers: auto, versions: VERSIONS,
    msPerFrame,
    differ,
    hashesEqual,
    kernelOverLoop: ratio(samples, 'ecsia JS kernel, serial', 'JS loop'),
    threadedOverSerial: ratio(samples, 'ecsia JS kernel, serial', `ecsia JS kernel, ${auto} worker(s)`),
    bitecsOverKernel: ratio(samples, `bitECS ${VERSIONS.bitECS}`, 'ecsia JS kernel, serial'),
    kootaOverKernel: ratio(samples, `koota ${VERSIONS.koota}`, 'ecsia JS kernel, serial'),
    reparent: { nodes: reparent, addPairMs: median(callMs), frameAfterMs: median(frameMs), steadyMs: median(steady) },
  };
  serial.dispose();
  threaded.dispose();
  bitecsRun.dispose();
  kootaRun.dispose();
  return out;
}
