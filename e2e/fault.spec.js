// Faults in the browser: the debug modules (loadEcsia({ debug: true })) refuse a kernel's write to
// a component its system did not declare, naming both; a worker whose kernel traps makes update()
// reject with a clear error within the wave deadline, the page stays responsive, and a new
// scheduler works afterwards; a kernel that exhausts the heap fails its batch with a diagnostic;
// spawning until the 1 GB heap limit ends in a clear error and a usable world.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test, variants } from './support.js';

for (const { variant, server } of variants) {
  test(`${variant}: the debug module refuses an undeclared write, naming the system and the component`, async ({ page }) => {
    await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const diagnostics = [];
      const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, debug: true, onDiagnostic: (m) => diagnostics.push(m) });
      const world = ecsia.createWorld({ maxEntities: 10_000 });
      const builtins = window.ecsiaTest.builtinsOf(ecsia);
      builtins.spawnMovers(world, 1000, 1);
      const scheduler = world.createScheduler({ workers: ecsia.variant === 'threaded' ? 2 : 0, systems: ['Move'] });
      builtins.addFaultSystem(scheduler, 'FaultUndeclared');
      await scheduler.update(1 / 60);
      const xs = world.chunks(['position'])[0].columns.position;
      let negative = 0;
      for (let i = 0; i < xs.length; i += 2) if (xs[i] === -1) negative += 1;
      const release = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
      const out = { debug: ecsia.debug, releaseDebug: release.debug, negative, refused: diagnostics.filter((m) => m.includes('UndeclaredAccess')) };
      scheduler.dispose();
      world.dispose();
      return out;
    });
    expect(r.debug).toBe(true);
    expect(r.releaseDebug).toBe(false);
    expect(r.negative).toBe(0);
    expect(r.refused.length).toBeGreaterThan(0);
    expect(r.refused[0]).toContain("system 'FaultUndeclared' writes 'position', which it did not declare (reads nothing; writes 'energy')");
  });
}

test('threaded: a trapping worker makes update() reject within the deadline, naming the crash; the page stays responsive; a new scheduler works', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const diagnostics = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, onDiagnostic: (m) => diagnostics.push(m) });
    const world = ecsia.createWorld({ maxEntities: 10_000 });
    const builtins = window.ecsiaTest.builtinsOf(ecsia);
    builtins.spawnMovers(world, 2000, 1);
    const broken = world.createScheduler({ workers: 2, waveDeadlineMs: 500 });
    builtins.addFaultSystem(broken, 'FaultTrap');
    let ticks = 0;
    const timer = setInterval(() => { ticks += 1; }, 10);
    const start = performance.now();
    let error = null;
    try { await broken.update(1 / 60); } catch (e) { error = { message: e.message, code: e.code }; }
    const elapsed = performance.now() - start;
    clearInterval(timer);
    broken.dispose();
    const fresh = world.createScheduler({ workers: 2, systems: ['Move'] });
    const before = world.stateHash();
    await fresh.update(1 / 60);
    await fresh.update(1 / 60);
    const moved = world.stateHash() !== before;
    const frames = fresh.frames;
    fresh.dispose();
    return { error, elapsed, ticks, moved, frames, crashed: diagnostics.filter((m) => m.includes('a worker thread crashed')) };
  });
  expect(r.error?.code).toBe('WorkerFailure');
  expect(r.error?.message).toContain('did not finish within 500 ms');
  expect(r.error?.message).toMatch(/a worker thread crashed during this frame: .*unreachable/);
  expect(r.elapsed).toBeLessThan(3000);
  expect(r.ticks).toBeGreaterThan(10);  // timers ran while the wave hung
  expect(r.moved).toBe(true);
  expect(r.frames).toBe(2);
  expect(r.crashed).toHaveLength(1);
  expect(r.crashed[0]).toMatch(/^ecsia: a worker thread crashed: .*RuntimeError: unreachable/);
  // The crash is handled and reported: no uncaught error reaches the page (Emscripten's own
  // handler rethrew it there as a bare "ErrorEvent").
  expectNoPageErrors(log);
});

for (const { variant, server } of variants) {
  test(`${variant}: a kernel that traps on the page's thread rejects that update() with KernelTrap; the world and the same scheduler go on`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const diagnostics = [];
      const ecsia = await window.ecsiaTest.loadEcsia({ threads: 1, onDiagnostic: (m) => diagnostics.push(m) });
      const world = ecsia.createWorld({ maxEntities: 10_000 });
      const builtins = window.ecsiaTest.builtinsOf(ecsia);
      builtins.spawnMovers(world, 500, 1);
      const scheduler = world.createScheduler({ systems: ['Move'] });
      builtins.addFaultSystem(scheduler, 'FaultTrap');
      // Threaded: every wave inline, on the page (the executor's choice for waves this small).
      if (scheduler.workers > 0) window.ecsiaTest.forcePlacement(scheduler, 'inline');
      let trap = null;
      try { await scheduler.update(1 / 4); } catch (e) { trap = { code: e.code, message: e.message, cause: String(e.cause) }; }
      const inFrame = window.ecsiaTest.internalsOf(scheduler).raw('inFrame').inFrame();
      // The world is not left in the frame: structural calls work.
      const spawned = world.spawn({ position: { x: 7, y: 7 }, velocity: { dx: 4, dy: 0 } });
      // No row of FaultTrap's query is left (it traps in the batch at row 0 of each table), so
      // the same scheduler's next frames are whole ones.
      for (const chunk of world.chunks(['energy'])) {
        for (const e of Array.from(chunk.entities)) world.remove(e, 'energy');
      }
      const framesBefore = scheduler.frames;
      await scheduler.update(1 / 4);
      await scheduler.update(1 / 4);
      const out = {
        trap, inFrame, framesBefore, frames: scheduler.frames, x: world.get(spawned, 'position').x,
        reported: diagnostics.filter((m) => m.includes('a trap ended frame')),
        endedEarly: diagnostics.filter((m) => m.includes('ended early')),
      };
      scheduler.dispose();
      world.dispose();
      return out;
    });
    expect(r.trap?.code).toBe('KernelTrap');
    expect(r.trap?.message).toMatch(/^scheduler\.update: wasm code trapped on the page's thread in wave \d+ \(systems [^)]*FaultTrap[^)]*\): unreachable; the frame ended there/);
    expect(r.trap?.cause).toContain('RuntimeError');
    expect(r.inFrame).toBe(false);
    expect(r.frames).toBe(r.framesBefore + 2);
    expect(r.x).toBe(7 + 4 * (2 / 4));  // both frames moved the entity spawned after the trap
    expect(r.reported).toHaveLength(1);
    expect(r.endedEarly).toHaveLength(1);
    expect(r.endedEarly[0]).toMatch(/^ecsia: frame 0 ended early at wave \d+ by an error \(rethrown to the caller\); \d+ unmerged batch\(es\) were dropped$/);
    expectNoPageErrors(log);
  });
}

