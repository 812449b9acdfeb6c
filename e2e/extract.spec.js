// The extract step (scheduler.extract, web/extract.js): at the end of every frame the engine copies
// the declared components of the selected rows into buffers the page owns. The copy equals the
// world at that frame's end, row for row, at 0, 1 and 2 workers and in the single build (and is
// the same bytes at every worker count); the frame the page holds does not change while the next
// frame runs, nor after; bad specs are rejected and change nothing.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test } from './support.js';

// On the page: the determinism scenario (spawns, despawns, adds and removes every frame) with two
// extracts; after every frame each extract's copy is compared with the world's own chunks.
async function extractScenario(page, { threads, workers, frames }) {
  return page.evaluate(async ({ threads, workers, frames }) => {
    const { loadEcsia, builtinsOf } = window.ecsiaTest;
    const ecsia = await loadEcsia({ threads, onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 1 << 16 });
    const scheduler = world.createScheduler({ workers, batchRows: 128 });
    builtinsOf(ecsia).setupScenario(scheduler, 1);
    const specs = [
      { components: ['position', 'velocity'] },
      { components: ['age'], with: ['position'], without: ['marked'] },
    ];
    const extracts = specs.map((spec) => scheduler.extract(spec));
    const bytesOf = (view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    const concat = (parts) => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) { out.set(p, at); at += p.length; }
      return out;
    };
    const digest = (bytes) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
      return h.toString(16);
    };
    const mismatches = [];
    const digests = [];
    const rows = [];
    for (let f = 1; f <= frames; f++) {
      await scheduler.update(1 / 60);
      const perFrame = [];
      specs.forEach((spec, s) => {
        const got = extracts[s].latest();
        if (got.frame !== scheduler.frames) mismatches.push(`frame ${f} extract ${s}: frame ${got.frame}`);
        // The world's own rows: the same query, its chunks in table order, row order.
        const chunks = world.query({ with: [...spec.components, ...(spec.with ?? [])], without: spec.without ?? [] }).chunks();
        const count = chunks.reduce((n, c) => n + c.count, 0);
        if (got.count !== count) mismatches.push(`frame ${f} extract ${s}: ${got.count} rows, the world has ${count}`);
        const entities = concat(chunks.map((c) => bytesOf(c.entities)));
        if (digest(bytesOf(got.entities)) !== digest(entities)) mismatches.push(`frame ${f} extract ${s}: entities differ`);
        for (const name of spec.components) {
          const want = concat(chunks.map((c) => bytesOf(c.columns[name])));
          if (got.strides[name] !== chunks[0]?.strides[name] && count > 0) mismatches.push(`frame ${f}: stride of ${name}`);
          if (digest(bytesOf(got.columns[name])) !== digest(want)) mismatches.push(`frame ${f} extract ${s}: ${name} differs`);
          perFrame.push(digest(bytesOf(got.columns[name])));
        }
        perFrame.push(digest(bytesOf(got.entities)));
        rows.push(got.count);
      });
      digests.push(perFrame.join(' '));
    }
    const out = { variant: ecsia.variant, workers: scheduler.workers, mismatches, digests, rows, hash: world.stateHash() };
    scheduler.dispose();
    world.dispose();
    return out;
  }, { threads, workers, frames });
}

