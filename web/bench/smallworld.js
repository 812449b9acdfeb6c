// The small-world workloads (DESIGN.md, "small worlds"): what a page pays per entity call and per
// frame of small systems, ecsia's JS API against the JS ECS libraries of smallpeers.js in the
// same page, interleaved.
//   calls      per call from JS at `population` entities: spawn (one one-field component),
//              despawn, add/remove of a tag and of a one-field component, has, get + set; and
//              the bulk forms addMany/removeMany per entity (when the world has them)
//   iteration  small systems through query().chunks(): five one-component queries over 1,000
//              entities (packed5), three two-component swaps over four archetypes of 1,000
//              (simple), two queries over 26 archetypes of 100 (frag); with a plain JS loop
// Results: ns per operation (per entity call, or per frame of the shape) per library, and
// ecsia's ratio to the fastest library measured for that operation (median of per-repetition
// ratios: < 1 = ecsia faster).
import { interleave, median } from './timing.js';

// The median of a/b over the repetitions where b was measured at all: a library's sub-nanosecond
// typed-array get + set can read 0 over a short sample (the isolated page's clock is 5 µs), and
// with an even count of repetitions one such 0 made the median of the ratios Infinity. null when
// no repetition measured b.
function ratioOfSamples(a, b) {
  const ratios = [];
  for (let i = 0; i < a.length; i += 1) if (b[i] > 0) ratios.push(a[i] / b[i]);
  return ratios.length === 0 ? null : median(ratios);
}
import { callPeers, iterationPeers, jsIteration, VERSIONS } from './smallpeers.js';

export const CALL_OPS = ['spawn', 'despawn', 'addTag', 'removeTag', 'addValue', 'removeValue', 'has', 'getSet'];
export const BULK_OPS = ['addManyTag', 'removeManyTag', 'addManyValue', 'removeManyValue'];
// The order one cycle runs them in: spawn before despawn, add before remove (each op leaves the
// world as the next one expects it).
const CYCLE = ['spawn', 'despawn', 'addTag', 'removeTag', 'addValue', 'removeValue', 'has', 'getSet',
  'addManyTag', 'removeManyTag', 'addManyValue', 'removeManyValue'];

// ecsia's per-entity loops, one function each (so V8 optimises each on its own).
function ecsiaCalls(ecsia, population) {
  const world = ecsia.createWorld({ maxEntities: 4 * population + 1024 });
  world.defineComponent('a', { v: 'f32' });
  world.defineComponent('b', { v: 'f32' });
  world.defineComponent('tag', {});
  const values = new Float32Array(population);
  for (let i = 0; i < population; i += 1) values[i] = i;
  const entities = world.spawnMany(population, { a: { v: values } });
  const spawned = new Uint32Array(population);
  const bulk = typeof world.addMany === 'function' && typeof world.removeMany === 'function';
  const calls = {
    spawn() {
      for (let i = 0; i < spawned.length; i += 1) spawned[i] = world.spawn({ a: { v: i } });
      return spawned[0];
    },
    despawn() { for (let i = 0; i < spawned.length; i += 1) world.despawn(spawned[i]); return 0; },
    addTag() { for (let i = 0; i < entities.length; i += 1) world.add(entities[i], 'tag'); return 0; },
    removeTag() { for (let i = 0; i < entities.length; i += 1) world.remove(entities[i], 'tag'); return 0; },
    addValue() { for (let i = 0; i < entities.length; i += 1) world.add(entities[i], 'b', { v: i }); return 0; },
    removeValue() { for (let i = 0; i < entities.length; i += 1) world.remove(entities[i], 'b'); return 0; },
    has() {
      let n = 0;
      for (let i = 0; i < entities.length; i += 1) if (world.has(entities[i], 'a')) n += 1;
      return n;
    },
    getSet() {
      for (let i = 0; i < entities.length; i += 1) {
        const e = entities[i];
        world.set(e, 'a', { v: world.get(e, 'a').v + 1 });
      }
      return 0;
    },
    addManyTag: bulk ? () => { world.addMany(entities, 'tag'); return 0; } : null,
    removeManyTag: bulk ? () => { world.removeMany(entities, 'tag'); return 0; } : null,
    addManyValue: bulk ? () => { world.addMany(entities, 'b', { v: values }); return 0; } : null,
    removeManyValue: bulk ? () => { world.removeMany(entities, 'b'); return 0; } : null,
    // Each spawn/despawn cycle reuses the same slots, and a slot retires after 1,024 generations
    // (22 index bits): the caller starts a fresh world before that, outside the timed calls.
    cycles: 0,
    dispose() { world.dispose(); },
    check() {
      // After a whole cycle: the population is back as it was, with only `a`.
      if (world.count(['a']) !== population || world.count(['tag']) !== 0 || world.count(['b']) !== 0) {
        throw new Error(`calls: the ecsia world is not back to ${population} entities with only 'a' after a cycle`);
      }
    },
  };
  return calls;
}

