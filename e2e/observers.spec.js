// world.observe from JS: the points where callbacks fire (add at spawn and add, remove at remove
// and despawn with values still readable, change at the flush after a tracked write), unsubscribe,
// a throwing callback becoming a diagnostic that names it, and the same order of callbacks for
// every worker count and both builds (G1).
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test, variants } from './support.js';

for (const { variant, server } of variants) {
  test(`${variant} build: observers fire at add, remove and change, in order; unsubscribe; a throw is a diagnostic`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const diagnostics = [];
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: (m) => diagnostics.push(m) });
      const world = ecsia.createWorld({ maxEntities: 1000 });
      world.defineComponent('health', { hp: 'i32' });
      const seen = [];
      const offs = [];
      for (const event of ['add', 'remove', 'change']) {
        for (const name of ['position', 'health']) {
          offs.push(world.observe(event, name, (e) => {
            const value = event === 'remove' ? world.get(e, name) : null;  // still readable on remove
            seen.push(`${event} ${name} ${e}${value ? ` ${JSON.stringify(value)}` : ''}`);
          }));
        }
      }
      const a = world.spawn({ position: { x: 1, y: 2 }, health: { hp: 5 } });
      const b = world.spawn({ position: { x: 3, y: 4 } });
      world.add(b, 'health', { hp: 7 });
      world.set(a, 'health', { hp: 6 });
      world.set(b, 'position', { x: 9 });
      world.remove(a, 'health');
      world.despawn(b);
      const [chunk] = world.chunks(['position']);
      chunk.columns.position[0] = 42;
      world.markChanged(chunk, 'position');
      world.markChanged(a, 'position');
      const many = world.spawnMany(2, { health: { hp: [1, 2] } });
      world.despawnMany(many);
      const before = seen.length;
      for (const off of offs) off();
      offs[0]();  // a second unsubscribe does nothing
      world.spawn({ position: { x: 0, y: 0 } });
      const afterUnsubscribe = seen.length - before;
      world.observe('add', 'position', function explode() { throw new Error('boom'); });
      const c = world.spawn({ position: { x: 5, y: 5 } });
      const out = { seen, afterUnsubscribe, a, b, c, many: [...many], alive: world.isAlive(c), diagnostics };
      world.dispose();
      return out;
    });
    const { a, b } = r;
    const [m0, m1] = r.many;
    expect(r.seen).toEqual([
      `add position ${a}`, `add health ${a}`,
      `add position ${b}`,
      `add health ${b}`,
      `change health ${a}`,
      `change position ${b}`,
      `remove health ${a} {"hp":6}`,
      `remove position ${b} {"x":9,"y":4}`, `remove health ${b} {"hp":7}`,
      `change position ${a}`,
      `change position ${a}`,
      `add health ${m0}`, `add health ${m1}`,
      `remove health ${m0} {"hp":1}`, `remove health ${m1} {"hp":2}`,
    ]);
    expect(r.afterUnsubscribe).toBe(0);
    expect(r.alive).toBe(true);  // the throwing observer did not stop the spawn
    const thrown = r.diagnostics.filter((d) => d.includes('boom'));
    expect(thrown).toHaveLength(1);
    expect(thrown[0]).toContain("'add' observer of 'position' (explode)");
    expect(thrown[0]).toContain(`entity ${r.c}`);
    expectNoPageErrors(log);
  });

  test(`${variant} build: observe rejects bad arguments, and structural changes inside a callback`, async ({ page }) => {
    await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const diagnostics = [];
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: (m) => diagnostics.push(m) });
      const world = ecsia.createWorld({ maxEntities: 100 });
      const errors = [];
      for (const args of [['added', 'position', () => {}], ['add', 'nope', () => {}], ['add', 'position', 'fn'],
        ['add', 'position', () => {}, 'extra']]) {
        try { world.observe(...args); errors.push('no error'); } catch (e) { errors.push(e.message); }
      }
      world.observe('add', 'position', () => { world.spawn({ velocity: { dx: 0, dy: 0 } }); });
      world.spawn({ position: { x: 0, y: 0 } });
      const out = { errors, diagnostics, velocities: world.count(['velocity']) };
      world.dispose();
      return out;
    });
    expect(r.errors[0]).toMatch(/event must be 'add', 'remove' or 'change'/);
    expect(r.errors[1]).toMatch(/unknown component 'nope'/);
    expect(r.errors[2]).toMatch(/callback must be a function/);
    expect(r.errors[3]).toMatch(/at most 3 arguments/);
    expect(r.velocities).toBe(0);
    expect(r.diagnostics.some((d) => /observer of 'position'.*inside an observer/.test(d))).toBe(true);
  });
}