test('each frame\'s extract equals the world at that frame\'s end: 0, 1 and 2 workers and the single build, the same bytes', async ({ page, browser }) => {
  const log = await openTestPage(page, servers.isolated);
  const frames = 40;
  const serial = await extractScenario(page, { threads: 2, workers: 0, frames });
  expect(serial.variant).toBe('threaded');
  expect(serial.mismatches).toEqual([]);
  expect(Math.min(...serial.rows)).toBeGreaterThan(0);
  expect(new Set(serial.rows).size).toBeGreaterThan(2);  // the row counts change: spawns and despawns
  for (const workers of [1, 2]) {
    const threaded = await extractScenario(page, { threads: 2, workers, frames });
    expect(threaded.workers).toBe(workers);
    expect(threaded.mismatches, `${workers} worker(s)`).toEqual([]);
    expect(threaded.digests, `${workers} worker(s)`).toEqual(serial.digests);
    expect(threaded.hash).toBe(serial.hash);
  }
  expectNoPageErrors(log);

  const plainPage = await browser.newPage();
  const plainLog = await openTestPage(plainPage, servers.plain);
  const single = await extractScenario(plainPage, { threads: 'auto', workers: undefined, frames });
  expect(single.variant).toBe('single');
  expect(single.mismatches).toEqual([]);
  expect(single.digests).toEqual(serial.digests);
  expectNoPageErrors(plainLog);
  await plainPage.close();
});

test('the frame the page holds stays as it was while the next frame runs on the workers, and after', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { loadEcsia, builtinsOf, internalsOf } = window.ecsiaTest;
    const ecsia = await loadEcsia({ threads: 2, onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 1 << 16 });
    const builtins = builtinsOf(ecsia);
    const scheduler = world.createScheduler({ workers: 2, systems: ['Move'], batchRows: 128 });
    for (let g = 0; g < 8; g++) builtins.addSystem(scheduler, `Heavy${g}`, { heavySteps: 256 });
    builtins.spawnMovers(world, 20000, 3);
    builtins.spawnHeavy(world, 1024, 3);
    // Every wave on the workers, so the frame is in flight while the page looks.
    window.ecsiaTest.forcePlacement(scheduler, 'pool');
    const drawn = scheduler.extract({ components: ['position'] });
    await scheduler.update(1 / 60);
    const held = drawn.latest();
    const copy = Float32Array.from(held.columns.position);
    const same = () => held.columns.position.every((v, i) => Object.is(v, copy[i]));
    let done = false;
    const next = scheduler.update(1 / 60).then(() => { done = true; });
    let looksInFlight = 0;
    let changedInFlight = 0;
    while (!done) {
      looksInFlight += 1;
      if (!same()) changedInFlight += 1;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await next;
    const afterFrame = { heldFrame: held.frame, unchanged: same(), frames: scheduler.frames };
    // The world moved on (the check above is not vacuous), and the next latest() shows it.
    const now = world.query({ with: ['position'] }).chunks();
    const worldPositions = now.flatMap((c) => Array.from(c.columns.position));
    const fresh = drawn.latest();
    const freshEqualsWorld = fresh.columns.position.length === worldPositions.length &&
      fresh.columns.position.every((v, i) => Object.is(v, worldPositions[i]));
    let released;
    try { void held.columns; released = 'readable'; } catch (error) { released = error.message; }
    const out = {
      looksInFlight, changedInFlight, afterFrame, freshFrame: fresh.frame, freshEqualsWorld,
      worldMoved: worldPositions.some((v, i) => !Object.is(v, copy[i])), released,
    };
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.looksInFlight).toBeGreaterThan(1);  // the page ran while the frame was on the workers
  expect(r.changedInFlight).toBe(0);
  expect(r.afterFrame).toEqual({ heldFrame: 1, unchanged: true, frames: 2 });
  expect(r.worldMoved).toBe(true);
  expect(r.freshFrame).toBe(2);
  expect(r.freshEqualsWorld).toBe(true);
  expect(r.released).toContain('released by a later latest()');
  expectNoPageErrors(log);
});

