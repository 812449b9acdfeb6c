// G1 with JS kernels wherever a wave runs: the executor chooses per wave whether its batches run
// inline on the page, on the pool, or on both (shared), and each thread has its own instance of
// the kernel module. With every wave pinned to each placement (the test hook forcePlacement) the
// JS kernel scenario hashes as the serial executor does, frame by frame, and the engine's own
// record (lastFrame().waves[].placement) shows where the waves ran. The debug build's check
// (loadEcsia({ debug: true })) names a kernel whose results depend on state it keeps between
// calls, in every placement and both builds, and changes nothing for kernels that keep none.
// Kernels: web/test/kernels/scenario.js (the scenario), web/test/kernels/stateful.js.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test, variants } from './support.js';

const PLACEMENTS = ['inline', 'pool', 'shared'];

async function scenario(page, options) {
  return page.evaluate(async (options) => {
    const { runKernelScenario } = await import('/web/test/kernel_scenario.js');
    return runKernelScenario(window.ecsiaTest.loadEcsia, options);
  }, options);
}

// Every frame had waves with batches, and each of them ran where it was pinned.
function expectEveryWaveRan(placements, where) {
  for (const [frame, waves] of placements.entries()) {
    expect(waves.length, `frame ${frame}`).toBeGreaterThan(0);
    expect(waves, `frame ${frame}`).toEqual(Array(waves.length).fill(where));
  }
}

for (const cpp of [false, true]) {
  test(`the JS kernel scenario${cpp ? ' mixed with C++ Move and Bounce' : ''} hashes as the serial executor with every wave pinned inline, to the pool, and shared, at 1 and 2 workers`, async ({ page }) => {
    test.setTimeout(120_000);
    const frames = 30;
    const log = await openTestPage(page, servers.isolated);
    const serial = await scenario(page, { threads: 2, workers: 0, frames, cpp });
    expect(serial.variant).toBe('threaded');
    expect(new Set(serial.hashes).size).toBe(frames);  // the world changes every frame
    expectEveryWaveRan(serial.placements, 'inline');
    for (const workers of [1, 2]) {
      for (const placement of PLACEMENTS) {
        const pinned = await scenario(page, { threads: 2, workers, frames, cpp, placement });
        const label = `${workers} worker(s), ${placement}`;
        expect(pinned.workers, label).toBe(workers);
        expectEveryWaveRan(pinned.placements, placement);
        expect(pinned.diagnostics, label).toEqual(serial.diagnostics);
        expect(pinned.hashes, label).toEqual(serial.hashes);
      }
    }
    expectNoPageErrors(log);
  });
}

