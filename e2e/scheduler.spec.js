// The scheduler in the browser: the G1 scenario matches the hash the native Catch2 run records
// (tests/fixtures/scenario_hashes.json) on the threaded build with workers, with the serial
// executor, and on the single build; the page stays responsive while heavy waves run (G2);
// a second update() is rejected; bad input throws and changes nothing (G5).
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test, variants, warningsOf } from './support.js';

const recorded = JSON.parse(readFileSync(new URL('../tests/fixtures/scenario_hashes.json', import.meta.url), 'utf8'));

async function runScenario(page, { threads, workers, frames }) {
  return page.evaluate(async ({ threads, workers, frames }) => {
    const diagnostics = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ threads, onDiagnostic: (m) => diagnostics.push(m) });
    const world = ecsia.createWorld({ maxEntities: 1 << 16 });
    const scheduler = world.createScheduler({ workers });
    const scenario = window.ecsiaTest.builtinsOf(ecsia).setupScenario(scheduler, 1);
    for (let f = 0; f < frames; f++) await scheduler.update(1 / 60);
    const out = {
      variant: ecsia.variant, workers: scheduler.workers, hash: world.stateHash(),
      observers: scenario.observerLogHash(), events: scenario.observerEvents(), alive: world.count(['position']),
      plan: scheduler.plan(), warnings: diagnostics.filter((m) => m.includes('threads are off')).length,
    };
    scheduler.dispose();
    world.dispose();
    return out;
  }, { threads, workers, frames });
}

test('the scenario gives the natively recorded hash with 2 workers, with 0 workers, and on the single build', async ({ page, browser }) => {
  const log = await openTestPage(page, servers.isolated);
  const threaded = await runScenario(page, { threads: 2, workers: 2, frames: 200 });
  expect(threaded.variant).toBe('threaded');
  expect(threaded.workers).toBe(2);
  expect(threaded.hash).toBe(recorded.seed1_frames200);
  expect(threaded.plan.flat()).toEqual(expect.arrayContaining(['Spawner', 'Move', 'Bounce', 'Reaper', 'Marker', 'Pulse', 'Drain']));

  const serial = await runScenario(page, { threads: 2, workers: 0, frames: 200 });
  expect(serial.workers).toBe(0);
  expect(serial.hash).toBe(recorded.seed1_frames200);
  expect(serial.observers).toBe(threaded.observers);
  expect(threaded.events).toBeGreaterThan(0);
  expectNoPageErrors(log);

  const plainPage = await browser.newPage();
  const plainLog = await openTestPage(plainPage, servers.plain);
  const single = await runScenario(plainPage, { threads: 'auto', workers: undefined, frames: 200 });
  expect(single.variant).toBe('single');
  expect(single.workers).toBe(0);
  expect(single.warnings).toBe(1);
  expect(single.hash).toBe(recorded.seed1_frames200);
  expect(single.observers).toBe(threaded.observers);
  expect(warningsOf(plainLog)).toEqual([]);  // the warning went to onDiagnostic, not the console
  expectNoPageErrors(plainLog);
  await plainPage.close();
});

test('the main thread stays responsive while heavy waves run on the workers', { tag: '@alone' }, async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 1 << 16 });
    const systems = Array.from({ length: 8 }, (_, g) => `Heavy${g}`);
    const scheduler = world.createScheduler({ workers: 2, batchRows: 128 });
    const builtins = window.ecsiaTest.builtinsOf(ecsia);
    for (const name of systems) builtins.addSystem(scheduler, name, { heavySteps: 256 });
    builtins.spawnHeavy(world, 1024, 1);
    await scheduler.update(1 / 60);  // warm-up; then let the set-up task end before measuring
    const measured = await window.ecsiaTest.measureResponsiveness(scheduler, { ms: 3000 });
    const waitedWaves = scheduler.lastFrame().waves.length;
    scheduler.dispose();
    world.dispose();
    return { ...measured, waitedWaves };
  });
  expect(r.frames).toBeGreaterThan(1);
  expect(r.waitedWaves).toBe(1);  // the 8 heavy systems share one wave
  // The page awaited each wave instead of blocking on it: a 4 ms interval ticked during every
  // frame, and the page's thread spent a small share of the frames inside the engine (its own
  // count, lastFrame().pageUs; a blocking wait would count the whole wave).
  expect(r.frameTicks.filter((n) => n === 0), `ticks per frame ${r.frameTicks}`).toEqual([]);
  expect(r.pageMs).toBeLessThan(r.updateMs / 4);
  expectNoPageErrors(log);
});