test('JS observers fire in the same order for 0, 1, 2 and 4 workers and on the single build', async ({ browser }) => {
  const run = async (server, threads, workers) => {
    const page = await browser.newPage();
    const log = await openTestPage(page, server);
    const result = await page.evaluate(async ({ threads, workers }) => {
      const ecsia = await window.ecsiaTest.loadEcsia({ threads, onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 1 << 16 });
      const scheduler = world.createScheduler({ workers });
      window.ecsiaTest.builtinsOf(ecsia).setupScenario(scheduler, 1);
      const events = [];
      for (const event of ['add', 'remove', 'change']) {
        for (const name of ['position', 'velocity', 'age', 'energy', 'seen', 'marked']) {
          world.observe(event, name, (e) => events.push(`${event[0]}${name[0]}${e}`));
        }
      }
      for (let f = 0; f < 60; f += 1) await scheduler.update(1 / 60);
      let hash = 0x811c9dc5;
      const text = events.join(',');
      for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
      const kinds = { a: 0, r: 0, c: 0 };
      for (const e of events) kinds[e[0]] += 1;
      const out = { variant: ecsia.variant, workers: scheduler.workers, count: events.length, hash, kinds, state: world.stateHash() };
      scheduler.dispose();
      world.dispose();
      return out;
    }, { threads, workers });
    expectNoPageErrors(log);
    await page.close();
    return result;
  };
  const reference = await run(servers.isolated, 4, 0);
  expect(reference.kinds.a).toBeGreaterThan(100);
  expect(reference.kinds.r).toBeGreaterThan(10);
  expect(reference.kinds.c).toBeGreaterThan(100);
  for (const workers of [1, 2, 4]) {
    const threaded = await run(servers.isolated, 4, workers);
    expect(threaded.variant).toBe('threaded');
    expect(threaded.workers).toBe(workers);
    expect({ ...threaded, workers: 0 }).toEqual(reference);
  }
  const single = await run(servers.plain, 'auto', 0);
  expect(single.variant).toBe('single');
  expect({ ...single, variant: 'threaded' }).toEqual(reference);
});

for (const { variant, server } of variants) {
  test(`${variant} build: an add that overwrites a component is a change whose observers run before add returns; re-adding a tag is none`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const ecsia = await window.ecsiaTest.loadEcsia();
      const world = ecsia.createWorld({ maxEntities: 100 });
      world.defineComponent('p', { x: 'f32' });
      world.defineComponent('tg', {});
      const seen = [];
      world.observe('change', 'p', (e) => seen.push(`p ${e}`));
      world.observe('change', 'tg', (e) => seen.push(`tg ${e}`));
      const a = world.spawn({ p: { x: 1 }, tg: {} });
      const b = world.spawn({ p: { x: 2 } });
      world.add(a, 'p', { x: 4 });
      const afterAdd = seen.slice();
      world.add(a, 'tg');
      world.addMany([a], 'tg');
      const afterTag = seen.slice();
      world.addMany([a, b], 'p', { x: 5 });
      const afterMany = seen.slice();
      world.dispose();
      return { afterAdd, afterTag, afterMany, a, b };
    });
    expect(r.afterAdd).toEqual([`p ${r.a}`]);
    expect(r.afterTag).toEqual([`p ${r.a}`]);
    expect(r.afterMany).toEqual([`p ${r.a}`, `p ${r.a}`, `p ${r.b}`]);
    expectNoPageErrors(log);
  });
}

