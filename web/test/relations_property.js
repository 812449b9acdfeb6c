// A property test of the JS relations API: random sequences of pair calls, valid and invalid, run
// against a small JS model of pairs and against the engine, compared after every call: return
// values, which calls fail (and with which code), and that a rejected call left the state hash as
// it was. Every few calls, every live entity's pairs are compared whole (targetsOf of each
// relation, subjectsOf with '*'). The model: pairs per relation as subject -> (target -> data);
// exclusive relations keep one target; despawning a target removes its pairs, and despawns the
// subjects of a 'delete' relation (ChildOf) recursively; ChildOf refuses a cycle.
// e2e/relations.spec.js runs it on both builds.

import { rng } from './rng.js';

// The engine's handle layout by default: 22 index bits. Lists come in ascending index order.
const INDEX_MASK = 2 ** 22 - 1;
const byIndex = (a, b) => (a & INDEX_MASK) - (b & INDEX_MASK);

// The relations the model knows: the built-in ChildOf, and two the test defines.
const RELATIONS = {
  ChildOf: { exclusive: true, delete: true, acyclic: true, fields: null },
  Targets: { exclusive: false, delete: false, acyclic: false, fields: { since: 'u32', weight: 'f32' } },
  Follows: { exclusive: true, delete: false, acyclic: false, fields: null },
};
const NAMES = Object.keys(RELATIONS);

