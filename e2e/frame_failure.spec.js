// Nothing wedges, in the browser: a JS system that throws is reported (the diagnostic names it)
// and the next update() runs a whole frame; dispose() from inside a JS system or while a wave is
// out ends the frame there, leaves the world usable, and never prints Emscripten's "Blocking on
// the main thread" warning; a failed createScheduler() neither; a bulk spawn past capacity spawns
// nothing. Both builds.
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, test, variants } from './support.js';

const BLOCKING = 'Blocking on the main thread';

for (const { variant, server } of variants) {
  test.describe(`${variant} build`, () => {
    test('a throwing JS system is reported by name and the next frames are whole', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const diagnostics = [];
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: (m) => diagnostics.push(m) });
        const world = ecsia.createWorld({ maxEntities: 1000 });
        const builtins = window.ecsiaTest.builtinsOf(ecsia);
        builtins.spawnMovers(world, 100, 1);
        const scheduler = world.createScheduler({ systems: ['Move'], workers: ecsia.workers });
        const runs = { flaky: 0, after: 0 };
        let frame = 0;
        scheduler.addSystem({
          name: 'Flaky', reads: ['position'],
          run() { runs.flaky += 1; if (frame % 2 === 0) throw new Error(`flaky in frame ${frame}`); },
        });
        scheduler.addSystem({ name: 'After', after: ['Flaky', 'Move'], run() { runs.after += 1; } });
        const hashes = [];
        for (frame = 0; frame < 4; frame++) {
          await scheduler.update(1 / 60);
          hashes.push(world.stateHash());
        }
        const out = { runs, frames: scheduler.frames, diagnostics, distinct: new Set(hashes).size };
        scheduler.dispose();
        world.dispose();
        return out;
      });
      expect(r.frames).toBe(4);
      expect(r.runs).toEqual({ flaky: 4, after: 4 });  // no frame wedged, nothing ran twice
      expect(r.distinct).toBe(4);                       // Move ran every frame
      expect(r.diagnostics.filter((m) => m.startsWith("ecsia: JS system 'Flaky' threw: flaky in frame"))).toEqual([
        "ecsia: JS system 'Flaky' threw: flaky in frame 0",
        "ecsia: JS system 'Flaky' threw: flaky in frame 2",
      ]);
      expectNoPageErrors(log);
    });

    test('dispose() from inside a JS system ends the frame and leaves the world usable', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const diagnostics = [];
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: (m) => diagnostics.push(m) });
        const world = ecsia.createWorld({ maxEntities: 1000 });
        window.ecsiaTest.builtinsOf(ecsia).spawnMovers(world, 300, 1);
        const scheduler = world.createScheduler({ systems: ['Move'], workers: ecsia.workers });
        let later = 0;
        scheduler.addSystem({ name: 'Quit', before: ['Move'], run() { scheduler.dispose(); scheduler.dispose(); } });
        scheduler.addSystem({ name: 'Later', after: ['Move'], run() { later += 1; } });
        await scheduler.update(1 / 60);
        let again = null;
        try { await scheduler.update(1 / 60); } catch (error) { again = error.message; }
        const e = world.spawn({ position: { x: 1, y: 2 } });
        return {
          later, disposed: scheduler.disposed, again, alive: world.isAlive(e), count: world.count(['position']),
          blocking: diagnostics.filter((m) => m.includes('Blocking on the main thread')),
        };
      });
      expect(r.later).toBe(0);
      expect(r.disposed).toBe(true);
      expect(r.again).toBe('scheduler.update: the scheduler was disposed');
      expect(r.alive).toBe(true);
      expect(r.count).toBe(301);
      expect(r.blocking).toEqual([]);
      expect(log.console.filter((m) => m.text.includes(BLOCKING))).toEqual([]);
      expectNoPageErrors(log);
    });

    test('update() called inside an observer is refused before any system runs, and the next frame runs once', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 1000 });
        const counter = world.spawn({ position: { x: 0, y: 0 } });
        const scheduler = world.createScheduler({ workers: ecsia.workers });
        const runs = [];
        scheduler.addSystem({
          name: 'Count', reads: ['position'], writes: ['position'],
          run(w) { runs.push(scheduler.frames); w.set(counter, 'position', { x: w.get(counter, 'position').x + 1 }); },
        });
        let inside = null;
        world.observe('add', 'velocity', () => { inside ??= scheduler.update(0); });
        world.add(counter, 'velocity');
        let refused = 'no error';
        try { await inside; } catch (error) { refused = `${error.code}: ${error.message}`; }
        const before = { runs: [...runs], x: world.get(counter, 'position').x, frames: scheduler.frames };
        await scheduler.update(0);
        return { refused, before, runs, x: world.get(counter, 'position').x, frames: scheduler.frames };
      });
      expect(r.refused).toMatch(/^WrongPhase: scheduler\.update: .*a frame cannot start inside an observer/);
      expect(r.before).toEqual({ runs: [], x: 0, frames: 0 });
      expect(r.runs).toEqual([0]);
      expect(r.x).toBe(1);
      expect(r.frames).toBe(1);
      expectNoPageErrors(log);
    });

    test('a bulk spawn past capacity spawns nothing', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 100 });
        const builtins = window.ecsiaTest.builtinsOf(ecsia);
        builtins.spawnMovers(world, 55, 1);
        const before = world.stateHash();
        const errors = [];
        for (const call of [() => builtins.spawnMovers(world, 1000, 1), () => builtins.spawnMovers(world, 46, 1, { bare: true }),
          () => builtins.spawnHeavy(world, 6, 1), () => builtins.spawnHeavy(world, 46, 1, { group: 2 })]) {
          try { call(); errors.push(null); } catch (error) { errors.push({ code: error.code, message: error.message }); }
        }
        return { errors, same: world.stateHash() === before, alive: world.count(['position']) };
      });
      expect(r.errors.map((e) => e?.code)).toEqual(['CapacityExceeded', 'CapacityExceeded', 'CapacityExceeded', 'CapacityExceeded']);
      expect(r.errors[0].message).toContain('spawn_movers of 1000 entities does not fit: 45 more fit under max_entities 100; nothing was spawned');
      expect(r.same).toBe(true);
      expect(r.alive).toBe(55);
      expectNoPageErrors(log);
    });
  });
}