// Calls made inside a callback encode their arguments in scratch memory of their own depth: the
// bulk call that runs the callback is still reading its handle list and values from its area.
for (const { variant, server } of variants) {
  test(`${variant} build: calls inside observers (set, setPair, publish), also under a system's bulk call, leave the bulk call that runs them intact`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const diagnostics = [];
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: (m) => diagnostics.push(m) });
      const world = ecsia.createWorld({ maxEntities: 1000 });
      world.defineComponent('unit', { hp: 'f32' });
      world.defineComponent('pos', { x: 'f32', y: 'f32' });
      world.defineComponent('mark', {});
      // Wide enough that the callbacks' calls need more scratch than the bulk calls' lists.
      world.defineComponent('score', Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, 'u32'])));
      world.defineRelation('Likes', { w: 'f32' });
      world.defineTopic('death', { who: 'entity' });
      const board = world.spawn({ score: true });
      const friend = world.spawn({});
      world.addPair(board, 'Likes', friend);
      world.observe('change', 'score', () => {});  // set then writes through scratch, not in place
      let writes = 0;
      const scribble = () => {
        writes += 1;
        world.set(board, 'score', { f0: writes, f39: 0xffffffff - writes });
        world.setPair(board, 'Likes', friend, { w: writes });
        world.publish('death', { who: 0xfffffffe });
      };
      world.observe('remove', 'unit', scribble);
      world.observe('add', 'pos', scribble);
      world.observe('remove', 'pos', scribble);
      const units = Array.from(world.spawnMany(12, { unit: { hp: 1 } }));
      const doomed = units.slice(3, 9);
      const moved = [units[0], units[2], units[9], units[11]];
      world.despawnMany(doomed);
      const alive = units.map((e) => world.isAlive(e));
      world.addMany(moved, 'pos', { x: [1, 2, 3, 4], y: [5, 6, 7, 8] });
      const positions = units.map((e) => (world.isAlive(e) && world.has(e, 'pos') ? world.get(e, 'pos') : null));
      world.removeMany(moved.slice(1, 3), 'pos');
      const still = units.map((e) => world.isAlive(e) && world.has(e, 'pos'));
      // One level deeper: a main-thread system's bulk call, whose observers scribble in turn.
      const scheduler = world.createScheduler({ workers: 0 });
      const late = Array.from(world.spawnMany(6, { unit: { hp: 2 } }));
      scheduler.addSystem({ name: 'Cull', publishes: ['death'], run: (w) => w.despawnMany([late[1], late[4]]) });
      await scheduler.update(0);
      const lateAlive = late.map((e) => world.isAlive(e));
      const score = world.get(board, 'score');
      const result = { alive, positions, still, lateAlive, writes, f0: score.f0, f39: score.f39, w: world.getPair(board, 'Likes', friend).w,
        diagnostics: diagnostics.filter((m) => !m.includes('threads are off')) };
      world.dispose();
      return result;
    });
    expect(r.alive).toEqual([true, true, true, false, false, false, false, false, false, true, true, true]);
    expect(r.positions).toEqual([{ x: 1, y: 5 }, null, { x: 2, y: 6 }, null, null, null, null, null, null, { x: 3, y: 7 }, null, { x: 4, y: 8 }]);
    expect(r.still).toEqual([true, false, false, false, false, false, false, false, false, false, false, true]);
    expect(r.lateAlive).toEqual([true, false, true, true, false, true]);
    expect(r.writes).toBe(6 + 4 + 2 + 2);
    expect([r.f0, r.f39, r.w]).toEqual([14, 0xffffffff - 14, 14]);
    expect(r.diagnostics).toEqual([]);
    expectNoPageErrors(log);
  });
}