for (const { variant, server } of variants) {
  test(`${variant} build: a second update() while one runs is rejected`, async ({ page }) => {
    // The single build finishes a frame before update() returns, so there is no overlap to reject.
    // On the threaded build the wave must outlast update()'s short poll (fencePollUs): heavy work.
    await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 10000 });
      const systems = Array.from({ length: 8 }, (_, g) => `Heavy${g}`);
      const scheduler = world.createScheduler({ batchRows: 64 });
      const builtins = window.ecsiaTest.builtinsOf(ecsia);
      for (const name of systems) builtins.addSystem(scheduler, name, { heavySteps: 256 });
      builtins.spawnHeavy(world, 128, 3);
      const first = scheduler.update(1 / 60);
      let second;
      try { await scheduler.update(1 / 60); second = 'accepted'; } catch (e) { second = e.message; }
      await first;
      await scheduler.update(1 / 60);  // usable afterwards
      const frames = scheduler.frames;
      scheduler.dispose();
      world.dispose();
      return { second, frames };
    });
    if (variant === 'threaded') {
      expect(r.second).toContain('previous update() is still running');
      expect(r.frames).toBe(2);
    } else {
      expect(r.second).toBe('accepted');
      expect(r.frames).toBe(3);
    }
  });

  test(`${variant} build: JS systems take part in the plan and run on the main thread`, async ({ page }) => {
    await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 10000 });
      const scheduler = world.createScheduler({ systems: ['Move'] });
      scheduler.addSystem('Bounce');  // a registered C++ system by name
      const seen = [];
      scheduler.addSystem({
        name: 'Input', reads: ['velocity'], writes: ['position'],
        run(w, dt) { seen.push(dt); w.spawn({ position: { x: 1, y: 1 }, velocity: { dx: 0, dy: 0 } }); },
      });
      const errors = [];
      scheduler.addSystem({ name: 'Broken', run() { throw new Error('oops'); } });
      await scheduler.update(0.5);
      await scheduler.update(0.5);
      const out = { plan: scheduler.plan(), seen, count: world.count(['position']), explain: scheduler.explainPlan() };
      scheduler.dispose();
      world.dispose();
      return out;
    });
    expect(r.seen).toEqual([0.5, 0.5]);
    expect(r.count).toBe(2);
    const waveOf = (name) => r.plan.findIndex((wave) => wave.includes(name));
    expect(waveOf('Input')).toBeGreaterThan(waveOf('Move'));  // both write position: registration order
    expect(r.explain).toContain('Input [main thread]');
  });

  test(`${variant} build: recordTimeline gives every batch of a frame with its lane and times; off, nothing`, async ({ page }) => {
    await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 60000 });
      world.spawnMany(50000, { position: { x: 1, y: 2 }, velocity: { dx: 1, dy: 0 } });
      const scheduler = world.createScheduler({ workers: ecsia.variant === 'threaded' ? 2 : 0 });
      scheduler.addSystem({ name: 'Input', writes: ['velocity'], run() {} });
      scheduler.addSystem('Move');
      window.ecsiaTest.forcePlacement(scheduler, 'pool');
      await scheduler.update(1 / 60);
      const off = { flag: scheduler.recordTimeline, frame: scheduler.lastFrame() };
      scheduler.recordTimeline = true;
      await scheduler.update(1 / 60);
      const on = { flag: scheduler.recordTimeline, frame: scheduler.lastFrame(), workers: scheduler.workers };
      let bad;
      try { scheduler.recordTimeline = 'yes'; } catch (e) { bad = e.message; }
      scheduler.recordTimeline = false;
      await scheduler.update(1 / 60);
      const after = scheduler.lastFrame();
      scheduler.dispose();
      world.dispose();
      return { off, on, bad, after };
    });
    expect(r.off.flag).toBe(false);
    expect(r.off.frame.batches).toBeUndefined();
    expect(r.off.frame.waves.every((w) => w.serialEndUs === undefined)).toBe(true);
    expect(r.on.flag).toBe(true);
    const { waves, batches } = r.on.frame;
    expect(waves.map((w) => w.batches)).toEqual([0, 16]);  // Input's serial slot, then Move's 16 batches
    expect(batches.length).toBe(16);
    let next = 0;
    for (const b of batches) {
      expect(b).toMatchObject({ wave: 1, system: 'Move', firstRow: next });
      next += b.rows;
      expect(b.beginUs).toBeLessThanOrEqual(b.endUs);
      expect(b.beginUs).toBeGreaterThanOrEqual(waves[1].serialEndUs);
      expect(b.endUs).toBeLessThanOrEqual(waves[1].endUs);
      // On the workers when there are some (pinned to the pool); the page's thread (-1) otherwise.
      if (r.on.workers > 0) expect(b.lane >= 0 && b.lane < r.on.workers).toBe(true);
      else expect(b.lane).toBe(-1);
    }
    expect(next).toBe(50000);
    for (const w of waves) {
      expect(w.beginUs).toBeLessThanOrEqual(w.serialEndUs);
      expect(w.serialEndUs).toBeLessThanOrEqual(w.endUs);
      expect(w.endUs).toBeLessThanOrEqual(w.mergedUs);
    }
    expect(waves[0].mergedUs).toBeLessThanOrEqual(waves[1].beginUs);
    expect(r.bad).toContain('scheduler.recordTimeline: takes true or false');
    expect(r.after.batches).toBeUndefined();
  });

  test(`${variant} build: bad scheduler input throws a named error and changes nothing`, async ({ page }) => {
    await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const diagnostics = [];
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: (m) => diagnostics.push(m) });
      const world = ecsia.createWorld({ maxEntities: 10000 });
      world.spawn({ position: { x: 1, y: 2 } });
      const before = world.stateHash();
      const errors = [];
      const codes = [];
      const attempt = (fn) => { try { fn(); errors.push('no error'); } catch (e) { errors.push(e.message); } };
      try { world.createScheduler({ systems: ['Warp'] }); } catch (e) { errors.push(e.message); codes.push(e.code); }
      const scheduler = world.createScheduler({ systems: ['Move'] });
      attempt(() => scheduler.addSystem({ name: 'X', reads: ['mass'], run() {} }));
      attempt(() => scheduler.addSystem({ name: 'Y', run: 5 }));
      attempt(() => scheduler.addSystem('Move'));
      attempt(() => world.createScheduler({ workers: -1 }));
      attempt(() => world.createScheduler({ fencePollUs: -5 }));
      const builtins = window.ecsiaTest.builtinsOf(ecsia);
      attempt(() => builtins.spawnHeavy(world, 10, 1, { group: 8 }));
      attempt(() => builtins.spawnMovers(world, -1, 1, { bare: true }));
      attempt(() => builtins.addSystem(scheduler, 'Heavy0', { heavySteps: -1 }));
      attempt(() => scheduler.addSystem('Warp'));
      attempt(() => scheduler.addSystem(7));
      let update;
      try { await scheduler.update('fast'); update = 'no error'; } catch (e) { update = e.message; }
      // Past 2^32 - 1 the engine's batch size would wrap (2^32 + 1 ran as 1 row per batch).
      let batchRows;
      try { world.createScheduler({ batchRows: 2 ** 32 + 1 }); batchRows = 'no error'; } catch (e) { batchRows = e.message; }
      const after = world.stateHash();
      scheduler.dispose();
      world.dispose();
      return { errors, codes, update, batchRows, same: before === after, systems: ecsia.systems };
    });
    expect(r.batchRows).toBe('createScheduler: options.batchRows must be a whole number from 1 to 4294967295, got number 4294967297');
    expect(r.errors[0]).toContain("no system is registered under the name 'Warp' (registered: Attract, Bounce,");
    expect(r.codes[0]).toBe('UnknownSystem');
    // The engine's own module registers its built-in systems like any module (ECSIA_REGISTER_SYSTEM).
    expect(r.systems).toEqual(expect.arrayContaining(['Move', 'Bounce', 'Attract', 'Spawner', 'Heavy0', 'Heavy7', 'SumMoved', 'Idle']));
    expect([...r.systems].sort()).toEqual(r.systems);
    expect(r.errors[1]).toContain("unknown component 'mass'");
    expect(r.errors[2]).toContain('run must be a function');
    expect(r.errors[3]).toContain("'Move'");
    expect(r.errors[4]).toContain('options.workers');
    expect(r.errors[5]).toContain('options.fencePollUs');
    expect(r.errors[6]).toContain('group must be a whole number 0..7');
    expect(r.errors[7]).toContain('count must be a whole number');
    expect(r.errors[8]).toContain('config.heavySteps must be a non-negative number');
    expect(r.errors[9]).toContain("no system is registered under the name 'Warp'");
    expect(r.errors[10]).toContain("takes a registered system's name");
    expect(r.update).toContain('dt must be a finite number');
    expect(r.same).toBe(true);
  });
}

