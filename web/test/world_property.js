// A property test of the JS World API: random sequences of calls, valid and invalid, run against
// a small JS model of a world and against the engine, compared after every call: return values
// (spawned handles too: the model allocates them as the engine's pool does), the alive set, every
// live entity's components and values, counts, which calls fail (and with which code, where the
// model knows it), and that a rejected call changed nothing (the snapshot's bytes, which hold the
// free list and every slot's generation as well as the state stateHash covers).
// e2e/world_property.spec.js runs it on both builds.

import { rng } from './rng.js';

// The model's schema: what the engine's world has once these are defined (position and velocity
// come with the engine's built-ins).
const SCHEMA = {
  position: { x: 'f32', y: 'f32' },
  velocity: { dx: 'f32', dy: 'f32' },
  health: { hp: 'i32', alive: 'bool', regen: 'f64' },
  target: { who: 'entity' },
  frozen: {},
};
const NAMES = Object.keys(SCHEMA);

function defaults(name) {
  const out = {};
  for (const [field, type] of Object.entries(SCHEMA[name])) {
    out[field] = type === 'bool' ? false : type === 'entity' ? null : 0;
  }
  return out;
}

// The engine's handle allocator (src/ecsia/entity/entity_pool.cpp) with the default layout: 22
// index bits, the generation above them; a despawned slot's generation goes up by one and the
// slot goes on a free list that is reused last-in first-out before a new slot is made.
const INDEX_BITS = 22;
class HandleModel {
  #generations = [];
  #free = [];
  next() {
    const index = this.#free.length > 0 ? this.#free[this.#free.length - 1] : this.#generations.length;
    return ((this.#generations[index] ?? 0) * 2 ** INDEX_BITS + index) >>> 0;
  }
  spawn() {
    const handle = this.next();
    if (this.#free.length > 0) this.#free.pop();
    else this.#generations.push(0);
    return handle;
  }
  despawn(handle) {
    const index = handle % 2 ** INDEX_BITS;
    this.#generations[index] += 1;
    this.#free.push(index);
  }
}

const sameBytes = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);
const clone = (v) => JSON.parse(JSON.stringify(v));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Runs `steps` random calls; returns { steps, accepted, rejected, mismatches } where mismatches
 * lists the first disagreements (an empty list is a pass).
 */
export function runProperty(world, seed, steps) {
  world.defineComponent('health', SCHEMA.health);
  world.defineComponent('target', SCHEMA.target);
  world.defineComponent('frozen', {});
  const next = rng(seed);
  const alive = new Map();  // handle -> { name: values }
  const dead = new Set();   // handles the model saw despawned
  const slots = new HandleModel();
  const mismatches = [];
  let accepted = 0;
  let rejected = 0;

  const value = () => (next(16_001) - 8_000) / 8;  // exact in f32
  const handles = () => [...alive.keys()];
  const anyLive = () => { const h = handles(); return h.length ? h[next(h.length)] : undefined; };
  const anyDead = () => { const d = [...dead]; return d.length ? d[next(d.length)] : undefined; };

  // Valid values for a component (all fields, or a subset when `partial`).
  function values(name, partial) {
    const out = {};
    for (const [field, type] of Object.entries(SCHEMA[name])) {
      if (partial && next(2)) continue;
      if (type === 'bool') out[field] = next(2) === 1;
      else if (type === 'entity') out[field] = next(3) === 0 || alive.size === 0 ? null : anyLive();
      else if (type === 'i32') out[field] = next(2001) - 1000;
      else out[field] = value();
    }
    return out;
  }
  // One way to make a component's values wrong, and that the engine must refuse.
  function badValues(name) {
    const fields = Object.keys(SCHEMA[name]);
    if (fields.length === 0) return { nope: 1 };
    switch (next(3)) {
      case 0: return { nope: 1 };                                  // unknown field
      case 1: return { [fields[0]]: 'not a number' };               // wrong type
      default: return name === 'health' ? { hp: 2 ** 40 } : { [fields[0]]: {} };  // out of range / wrong type
    }
  }

  // Each op: { call(world), model() -> { result } | { error, code? } } where model() also
  // applies the change to the model when it succeeds.
  function pick() {
    const kind = next(14);
    const e = next(5) === 0 ? (anyDead() ?? anyLive()) : anyLive();
    const name = NAMES[next(NAMES.length)];
    const live = e !== undefined && alive.has(e);
    const stale = { error: true, code: 'StaleEntity' };
    if (kind <= 2 || e === undefined) {
      const components = {};
      for (const n of NAMES) if (next(3) === 0) components[n] = SCHEMA[n] === SCHEMA.frozen ? true : values(n, false);
      const bad = next(6) === 0;
      if (bad) {
        if (next(2)) components.nosuch = {};
        else components[name] = name === 'frozen' ? badValues('position') : badValues(name);
      }
      return {
        label: `spawn(${JSON.stringify(components)})`,
        call: (w) => w.spawn(components),
        model: () => {
          if (bad) return { error: true };
          const expected = slots.spawn();
          const entity = {};
          for (const [n, v] of Object.entries(components)) entity[n] = n === 'frozen' ? {} : { ...defaults(n), ...v };
          alive.set(expected, entity);
          return { result: expected };
        },
      };
    }
    if (kind === 3) {
      return {
        label: `despawn(${e})`, call: (w) => w.despawn(e),
        model: () => { if (!live) return stale; alive.delete(e); dead.add(e); slots.despawn(e); return { result: undefined }; },
      };
    }
    if (kind === 4) {
      const v = name === 'frozen' ? undefined : values(name, true);
      const bad = name !== 'frozen' && next(6) === 0;
      const given = bad ? badValues(name) : v;
      return {
        label: `add(${e}, ${name}, ${JSON.stringify(given)})`, call: (w) => w.add(e, name, given),
        model: () => {
          if (bad) return { error: true };
          if (!live) return stale;
          alive.get(e)[name] = name === 'frozen' ? {} : { ...defaults(name), ...v };
          return { result: undefined };
        },
      };
    }
    if (kind === 5) {
      return {
        label: `remove(${e}, ${name})`, call: (w) => w.remove(e, name),
        model: () => { if (!live) return stale; delete alive.get(e)[name]; return { result: undefined }; },
      };
    }
    if (kind === 6 && name !== 'frozen') {
      const bad = next(5) === 0;
      const given = bad ? badValues(name) : values(name, true);
      return {
        label: `set(${e}, ${name}, ${JSON.stringify(given)})`, call: (w) => w.set(e, name, given),
        model: () => {
          if (bad) return { error: true };
          if (!live) return stale;
          const current = alive.get(e)[name];
          if (current === undefined) return { error: true, code: 'MissingComponent' };
          Object.assign(current, given);
          return { result: undefined };
        },
      };
    }
    if (kind === 7) {
      return {
        label: `get(${e}, ${name})`, call: (w) => w.get(e, name),
        model: () => {
          if (!live) return stale;
          const current = alive.get(e)[name];
          return current === undefined ? { error: true, code: 'MissingComponent' } : { result: clone(current) };
        },
      };
    }
    if (kind === 8) {
      return {
        label: `has(${e}, ${name})`, call: (w) => w.has(e, name),
        model: () => (live ? { result: alive.get(e)[name] !== undefined } : stale),
      };
    }
    if (kind === 9) {
      return { label: `isAlive(${e})`, call: (w) => w.isAlive(e), model: () => ({ result: live }) };
    }
    if (kind === 10) {
      // Invalid arguments the JS layer must refuse before the engine sees them.
      const wrong = [['not a handle', 'position'], [e, 'nosuch'], [-1, 'position'], [1.5, 'position']][next(4)];
      // despawn takes the entity only: an unknown component name is no error there.
      const method = (wrong[1] === 'nosuch' ? ['add', 'remove', 'get', 'has'] : ['despawn', 'add', 'remove', 'get', 'has'])[next(wrong[1] === 'nosuch' ? 4 : 5)];
      return {
        label: `${method}(${JSON.stringify(wrong)})`, call: (w) => w[method](...wrong),
        model: () => ({ error: true }),
      };
    }
    if (kind >= 12) {
      // addMany / removeMany over a random list of live handles, in random order; sometimes
      // spoilt (a dead handle, a repeated one, a value of the wrong kind or count), which must
      // change nothing.
      const list = handles().filter(() => next(2) === 0);
      for (let i = list.length - 1; i > 0; i -= 1) { const j = next(i + 1); [list[i], list[j]] = [list[j], list[i]]; }
      const spoil = next(8);
      let code;
      const deadOnes = [...dead].filter((h) => !alive.has(h));
      if (spoil === 0 && deadOnes.length > 0) {
        list.splice(next(list.length + 1), 0, deadOnes[next(deadOnes.length)]);
        code = 'StaleEntity';
      } else if (spoil === 1 && list.length > 0) {
        list.splice(next(list.length + 1), 0, list[next(list.length)]);
        code = 'BadValue';
      }
      const spoiltList = code !== undefined;
      const asTyped = next(2) === 0;
      const given = asTyped ? Uint32Array.from(list) : list;
      if (kind === 13) {
        return {
          label: `removeMany(${JSON.stringify(list)}, ${name})`, call: (w) => w.removeMany(given, name),
          model: () => {
            if (spoiltList) return { error: true, code };
            for (const h of list) delete alive.get(h)[name];
            return { result: undefined };
          },
        };
      }
      // Per field: one value for all, or an array with one per handle; or none (defaults).
      const perEntity = list.map(() => values(name, false));
      let manyValues;
      const fields = Object.keys(SCHEMA[name]);
      if (fields.length > 0 && next(3) !== 0) {
        manyValues = {};
        for (const field of fields) {
          if (next(3) === 0) { for (const v of perEntity) v[field] = defaults(name)[field]; continue; }
          if (next(2) === 0 || SCHEMA[name][field] === 'entity') {
            manyValues[field] = perEntity.length > 0 ? perEntity[0][field] : defaults(name)[field];
            for (const v of perEntity) v[field] = manyValues[field];
          } else {
            manyValues[field] = perEntity.map((v) => v[field]);
          }
        }
      } else {
        for (const v of perEntity) Object.assign(v, defaults(name));
      }
      let badValue = false;
      if (!spoiltList && next(8) === 0) {
        badValue = true;
        manyValues = fields.length === 0 ? { nope: 1 } : next(2) === 0 ? badValues(name) : { [fields[0]]: new Array(list.length + 1).fill(0) };
      }
      return {
        label: `addMany(${JSON.stringify(list)}, ${name}, ${JSON.stringify(manyValues)})`, call: (w) => w.addMany(given, name, manyValues),
        model: () => {
          if (spoiltList) return { error: true, code };
          if (badValue) return { error: true };
          list.forEach((h, i) => { alive.get(h)[name] = name === 'frozen' ? {} : { ...defaults(name), ...perEntity[i] }; });
          return { result: undefined };
        },
      };
    }
    const withList = NAMES.filter(() => next(3) === 0);
    const withoutList = NAMES.filter((n) => !withList.includes(n) && next(4) === 0);
    return {
      label: `count(${JSON.stringify(withList)}, ${JSON.stringify(withoutList)})`,
      call: (w) => w.count(withList, withoutList),
      model: () => ({
        result: [...alive.values()].filter((c) => withList.every((n) => c[n] !== undefined) &&
          withoutList.every((n) => c[n] === undefined)).length,
      }),
    };
  }

  function compareAll(step, label) {
    for (const [handle, components] of alive) {
      if (!world.isAlive(handle)) return `${label}: ${handle} should be alive`;
      for (const name of NAMES) {
        const has = world.has(handle, name);
        if (has !== (components[name] !== undefined)) return `${label}: has(${handle}, ${name}) is ${has}`;
        if (has && !same(world.get(handle, name), components[name])) {
          return `${label}: get(${handle}, ${name}) is ${JSON.stringify(world.get(handle, name))}, model ${JSON.stringify(components[name])}`;
        }
      }
    }
    for (const handle of dead) if (!alive.has(handle) && world.isAlive(handle)) return `${label}: ${handle} should be dead`;
    if (world.count([]) !== alive.size) return `${label}: count([]) ${world.count([])}, model ${alive.size}`;
    return null;
  }

  for (let step = 0; step < steps && mismatches.length < 5; step += 1) {
    const op = pick();
    const before = world.snapshot();
    let outcome;
    try {
      outcome = { result: op.call(world) };
    } catch (error) {
      outcome = { error: true, code: error.code, message: error.message };
    }
    const expected = op.model(outcome.result);
    if (expected.error) {
      if (!outcome.error) mismatches.push(`step ${step} ${op.label}: expected an error, got ${JSON.stringify(outcome.result)}`);
      else if (expected.code && outcome.code !== expected.code) {
        mismatches.push(`step ${step} ${op.label}: expected ${expected.code}, got ${outcome.code} (${outcome.message})`);
      }
      if (!sameBytes(world.snapshot(), before)) mismatches.push(`step ${step} ${op.label}: a rejected call changed the world`);
      rejected += 1;
    } else {
      if (outcome.error) mismatches.push(`step ${step} ${op.label}: unexpected error ${outcome.message}`);
      else if (!same(outcome.result, expected.result)) {
        mismatches.push(`step ${step} ${op.label}: returned ${JSON.stringify(outcome.result)}, model ${JSON.stringify(expected.result)}`);
      }
      accepted += 1;
    }
    const drift = compareAll(step, `after step ${step} ${op.label}`);
    if (drift) mismatches.push(drift);
  }
  return { steps, accepted, rejected, mismatches, alive: alive.size };
}