test('single: a kernel that exhausts the heap fails its batch with a diagnostic and the next frame runs', async ({ page }) => {
  await openTestPage(page, servers.plain);
  const r = await page.evaluate(async () => {
    const diagnostics = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: (m) => diagnostics.push(m) });
    const world = ecsia.createWorld({ maxEntities: 10_000 });
    const builtins = window.ecsiaTest.builtinsOf(ecsia);
    builtins.spawnMovers(world, 100, 1);
    const scheduler = world.createScheduler({ systems: ['Move'] });
    builtins.addFaultSystem(scheduler, 'FaultExhaust');
    await scheduler.update(1 / 60);
    const h = world.stateHash();
    await scheduler.update(1 / 60);
    const frames = scheduler.frames;
    scheduler.dispose();  // the second failure repeats the first: it was counted, and the count is said now
    return { frames, diagnostics, failed: diagnostics.filter((m) => m.includes("system 'FaultExhaust' failed in batch")), moved: world.stateHash() !== h };
  });
  expect(r.frames).toBe(2);
  expect(r.failed.length, JSON.stringify(r.diagnostics)).toBe(2);
  expect(r.failed[1]).toMatch(/\(repeated: 1 more like it in 1 later frame\(s\)\)$/);
  expect(r.failed[0]).toMatch(/bad_alloc|memory/);
  expect(r.moved).toBe(true);
});

test('single: spawning until the 1 GB heap limit ends in OutOfMemory, spawns nothing of the failed call, and leaves the world usable', async ({ page }) => {
  test.setTimeout(120_000);
  await openTestPage(page, servers.plain);
  const r = await page.evaluate(async () => {
    const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 4_194_303 });
    // 64 f64 fields: 512 bytes per entity. Bulk spawns of 32,768 (16 MB each) until one fails: the
    // table's storage doubles, so the heap (1 GB) runs out when the column would grow past
    // 512 MB, after about a million entities.
    const fields = {};
    for (let i = 0; i < 64; i++) fields[`f${i}`] = 'f64';
    world.defineComponent('big', fields);
    const builtins = window.ecsiaTest.builtinsOf(ecsia);
    const chunk = 32_768;
    let error = null;
    let spawned = 0;
    const start = performance.now();
    while (error === null && spawned < 4_000_000) {
      try {
        spawned += world.spawnMany(chunk, { big: true }).length;
      } catch (e) { error = { message: e.message, code: e.code }; }
    }
    const seconds = (performance.now() - start) / 1000;
    const alive = world.count(['big']);
    // The same call at the limit again: it must fail the same way and change nothing at all (the
    // state, the storage and the entity bookkeeping a later spawn depends on).
    const before = { hash: world.stateHash(), storage: world.storageGeneration, count: world.count([]) };
    let retry = null;
    try { world.spawnMany(chunk, { big: true }); } catch (e) { retry = e.code; }
    const afterRetry = { hash: world.stateHash(), storage: world.storageGeneration, count: world.count([]) };
    // The next handle the pool gives is the one it would have given before the failed calls.
    let probe = null;
    try { probe = world.spawn({}); world.despawn(probe); } catch (e) { probe = e.code ?? e.message; }
    // A single spawn may still fit (the failed call reserved nothing it kept); then smaller things work.
    let after = null;
    try { builtins.spawnMovers(world, 10, 1); after = world.count(['position']); } catch (e) { after = e.code ?? e.message; }
    let again = null;
    try { world.spawnMany(chunk, { big: true }); } catch (e) { again = e.code; }
    return { error, spawned, alive, retry, before, afterRetry, probe, after, again, aliveAfter: world.count(['big']), seconds };
  });
  expect(r.error, `no error after ${r.spawned} spawns in ${r.seconds} s`).not.toBeNull();
  expect(r.error.code).toBe('OutOfMemory');
  expect(r.error.message).toContain('the wasm heap cannot grow any further');
  expect(r.spawned).toBeGreaterThanOrEqual(500_000);  // the heap really filled up: ~256 MB of rows or more
  expect(r.alive).toBe(r.spawned);  // all or nothing: the failed call spawned none
  expect(r.retry).toBe('OutOfMemory');
  expect(r.afterRetry).toEqual(r.before);
  expect(r.probe).toBe(r.spawned);  // no slot was taken by the failed calls: the next one is slot `spawned`, generation 0
  expect(r.after).toBe(10);
  expect(r.again).toBe('OutOfMemory');
  expect(r.aliveAfter).toBe(r.spawned);
});
