// The World part of the JS API on both builds: the operations, bad input (G5), storage growth
// and stale views, and the same state hash from the same operations everywhere (G1).
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test, variants, warningsOf } from './support.js';

for (const { variant, server } of variants) {
  test.describe(`${variant} build`, () => {
    test('spawn, get, set, add, remove, has, count and despawn', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 1000 });
        const out = { variant: ecsia.variant };
        const a = world.spawn({ position: { x: 1, y: 2 }, velocity: { dx: 3, dy: 4 } });
        const b = world.spawn({ position: { x: 5, y: 6 } });
        const c = world.spawn();
        out.handles = [typeof a, typeof b, typeof c];
        out.distinct = new Set([a, b, c]).size;
        out.getA = world.get(a, 'position');
        out.getVel = world.get(a, 'velocity');
        world.set(a, 'position', { y: -2.5 });
        out.afterSet = world.get(a, 'position');
        world.defineComponent('health', { hp: 'i32', alive: 'bool', regen: 'f64' });
        world.defineComponent('target', { who: 'entity' });
        world.defineComponent('enemy', {});
        world.add(b, 'health', { hp: 7, alive: true, regen: 0.25 });
        world.add(b, 'enemy');
        world.add(c, 'target', { who: a });
        out.health = world.get(b, 'health');
        out.target = world.get(c, 'target');
        out.defaultTarget = (world.add(a, 'target'), world.get(a, 'target'));
        out.has = [world.has(b, 'health'), world.has(b, 'enemy'), world.has(a, 'enemy'), world.has(c, 'position')];
        out.counts = [world.count(['position']), world.count(['position'], ['velocity']), world.count(['target']),
          world.count('enemy'), world.count([])];
        world.remove(b, 'enemy');
        out.hasAfterRemove = world.has(b, 'enemy');
        out.healthKept = world.get(b, 'health');
        const hashBefore = world.stateHash();
        world.despawn(c);
        out.alive = [world.isAlive(a), world.isAlive(b), world.isAlive(c)];
        out.hashChanged = world.stateHash() !== hashBefore;
        out.hashShape = /^[0-9a-f]{16}$/.test(world.stateHash());
        out.countAfterDespawn = world.count(['target']);
        const d = world.spawn({ position: { x: 9, y: 9 } });
        out.reusedSlotIsNew = d !== c && !world.isAlive(c) && world.isAlive(d);
        world.dispose();
        try { world.stateHash(); out.disposed = 'no error'; } catch (e) { out.disposed = e.message; }
        return out;
      });
      expect(r.variant).toBe(variant);
      expect(r.handles).toEqual(['number', 'number', 'number']);
      expect(r.distinct).toBe(3);
      expect(r.getA).toEqual({ x: 1, y: 2 });
      expect(r.getVel).toEqual({ dx: 3, dy: 4 });
      expect(r.afterSet).toEqual({ x: 1, y: -2.5 });
      expect(r.health).toEqual({ hp: 7, alive: true, regen: 0.25 });
      expect(typeof r.target.who).toBe('number');
      expect(r.defaultTarget).toEqual({ who: null });
      expect(r.has).toEqual([true, true, false, false]);
      expect(r.counts).toEqual([2, 1, 2, 1, 3]);  // a got a default target above
      expect(r.hasAfterRemove).toBe(false);
      expect(r.healthKept).toEqual({ hp: 7, alive: true, regen: 0.25 });
      expect(r.alive).toEqual([true, true, false]);
      expect(r.hashChanged).toBe(true);
      expect(r.hashShape).toBe(true);
      expect(r.countAfterDespawn).toBe(1);
      expect(r.reusedSlotIsNew).toBe(true);
      expect(r.disposed).toContain('disposed');
      expectNoPageErrors(log);
    });

    test('values name components and fields in any order: random spawns, adds and sets agree with a model', async ({ page }) => {
      // The encoders remember the names a row and a values object gave last (world_core.js):
      // orders that change from call to call, fields left out, unknown names in between must
      // still put every value where it belongs.
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 500 });
        const schema = {
          position: { x: 'f32', y: 'f32' },
          vec3: { x: 'f32', y: 'f32', z: 'f32' },
          stats: { hp: 'i32', alive: 'bool', regen: 'f64' },
          quad: { q0: 'f32', q1: 'f32', q2: 'f32', q3: 'f32' },
          wide: { w0: 'f32', w1: 'f32', w2: 'f32', w3: 'f32', w4: 'f32' },  // past the f32 object makers
          marker: {},
        };
        for (const [name, fields] of Object.entries(schema)) if (name !== 'position') world.defineComponent(name, fields);
        let seed = 0x9e3779b9;
        const random = () => {  // mulberry32
          seed = (seed + 0x6d2b79f5) >>> 0;
          let t = seed;
          t = Math.imul(t ^ (t >>> 15), t | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
          return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
        };
        const below = (n) => Math.floor(random() * n);
        const shuffled = (list) => {
          const out = [...list];
          for (let i = out.length - 1; i > 0; i -= 1) { const j = below(i + 1); [out[i], out[j]] = [out[j], out[i]]; }
          return out;
        };
        const valueOf = (type) => (type === 'bool' ? random() < 0.5 : type === 'f64' ? below(64) / 4 : below(2000) - 1000);
        const defaults = (name) => Object.fromEntries(Object.entries(schema[name]).map(([f, t]) => [f, t === 'bool' ? false : 0]));
        // Some fields of a component, in a random order, with random values.
        const someValues = (name) => {
          const out = {};
          for (const f of shuffled(Object.keys(schema[name]))) if (random() < 0.7) out[f] = valueOf(schema[name][f]);
          return out;
        };
        const model = new Map();  // entity -> { component: values }
        let failures = 0;
        let refusedRight = 0;
        for (let step = 0; step < 3000; step += 1) {
          const roll = random();
          const alive = [...model.keys()];
          if (roll < 0.35 || alive.length === 0) {
            if (model.size >= 400) { const e = alive[below(alive.length)]; world.despawn(e); model.delete(e); continue; }
            const row = {};
            const expected = {};
            for (const name of shuffled(Object.keys(schema))) {
              if (random() < 0.5) continue;
              const values = name === 'marker' ? true : someValues(name);
              row[name] = values;
              expected[name] = name === 'marker' ? {} : { ...defaults(name), ...values };
            }
            if (random() < 0.05) {  // an unknown name somewhere in the row: refused, nothing spawned
              const withBad = {};
              const at = below(Object.keys(row).length + 1);
              Object.keys(row).forEach((name, i) => { if (i === at) withBad.nope = { v: 1 }; withBad[name] = row[name]; });
              if (at === Object.keys(row).length) withBad.nope = { v: 1 };
              const count = world.count([]);
              try { world.spawn(withBad); failures += 1; } catch (e) { if (/nope/.test(e.message) && world.count([]) === count) refusedRight += 1; else failures += 1; }
              continue;
            }
            model.set(world.spawn(row), expected);
          } else {
            const e = alive[below(alive.length)];
            const name = Object.keys(schema)[below(Object.keys(schema).length)];
            const has = name in model.get(e);
            if (name === 'marker') {
              if (has) { world.remove(e, name); delete model.get(e)[name]; } else { world.add(e, name); model.get(e)[name] = {}; }
            } else if (roll < 0.7 || !has) {
              const values = someValues(name);
              world.add(e, name, values);  // whole: the fields not given get defaults
              model.get(e)[name] = { ...defaults(name), ...values };
            } else {
              const values = someValues(name);
              world.set(e, name, values);  // only the fields given
              Object.assign(model.get(e)[name], values);
            }
          }
        }
        let mismatches = 0;
        let compared = 0;
        for (const [e, components] of model) {
          for (const name of Object.keys(schema)) {
            const has = world.has(e, name);
            if (has !== name in components) { mismatches += 1; continue; }
            if (!has) continue;
            compared += 1;
            if (JSON.stringify(world.get(e, name)) !== JSON.stringify(components[name])) mismatches += 1;
          }
        }
        world.dispose();
        return { mismatches, compared, failures, refusedRight };
      });
      expect(r.mismatches).toBe(0);
      expect(r.failures).toBe(0);
      expect(r.compared).toBeGreaterThan(300);
      expect(r.refusedRight).toBeGreaterThan(10);
      expectNoPageErrors(log);
    });

    test('bad input throws an Error naming the problem and leaves the state hash unchanged', async ({ page }) => {
      const log = await openTestPage(page, server);
      const cases = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 3 });
        world.defineComponent('small', { n: 'i8', flag: 'bool' });
        world.defineComponent('enemy', {});
        const a = world.spawn({ position: { x: 1, y: 1 }, small: { n: 5 } });
        const dead = world.spawn({ position: { x: 2, y: 2 } });
        world.despawn(dead);
        const module = window.ecsiaTest.internalsOf(ecsia).module;  // the test page's back door
        const raw = window.ecsiaTest.internalsOf(world).raw('test');
        const attempts = {
          'unknown component (spawn)': () => world.spawn({ position: { x: 0, y: 0 }, nope: { v: 1 } }),
          'unknown component (add)': () => world.add(a, 'nope', {}),
          'unknown component (count)': () => world.count(['position', 'nope']),
          'unknown field (spawn)': () => world.spawn({ position: { x: 0, z: 1 } }),
          'unknown field (set)': () => world.set(a, 'position', { x: 3, z: 1 }),
          'string into f32': () => world.set(a, 'position', { x: 'abc' }),
          'string into f32 (spawn)': () => world.spawn({ velocity: { dx: '1', dy: 0 } }),
          // add and spawn encode all-f32 components on a path of their own: the same checks.
          'NaN into f32 (add)': () => world.add(a, 'position', { x: NaN }),
          'beyond the f32 range (spawn)': () => world.spawn({ position: { x: 1e39 } }),
          'values not an object (add)': () => world.add(a, 'position', 5),
          'values not an object (spawn)': () => world.spawn({ position: [1, 2] }),
          'unknown field (add)': () => world.add(a, 'position', { x: 1, z: 2 }),
          // Objects that keep their contents elsewhere have no fields to read: refused, not read as {}.
          'a Map as values (set)': () => world.set(a, 'position', new Map([['x', 5]])),
          'a Map as values (add)': () => world.add(a, 'position', new Map([['x', 5]])),
          'a Date as values (spawn)': () => world.spawn({ position: new Date(0) }),
          'a Map as the row (spawn)': () => world.spawn(new Map([['position', { x: 1 }]])),
          'a Set for a tag (add)': () => world.add(a, 'enemy', new Set()),
          'out of range i8 (engine check)': () => world.set(a, 'small', { n: 300 }),
          'fraction into i8 (engine check)': () => world.set(a, 'small', { n: 1.5 }),
          'number into bool': () => world.set(a, 'small', { flag: 2 }),
          'dead handle (get)': () => world.get(dead, 'position'),
          'dead handle (set)': () => world.set(dead, 'position', { x: 1 }),
          'dead handle (add)': () => world.add(dead, 'enemy'),
          'dead handle (despawn)': () => world.despawn(dead),
          'missing component (get)': () => world.get(a, 'velocity'),
          // The name memo of a world that has looked nothing up yet must not match undefined.
          'name not a string (a fresh world\'s first lookup)': () => {
            const fresh = ecsia.createWorld({ maxEntities: 2 });
            try { fresh.has(fresh.spawn(), undefined); } finally { fresh.dispose(); }
          },
          'name not a string (after lookups)': () => world.get(a, 42),
          'not a handle': () => world.get('abc', 'position'),
          // A BigInt fails the `>>> 0` handle check itself: the check must name the call first.
          'a BigInt handle (get)': () => world.get(0n, 'position'),
          'a BigInt handle (despawn)': () => world.despawn(0n),
          'a BigInt handle (isAlive)': () => world.isAlive(1n),
          'a BigInt target (hasPair)': () => world.hasPair(a, 'ChildOf', 0n),
          'tag with fields': () => world.add(a, 'enemy', { level: 1 }),
          'bad field type (define)': () => world.defineComponent('bad', { v: 'float' }),
          'duplicate component (define)': () => world.defineComponent('position', { x: 'f32' }),
          'capacity exhausted': () => {
            world.spawn({ position: { x: 7, y: 7 } });
            world.spawn({ position: { x: 8, y: 8 } });  // 3 alive: the limit
          },
          'raw binding: unknown component': () => raw.componentInfo('nope'),
          'raw binding: bad field type': () => raw.defineComponent('bad2', { v: 'float' }),
          'raw binding: unknown event': () => raw.observe('bad', 'position', () => {}),
        };
        const out = {};
        for (const [name, attempt] of Object.entries(attempts)) {
          const hash = world.stateHash();
          const bytes = world.snapshot();  // also what stateHash leaves out: free list, generations, ticks
          const generation = world.storageGeneration;
          const sp = module.stackSave();
          let result;
          try {
            attempt();
            result = { threw: false };
          } catch (error) {
            result = { threw: true, isError: error instanceof Error, message: String(error.message), code: error.code };
          }
          // A failed raw call leaves the wasm stack pointer moved; the JS World restores it itself.
          if (name.startsWith('raw binding')) module.stackRestore(sp);
          result.stackKept = module.stackSave() === sp;
          result.hashKept = world.stateHash() === hash;
          const after = world.snapshot();
          result.bytesKept = after.length === bytes.length && after.every((b, i) => b === bytes[i]);
          result.generationKept = world.storageGeneration === generation;
          out[name] = result;
        }
        // Many failed calls in a row keep the stack where it was.
        const sp = module.stackSave();
        for (let i = 0; i < 20_000; i += 1) {
          try { world.get(dead, 'position'); } catch { /* expected */ }
        }
        out.stackAfterManyErrors = module.stackSave() === sp;
        out.capacityHash = world.stateHash();
        try { world.spawn({ position: { x: 9, y: 9 } }); out.overCapacity = 'no error'; } catch (e) { out.overCapacity = e.message; }
        out.capacityHashKept = world.stateHash() === out.capacityHash;
        out.stillWorks = world.get(a, 'position');
        // A class instance is an object of named values (its own fields; methods are not fields).
        class Vec2 { constructor(x, y) { this.x = x; this.y = y; } length() { return Math.hypot(this.x, this.y); } }
        world.set(a, 'position', new Vec2(3, 4));
        out.fromClass = world.get(a, 'position');
        return out;
      });
      const expected = {
        'unknown component (spawn)': /nope/,
        'unknown component (add)': /nope/,
        'unknown component (count)': /nope/,
        'unknown field (spawn)': /'z'/,
        'unknown field (set)': /'z'/,
        'string into f32': /position\.x.*f32.*string/,
        'string into f32 (spawn)': /velocity\.dx.*f32.*string/,
        'NaN into f32 (add)': /^world\.add: field 'position\.x' is f32 and takes a number \(not NaN\), got number NaN$/,
        'beyond the f32 range (spawn)': /^world\.spawn: field 'position\.x' is f32 and cannot hold 1e\+39 \(beyond the f32 range; Infinity is allowed\)$/,
        'values not an object (add)': /^world\.add: 'position' takes an object of field values \(or true\), got number 5$/,
        'values not an object (spawn)': /^world\.spawn: 'position' takes an object of field values \(or true\), got /,
        'unknown field (add)': /'z'/,
        'a Map as values (set)': /^world\.set: 'position' takes an object of field values, got a Map$/,
        'a Map as values (add)': /^world\.add: 'position' takes an object of field values \(or true\), got a Map$/,
        'a Date as values (spawn)': /^world\.spawn: 'position' takes an object of field values \(or true\), got a Date$/,
        'a Map as the row (spawn)': /^world\.spawn: takes an object of components by name, got a Map$/,
        'a Set for a tag (add)': /^world\.add: 'enemy' takes an object of field values \(or true\), got a Set$/,
        'out of range i8 (engine check)': /small\.n.*i8.*300/,
        'fraction into i8 (engine check)': /small\.n.*i8.*1\.5/,
        'number into bool': /small\.flag.*bool/,
        'dead handle (get)': /not alive/,
        'dead handle (set)': /not alive/,
        'dead handle (add)': /not alive/,
        'dead handle (despawn)': /not alive/,
        'missing component (get)': /velocity/,
        'name not a string (a fresh world\'s first lookup)': /^world\.has: a component name must be a string, got undefined$/,
        'name not a string (after lookups)': /^world\.get: a component name must be a string, got number 42$/,
        'not a handle': /not an entity handle/,
        'a BigInt handle (get)': /^world\.get: a bigint is not an entity handle/,
        'a BigInt handle (despawn)': /^world\.despawn: a bigint is not an entity handle/,
        'a BigInt handle (isAlive)': /^world\.isAlive: a bigint is not an entity handle/,
        'a BigInt target (hasPair)': /^world\.hasPair: .*a bigint/,
        'tag with fields': /enemy.*tag.*level/,
        'bad field type (define)': /float/,
        'duplicate component (define)': /position.*already/,
        'raw binding: unknown component': /UnknownComponent.*nope/,
        'raw binding: bad field type': /BadDefinition.*bad2\.v.*float/,
        'raw binding: unknown event': /BadValue.*'bad'/,
      };
      for (const [name, pattern] of Object.entries(expected)) {
        const r = cases[name];
        expect(r.threw, name).toBe(true);
        expect(r.isError, name).toBe(true);
        expect(r.message, name).toMatch(pattern);
        expect(r.hashKept, `${name}: stateHash unchanged`).toBe(true);
        expect(r.bytesKept, `${name}: snapshot bytes unchanged`).toBe(true);
        expect(r.generationKept, `${name}: storageGeneration unchanged`).toBe(true);
        expect(r.stackKept, `${name}: wasm stack pointer restored`).toBe(true);
      }
      expect(cases['raw binding: unknown component'].code).toBe('UnknownComponent');
      expect(cases['dead handle (despawn)'].code).toBe('StaleEntity');
      expect(cases['dead handle (get)'].message).toMatch(/^world\.get: StaleEntity: entity 0x[0-9a-f]{8} \(index \d+, generation \d+\) is not alive/);
      expect(cases['missing component (get)'].code).toBe('MissingComponent');
      expect(cases['capacity exhausted'].threw).toBe(false);  // reaching the limit is fine
      expect(cases.overCapacity).toMatch(/max_entities limit of 3/);
      expect(cases.capacityHashKept).toBe(true);
      expect(cases.stackAfterManyErrors).toBe(true);
      expect(cases.stillWorks).toEqual({ x: 1, y: 1 });
      expect(cases.fromClass).toEqual({ x: 3, y: 4 });
      expectNoPageErrors(log);
    });

    test('each world call crosses into wasm once, failing or not, and a failure carries the engine\'s own error', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 100 });
        world.defineComponent('marked', {});
        const a = world.spawn({ position: { x: 1, y: 2 } });
        const dead = world.spawn();
        world.despawn(dead);
        // The first use of a name looks its layout up (an Embind call, once): done here.
        for (const name of ['position', 'velocity', 'marked']) world.has(a, name);
        const core = window.ecsiaTest.internalsOf(world);
        // Count every call of the C exports and of the raw Embind world's methods.
        const counts = { exports: 0, embind: 0 };
        for (const [name, fn] of Object.entries(core.fast)) {
          if (name === 'errorCode' || name === 'errorMessage') continue;
          core.fast[name] = (...args) => { counts.exports += 1; return fn(...args); };
        }
        const raw = core.raw('test');
        const proto = Object.getPrototypeOf(raw);
        const embindNames = Object.getOwnPropertyNames(proto).filter((n) => typeof proto[n] === 'function' && n !== 'constructor');
        for (const name of embindNames) {
          const fn = raw[name];
          raw[name] = (...args) => { counts.embind += 1; return fn.apply(raw, args); };
        }
        const calls = {
          'spawn': () => world.spawn({ position: { x: 1, y: 1 } }),
          'despawn dead': () => world.despawn(dead),
          'add dead': () => world.add(dead, 'marked'),
          'add': () => world.add(a, 'marked'),
          'markChanged tag': () => world.markChanged(a, 'marked'),
          'remove dead': () => world.remove(dead, 'marked'),
          'remove': () => world.remove(a, 'marked'),
          'has dead': () => world.has(dead, 'position'),
          'has': () => world.has(a, 'position'),
          'get missing': () => world.get(a, 'velocity'),
          'get': () => world.get(a, 'position'),
          'set dead': () => world.set(dead, 'position', { x: 1 }),
          'set': () => world.set(a, 'position', { x: 3 }),
          'isAlive': () => world.isAlive(dead),
          'addMany dead': () => world.addMany([a, dead], 'marked'),
          'removeMany': () => world.removeMany([a], 'marked'),
        };
        const out = {};
        for (const [name, call] of Object.entries(calls)) {
          counts.exports = 0;
          counts.embind = 0;
          let error = null;
          try { call(); } catch (e) { error = { message: e.message, code: e.code }; }
          out[name] = { exports: counts.exports, embind: counts.embind, error };
        }
        return out;
      });
      for (const [name, c] of Object.entries(r)) {
        expect(c.embind, `${name}: no Embind call`).toBe(0);
        expect(c.exports, `${name}: one export call`).toBe(1);
        expect(c.error === null, `${name}: fails or not as expected`).toBe(!/dead|missing|tag/.test(name));
      }
      expect(r['despawn dead'].error.code).toBe('StaleEntity');
      expect(r['despawn dead'].error.message).toMatch(/^world\.despawn: StaleEntity: entity 0x[0-9a-f]{8} .*is not alive/);
      expect(r['get missing'].error.code).toBe('MissingComponent');
      expect(r['get missing'].error.message).toMatch(/^world\.get: MissingComponent: entity .* has no 'velocity'$/);
      expect(r['markChanged tag'].error).toEqual({ code: 'BadValue', message: "world.markChanged: BadValue: 'marked' is a tag: it has no values to read or write" });
      expect(r['addMany dead'].error.code).toBe('StaleEntity');
      expect(r['addMany dead'].error.message).toMatch(/entities\[1\]/);
      expectNoPageErrors(log);
    });

    test('growth changes storageGeneration; re-fetched views are correct and old ones are stale', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 200_000 });
        world.defineComponent('mixed', { id: 'u32', weight: 'f64', on: 'bool' });
        const expected = new Map();
        const spawnOne = (i) => {
          const e = world.spawn({ position: { x: i, y: -i }, velocity: { dx: i / 2, dy: 1 }, mixed: { id: i, weight: i / 4, on: i % 2 === 1 } });
          expected.set(e, i);
        };
        for (let i = 0; i < 10; i += 1) spawnOne(i);
        const old = world.chunks(['position', 'mixed']);
        const oldGeneration = world.storageGeneration;
        const out = {
          oldChunks: old.length,
          oldCount: old[0].count,
          oldStaleBefore: old[0].stale,
          viewType: old[0].columns.position.constructor.name,
          stride: old[0].strides.position,
          mixedType: old[0].columns.mixed.constructor.name,
        };
        const heapOf = () => window.ecsiaTest.internalsOf(ecsia).heapState().buffer.byteLength;
        const heapBefore = heapOf();
        for (let i = 10; i < 100_000; i += 1) spawnOne(i);
        out.heapGrew = heapOf() > heapBefore;
        out.oldViewLength = old[0].columns.position.length;  // 0 once a plain heap grew (detached)
        out.generationChanged = world.storageGeneration !== oldGeneration;
        out.oldStale = old[0].stale;
        out.oldCurrent = world.isCurrent(old[0]);
        const fresh = world.chunks(['position', 'velocity', 'mixed']);
        out.freshStale = fresh.some((c) => c.stale);
        out.total = fresh.reduce((n, c) => n + c.count, 0);
        let wrong = 0;
        for (const c of fresh) {
          const p = c.columns.position; const v = c.columns.velocity; const m = c.columns.mixed;
          const ps = c.strides.position; const vs = c.strides.velocity; const ms = c.strides.mixed;
          const mo = c.offsets.mixed;
          for (let row = 0; row < c.count; row += 1) {
            const i = expected.get(c.entities[row]);
            if (i === undefined) { wrong += 1; continue; }
            const base = row * ms;
            if (p[row * ps + c.offsets.position.x] !== i || p[row * ps + c.offsets.position.y] !== -i ||
                v[row * vs + c.offsets.velocity.dx] !== i / 2 ||
                m.getUint32(base + mo.id, true) !== i || m.getFloat64(base + mo.weight, true) !== i / 4 ||
                m.getUint8(base + mo.on) !== i % 2) wrong += 1;
          }
        }
        out.wrongRows = wrong;
        // The views are the columns themselves: a write through one is what get() reads.
        const c0 = fresh[0];
        c0.columns.position[5 * c0.strides.position + c0.offsets.position.x] = 1234.5;
        out.writeThrough = world.get(c0.entities[5], 'position').x;
        // A structural change that makes a new table also makes the views stale.
        const generation = world.storageGeneration;
        world.defineComponent('late', { v: 'f32' });
        world.add(c0.entities[0], 'late', { v: 1 });
        out.newTableChangesGeneration = world.storageGeneration !== generation;
        out.staleAfterNewTable = fresh[0].stale;
        world.dispose();
        out.staleAfterDispose = c0.stale;
        return out;
      });
      expect(r.oldChunks).toBe(1);
      expect(r.oldCount).toBe(10);
      expect(r.oldStaleBefore).toBe(false);
      expect(r.viewType).toBe('Float32Array');
      expect(r.stride).toBe(2);
      expect(r.mixedType).toBe('DataView');
      expect(r.generationChanged).toBe(true);
      expect(r.oldStale).toBe(true);
      expect(r.oldCurrent).toBe(false);
      expect(r.freshStale).toBe(false);
      expect(r.total).toBe(100_000);
      expect(r.wrongRows).toBe(0);
      expect(r.writeThrough).toBe(1234.5);
      expect(r.newTableChangesGeneration).toBe(true);
      expect(r.staleAfterNewTable).toBe(true);
      expect(r.staleAfterDispose).toBe(true);
      if (variant === 'single') {
        // 16 MB to start: 100k entities grow the heap, so staleness across a detached heap is covered.
        expect(r.heapGrew, 'the single build\'s heap grew during the test').toBe(true);
        expect(r.oldViewLength).toBe(0);
      }
      expectNoPageErrors(log);
    });
  });
}

test('the same world operations give the same stateHash on the threaded and the single build', async ({ browser }) => {
  const run = async (server, options) => {
    const page = await browser.newPage();
    const log = await openTestPage(page, server);
    const result = await page.evaluate(async (opts) => {
      const ecsia = await window.ecsiaTest.loadEcsia({ ...opts, onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 50_000 });
      const r = window.ecsiaTest.scenario.runOperations(world, 7, 20_000);
      world.dispose();
      return { variant: ecsia.variant, ...r };
    }, options);
    expectNoPageErrors(log);
    expect(warningsOf(log)).toEqual([]);
    await page.close();
    return result;
  };
  const threaded = await run(servers.isolated, {});
  const serialOnIsolatedPage = await run(servers.isolated, { threads: 0 });
  const single = await run(servers.plain, {});
  expect(threaded.variant).toBe('threaded');
  expect(serialOnIsolatedPage.variant).toBe('single');
  expect(single.variant).toBe('single');
  expect(threaded.spawned).toBeGreaterThan(1000);
  expect(threaded.despawned).toBeGreaterThan(100);
  expect(single).toEqual({ ...threaded, variant: 'single' });
  expect(serialOnIsolatedPage.hash).toBe(threaded.hash);
});