/** Defines the test's relations in `world` (also for a world a snapshot is restored into). */
export function defineRelations(world) {
  world.defineRelation('Targets', RELATIONS.Targets.fields, { exclusive: false, onDeleteTarget: 'remove' });
  world.defineRelation('Follows', {}, { exclusive: true });
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Runs `steps` random calls; returns { accepted, rejected, mismatches, pairs } where mismatches
 * lists the first disagreements (an empty list is a pass) and pairs counts the model's pairs at
 * the end.
 */
export function runRelationsProperty(world, seed, steps) {
  defineRelations(world);
  const next = rng(seed);
  const alive = new Set();
  const dead = [];
  const pairs = Object.fromEntries(NAMES.map((n) => [n, new Map()]));  // relation -> subject -> Map(target -> data)
  const mismatches = [];
  let accepted = 0;
  let rejected = 0;

  const anyLive = () => { const list = [...alive]; return list.length ? list[next(list.length)] : undefined; };
  const anyDead = () => (dead.length ? dead[next(dead.length)] : undefined);
  const pick = () => (next(6) === 0 ? (anyDead() ?? anyLive()) : anyLive());
  const targetsOf = (rel, s) => [...(pairs[rel].get(s)?.keys() ?? [])].sort(byIndex);
  const subjectsOf = (rel, t) => [...pairs[rel]].filter(([, m]) => t === '*' ? m.size > 0 : m.has(t)).map(([s]) => s).sort(byIndex);
  const stale = { error: 'StaleEntity' };

  function erase(rel, s, t) {
    const m = pairs[rel].get(s);
    m.delete(t);
    if (m.size === 0) pairs[rel].delete(s);
  }
  function despawn(e) {
    const doomed = [e];
    for (let i = 0; i < doomed.length; i += 1) {
      for (const rel of NAMES) {
        if (!RELATIONS[rel].delete) continue;
        for (const s of subjectsOf(rel, doomed[i])) if (!doomed.includes(s)) doomed.push(s);
      }
    }
    for (const x of doomed) {
      for (const rel of NAMES) {
        pairs[rel].delete(x);
        for (const s of subjectsOf(rel, x)) erase(rel, s, x);
      }
      alive.delete(x);
      dead.push(x);
    }
  }
  function isAncestor(rel, a, of) {  // whether `a` is `of` or above it through rel
    for (let at = of; at !== undefined; at = targetsOf(rel, at)[0]) if (at === a) return true;
    return false;
  }
  const data = (given) => ({ since: given?.since ?? 0, weight: given?.weight ?? 0 });

  function op() {
    const kind = next(20);
    const rel = NAMES[next(NAMES.length)];
    const s = pick();
    const t = pick();
    if (kind <= 2 || s === undefined || t === undefined) {
      return { label: 'spawn', call: (w) => w.spawn(), model: (e) => { alive.add(e); return { result: e }; }, returns: true };
    }
    const live = alive.has(s);
    const targetLive = alive.has(t);
    if (kind === 3) {
      return { label: `despawn(${s})`, call: (w) => w.despawn(s), model: () => (live ? (despawn(s), { result: undefined }) : stale) };
    }
    if (kind <= 8) {
      const values = rel === 'Targets' && next(3) !== 0 ? { since: next(1000), ...(next(2) ? { weight: next(64) / 4 } : {}) } : undefined;
      return {
        label: `addPair(${s}, ${rel}, ${t}, ${JSON.stringify(values)})`,
        call: (w) => w.addPair(s, rel, t, values),
        model: () => {
          if (!live || !targetLive) return stale;
          const r = RELATIONS[rel];
          if (r.acyclic && isAncestor(rel, s, t)) return { error: 'BadValue' };
          if (!pairs[rel].has(s)) pairs[rel].set(s, new Map());
          const m = pairs[rel].get(s);
          if (r.exclusive && !m.has(t)) m.clear();
          m.set(t, r.fields ? data(values) : null);
          return { result: undefined };
        },
      };
    }
    if (kind === 9) {
      const values = next(2) ? { since: next(1000) } : { weight: next(64) / 4 };
      return {
        label: `setPair(${s}, ${rel}, ${t}, ${JSON.stringify(values)})`,
        call: (w) => w.setPair(s, rel, t, values),
        model: () => {
          // A tag relation's pairs have no fields: the JS layer refuses the values first (no code).
          if (!RELATIONS[rel].fields) return { error: 'none' };
          if (!live || !targetLive) return stale;
          const m = pairs[rel].get(s);
          if (!m?.has(t)) return { error: 'MissingComponent' };
          m.set(t, { ...m.get(t), ...values });
          return { result: undefined };
        },
      };
    }
    if (kind === 10) {
      return {
        label: `getPair(${s}, ${rel}, ${t})`,
        call: (w) => w.getPair(s, rel, t),
        model: () => {
          if (!live || !targetLive) return stale;
          const m = pairs[rel].get(s);
          if (!m?.has(t)) return { error: 'MissingComponent' };
          return { result: RELATIONS[rel].fields ? m.get(t) : {} };  // a tag relation's pair: {}
        },
      };
    }
    if (kind <= 12) {
      const target = next(3) === 0 ? '*' : t;
      return {
        label: `hasPair(${s}, ${rel}, ${target})`,
        call: (w) => w.hasPair(s, rel, target),
        model: () => {
          if (!live || (target !== '*' && !targetLive)) return stale;  // a dead target too, as everywhere
          return { result: target === '*' ? pairs[rel].has(s) : pairs[rel].get(s)?.has(target) === true };
        },
      };
    }
    if (kind <= 14) {
      const target = next(4) === 0 ? '*' : t;
      return {
        label: `removePair(${s}, ${rel}, ${target})`,
        call: (w) => w.removePair(s, rel, target),
        model: () => {
          if (!live || (target !== '*' && !targetLive)) return stale;
          if (target === '*') pairs[rel].delete(s);
          else if (pairs[rel].get(s)?.has(target)) erase(rel, s, target);
          return { result: undefined };
        },
      };
    }
    if (kind === 15) {
      return {
        label: `targetOf(${s}, ${rel})`,
        call: (w) => w.targetOf(s, rel),
        model: () => {
          if (!live) return stale;
          if (!RELATIONS[rel].exclusive) return { error: 'BadValue' };
          return { result: targetsOf(rel, s)[0] ?? null };
        },
      };
    }
    if (kind === 16) {
      return { label: `targetsOf(${s}, ${rel})`, call: (w) => w.targetsOf(s, rel), model: () => (live ? { result: targetsOf(rel, s) } : stale) };
    }
    if (kind === 17) {
      const target = next(3) === 0 ? '*' : t;
      return {
        label: `subjectsOf(${rel}, ${target})`,
        call: (w) => w.subjectsOf(rel, target),
        model: () => (target === '*' || targetLive ? { result: subjectsOf(rel, target) } : stale),
      };
    }
    // Names the engine must refuse: an unknown relation, a component where a relation belongs.
    const wrong = next(2) ? 'NoSuchRelation' : 'position';
    return {
      label: `addPair(${s}, ${wrong}, ${t})`,
      call: (w) => w.addPair(s, wrong, t),
      model: () => ({ error: wrong === 'position' ? 'BadValue' : 'UnknownComponent' }),
    };
  }

  function compareAll(step) {
    for (const e of alive) {
      for (const rel of NAMES) {
        const got = world.targetsOf(e, rel);
        if (!same(got, targetsOf(rel, e))) mismatches.push({ step, what: `targetsOf(${e}, ${rel})`, got, want: targetsOf(rel, e) });
      }
    }
    for (const rel of NAMES) {
      const got = world.subjectsOf(rel, '*');
      if (!same(got, subjectsOf(rel, '*'))) mismatches.push({ step, what: `subjectsOf(${rel}, '*')`, got, want: subjectsOf(rel, '*') });
    }
  }

  for (let step = 0; step < steps && mismatches.length < 5; step += 1) {
    const o = op();
    const before = world.stateHash();
    let got;
    try {
      got = { result: o.call(world) };
    } catch (error) {
      got = { error: error.code ?? 'none', message: error.message };
    }
    const want = o.returns && got.error === undefined ? o.model(got.result) : o.model();
    if (want.error !== undefined) {
      rejected += 1;
      if (got.error !== want.error) mismatches.push({ step, what: o.label, got, want });
      else if (world.stateHash() !== before) mismatches.push({ step, what: `${o.label} was refused but changed the state hash` });
      else if (!/^world\.\w+: /.test(got.message)) mismatches.push({ step, what: `${o.label}: the message does not name the call`, got });
    } else {
      accepted += 1;
      if (got.error !== undefined || !same(got.result, want.result)) mismatches.push({ step, what: o.label, got, want });
    }
    if (step % 25 === 24) compareAll(step);
  }
  compareAll(steps);
  let count = 0;
  for (const rel of NAMES) for (const m of pairs[rel].values()) count += m.size;
  return { accepted, rejected, mismatches, pairs: count };
}