test('the public Scheduler and World carry no test or benchmark helpers; the built-in API is separate', async ({ page }) => {
  await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 1000 });
    const scheduler = world.createScheduler({ workers: 0 });
    const helpers = ['spawnMovers', 'spawnHeavy', 'observerLogHash', 'setupScenario', 'addBuiltin', 'spawnMoveWorkload'];
    const onScheduler = helpers.filter((name) => name in scheduler);
    const onWorld = helpers.filter((name) => name in world);
    const optionErrors = [];
    for (const options of [{ scenarioSeed: 1 }, { config: {} }, { worker: 2 }]) {
      try { world.createScheduler(options).dispose(); optionErrors.push('accepted'); } catch (e) { optionErrors.push(e.message); }
    }
    const builtins = window.ecsiaTest.builtinsOf(ecsia);
    const scenario = builtins.setupScenario(scheduler, 1);
    await scheduler.update(1 / 60);
    const events = scenario.observerEvents();
    scheduler.dispose();
    world.dispose();
    let afterDispose;
    try { scenario.observerLogHash(); afterDispose = 'no error'; } catch (e) { afterDispose = e.message; }
    let notEngine;
    try { window.ecsiaTest.builtinsOf({}); notEngine = 'no error'; } catch (e) { notEngine = e.message; }
    return { onScheduler, onWorld, optionErrors, events, afterDispose, notEngine };
  });
  expect(r.onScheduler).toEqual([]);
  expect(r.onWorld).toEqual([]);
  expect(r.optionErrors[0]).toContain('builtinsOf(ecsia).setupScenario(scheduler, seed)');
  expect(r.optionErrors[1]).toContain('builtinsOf(ecsia).addSystem(scheduler, name, config)');
  expect(r.optionErrors[2]).toContain("unknown option 'worker'");
  expect(r.events).toBeGreaterThan(0);
  expect(r.afterDispose).toContain("the scenario's world was disposed");
  expect(r.notEngine).toContain('builtinsOf: takes the engine loadEcsia() returned');
});

