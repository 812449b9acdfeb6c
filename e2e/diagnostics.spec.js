// G3 in the browser: each diagnostic the JS layer emits reaches onDiagnostic, exactly once where
// once is promised; what a JS system causes names it, and a diagnostic it causes every frame is
// said once, then with its count. And a main-thread JS system's declared writes through views it
// fetched from any query while it ran are change-tracked. The table of every message and its
// test is in docs/GUARANTEES.md (G3).
import { expect } from '@playwright/test';
import { expectNoPageErrors, occurrences, openTestPage, servers, test, variants } from './support.js';

test('threaded: asking loadEcsia for more threads than the pool is said once, and the pool is used', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const diagnostics = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 64, onDiagnostic: (m) => diagnostics.push(m) });
    const world = ecsia.createWorld({ maxEntities: 100 });
    const scheduler = world.createScheduler({ systems: ['Move'] });
    await scheduler.update(1 / 60);
    scheduler.dispose();
    world.dispose();
    return { workers: ecsia.workers, diagnostics };
  });
  expect(r.workers).toBeLessThan(64);
  expect(r.diagnostics).toEqual([
    `ecsia: 64 worker threads were asked for, but the threaded build has a pool of ${r.workers}; using ${r.workers}.`,
  ]);
  expectNoPageErrors(log);
});

test('threaded: a scheduler asking for more workers than the engine has is said once, and clamped', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const diagnostics = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 1, onDiagnostic: (m) => diagnostics.push(m) });
    const world = ecsia.createWorld({ maxEntities: 100 });
    const scheduler = world.createScheduler({ systems: ['Move'], workers: 3 });
    for (let f = 0; f < 3; f++) await scheduler.update(1 / 60);
    const out = { workers: scheduler.workers, diagnostics: [...diagnostics] };
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.workers).toBe(1);
  expect(r.diagnostics).toEqual(['ecsia: 3 workers were asked for, but the engine was loaded with 1; using 1.']);
  expectNoPageErrors(log);
});

test('single: a scheduler asking for workers is said once, and runs serially', async ({ page }) => {
  const log = await openTestPage(page, servers.plain);
  const r = await page.evaluate(async () => {
    const diagnostics = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: (m) => diagnostics.push(m) });
    const world = ecsia.createWorld({ maxEntities: 100 });
    const scheduler = world.createScheduler({ systems: ['Move'], workers: 2 });
    for (let f = 0; f < 3; f++) await scheduler.update(1 / 60);
    const out = { workers: scheduler.workers, diagnostics: diagnostics.filter((m) => !m.includes('threads are off')) };
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.workers).toBe(0);
  expect(r.diagnostics).toEqual(['ecsia: 2 workers were asked for, but the single build runs without threads; using the serial executor.']);
  expectNoPageErrors(log);
});

test('threaded: without Atomics.waitAsync waves are polled, and that is said once', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const diagnostics = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: (m) => diagnostics.push(m) });
    const world = ecsia.createWorld({ maxEntities: 10_000 });
    const builtins = window.ecsiaTest.builtinsOf(ecsia);
    builtins.spawnHeavy(world, 1024, 1, { group: 0 });
    // No poll after dispatch, and every wave on the workers: a wave of milliseconds of math is
    // still running when update() first looks, so it must be awaited.
    const scheduler = world.createScheduler({ fencePollUs: 0 });
    window.ecsiaTest.forcePlacement(scheduler, 'pool');
    builtins.addSystem(scheduler, 'Heavy0');
    const waitAsync = Atomics.waitAsync;
    delete Atomics.waitAsync;
    try {
      for (let f = 0; f < 3; f++) await scheduler.update(1 / 60);
    } finally {
      Atomics.waitAsync = waitAsync;
    }
    const out = { frames: scheduler.frames, diagnostics };
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.frames).toBe(3);
  expect(r.diagnostics).toEqual(['ecsia: Atomics.waitAsync is missing in this browser; waves are awaited with a timer poll, which adds latency.']);
  expectNoPageErrors(log);
});

