// The JS ECS libraries a page might pick instead of ecsia, on the small-world shapes of
// smallworld.js (per-entity calls and iteration at about 1,000 entities), each pinned in the root
// package-lock.json: piecs, bitECS (also the move/tracked peer), wolf-ecs, koota. Each adapter
// does the same work as the ecsia variant in that library's own fastest documented way: values
// in typed arrays indexed by entity id where the library stores them so (piecs, bitECS,
// wolf-ecs), its store arrays where it has them (koota). An operation a library lacks is null
// (reported as "not available").
import * as bitecs from '/node_modules/bitecs/dist/core/index.mjs';
import { World as PiecsWorld, createEntitySystem } from '/node_modules/piecs/dist/index.mjs';
import { ECS as WolfEcs, all as wolfAll, types as wolfTypes } from '/node_modules/wolf-ecs/wolf-ecs.js';
import * as koota from '/node_modules/koota/dist/index.js';

export const VERSIONS = { piecs: '0.4.0', bitECS: '0.4.0', 'wolf-ecs': '2.1.3', koota: '0.6.6' };

// ---- per-entity calls: { spawn(n), despawn(), addTag(), removeTag(), addValue(), removeValue(), has(), getSet() }
// Each adapter holds `population` entities with component A {v} and spawns/despawns a second set
// of n entities. Every function does its operation once per entity of that set (or of the
// population) and returns a checksum the caller keeps, so nothing is optimised away.

export function piecsCalls(population) {
  const world = new PiecsWorld();
  const cap = 4 * population + 16;
  const A = { id: world.createComponentId(), v: new Float32Array(cap) };
  const B = { id: world.createComponentId(), v: new Float32Array(cap) };
  const Tag = { id: world.createComponentId() };
  const prefabA = world.prefabricate([A]);
  world.initialize();
  const entities = new Uint32Array(population);
  for (let i = 0; i < population; i += 1) {
    const e = world.createEntity(prefabA);
    A.v[e] = i;
    entities[i] = e;
  }
  const spawned = new Uint32Array(population);
  return {
    spawn() {
      for (let i = 0; i < spawned.length; i += 1) {
        const e = world.createEntity(prefabA);
        A.v[e] = i;
        spawned[i] = e;
      }
      if (spawned[spawned.length - 1] >= cap) throw new Error('piecs: entity ids outgrew the value arrays');
      return spawned[0];
    },
    despawn() { for (let i = 0; i < spawned.length; i += 1) world.deleteEntity(spawned[i]); return 0; },
    addTag() { for (let i = 0; i < entities.length; i += 1) world.addComponent(entities[i], Tag); return 0; },
    removeTag() { for (let i = 0; i < entities.length; i += 1) world.removeComponent(entities[i], Tag); return 0; },
    addValue() {
      for (let i = 0; i < entities.length; i += 1) {
        const e = entities[i];
        world.addComponent(e, B);
        B.v[e] = i;
      }
      return 0;
    },
    removeValue() { for (let i = 0; i < entities.length; i += 1) world.removeComponent(entities[i], B); return 0; },
    has() {
      let n = 0;
      for (let i = 0; i < entities.length; i += 1) if (world.hasComponent(entities[i], A)) n += 1;
      return n;
    },
    getSet() {
      for (let i = 0; i < entities.length; i += 1) {
        const e = entities[i];
        A.v[e] = A.v[e] + 1;
      }
      return A.v[entities[0]];
    },
  };
}

export function bitecsCalls(population) {
  const world = bitecs.createWorld();
  const cap = 4 * population + 16;  // ids start at 1 and are recycled
  const A = { v: new Float32Array(cap) };
  const B = { v: new Float32Array(cap) };
  const Tag = {};
  const entities = new Uint32Array(population);
  for (let i = 0; i < population; i += 1) {
    const e = bitecs.addEntity(world);
    bitecs.addComponent(world, e, A);
    A.v[e] = i;
    entities[i] = e;
  }
  const spawned = new Uint32Array(population);
  return {
    spawn() {
      for (let i = 0; i < spawned.length; i += 1) {
        const e = bitecs.addEntity(world);
        bitecs.addComponent(world, e, A);
        A.v[e] = i;
        spawned[i] = e;
      }
      if (spawned[spawned.length - 1] >= cap) throw new Error('bitECS: entity ids outgrew the value arrays');
      return spawned[0];
    },
    despawn() { for (let i = 0; i < spawned.length; i += 1) bitecs.removeEntity(world, spawned[i]); return 0; },
    addTag() { for (let i = 0; i < entities.length; i += 1) bitecs.addComponent(world, entities[i], Tag); return 0; },
    removeTag() { for (let i = 0; i < entities.length; i += 1) bitecs.removeComponent(world, entities[i], Tag); return 0; },
    addValue() {
      for (let i = 0; i < entities.length; i += 1) {
        const e = entities[i];
        bitecs.addComponent(world, e, B);
        B.v[e] = i;
      }
      return 0;
    },
    removeValue() { for (let i = 0; i < entities.length; i += 1) bitecs.removeComponent(world, entities[i], B); return 0; },
    has() {
      let n = 0;
      for (let i = 0; i < entities.length; i += 1) if (bitecs.hasComponent(world, entities[i], A)) n += 1;
      return n;
    },
    getSet() {
      for (let i = 0; i < entities.length; i += 1) {
        const e = entities[i];
        A.v[e] = A.v[e] + 1;
      }
      return A.v[entities[0]];
    },
  };
}