for (const [variant, server] of [['threaded', servers.isolated], ['single', servers.plain]]) {
  test(`${variant} build: bad extract specs are rejected by name and change nothing; dispose ends an extract`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 1000 });
      world.defineComponent('frozen', {});
      world.spawnMany(10, { position: { x: 1, y: 2 }, velocity: { dx: 1, dy: 0 } });
      const scheduler = world.createScheduler({ systems: ['Move'] });
      const before = world.stateHash();
      const errors = [];
      const attempt = (fn) => { try { fn(); errors.push('accepted'); } catch (e) { errors.push(e.message); } };
      attempt(() => scheduler.extract({ components: ['mass'] }));
      attempt(() => scheduler.extract({ components: ['position'], with: ['nope'] }));
      attempt(() => scheduler.extract({ components: ['frozen'] }));
      attempt(() => scheduler.extract({ components: [] }));
      attempt(() => scheduler.extract({ components: ['position', 'position'] }));
      attempt(() => scheduler.extract({ components: ['position'], without: ['position'] }));
      attempt(() => scheduler.extract({ components: ['position'], with: ['frozen'], without: ['frozen'] }));
      attempt(() => scheduler.extract({ components: 'position' }));
      attempt(() => scheduler.extract({ components: ['position'], where: ['velocity'] }));
      attempt(() => scheduler.extract(['position']));
      attempt(() => scheduler.extract({ components: ['position'] }, {}));
      // From inside a frame (a main-thread system): refused, the frame goes on.
      let inFrame = 'not run';
      scheduler.addSystem({ name: 'Sneaky', run() { try { scheduler.extract({ components: ['position'] }); inFrame = 'accepted'; } catch (e) { inFrame = e.message; } } });
      const sameBefore = world.stateHash() === before;
      await scheduler.update(1 / 60);
      const drawn = scheduler.extract({ components: ['position'], with: ['velocity'], without: ['frozen'] });
      const first = drawn.latest();
      const firstFrame = first.frame;
      const firstCount = first.count;
      attempt(() => drawn.latest(1));
      drawn.dispose();
      drawn.dispose();  // a second call does nothing
      attempt(() => drawn.latest());
      attempt(() => first.columns);
      const other = scheduler.extract({ components: ['velocity'] });
      const kept = other.latest();
      const otherBefore = other.disposed;
      scheduler.dispose();
      const otherAfter = other.disposed;  // disposing the scheduler disposed its extracts
      attempt(() => other.latest());
      attempt(() => kept.entities);
      other.dispose();  // after its scheduler: nothing to free, no error
      // The world's dispose stops its schedulers and so their extracts.
      const third = world.createScheduler({ systems: ['Move'] }).extract({ components: ['position'] });
      const thirdBefore = third.disposed;
      world.dispose();
      return { errors, inFrame, sameBefore, firstFrame, firstCount, disposed: drawn.disposed,
        others: [otherBefore, otherAfter, thirdBefore, third.disposed] };
    });
    const e = r.errors;
    expect(e[0]).toContain("scheduler.extract: UnknownComponent: components names unknown component 'mass' (defined: ");
    expect(e[1]).toContain("scheduler.extract: UnknownComponent: with names unknown component 'nope'");
    expect(e[2]).toContain("'frozen' is a tag");
    expect(e[3]).toContain('components must name at least one component');
    expect(e[4]).toContain("'position' is listed twice");
    expect(e[5]).toContain("'position' is in without and also in components");
    expect(e[6]).toContain("'frozen' is in without and also in with");
    expect(e[7]).toContain('scheduler.extract: BadValue: components takes an array of names, got a string');
    expect(e[8]).toContain("unknown key of the extract spec 'where'");
    expect(e[9]).toContain('takes { components, with, without }');
    expect(e[10]).toContain('takes at most 1 argument');
    expect(r.sameBefore).toBe(true);
    expect(r.inFrame).toContain('scheduler.extract: not allowed while update() is running');
    expect(r.firstFrame).toBe(1);
    expect(r.firstCount).toBe(10);
    expect(e[11]).toContain('extract.latest: takes no arguments');
    expect(e[12]).toBe('extract.latest: the extract was disposed');
    expect(e[13]).toContain('released by a later latest() call or dispose()');
    expect(e[14]).toContain('extract.latest: the scheduler was disposed');
    expect(e[15]).toContain('released');
    expect(r.disposed).toBe(true);
    expect(r.others).toEqual([false, true, false, true]);
    expectNoPageErrors(log);
  });
}