for (const { variant, server } of variants) {
  test.describe(`${variant} build`, () => {
    test('a JS system that throws every frame is said once, then with its count', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const diagnostics = [];
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: (m) => diagnostics.push(m) });
        const world = ecsia.createWorld({ maxEntities: 100 });
        const scheduler = world.createScheduler({ systems: ['Move'] });
        let frame = 0;
        scheduler.addSystem({ name: 'Grumpy', run() { throw new Error(`grumpy in frame ${frame}`); } });
        const said = [];
        for (frame = 0; frame < 30; frame++) {
          await scheduler.update(1 / 60);
          said.push(diagnostics.filter((m) => m.includes("'Grumpy'")).length);
        }
        scheduler.dispose();  // the count of the repeats is said now
        const out = { said, grumpy: diagnostics.filter((m) => m.includes("'Grumpy'")) };
        world.dispose();
        return out;
      });
      expect(r.said).toEqual(Array(30).fill(1));  // not thirty times
      expect(r.grumpy).toEqual([
        "ecsia: JS system 'Grumpy' threw: grumpy in frame 0",
        "ecsia: JS system 'Grumpy' threw: grumpy in frame 29 (repeated: 29 more like it in 29 later frame(s))",
      ]);
      expect(occurrences(r.grumpy)).toBe(30);
      expectNoPageErrors(log);
    });

    test('an onDiagnostic handler that throws or disposes the world mid-frame wedges nothing', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const said = [];
        let world = null;
        const ecsia = await window.ecsiaTest.loadEcsia({
          threads: 2,
          onDiagnostic: (m) => {
            if (!m.includes("'Grumpy'")) return;
            said.push(m);
            // The handler runs inside the engine's frame: disposing the world there is refused.
            try { world.dispose(); said.push('disposed'); } catch (e) { said.push(e.message); }
            throw new Error('the handler itself fails');
          },
        });
        world = ecsia.createWorld({ maxEntities: 100 });
        world.spawnMany(10, { position: { x: 1, y: 2 }, velocity: { dx: 1, dy: 0 } });
        const scheduler = world.createScheduler({ systems: ['Move'] });
        let grumpy = true;
        scheduler.addSystem({ name: 'Grumpy', run() { if (grumpy) throw new Error('grumpy'); } });
        await scheduler.update(1 / 60);
        grumpy = false;
        for (let i = 0; i < 3; i++) await scheduler.update(1 / 60);
        const out = { said, frames: scheduler.frames, disposed: world.disposed, x: world.query({ with: ['position'] }).chunks()[0].columns.position[0] };
        scheduler.dispose();
        world.dispose();
        return out;
      });
      expect(r.said).toEqual([
        "ecsia: JS system 'Grumpy' threw: grumpy",
        'world.dispose: not allowed inside a system, an observer or a diagnostic handler (the engine is running it); dispose after update() resolves',
      ]);
      expect(r.frames).toBe(4);
      expect(r.disposed).toBe(false);
      expect(r.x).toBeCloseTo(1 + 4 / 60, 5);  // every frame moved the rows
      expect(log.console.filter((m) => m.type === 'error').map((m) => m.text).join('\n'))
        .toContain('ecsia: options.onDiagnostic threw for the diagnostic "ecsia: JS system \'Grumpy\' threw: grumpy"; the engine goes on');
      expectNoPageErrors(log);
    });

    test('a JS observer that throws names the JS system whose change set it off', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const diagnostics = [];
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: (m) => diagnostics.push(m) });
        const world = ecsia.createWorld({ maxEntities: 100 });
        world.observe('add', 'position', function explode() { throw new Error('boom'); });
        const scheduler = world.createScheduler({});
        scheduler.addSystem({ name: 'Spawner', writes: ['position'], run(w) { w.spawn({ position: { x: 1, y: 2 } }); } });
        await scheduler.update(1 / 60);
        const outside = world.spawn({ position: { x: 3, y: 4 } });  // not in a system
        const out = { outside, diagnostics: diagnostics.filter((m) => !m.includes('threads are off')) };
        scheduler.dispose();
        world.dispose();
        return out;
      });
      expect(r.diagnostics).toHaveLength(2);
      expect(r.diagnostics[0]).toMatch(/^ecsia: system 'Spawner': the 'add' observer of 'position' \(explode\) threw for entity \d+: boom$/);
      expect(r.diagnostics[1]).toBe(`ecsia: the 'add' observer of 'position' (explode) threw for entity ${r.outside}: boom`);
      expectNoPageErrors(log);
    });

    test("a JS system's declared writes through views of another query's chunks are seen by changed queries and observers", async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const diagnostics = [];
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: (m) => diagnostics.push(m) });
        const world = ecsia.createWorld({ maxEntities: 1000 });
        world.defineComponent('rock', { mass: 'f32' });
        world.defineComponent('moss', { depth: 'f32' });
        for (let i = 0; i < 40; i++) world.spawn({ rock: { mass: i }, ...(i % 2 === 0 ? { moss: { depth: 0 } } : {}) });
        const rocks = world.query({ with: ['rock'] });  // made by the page, outside any system
        const mossy = world.query({ with: ['rock', 'moss'] });
        let changes = 0;
        world.observe('change', 'rock', () => { changes += 1; });
        const scheduler = world.createScheduler({});
        let frame = 0;
        // No query of its own: it writes through views of the page's queries, fetched as it runs.
        scheduler.addSystem({
          name: 'Erode', reads: ['moss'], writes: ['rock'],
          run() {
            if (frame !== 1) return;
            for (const chunk of mossy.chunks()) {
              for (let i = 0; i < chunk.count; i++) chunk.columns.rock[i * chunk.strides.rock] -= 0.5;
            }
          },
        });
        // Writes 'moss' through views it does not declare: not tracked (the documented rule).
        scheduler.addSystem({
          name: 'Grow', after: ['Erode'], reads: ['rock'],
          run() {
            if (frame !== 1) return;
            for (const chunk of rocks.chunks()) void chunk;
            for (const chunk of mossy.chunks()) chunk.columns.moss[0] += 1;
          },
        });
        const seen = [];
        scheduler.addSystem({
          name: 'Watch', after: ['Grow'], query: { changed: ['rock'] },
          run(w, dt, chunks) { seen.push(chunks.reduce((n, c) => n + c.count, 0)); },
        });
        const mossSeen = [];
        scheduler.addSystem({
          name: 'WatchMoss', after: ['Grow'], query: { changed: ['moss'] },
          run(w, dt, chunks) { mossSeen.push(chunks.reduce((n, c) => n + c.count, 0)); },
        });
        for (frame = 0; frame < 3; frame++) await scheduler.update(1 / 60);
        const masses = [];
        for (const chunk of mossy.chunks()) for (let i = 0; i < chunk.count; i++) masses.push(chunk.columns.rock[i * chunk.strides.rock]);
        const out = { seen, mossSeen, changes, masses, diagnostics: diagnostics.filter((m) => !m.includes('threads are off')) };
        scheduler.dispose();
        world.dispose();
        return out;
      });
      // Frame 0: every row is new to the watchers. Frame 1: the 20 mossy rocks Erode wrote
      // through the page's query. Frame 2: nothing.
      expect(r.seen).toEqual([40, 20, 0]);
      expect(r.changes).toBe(20);
      expect(r.masses).toEqual(Array.from({ length: 20 }, (_, k) => 2 * k - 0.5));
      expect(r.mossSeen).toEqual([20, 0, 0]);
      expect(r.diagnostics).toEqual([]);
      expectNoPageErrors(log);
    });
  });
}