export function wolfCalls(population) {
  const cap = 4 * population + 16;
  const ecs = new WolfEcs(cap);
  const A = ecs.defineComponent({ v: wolfTypes.f32 });
  const B = ecs.defineComponent({ v: wolfTypes.f32 });
  const Tag = ecs.defineComponent();
  const entities = new Uint32Array(population);
  for (let i = 0; i < population; i += 1) {
    const e = ecs.createEntity();
    ecs.addComponent(e, A);
    A.v[e] = i;
    entities[i] = e;
  }
  const spawned = new Uint32Array(population);
  return {
    spawn() {
      for (let i = 0; i < spawned.length; i += 1) {
        const e = ecs.createEntity();
        ecs.addComponent(e, A);
        A.v[e] = i;
        spawned[i] = e;
      }
      if (spawned[spawned.length - 1] >= cap) throw new Error('wolf-ecs: entity ids outgrew the value arrays');
      return spawned[0];
    },
    despawn() { for (let i = 0; i < spawned.length; i += 1) ecs.destroyEntity(spawned[i]); return 0; },
    addTag() { for (let i = 0; i < entities.length; i += 1) ecs.addComponent(entities[i], Tag); return 0; },
    removeTag() { for (let i = 0; i < entities.length; i += 1) ecs.removeComponent(entities[i], Tag); return 0; },
    addValue() {
      for (let i = 0; i < entities.length; i += 1) {
        const e = entities[i];
        ecs.addComponent(e, B);
        B.v[e] = i;
      }
      return 0;
    },
    removeValue() { for (let i = 0; i < entities.length; i += 1) ecs.removeComponent(entities[i], B); return 0; },
    has: null,  // wolf-ecs has no public "has component" (queries only)
    getSet() {
      for (let i = 0; i < entities.length; i += 1) {
        const e = entities[i];
        A.v[e] = A.v[e] + 1;
      }
      return A.v[entities[0]];
    },
  };
}

export function kootaCalls(population) {
  const world = koota.createWorld();
  const A = koota.trait({ v: 0 });
  const B = koota.trait({ v: 0 });
  const Tag = koota.trait();
  const entities = [];
  for (let i = 0; i < population; i += 1) entities.push(world.spawn(A({ v: i })));
  const spawned = new Array(population);
  return {
    spawn() {
      for (let i = 0; i < spawned.length; i += 1) spawned[i] = world.spawn(A({ v: i }));
      return 0;
    },
    despawn() { for (let i = 0; i < spawned.length; i += 1) spawned[i].destroy(); return 0; },
    addTag() { for (let i = 0; i < entities.length; i += 1) entities[i].add(Tag); return 0; },
    removeTag() { for (let i = 0; i < entities.length; i += 1) entities[i].remove(Tag); return 0; },
    addValue() { for (let i = 0; i < entities.length; i += 1) entities[i].add(B({ v: i })); return 0; },
    removeValue() { for (let i = 0; i < entities.length; i += 1) entities[i].remove(B); return 0; },
    has() {
      let n = 0;
      for (let i = 0; i < entities.length; i += 1) if (entities[i].has(A)) n += 1;
      return n;
    },
    getSet() {
      for (let i = 0; i < entities.length; i += 1) {
        const e = entities[i];
        e.set(A, { v: e.get(A).v + 1 });
      }
      return 0;
    },
    dispose() { world.destroy(); },
  };
}

// ---- iteration: { run(frames) } per shape
//   packed5   `count` entities with A..E {v}; five systems, each doubling one component
//   simple    `count` entities in each of (A,B), (A,B,C), (A,B,C,D), (A,B,C,E); three systems
//             swapping A/B, C/D and C/E
//   frag      26 archetypes (Data + one of 26 components) of `count` entities; two systems,
//             doubling Data (26 archetypes) and Z (one)

