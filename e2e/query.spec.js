// Queries from JS: world.query({ with, without, optional, changed, added }) against a model of
// which entity has what; changed/added relative to each query's own previous chunks(); chunks()
// as views (no per-call copy, the same Chunk objects on an unchanged world, stale after a
// structural change); world.chunks(with, without); main-thread systems with a query whose
// declared writes are change-tracked.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, test, variants } from './support.js';

for (const { variant, server } of variants) {
  test.describe(`${variant} build`, () => {
    test('with, without and optional select what a model says, for random worlds', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 5000 });
        world.defineComponent('a', { v: 'i32' });
        world.defineComponent('b', { v: 'f64', w: 'u8' });
        world.defineComponent('t', {});
        const names = ['position', 'a', 'b', 't'];
        let state = 12345;
        const next = (n) => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return (state >>> 8) % n; };
        const model = new Map();  // entity -> Set of names
        for (let i = 0; i < 1500; i += 1) {
          const comps = {};
          for (const n of names) if (next(2)) comps[n] = n === 'position' ? { x: i, y: 0 } : n === 'a' ? { v: i } : n === 'b' ? { v: i / 2 } : true;
          const e = world.spawn(comps);
          model.set(e, new Set(Object.keys(comps)));
          if (next(5) === 0) {
            const victim = [...model.keys()][next(model.size)];
            world.despawn(victim);
            model.delete(victim);
          }
        }
        const mismatches = [];
        for (let q = 0; q < 40; q += 1) {
          const spec = { with: [], without: [], optional: [] };
          for (const n of names) {
            const k = next(4);
            if (k === 1) spec.with.push(n); else if (k === 2) spec.without.push(n); else if (k === 3) spec.optional.push(n);
          }
          const expected = [...model].filter(([, s]) => spec.with.every((n) => s.has(n)) && spec.without.every((n) => !s.has(n)))
            .map(([e]) => e).sort((x, y) => x - y);
          const query = world.query(spec);
          const got = [];
          let columnsOk = true;
          for (const chunk of query) {
            for (let i = 0; i < chunk.count; i += 1) {
              const e = chunk.entities[i];
              got.push(e);
              for (const n of [...spec.with, ...spec.optional]) {
                if (n === 't') continue;
                const has = model.get(e)?.has(n);
                if (spec.optional.includes(n) && !has) { if (n in chunk.columns) columnsOk = false; continue; }
                if (n === 'a' && chunk.columns.a[i * chunk.strides.a] !== world.get(e, 'a').v) columnsOk = false;
                if (n === 'b' && chunk.columns.b.getFloat64(i * chunk.strides.b + chunk.offsets.b.v, true) !== world.get(e, 'b').v) columnsOk = false;
              }
            }
          }
          got.sort((x, y) => x - y);
          if (JSON.stringify(got) !== JSON.stringify(expected) || query.count() !== expected.length || !columnsOk) {
            mismatches.push({ spec, expected: expected.length, got: got.length, count: query.count(), columnsOk });
          }
          if (JSON.stringify(world.chunks(spec.with, spec.without).flatMap((c) => [...c.entities]).sort((x, y) => x - y)) !== JSON.stringify(expected)) {
            mismatches.push({ spec, chunks: 'world.chunks(with, without) differs' });
          }
        }
        world.dispose();
        return { mismatches, alive: model.size };
      });
      expect(r.alive).toBeGreaterThan(1000);
      expect(r.mismatches).toEqual([]);
      expectNoPageErrors(log);
    });

    test('changed and added are relative to each query\'s previous chunks()', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 1000 });
        const rows = (query) => query.chunks().flatMap((c) => [...c.entities]).sort((x, y) => x - y);
        const es = [];
        for (let i = 0; i < 10; i += 1) es.push(world.spawn({ position: { x: i, y: 0 }, velocity: { dx: 1, dy: 0 } }));
        const changed = world.query({ with: ['velocity'], changed: ['position'] });
        const added = world.query({ added: ['position'] });
        const out = {};
        out.firstChanged = rows(changed).length;   // a new query sees every matching row
        out.firstAdded = rows(added).length;
        out.againChanged = rows(changed);          // nothing happened since
        out.againAdded = rows(added);
        world.set(es[3], 'position', { x: 30 });
        world.set(es[7], 'position', { y: 1 });
        const late = world.query({ changed: ['position'] });
        out.countBefore = changed.count();
        out.changed = rows(changed);
        out.changedTwice = rows(changed);
        out.lateFirst = rows(late).length;         // its own cursor: everything
        const [chunk] = world.chunks(['position']);
        chunk.columns.position[5 * chunk.strides.position] = 55;  // untracked write through a view
        out.afterUntracked = rows(changed);
        world.markChanged(es[5], 'position');
        out.afterMark = rows(changed);
        const fresh = world.spawn({ position: { x: 0, y: 0 }, velocity: { dx: 0, dy: 0 } });
        out.addedFresh = rows(added);
        out.changedFresh = rows(changed);          // a new row counts as changed too
        out.fresh = fresh;
        out.es = es;
        world.dispose();
        return out;
      });
      const { es } = r;
      expect(r.firstChanged).toBe(10);
      expect(r.firstAdded).toBe(10);
      expect(r.againChanged).toEqual([]);
      expect(r.againAdded).toEqual([]);
      expect(r.countBefore).toBe(2);
      expect(r.changed).toEqual([es[3], es[7]].sort((a, b) => a - b));
      expect(r.changedTwice).toEqual([]);
      expect(r.lateFirst).toBe(10);
      expect(r.afterUntracked).toEqual([]);
      expect(r.afterMark).toEqual([es[5]]);
      expect(r.addedFresh).toEqual([r.fresh]);
      expect(r.changedFresh).toEqual([r.fresh]);
      expectNoPageErrors(log);
    });

    test('chunks are views: no copy, the same objects on an unchanged world, stale after a structural change', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 200_000 });
        world.spawnMany(100_000, { position: { x: 1, y: 2 }, velocity: { dx: 0, dy: 0 } });
        const query = world.query({ with: ['position', 'velocity'] });
        const first = query.chunks();
        const second = query.chunks();
        const out = {
          chunks: first.length,
          sameObjects: first.every((c, i) => c === second[i]),
          entitiesIsView: first[0].entities.buffer === first[0].columns.position.buffer && first[0].entities.byteOffset > 0,
          staleBefore: first[0].stale,
        };
        // Re-fetching an unchanged world: O(tables), not O(entities).
        const t0 = performance.now();
        for (let i = 0; i < 2000; i += 1) query.chunks();
        out.refetchUs = ((performance.now() - t0) * 1000) / 2000;
        const victim = first[0].entities[0];
        const last = first[0].entities[first[0].count - 1];
        world.despawn(victim);
        out.staleAfterDespawn = first[0].stale;
        const third = query.chunks();
        out.newObject = third[0] !== first[0];
        out.count = third[0].count;
        out.movedIn = third[0].entities[0] === last;  // swap-remove: the last row filled the hole
        world.set(last, 'position', { x: 5 });
        out.staleAfterSet = third[0].stale;            // a value write moves nothing
        out.sameAfterSet = query.chunks()[0] === third[0];
        world.dispose();
        return out;
      });
      expect(r.chunks).toBe(1);
      expect(r.sameObjects).toBe(true);
      expect(r.entitiesIsView).toBe(true);
      expect(r.staleBefore).toBe(false);
      expect(r.refetchUs).toBeLessThan(50);  // 100,000 rows: a copy would take far longer
      expect(r.staleAfterDespawn).toBe(true);
      expect(r.newObject).toBe(true);
      expect(r.count).toBe(99_999);
      expect(r.movedIn).toBe(true);
      expect(r.staleAfterSet).toBe(false);
      expect(r.sameAfterSet).toBe(true);
      expectNoPageErrors(log);
    });

    test('a change elsewhere keeps the views of unchanged chunks; moved columns, heap growth and own rows make new ones', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 1_000_000 });
        world.defineComponent('a', { v: 'f32' });
        world.defineComponent('b', { v: 'f32' });
        world.spawnMany(10, { a: { v: 3 } });
        // The table of `b` exists and has room (a new table or a moved column is a new generation).
        world.despawnMany(world.spawnMany(16, { b: { v: 1 } }));
        const query = world.query({ with: ['a'] });
        const first = query.chunks();
        world.spawn({ b: { v: 1 } });  // a table the query does not match
        const out = { staleAfterOther: first[0].stale };
        const second = query.chunks();
        out.newChunk = second[0] !== first[0];
        out.sameViews = second[0].columns.a === first[0].columns.a && second[0].entities === first[0].entities;
        out.secondStale = second[0].stale;
        out.newArray = query.chunks() !== second && query.chunks()[0] === second[0];
        // Columns that move and a heap that grows (30 MB more): the generation moves, so new views.
        world.defineComponent('big', { p: 'f64', q: 'f64', r: 'f64', s: 'f64' });
        const before = world.storageGeneration;
        world.spawnMany(900_000, { big: true });
        const third = query.chunks();
        out.generationMoved = world.storageGeneration !== before && third[0].generation !== second[0].generation;
        out.newViews = third[0].columns.a !== second[0].columns.a && !third[0].stale;
        out.values = Array.from(third[0].columns.a).every((v) => v === 3);
        // A row of its own table: the record changes, so new views of the new row count.
        world.spawn({ a: { v: 4 } });
        const fourth = query.chunks();
        out.ownCount = fourth[0].count;
        out.ownLast = fourth[0].columns.a[10];
        world.dispose();
        return out;
      });
      expect(r).toEqual({
        staleAfterOther: true, newChunk: true, sameViews: true, secondStale: false, newArray: true,
        generationMoved: true, newViews: true, values: true, ownCount: 11, ownLast: 4,
      });
      expectNoPageErrors(log);
    });

    test('bad query terms and extra arguments are rejected', async ({ page }) => {
      await openTestPage(page, server);
      const errors = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 100 });
        const out = [];
        const attempts = [
          () => world.query({ with: ['position'], where: ['velocity'] }),
          () => world.query({ with: ['nope'] }),
          () => world.query({ with: 'position', without: 'position' }),
          () => world.query({ changed: [3] }),
          () => world.query('position'),
          () => world.chunks(['position'], ['velocity'], ['extra']),
          () => world.chunks(['position'], ['nope']),
          () => world.count(['position'], [], 'x'),
          () => world.get(1, 'position', 'x'),
        ];
        for (const attempt of attempts) {
          try { attempt(); out.push('no error'); } catch (e) { out.push(e.message); }
        }
        const query = world.query({ with: ['position'] });
        world.dispose();
        // After dispose: the query's own name and the code every call after dispose carries.
        for (const attempt of [() => query.count(), () => query.chunks(), () => [...query], () => world.stateHash()]) {
          try { attempt(); out.push('no error'); } catch (e) { out.push(`${e.code} ${e.message}`); }
        }
        return out;
      });
      expect(errors[9]).toBe('Disposed query.count: Disposed: the world was disposed');
      expect(errors[10]).toBe('Disposed query.chunks: Disposed: the world was disposed');
      expect(errors[11]).toBe('Disposed query.chunks: Disposed: the world was disposed');
      expect(errors[12]).toBe('Disposed world.stateHash: Disposed: the world was disposed');
      expect(errors[0]).toMatch(/unknown key of the query 'where'/);
      expect(errors[1]).toMatch(/unknown component 'nope'/);
      expect(errors[2]).toMatch(/'position' is in both without and with/);
      expect(errors[3]).toMatch(/changed must hold component names/);
      expect(errors[4]).toMatch(/takes \{ with, without, optional, changed, added, pairs, withoutPairs \}/);
      expect(errors[5]).toMatch(/chunks: takes at most 2 arguments, got 3/);
      expect(errors[6]).toMatch(/unknown component 'nope'/);
      expect(errors[7]).toMatch(/count: takes at most 2 arguments/);
      expect(errors[8]).toMatch(/get: takes at most 2 arguments/);
    });

    test('a main-thread system with a query gets its chunks; its declared writes are change-tracked', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const diagnostics = [];
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: (m) => diagnostics.push(m) });
        const world = ecsia.createWorld({ maxEntities: 1000 });
        world.defineComponent('frozen', {});
        const es = [];
        for (let i = 0; i < 20; i += 1) es.push(world.spawn({ position: { x: i, y: 0 }, velocity: { dx: 1, dy: 2 }, ...(i % 4 === 0 ? { frozen: true } : {}) }));
        const scheduler = world.createScheduler({ workers: 0 });
        const seenByMove = [];
        const seenByWatcher = [];
        const changes = [];
        world.observe('change', 'position', (e) => changes.push(e));
        scheduler.addSystem({
          name: 'JsMove', query: { with: ['position', 'velocity'], without: ['frozen'], changed: ['velocity'] }, writes: ['position'],
          run(w, dt, chunks) {
            let rows = 0;
            for (const c of chunks) {
              const p = c.columns.position; const v = c.columns.velocity;
              for (let i = 0; i < c.count; i += 1) {
                p[i * c.strides.position] += v[i * c.strides.velocity] * dt;
                p[i * c.strides.position + 1] += v[i * c.strides.velocity + 1] * dt;
              }
              rows += c.count;
            }
            seenByMove.push(rows);
          },
        });
        scheduler.addSystem({
          name: 'Watcher', after: ['JsMove'], query: { changed: ['position'] },
          run(w, dt, chunks) { seenByWatcher.push(chunks.reduce((n, c) => n + c.count, 0)); },
        });
        await scheduler.update(1);  // velocity is new: every unfrozen row
        await scheduler.update(1);  // nothing changed velocity
        world.set(es[1], 'velocity', { dx: 10 });
        await scheduler.update(1);  // only es[1]
        const out = {
          seenByMove, seenByWatcher, changes: changes.length, plan: scheduler.plan(),
          x1: world.get(es[1], 'position').x, x2: world.get(es[2], 'position').x, x0: world.get(es[0], 'position').x,
          diagnostics,
        };
        scheduler.dispose();
        world.dispose();
        return out;
      });
      expect(r.seenByMove).toEqual([15, 0, 1]);
      expect(r.seenByWatcher).toEqual([20, 0, 1]);  // first run: every row; then only the rows JsMove wrote since
      expect(r.changes).toBe(16);
      expect(r.x1).toBe(1 + 1 + 10);
      expect(r.x2).toBe(2 + 1);
      expect(r.x0).toBe(0);  // frozen
      expect(r.plan.flat()).toEqual(['JsMove', 'Watcher']);
      expect(r.diagnostics.filter((d) => !d.includes('threads are off'))).toEqual([]);
      expectNoPageErrors(log);
    });
  });
}