test('threaded: dispose() while a wave is out, and a failed createScheduler(), never block the page', async ({ page }) => {
  const log = await openTestPage(page, variants[0].server);
  const r = await page.evaluate(async () => {
    const diagnostics = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: (m) => diagnostics.push(m) });
    const world = ecsia.createWorld({ maxEntities: 1 << 16 });
    const builtins = window.ecsiaTest.builtinsOf(ecsia);
    builtins.spawnHeavy(world, 2048, 1);
    const outcomes = [];
    for (let round = 0; round < 5; round++) {
      const scheduler = world.createScheduler({ workers: 2, batchRows: 256 });
      for (let g = 0; g < 8; g++) builtins.addSystem(scheduler, `Heavy${g}`, { heavySteps: 512 });
      const frame = scheduler.update(1 / 60);
      await new Promise((resolve) => setTimeout(resolve, round));  // the wave is out on the workers
      scheduler.dispose();
      // The world keeps its wave until the batches are back: the page cannot write meanwhile.
      try { world.spawn({}); outcomes.push('spawned'); } catch (error) { outcomes.push(/WrongPhase/.test(error.message) ? 'wave' : error.message); }
      try { await frame; outcomes.push('resolved'); } catch (error) { outcomes.push(error.message); }
    }
    // Once the frames resolved no batch writes into the world any more.
    const settledHash = world.stateHash();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const quiet = world.stateHash() === settledHash;
    // A world disposed while a wave is out goes once the wave is back; the frame resolves.
    const doomed = ecsia.createWorld({ maxEntities: 1 << 16 });
    builtins.spawnHeavy(doomed, 2048, 1);
    const last = doomed.createScheduler({ workers: 2, batchRows: 256 });
    for (let g = 0; g < 8; g++) builtins.addSystem(last, `Heavy${g}`, { heavySteps: 512 });
    const lastFrame = last.update(1 / 60);
    await new Promise((resolve) => setTimeout(resolve, 1));
    doomed.dispose();
    let doomedCall;
    try { doomed.stateHash(); doomedCall = 'accepted'; } catch (error) { doomedCall = error.code; }
    try { await lastFrame; outcomes.push('resolved'); } catch (error) { outcomes.push(error.message); }
    const failures = [];
    for (const options of [{ systems: ['NoSuchSystem'], workers: 2 }, { workers: 2, batchRows: 0 }, { workers: 2, systems: ['Move', 'Move'] }]) {
      try { world.createScheduler(options); failures.push(null); } catch (error) { failures.push(error.message); }
    }
    // The world is usable and a new scheduler runs whole frames.
    const after = world.createScheduler({ workers: 2, systems: ['Heavy0'] });
    const hash = world.stateHash();
    await after.update(1 / 60);
    const changed = world.stateHash() !== hash;
    after.dispose();
    await new Promise((resolve) => setTimeout(resolve, 200));  // late worker messages, if any
    return {
      outcomes, failures, changed, quiet, doomedCall,
      blocking: diagnostics.filter((m) => m.includes('Blocking on the main thread')),
      abandoned: diagnostics.filter((m) => m.includes('frame abandoned')),
    };
  });
  expect(r.outcomes).toEqual([...Array(5).fill(['wave', 'resolved']).flat(), 'resolved']);
  expect(r.quiet).toBe(true);
  expect(r.doomedCall).toBe('Disposed');
  // Each bad set of options is refused with an error that names what was wrong.
  expect(r.failures[0]).toMatch(/NoSuchSystem/);
  expect(r.failures[1]).toMatch(/batchRows/);
  expect(r.failures[2]).toMatch(/'Move'.*(twice|more than once|already|duplicate)/i);
  expect(r.changed).toBe(true);
  expect(r.blocking).toEqual([]);
  expect(log.console.filter((m) => m.text.includes(BLOCKING))).toEqual([]);
  // Each dispose is said once, after the wave came back (the last world's too).
  expect(r.abandoned).toEqual(Array(6).fill('ecsia: frame abandoned: the scheduler was disposed'));
  expectNoPageErrors(log);
});