function piecsIteration(shape, count) {
  const world = new PiecsWorld();
  const cap = 26 * count + 16;
  const comp = () => ({ id: world.createComponentId(), v: new Float32Array(cap).fill(1) });
  const double = (c) => createEntitySystem((entities) => {
    const v = c.v;
    for (let i = 0, l = entities.length; i < l; i += 1) v[entities[i]] *= 2;
  }, (q) => q.every(c));
  const swap = (x, y) => createEntitySystem((entities) => {
    const a = x.v;
    const b = y.v;
    for (let i = 0, l = entities.length; i < l; i += 1) {
      const e = entities[i];
      const t = a[e];
      a[e] = b[e];
      b[e] = t;
    }
  }, (q) => q.every(x, y));
  if (shape === 'packed5') {
    const cs = [comp(), comp(), comp(), comp(), comp()];
    const prefab = world.prefabricate(cs);
    for (const c of cs) world.registerSystem(double(c));
    world.initialize();
    for (let i = 0; i < count; i += 1) world.createEntity(prefab);
  } else if (shape === 'simple') {
    const [A, B, C, D, E] = [comp(), comp(), comp(), comp(), comp()];
    const prefabs = [[A, B], [A, B, C], [A, B, C, D], [A, B, C, E]].map((cs) => world.prefabricate(cs));
    world.registerSystem(swap(A, B)).registerSystem(swap(C, D)).registerSystem(swap(C, E));
    world.initialize();
    for (let i = 0; i < count; i += 1) for (const p of prefabs) world.createEntity(p);
  } else {
    const letters = Array.from({ length: 26 }, comp);
    const Data = comp();
    const prefabs = letters.map((c) => world.prefabricate([Data, c]));
    world.registerSystem(double(Data)).registerSystem(double(letters[25]));
    world.initialize();
    for (let i = 0; i < count; i += 1) for (const p of prefabs) world.createEntity(p);
  }
  return { run(frames) { for (let f = 0; f < frames; f += 1) world.update(); } };
}

function bitecsIteration(shape, count) {
  const world = bitecs.createWorld();
  const cap = 26 * count + 16;
  const comp = () => ({ v: new Float32Array(cap).fill(1) });
  const make = (cs) => {
    const e = bitecs.addEntity(world);
    for (const c of cs) bitecs.addComponent(world, e, c);
  };
  const double = (c) => () => {
    const entities = bitecs.query(world, [c]);
    const v = c.v;
    for (let i = 0, l = entities.length; i < l; i += 1) v[entities[i]] *= 2;
  };
  const swap = (x, y) => () => {
    const entities = bitecs.query(world, [x, y]);
    const a = x.v;
    const b = y.v;
    for (let i = 0, l = entities.length; i < l; i += 1) {
      const e = entities[i];
      const t = a[e];
      a[e] = b[e];
      b[e] = t;
    }
  };
  let systems;
  if (shape === 'packed5') {
    const cs = [comp(), comp(), comp(), comp(), comp()];
    for (let i = 0; i < count; i += 1) make(cs);
    systems = cs.map(double);
  } else if (shape === 'simple') {
    const [A, B, C, D, E] = [comp(), comp(), comp(), comp(), comp()];
    for (let i = 0; i < count; i += 1) for (const cs of [[A, B], [A, B, C], [A, B, C, D], [A, B, C, E]]) make(cs);
    systems = [swap(A, B), swap(C, D), swap(C, E)];
  } else {
    const letters = Array.from({ length: 26 }, comp);
    const Data = comp();
    for (let i = 0; i < count; i += 1) for (const c of letters) make([Data, c]);
    systems = [double(Data), double(letters[25])];
  }
  return {
    run(frames) {
      for (let f = 0; f < frames; f += 1) for (let s = 0; s < systems.length; s += 1) systems[s]();
    },
  };
}

function wolfIteration(shape, count) {
  const ecs = new WolfEcs(26 * count + 16);
  const comp = () => ecs.defineComponent({ v: wolfTypes.f32 });
  const make = (cs) => {
    const e = ecs.createEntity();
    for (const c of cs) {
      ecs.addComponent(e, c);
      c.v[e] = 1;
    }
  };
  // The archetype loop (query.a: matched archetypes, archetype.e: their entities), wolf-ecs's
  // fastest iteration (its forEach calls a closure per entity).
  const double = (c) => {
    const q = ecs.createQuery(wolfAll(c));
    return () => {
      const v = c.v;
      const archetypes = q.a;
      for (let a = 0, n = archetypes.length; a < n; a += 1) {
        const entities = archetypes[a].e;
        for (let i = 0, l = entities.length; i < l; i += 1) v[entities[i]] *= 2;
      }
    };
  };
  const swap = (x, y) => {
    const q = ecs.createQuery(wolfAll(x, y));
    return () => {
      const a = x.v;
      const b = y.v;
      const archetypes = q.a;
      for (let k = 0, n = archetypes.length; k < n; k += 1) {
        const entities = archetypes[k].e;
        for (let i = 0, l = entities.length; i < l; i += 1) {
          const e = entities[i];
          const t = a[e];
          a[e] = b[e];
          b[e] = t;
        }
      }
    };
  };
  let systems;
  if (shape === 'packed5') {
    const cs = [comp(), comp(), comp(), comp(), comp()];
    systems = cs.map(double);
    for (let i = 0; i < count; i += 1) make(cs);
  } else if (shape === 'simple') {
    const [A, B, C, D, E] = [comp(), comp(), comp(), comp(), comp()];
    systems = [swap(A, B), swap(C, D), swap(C, E)];
    for (let i = 0; i < count; i += 1) for (const cs of [[A, B], [A, B, C], [A, B, C, D], [A, B, C, E]]) make(cs);
  } else {
    const letters = Array.from({ length: 26 }, comp);
    const Data = comp();
    systems = [double(Data), double(letters[25])];
    for (let i = 0; i < count; i += 1) for (const c of letters) make([Data, c]);
  }
  return {
    run(frames) {
      for (let f = 0; f < frames; f += 1) for (let s = 0; s < systems.length; s += 1) systems[s]();
    },
  };
}