test('benchmark workloads spawn what they say: bare movers, one heavy group', async ({ page }) => {
  await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 10000 });
    const scheduler = world.createScheduler({ systems: ['Move', 'SumMoved'], workers: 2, fencePollUs: 0 });
    const builtins = window.ecsiaTest.builtinsOf(ecsia);
    builtins.spawnMovers(world, 1000, 1, { bare: true });
    builtins.spawnHeavy(world, 300, 2, { group: 3 });
    const field = (chunk, name, f) => chunk.columns[name][chunk.offsets[name][f]];  // row 0
    const [chunk] = world.chunks(['position', 'velocity']);
    const first = { x: field(chunk, 'position', 'x'), y: field(chunk, 'position', 'y'), dx: field(chunk, 'velocity', 'dx') };
    await scheduler.update(1);
    const [moved] = world.chunks(['position', 'velocity']);
    const out = {
      movers: world.count(['position', 'velocity']), aged: world.count(['age']),
      heavy3: world.count(['heavy3']), heavy0: world.count(['heavy0']),
      first, movedX: field(moved, 'position', 'x'), plan: scheduler.plan(),
    };
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.movers).toBe(1000);
  expect(r.aged).toBe(0);  // bare: position and velocity only
  expect(r.heavy3).toBe(300);
  expect(r.heavy0).toBe(0);
  expect(r.first).toEqual({ x: 0, y: 0, dx: -0.75 });  // the move workload's values for entity 0
  expect(r.movedX).toBe(-0.75);  // x += dx * dt with dt = 1
  expect(r.plan).toEqual([['Move'], ['SumMoved']]);
});