for (const { variant, server } of variants) {
  test(`${variant} build: the debug check changes nothing for the JS kernel scenario (no kernel named, same hashes as the release build)`, async ({ page }) => {
    test.setTimeout(120_000);
    const frames = 20;
    const log = await openTestPage(page, server);
    const threaded = variant === 'threaded';
    const release = await scenario(page, { threads: threaded ? 2 : 'auto', workers: 0, frames });
    expect(release.variant).toBe(variant);
    const runs = threaded
      ? PLACEMENTS.map((placement) => ({ label: placement, options: { threads: 2, workers: 2, frames, placement, debug: true } }))
      : [{ label: 'single', options: { threads: 'auto', workers: undefined, frames, debug: true } }];
    for (const { label, options } of runs) {
      const checked = await scenario(page, options);
      if (options.placement !== undefined) expectEveryWaveRan(checked.placements, options.placement);
      // Nothing named: the only diagnostics are the release build's (spawns past a reservation).
      expect(checked.diagnostics, label).toEqual(release.diagnostics);
      expect(checked.hashes, label).toEqual(release.hashes);
    }
    expectNoPageErrors(log);
  });

  test(`${variant} build: the debug check names each JS kernel that keeps state between calls, once, in every placement; the release build does not check`, async ({ page }) => {
    test.setTimeout(120_000);
    const log = await openTestPage(page, server);
    const runs = variant === 'threaded' ? PLACEMENTS.map((placement) => ({ placement, debug: true })) : [{ debug: true }];
    runs.push({ placement: variant === 'threaded' ? 'inline' : undefined, debug: false });
    const results = [];
    for (const run of runs) {
      results.push(await page.evaluate(async ({ placement, debug }) => {
        const diagnostics = [];
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, debug, kernels: '/web/test/kernels/stateful.js', onDiagnostic: (m) => diagnostics.push(m) });
        const world = ecsia.createWorld({ maxEntities: 1 << 14 });
        world.defineComponent('seen', { x: 'f32' });
        world.defineComponent('memo', { x: 'f32' });
        world.defineComponent('tally', { n: 'u32' });
        const scheduler = world.createScheduler({ batchRows: 16 });
        if (placement !== undefined) window.ecsiaTest.forcePlacement(scheduler, placement);
        scheduler.addSystem({ name: 'Integrate', kernel: 'integrate', reads: ['velocity'], writes: ['position'] });
        scheduler.addSystem({ name: 'Copy', kernel: 'copy', reads: ['position'], writes: ['seen'], spawnsPerBatch: 1 });
        scheduler.addSystem({ name: 'Count', kernel: 'count', reads: [], writes: ['tally'] });
        scheduler.addSystem({ name: 'Cached', kernel: 'cached', reads: ['position'], writes: ['memo'] });
        for (let i = 0; i < 200; i++) {
          world.spawn({ position: { x: i, y: 0 }, velocity: { dx: 1, dy: 0 }, seen: { x: 0 }, memo: { x: 0 }, tally: { n: 0 } });
        }
        const placements = [];
        const countSteps = [];
        for (let f = 0; f < 8; f++) {
          await scheduler.update(1);
          placements.push(scheduler.lastFrame().waves.filter((w) => w.batches > 0).map((w) => w.placement));
          // What Count gave each row this frame, less what it gave row 0.
          const [tallies] = world.chunks(['tally']);
          const t = tallies.columns.tally;
          countSteps.push(Array.from(t, (n) => n - t[0]));
        }
        const out = {
          variant: ecsia.variant, debug: ecsia.debug, placements, seen: world.count(['seen']), countSteps,
          named: diagnostics.filter((m) => m.includes('gave different results')),
          others: diagnostics.filter((m) => !m.includes('gave different results') && !m.includes('threads are off') &&
            !m.includes("exceeded their batch's reservation")),
        };
        scheduler.dispose();
        world.dispose();
        return out;
      }, run));
    }
    for (const [i, r] of results.entries()) {
      const { placement, debug } = runs[i];
      const label = `${placement ?? 'single'}${debug ? '' : ', release'}`;
      expect(r.variant, label).toBe(variant);
      expect(r.debug, label).toBe(debug);
      if (placement !== undefined) expectEveryWaveRan(r.placements, placement);
      expect(r.others, label).toEqual([]);
      // Copy spawned its two entities per batch, checked or not: 200 + 8 frames x 13 batches x 2 (and
      // the spawned ones, which have `seen` but no position, are never Copy's rows).
      expect(r.seen, label).toBe(200 + 8 * 13 * 2);
      if (placement === 'inline' || placement === undefined) {
        // One thread ran every batch in batch order, so Count's counter rose by one per batch (16
        // rows each), checked or not: every frame, the world got each batch's first run, not the
        // second instance's, whose counter saw only the checked batches.
        const steps = Array.from({ length: 200 }, (_, row) => Math.floor(row / 16));
        for (const [frame, got] of r.countSteps.entries()) expect(got, `${label}, frame ${frame}`).toEqual(steps);
      }
      if (!debug) {
        expect(r.named, label).toEqual([]);
        continue;
      }
      expect(r.named, label).toHaveLength(2);
      const count = r.named.find((m) => m.includes("system 'Count'"));
      const cached = r.named.find((m) => m.includes("system 'Cached'"));
      expect(count, label).toMatch(/^ecsia: system 'Count' batch \d+: JS kernel 'count' gave different results for the same batch when the debug check ran it a second time, on a second instance of the kernel module .*\/web\/test\/kernels\/stateful\.js, with the same inputs: its writes to 'tally' differ \(first at row 0 of the batch\)\. A kernel whose results depend on state kept between calls \(module-level variables/);
      expect(cached, label).toMatch(/JS kernel 'cached' gave different results for the same batch .*: its writes to 'memo' differ/);
      expect(cached, label).toContain('reported once per system');
    }
    expectNoPageErrors(log);
  });
}
