// world.spawnMany / despawnMany: values per field as one number or an array-like, the handles in
// order, and all or nothing (a bad value anywhere, or too little capacity, spawns nothing; a dead
// or repeated handle despawns nothing). Also the values rules every call shares: NaN is an error
// in any field, Infinity is allowed in f32/f64; and defineComponent is idempotent.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, test, variants } from './support.js';

for (const { variant, server } of variants) {
  test.describe(`${variant} build`, () => {
    test('spawnMany writes the values it is given and returns the handles in order', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 100_000 });
        world.defineComponent('mixed', { id: 'u32', weight: 'f64', on: 'bool', target: 'entity', small: 'i8' });
        world.defineComponent('tagged', {});
        const n = 5000;
        const xs = new Float32Array(n).map((_, i) => i * 0.5);
        const ids = Array.from({ length: n }, (_, i) => i * 3);
        const handles = world.spawnMany(n, {
          position: { x: xs, y: -1 }, velocity: { dx: ids, dy: Infinity },
          mixed: { id: ids, weight: 0.25, on: true, small: new Int8Array(n).fill(-5) }, tagged: true,
        });
        const out = { type: handles.constructor.name, length: handles.length, alive: world.count(['position', 'mixed', 'tagged']) };
        let wrong = 0;
        for (let i = 0; i < n; i += 1) {
          const p = world.get(handles[i], 'position'); const v = world.get(handles[i], 'velocity'); const m = world.get(handles[i], 'mixed');
          if (p.x !== i * 0.5 || p.y !== -1 || v.dx !== i * 3 || v.dy !== Infinity || m.id !== i * 3 || m.weight !== 0.25 ||
              m.on !== true || m.target !== null || m.small !== -5 || !world.has(handles[i], 'tagged')) wrong += 1;
        }
        out.wrong = wrong;
        const single = [];
        for (let i = 0; i < 3; i += 1) single.push(world.spawn({ position: { x: i * 0.5, y: -1 } }));
        const bulk = world.spawnMany(3, { position: { x: [0, 0.5, 1], y: -1 } });
        out.sameHandlesAsSpawn = true;  // spawn and spawnMany take handles from the same free list
        out.orderIncreasing = bulk[0] < bulk[1] && bulk[1] < bulk[2];
        out.none = world.spawnMany(0, { position: { x: [], y: [] } }).length;
        world.despawnMany(handles);
        out.afterDespawnMany = world.count(['mixed']);
        out.deadAll = [...handles].every((e) => !world.isAlive(e));
        world.dispose();
        return out;
      });
      expect(r.type).toBe('Uint32Array');
      expect(r.length).toBe(5000);
      expect(r.alive).toBe(5000);
      expect(r.wrong).toBe(0);
      expect(r.orderIncreasing).toBe(true);
      expect(r.none).toBe(0);
      expect(r.afterDespawnMany).toBe(0);
      expect(r.deadAll).toBe(true);
      expectNoPageErrors(log);
    });

    test('spawnMany and despawnMany are all or nothing, and every value error names the problem', async ({ page }) => {
      const log = await openTestPage(page, server);
      const cases = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 100 });
        world.defineComponent('small', { n: 'i8', flag: 'bool', who: 'entity', d: 'f64' });
        world.defineComponent('marked', {});
        const keep = world.spawnMany(10, { position: { x: 1, y: 2 } });
        const dead = world.spawn({ position: { x: 0, y: 0 } });
        world.despawn(dead);
        const nanAt = new Float32Array(5); nanAt[3] = NaN;
        const attempts = {
          'capacity': () => world.spawnMany(91, { position: { x: 0, y: 0 } }),
          'NaN in an array': () => world.spawnMany(5, { position: { x: nanAt, y: 0 } }),
          'NaN as the one value': () => world.spawnMany(5, { velocity: { dx: NaN } }),
          'NaN into f64 (spawn)': () => world.spawn({ small: { d: NaN } }),
          'NaN into f32 (set)': () => world.set(keep[0], 'position', { x: NaN }),
          'NaN into i8 (add)': () => world.add(keep[0], 'small', { n: NaN }),
          'out of range in an array': () => world.spawnMany(3, { small: { n: [1, 2, 300] } }),
          'wrong length': () => world.spawnMany(3, { position: { x: [1, 2] } }),
          'unknown field': () => world.spawnMany(3, { position: { z: 1 } }),
          'unknown component': () => world.spawnMany(3, { nope: true }),
          'negative count': () => world.spawnMany(-1, {}),
          'f32 beyond range': () => world.spawnMany(2, { position: { x: [1, 1e39] } }),
          'string in an array': () => world.spawnMany(2, { position: { x: [1, '2'] } }),
          'bool not 0/1': () => world.spawnMany(2, { small: { flag: [1, 2] } }),
          'despawnMany dead handle': () => world.despawnMany([keep[0], dead, keep[1]]),
          'despawnMany twice': () => world.despawnMany([keep[2], keep[3], keep[2]]),
          'despawnMany not a handle': () => world.despawnMany([keep[4], 'x']),
          'despawnMany not a list': () => world.despawnMany(keep[4]),
          'defineComponent different fields': () => world.defineComponent('small', { n: 'i16' }),
          'addMany dead handle': () => world.addMany([keep[0], dead, keep[1]], 'small', { n: 1 }),
          'addMany twice': () => world.addMany(Uint32Array.of(keep[2], keep[3], keep[2]), 'small'),
          'addMany not a handle': () => world.addMany([keep[4], -1], 'small'),
          'addMany not a list': () => world.addMany(keep[4], 'small'),
          'addMany unknown component': () => world.addMany(keep, 'nope'),
          'addMany wrong length': () => world.addMany(keep, 'small', { n: [1, 2, 3] }),
          'addMany out of range in an array': () => world.addMany(keep.subarray(0, 3), 'small', { n: [1, 2, 300] }),
          'addMany field of a tag': () => world.addMany(keep, 'marked', { v: 1 }),
          'removeMany dead handle': () => world.removeMany([keep[0], keep[1], dead], 'position'),
          'removeMany twice': () => world.removeMany([keep[5], keep[5]], 'position'),
          'removeMany not a handle': () => world.removeMany([1.5], 'position'),
          'removeMany unknown component': () => world.removeMany(keep, 'nope'),
        };
        const out = {};
        for (const [name, attempt] of Object.entries(attempts)) {
          const hash = world.stateHash();
          const bytes = world.snapshot();  // also what stateHash leaves out: free list, generations, ticks
          const alive = world.count([]);
          try { attempt(); out[name] = { threw: false }; } catch (e) {
            const after = world.snapshot();
            const bytesKept = after.length === bytes.length && after.every((b, i) => b === bytes[i]);
            out[name] = { threw: true, message: e.message, code: e.code, hashKept: world.stateHash() === hash, bytesKept, aliveKept: world.count([]) === alive };
          }
        }
        const again = world.defineComponent('small', { n: 'i8', flag: 'bool', who: 'entity', d: 'f64' });
        out.idempotent = again.name === 'small' && again.fields.length === 4;
        out.idempotentBuiltin = world.defineComponent('position', { x: 'f32', y: 'f32' }).name;
        world.set(keep[0], 'position', { x: -Infinity });
        out.infinity = world.get(keep[0], 'position').x;
        world.dispose();
        return out;
      });
      const expected = {
        'capacity': /spawn_many of 91 entities does not fit: 90 more fit under max_entities \d+; nothing was spawned/,
        'NaN in an array': /position\.x.*f32.*not NaN.*NaN/,
        'NaN as the one value': /velocity\.dx.*NaN/,
        'NaN into f64 (spawn)': /small\.d.*f64.*NaN/,
        'NaN into f32 (set)': /position\.x.*NaN/,
        'NaN into i8 (add)': /small\.n.*i8.*NaN/,
        'out of range in an array': /entity 2.*small\.n.*i8.*-128 to 127.*300/,
        'wrong length': /position\.x' has 2 values for 3 entities/,
        'unknown field': /'position' has no field 'z'/,
        'unknown component': /unknown component 'nope'/,
        'negative count': /count must be a whole number/,
        'f32 beyond range': /position\.x.*f32.*1e\+39/,
        'string in an array': /entity 1.*position\.x.*string/,
        'bool not 0/1': /small\.flag.*bool/,
        'despawnMany dead handle': /entities\[1\].*is not alive .*; nothing was despawned/,
        'despawnMany twice': /entities\[2\].*appears twice; nothing was despawned/,
        'despawnMany not a handle': /handles\[1\].*not an entity handle/,
        'despawnMany not a list': /array or Uint32Array/,
        'defineComponent different fields': /already defined with fields \{ n: 'i8', flag: 'bool', who: 'entity', d: 'f64' \}/,
        'addMany dead handle': /^world\.addMany: StaleEntity: entities\[1\] \(\d+\) is not alive.*; nothing was changed$/,
        'addMany twice': /^world\.addMany: BadValue: entities\[2\] \(\d+\) appears twice; nothing was changed$/,
        'addMany not a handle': /^world\.addMany: handles\[1\] is number -1, not an entity handle/,
        'addMany not a list': /^world\.addMany: takes an array or Uint32Array of entity handles, got number/,
        'addMany unknown component': /^world\.addMany: UnknownComponent: unknown component 'nope' \(defined: .*small/,
        'addMany wrong length': /^world\.addMany: field 'small\.n' has 3 values for 10 entities/,
        'addMany out of range in an array': /entity 2.*small\.n.*i8.*-128 to 127.*300/,
        'addMany field of a tag': /^world\.addMany: 'marked' is a tag and has no field 'v'/,
        'removeMany dead handle': /^world\.removeMany: StaleEntity: entities\[2\] .*not alive/,
        'removeMany twice': /^world\.removeMany: BadValue: entities\[1\] .*twice/,
        'removeMany not a handle': /^world\.removeMany: handles\[0\] is number 1\.5/,
        'removeMany unknown component': /^world\.removeMany: UnknownComponent: unknown component 'nope'/,
      };
      for (const [name, pattern] of Object.entries(expected)) {
        expect(cases[name].threw, name).toBe(true);
        expect(cases[name].message, name).toMatch(pattern);
        expect(cases[name].hashKept, `${name}: state unchanged`).toBe(true);
        expect(cases[name].bytesKept, `${name}: snapshot bytes unchanged`).toBe(true);
        expect(cases[name].aliveKept, `${name}: nothing spawned or despawned`).toBe(true);
      }
      expect(cases.idempotent).toBe(true);
      expect(cases.idempotentBuiltin).toBe('position');
      expect(cases.infinity).toBe(-Infinity);
      expectNoPageErrors(log);
    });

    test('update rejects a negative dt; a scheduler whose world was disposed throws a clear error on every call', async ({ page }) => {
      await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 1000 });
        world.spawnMany(100, { position: { x: 0, y: 0 }, velocity: { dx: 1, dy: 1 } });
        const scheduler = world.createScheduler({ systems: ['Move'] });
        const out = {};
        for (const dt of [-1 / 60, NaN, Infinity, '1']) {
          try { await scheduler.update(dt); out[String(dt)] = 'no error'; } catch (e) { out[String(dt)] = e.message; }
        }
        await scheduler.update(0);
        world.dispose();
        out.disposed = scheduler.disposed;
        const calls = {
          update: () => scheduler.update(1 / 60), plan: () => scheduler.plan(), explainPlan: () => scheduler.explainPlan(),
          lastFrame: () => scheduler.lastFrame(), workers: () => scheduler.workers, frames: () => scheduler.frames,
          addSystem: () => scheduler.addSystem({ name: 'X', run() {} }),
        };
        out.calls = {};
        for (const [name, call] of Object.entries(calls)) {
          try { await call(); out.calls[name] = 'no error'; } catch (e) { out.calls[name] = e.message; }
        }
        scheduler.dispose();  // still a no-op
        return out;
      });
      expect(r['-0.016666666666666666']).toMatch(/dt must be a finite number >= 0/);
      expect(r.NaN).toMatch(/dt must be a finite number/);
      expect(r.Infinity).toMatch(/dt must be a finite number/);
      expect(r['1']).toMatch(/dt must be a finite number/);
      expect(r.disposed).toBe(true);
      for (const [name, message] of Object.entries(r.calls)) expect(message, name).toMatch(new RegExp(`scheduler\\.${name}: the scheduler's world was disposed`));
    });

    test('bulk counts at the edges: zero on a fresh world, past 32 bits, past the heap; extra arguments refused', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 100 });
        world.defineComponent('flag', {});
        const kept = world.spawn({ position: { x: 1, y: 2 } });
        const hash = world.stateHash();
        const attempt = (fn) => { try { fn(); return 'accepted'; } catch (e) { return `${e.code ?? '-'} ${e.message}`; } };
        const out = {};
        // An earlier failure must not be what a zero count reports: there is nothing to fail.
        attempt(() => world.get(12345, 'position'));
        out.zero = world.spawnMany(0, { position: true }).length;
        const prefab = world.definePrefab('crate', { position: { x: 1, y: 2 } });
        out.zeroInstances = world.instantiateMany(prefab, 0).length;
        const before = world.stateHash();
        // Counts the engine cannot hold in 32 bits are refused before anything is made.
        out.wide = attempt(() => world.spawnMany(2 ** 32 + 2, { flag: true }));
        out.wideInstances = attempt(() => world.instantiateMany(prefab, 2 ** 32 + 1));
        // Within 32 bits but beyond the world's room: its capacity error, not the heap's.
        out.beyondRoom = attempt(() => world.spawnMany(2 ** 31, { flag: true }));
        // Values that would need more scratch memory than a heap holds: refused, world intact.
        out.beyondHeap = attempt(() => world.spawnMany(2 ** 29 + 1, { position: true }));
        out.unchanged = world.stateHash() === before;
        out.keptValue = world.get(kept, 'position');
        out.spawnAfter = world.spawnMany(3, { position: { x: [1, 2, 3], y: 0 } }).length;
        out.extra = {
          restore: attempt(() => world.restore(world.snapshot(), { strict: true })),
          chunks: attempt(() => world.query({ with: ['position'] }).chunks({ fresh: true })),
          count: attempt(() => world.query({ with: ['position'] }).count(1)),
          dispose: attempt(() => world.dispose(true)),
        };
        out.firstHash = hash.length > 0;
        return out;
      });
      expect(r.zero).toBe(0);
      expect(r.zeroInstances).toBe(0);
      expect(r.wide).toMatch(/^- world\.spawnMany: count must be a whole number from 0 to 4294967295, got/);
      expect(r.wideInstances).toMatch(/^- world\.instantiateMany: count must be a whole number from 0 to 4294967295, got/);
      expect(r.beyondRoom).toMatch(/^CapacityExceeded world\.spawnMany: .*spawn_many of 2147483648 entities does not fit/);
      expect(r.beyondHeap).toMatch(/^OutOfMemory world\.spawnMany: OutOfMemory: the call needs \d+ bytes of scratch memory/);
      expect(r.unchanged).toBe(true);
      expect(r.keptValue).toEqual({ x: 1, y: 2 });
      expect(r.spawnAfter).toBe(3);
      expect(r.extra).toEqual({
        restore: '- world.restore: takes at most 1 argument, got 2',
        chunks: '- query.chunks: takes no arguments, got 1',
        count: '- query.count: takes no arguments, got 1',
        dispose: '- world.dispose: takes no arguments, got 1',
      });
      expectNoPageErrors(log);
    });

    test('a call whose arguments call the world while they are read (getters, Proxies) is refused whole, naming both', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 2_000_000 });
        world.defineComponent('C', { x: 'f32' });
        world.defineRelation('R', { a: 'u32', b: 'u32' });
        world.defineTopic('T', { a: 'u32', b: 'u32' });
        const [a, b, c, d, s, t, x, y] = Array.from({ length: 8 }, (_, i) => world.spawn({ C: { x: i } }));
        const out = {};
        const attempt = (name, fn) => {
          const before = world.stateHash();
          try {
            fn();
            out[name] = 'no error';
          } catch (error) {
            out[name] = `${error.code}: ${error.message}`;
          }
          out[`${name}Hash`] = world.stateHash() !== before;
        };
        // The Proxy's trap removes C from c through the same scratch memory as the list in it.
        const list = new Proxy([a, b], { get(target, key) { if (key === '1') world.removeMany([c], 'C'); return Reflect.get(target, key); } });
        attempt('despawnMany', () => world.despawnMany(list));
        out.afterDespawnMany = [world.isAlive(a), world.isAlive(b), world.has(c, 'C')];
        attempt('addPair', () => world.addPair(s, 'R', t, { a: 1, get b() { world.addPair(x, 'R', y, { a: 99, b: 5 }); return 2; } }));
        out.afterAddPair = [world.hasPair(s, 'R', t), world.getPair(x, 'R', y)];
        attempt('spawn', () => world.spawn({ C: { get x() { world.spawn({ C: { x: 88 } }); return 21; } } }));
        attempt('set', () => world.set(d, 'C', { get x() { world.set(a, 'C', { x: 55 }); return 7; } }));
        out.afterSet = [world.get(d, 'C').x, world.get(a, 'C').x];
        attempt('publish', () => world.publish('T', { a: 1, get b() { world.publish('T', { a: 50, b: 2 }); return 2; } }));
        // The heap grows under the reader: the error still names what happened.
        attempt('grown', () => world.addPair(x, 'R', s, { a: 31, get b() { world.spawnMany(1_500_000, { C: { x: 1 } }); return 32; } }));
        out.afterGrown = world.hasPair(x, 'R', s);
        // Reading the same values beforehand is fine; so is a getter that does not call the world.
        world.addPair(s, 'R', t, { a: 1, get b() { return 2; } });
        out.plain = world.getPair(s, 'R', t);
        world.dispose();
        return out;
      });
      const refused = (op) => new RegExp(`^WrongPhase: world\\.${op}: a getter or Proxy in its arguments called the world while they were read.*world\\.${op} changed nothing`);
      for (const op of ['despawnMany', 'addPair', 'spawn', 'set', 'publish']) {
        expect(r[op]).toMatch(refused(op));
        if (op !== 'publish') expect(r[`${op}Hash`], `${op}: what the getter's own call did stands`).toBe(true);
      }
      expect(r.grown).toMatch(refused('addPair'));
      expect(r.afterDespawnMany).toEqual([true, true, false]);
      expect(r.afterAddPair).toEqual([false, { a: 99, b: 5 }]);
      expect(r.afterSet).toEqual([3, 55]);
      expect(r.afterGrown).toBe(false);
      expect(r.plain).toEqual({ a: 1, b: 2 });
      expectNoPageErrors(log);
    });
  });
}