const ECSIA_CYCLES_PER_WORLD = 500;

// One cycle of every op of `lib` (an object of op functions or null), adding ms per op into `into`.
function cycle(lib, into) {
  let sink = 0;
  if (lib.cycles !== undefined) lib.cycles += 1;
  for (const op of CYCLE) {
    const fn = lib[op];
    if (typeof fn !== 'function') continue;
    const start = performance.now();
    sink += fn();
    into[op] += performance.now() - start;
  }
  return sink;
}

const zeroes = () => Object.fromEntries(CYCLE.map((op) => [op, 0]));

/**
 * calls: per-entity operations at `population` entities. Each repetition runs every library's
 * cycles for about sampleMs (rotating which library goes first); an op's ns is its summed time
 * over that sample's cycles divided by the calls made. Median over repetitions.
 */
export async function calls(env, { population = 1000, repetitions = 15, sampleMs = 40, warmupMs = 400 } = {}) {
  const makers = { ecsia: (n) => ecsiaCalls(env.ecsia, n), ...callPeers };
  const libs = {};
  for (const [name, make] of Object.entries(makers)) libs[name] = make(population);
  const names = Object.keys(libs);
  // A fresh ecsia world when the slots' generations run low (see ecsiaCalls), never while timed.
  const renew = (name, upcoming) => {
    const lib = libs[name];
    if (lib.cycles === undefined || lib.cycles + upcoming < ECSIA_CYCLES_PER_WORLD) return;
    lib.check();
    lib.dispose();
    libs[name] = makers[name](population);
  };
  let sink = 0;
  const cyclesPerSample = {};
  for (const name of names) {
    const warm = zeroes();
    const start = performance.now();
    const took = [];
    // Warm-up: V8's optimising tier arrives only after a loop has run for a while. A sample's
    // cycles come from the median cycle of the warm-up's second half: single cycles now and
    // then take tens of ms (garbage collection, compilation), which must not set the size.
    while (performance.now() - start < warmupMs || took.length < 10) {
      renew(name, 1);
      const begin = performance.now();
      sink += cycle(libs[name], warm);
      took.push(performance.now() - begin);
    }
    const cycleMs = Math.max(median(took.slice(took.length >> 1)), 1e-3);
    cyclesPerSample[name] = Math.max(3, Math.ceil(sampleMs / cycleMs));
  }
  libs.ecsia.check();
  const perRep = Object.fromEntries(names.map((name) => [name, Object.fromEntries(CYCLE.map((op) => [op, []]))]));
  for (let rep = 0; rep < repetitions; rep += 1) {
    for (let j = 0; j < names.length; j += 1) {
      const name = names[(j + rep) % names.length];
      if (name === 'ecsia' && cyclesPerSample[name] >= ECSIA_CYCLES_PER_WORLD) cyclesPerSample[name] = ECSIA_CYCLES_PER_WORLD - 10;
      renew(name, cyclesPerSample[name]);
      const into = zeroes();
      for (let c = 0; c < cyclesPerSample[name]; c += 1) sink += cycle(libs[name], into);
      for (const op of CYCLE) perRep[name][op].push((into[op] * 1e6) / (cyclesPerSample[name] * population));
    }
  }
  libs.ecsia.check();
  const available = (name, op) => typeof libs[name][op] === 'function';
  const nsPerOp = {};
  for (const name of names) {
    nsPerOp[name] = {};
    for (const op of CYCLE) nsPerOp[name][op] = available(name, op) ? median(perRep[name][op]) : null;
  }
  const ops = {};
  for (const op of CALL_OPS) {
    const peers = names.filter((n) => n !== 'ecsia' && available(n, op));
    const fastest = peers.reduce((best, n) => (best === null || nsPerOp[n][op] < nsPerOp[best][op] ? n : best), null);
    ops[op] = {
      ecsiaNs: nsPerOp.ecsia[op],
      fastest,
      fastestNs: fastest === null ? null : nsPerOp[fastest][op],
      ecsiaOverFastest: fastest === null ? null : ratioOfSamples(perRep.ecsia[op], perRep[fastest][op]),
    };
  }
  // Bulk: ns per entity of addMany/removeMany against the per-call form of the same op.
  const bulk = {};
  const bulkOf = { addManyTag: 'addTag', removeManyTag: 'removeTag', addManyValue: 'addValue', removeManyValue: 'removeValue' };
  for (const op of BULK_OPS) {
    const per = bulkOf[op];
    bulk[op] = available('ecsia', op)
      ? {
        ns: nsPerOp.ecsia[op],
        perCallNs: nsPerOp.ecsia[per],
        perCallOverBulk: median(perRep.ecsia[per].map((v, i) => v / perRep.ecsia[op][i])),
      }
      : null;
  }
  for (const lib of Object.values(libs)) lib.dispose?.();
  return {
    population,
    versions: VERSIONS,
    cyclesPerSample,
    nsPerOp,
    ops,
    bulkAvailable: available('ecsia', 'addManyTag'),
    bulk,
    sink: Number.isFinite(sink) ? 0 : 1,
  };
}