function kootaIteration(shape, count) {
  const world = koota.createWorld();
  const comp = () => koota.trait({ v: 1 });
  // useStores: the trait's SoA store arrays and the matched entities, koota's fastest loop.
  const double = (c) => () => {
    world.query(c).useStores(([s], entities) => {
      const v = s.v;
      for (let i = 0, l = entities.length; i < l; i += 1) {
        const id = entities[i].id();
        v[id] *= 2;
      }
    });
  };
  const swap = (x, y) => () => {
    world.query(x, y).useStores(([sx, sy], entities) => {
      const a = sx.v;
      const b = sy.v;
      for (let i = 0, l = entities.length; i < l; i += 1) {
        const id = entities[i].id();
        const t = a[id];
        a[id] = b[id];
        b[id] = t;
      }
    });
  };
  let systems;
  if (shape === 'packed5') {
    const cs = [comp(), comp(), comp(), comp(), comp()];
    for (let i = 0; i < count; i += 1) world.spawn(...cs);
    systems = cs.map(double);
  } else if (shape === 'simple') {
    const [A, B, C, D, E] = [comp(), comp(), comp(), comp(), comp()];
    for (let i = 0; i < count; i += 1) for (const cs of [[A, B], [A, B, C], [A, B, C, D], [A, B, C, E]]) world.spawn(...cs);
    systems = [swap(A, B), swap(C, D), swap(C, E)];
  } else {
    const letters = Array.from({ length: 26 }, comp);
    const Data = comp();
    for (let i = 0; i < count; i += 1) for (const c of letters) world.spawn(Data, c);
    systems = [double(Data), double(letters[25])];
  }
  return {
    run(frames) {
      for (let f = 0; f < frames; f += 1) for (let s = 0; s < systems.length; s += 1) systems[s]();
    },
    dispose() { world.destroy(); },
  };
}

/** A plain JS loop over one Float32Array per component and archetype: the practical limit. */
function jsIteration(shape, count) {
  const column = () => new Float32Array(count).fill(1);
  let run;
  if (shape === 'packed5') {
    const cs = [column(), column(), column(), column(), column()];
    run = () => {
      for (let c = 0; c < 5; c += 1) {
        const v = cs[c];
        for (let i = 0; i < count; i += 1) v[i] *= 2;
      }
    };
  } else if (shape === 'simple') {
    // per archetype: its columns by component letter
    const tables = [['A', 'B'], ['A', 'B', 'C'], ['A', 'B', 'C', 'D'], ['A', 'B', 'C', 'E']]
      .map((names) => Object.fromEntries(names.map((n) => [n, column()])));
    const pairs = [['A', 'B'], ['C', 'D'], ['C', 'E']];
    run = () => {
      for (const [x, y] of pairs) {
        for (const t of tables) {
          const a = t[x];
          const b = t[y];
          if (a === undefined || b === undefined) continue;
          for (let i = 0; i < count; i += 1) {
            const tmp = a[i];
            a[i] = b[i];
            b[i] = tmp;
          }
        }
      }
    };
  } else {
    const data = Array.from({ length: 26 }, column);
    const z = column();
    run = () => {
      for (let t = 0; t < 26; t += 1) {
        const v = data[t];
        for (let i = 0; i < count; i += 1) v[i] *= 2;
      }
      for (let i = 0; i < count; i += 1) z[i] *= 2;
    };
  }
  return { run(frames) { for (let f = 0; f < frames; f += 1) run(); } };
}

export const iterationPeers = {
  piecs: piecsIteration,
  'bitECS': bitecsIteration,
  'wolf-ecs': wolfIteration,
  koota: kootaIteration,
};
export const callPeers = {
  piecs: piecsCalls,
  'bitECS': bitecsCalls,
  'wolf-ecs': wolfCalls,
  koota: kootaCalls,
};
export { jsIteration };