for (const { variant, server } of variants) {
  test(`${variant}: loadEcsia({ debug: true }) loads the access-checked module, which runs the scenario to the native hash`, async ({ page }) => {
    const recorded = JSON.parse(readFileSync(new URL('../tests/fixtures/scenario_hashes.json', import.meta.url), 'utf8'));
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const diagnostics = [];
      const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, debug: true, onDiagnostic: (m) => diagnostics.push(m) });
      const release = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 1 << 16 });
      const scheduler = world.createScheduler({ workers: ecsia.workers });
      window.ecsiaTest.builtinsOf(ecsia).setupScenario(scheduler, 1);
      for (let f = 0; f < 200; f++) await scheduler.update(1 / 60);
      let bad = null;
      try { await window.ecsiaTest.loadEcsia({ debug: 'yes' }); } catch (error) { bad = error.message; }
      return {
        debug: ecsia.debug, releaseDebug: release.debug, variant: ecsia.variant, hash: world.stateHash(), bad,
        failures: diagnostics.filter((m) => m.includes('UndeclaredAccess') || m.includes('failed in batch')),
      };
    });
    expect(r.variant).toBe(variant);
    expect(r.debug).toBe(true);
    expect(r.releaseDebug).toBe(false);
    expect(r.hash).toBe(recorded.seed1_frames200);  // every built-in system declares what it touches
    expect(r.failures).toEqual([]);
    expect(r.bad).toBe('loadEcsia: options.debug must be true or false, got a string ("yes")');
    expectNoPageErrors(log);
  });
}