// ---- iteration

const SHAPES = {
  packed5: { count: 1000, label: 'five queries over 1,000 entities' },
  simple: { count: 1000, label: 'three two-component systems over four archetypes of 1,000' },
  frag: { count: 100, label: 'two queries over 26 archetypes of 100' },
};

export function ecsiaIteration(ecsia, shape, count) {
  const world = ecsia.createWorld({ maxEntities: 26 * count + 1024 });
  const one = { v: 1 };
  const define = (name) => world.defineComponent(name, { v: 'f32' });
  const double = (name) => {
    const q = world.query({ with: [name] });
    return () => {
      const chunks = q.chunks();
      for (let c = 0; c < chunks.length; c += 1) {
        const chunk = chunks[c];
        const v = chunk.columns[name];
        for (let i = 0, n = chunk.count; i < n; i += 1) v[i] *= 2;
      }
    };
  };
  const swap = (x, y) => {
    const q = world.query({ with: [x, y] });
    return () => {
      const chunks = q.chunks();
      for (let c = 0; c < chunks.length; c += 1) {
        const chunk = chunks[c];
        const a = chunk.columns[x];
        const b = chunk.columns[y];
        for (let i = 0, n = chunk.count; i < n; i += 1) {
          const t = a[i];
          a[i] = b[i];
          b[i] = t;
        }
      }
    };
  };
  let systems;
  let rows;  // rows the systems visit per frame
  if (shape === 'packed5') {
    const names = ['a', 'b', 'c', 'd', 'e'];
    names.forEach(define);
    world.spawnMany(count, Object.fromEntries(names.map((n) => [n, one])));
    systems = names.map(double);
    rows = 5 * count;
  } else if (shape === 'simple') {
    ['a', 'b', 'c', 'd', 'e'].forEach(define);
    for (const names of [['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'e']]) {
      world.spawnMany(count, Object.fromEntries(names.map((n) => [n, one])));
    }
    systems = [swap('a', 'b'), swap('c', 'd'), swap('c', 'e')];
    rows = 6 * count;  // a/b in 4 tables, c/d in 1, c/e in 1
  } else {
    const letters = Array.from({ length: 26 }, (_, i) => `k${String.fromCharCode(97 + i)}`);
    letters.forEach(define);
    define('data');
    for (const letter of letters) world.spawnMany(count, { data: one, [letter]: one });
    systems = [double('data'), double(letters[25])];
    rows = 27 * count;
  }
  const frame = () => { for (let s = 0; s < systems.length; s += 1) systems[s](); };
  return {
    world,
    rows,
    run(frames) { for (let f = 0; f < frames; f += 1) frame(); },
    dispose() { world.dispose(); },
  };
}

/**
 * iteration: ns per frame of each shape for ecsia (query().chunks() on the page's thread), each
 * library of smallpeers.js and a plain JS loop, interleaved (timing.js).
 */
export async function iteration(env, { repetitions = 21, sampleMs = 30, warmupMs = 300, settleMs = 1000, maxWarmupMs = 4000, shapes = Object.keys(SHAPES) } = {}) {
  const results = [];
  for (const shape of shapes) {
    const { count, label } = SHAPES[shape];
    const engine = ecsiaIteration(env.ecsia, shape, count);
    const peers = Object.entries(iterationPeers).map(([name, make]) => ({ name, lib: make(shape, count) }));
    const js = jsIteration(shape, count);
    const variants = [
      { name: 'ecsia', run: engine.run, settle: true },
      ...peers.map(({ name, lib }) => ({ name, run: lib.run, settle: true })),
      { name: 'JS loop', run: js.run, settle: true },
    ];
    const { samples, frames } = await interleave(variants, { repetitions, sampleMs, warmupMs, settleMs, maxWarmupMs });
    const nsPerFrame = Object.fromEntries(Object.entries(samples).map(([name, ms]) => [name, median(ms) * 1e6]));
    const peerNames = peers.map((p) => p.name);
    const fastest = peerNames.reduce((best, n) => (best === null || nsPerFrame[n] < nsPerFrame[best] ? n : best), null);
    results.push({
      shape,
      label,
      count,
      rowsPerFrame: engine.rows,
      framesPerSample: frames,
      nsPerFrame,
      fastest,
      // speed of ecsia / speed of the fastest library (>= 1: ecsia at least as fast)
      ecsiaSpeedOverFastest: median(samples[fastest].map((v, i) => v / samples.ecsia[i])),
      jsLoopSpeedOverEcsia: median(samples.ecsia.map((v, i) => v / samples['JS loop'][i])),
    });
    engine.dispose();
    for (const { lib } of peers) lib.dispose?.();
  }
  return { versions: VERSIONS, shapes: results };
}
