// Hierarchy in one frame (cascade systems): a JS kernel with cascade: 'ChildOf' and parentReads
// propagates world positions through a seeded forest, parent before child, while another kernel
// re-parents nodes, spawns children under them (a pending handle as the pair's target) and
// despawns subtrees. Every frame, every node's value is checked against its parent's, and the
// state hash is compared frame by frame across the serial executor, 1, 2 and 4 workers and the
// single build (G1). Set-up: web/test/hierarchy_scenario.js; kernels: web/test/kernels/hierarchy.js.
import { expect, test } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, variants } from './support.js';

async function hierarchy(page, options) {
  return page.evaluate(async (options) => {
    const { runHierarchy } = await import('/web/test/hierarchy_scenario.js');
    return runHierarchy(window.ecsiaTest.loadEcsia, options);
  }, options);
}

test('a JS kernel cascade propagates a changing forest parent before child, the same at every worker count and build', async ({ page, browser }) => {
  const frames = 12;
  const log = await openTestPage(page, servers.isolated);
  const serial = await hierarchy(page, { threads: 4, workers: 0, frames });
  expect(serial.variant).toBe('threaded');
  expect(serial.mismatches).toEqual(new Array(frames).fill(null));
  expect(serial.deepest).toBeGreaterThan(4);  // levels really ran one after another
  expect(new Set(serial.hashes).size).toBe(frames);
  // The restructuring happened: nodes were born and died with their subtrees.
  expect(serial.alive).not.toBe(3000);
  expect(serial.children).toBeGreaterThan(500);
  // The diagnostics say what the restructuring did to itself: re-parentings refused as cycles,
  // records about nodes an earlier record despawned with their subtree, spawns past the reservation.
  const expected = ['its own ancestor', 'was no longer alive', "exceeded their batch's reservation"];
  const unexpected = serial.diagnostics.filter((m) => !expected.some((e) => m.includes(e)));
  expect(unexpected).toEqual([]);
  for (const workers of [1, 2, 4]) {
    const threaded = await hierarchy(page, { threads: 4, workers, frames });
    expect(threaded.workers).toBe(workers);
    expect(threaded.mismatches).toEqual(serial.mismatches);
    expect(threaded.diagnostics).toEqual(serial.diagnostics);
    expect(threaded.hashes, `${workers} worker(s)`).toEqual(serial.hashes);
  }
  expectNoPageErrors(log);

  const plainPage = await browser.newPage();
  const plainLog = await openTestPage(plainPage, servers.plain);
  const single = await hierarchy(plainPage, { threads: 'auto', frames });
  expect(single.variant).toBe('single');
  expect(single.hashes).toEqual(serial.hashes);
  expectNoPageErrors(plainLog);
  await plainPage.close();
});

for (const { variant, server } of variants) {
  test(`${variant} build: cascade and parentReads are checked, and only kernel systems take them`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const { HIERARCHY_KERNELS_URL, buildForest } = await import('/web/test/hierarchy_scenario.js');
      const ecsia = await window.ecsiaTest.loadEcsia({ kernels: HIERARCHY_KERNELS_URL, onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 1000 });
      buildForest(world, { nodes: 10, roots: 2 });
      world.defineRelation('Likes');
      const scheduler = world.createScheduler({});
      const base = { kernel: 'propagate', reads: ['localPos'], writes: ['worldPos', 'level'] };
      const cases = {
        notExclusive: { name: 'A', ...base, cascade: 'Likes' },
        unknownRelation: { name: 'B', ...base, cascade: 'Parent' },
        componentAsRelation: { name: 'C', ...base, cascade: 'localPos' },
        parentReadsAlone: { name: 'D', ...base, parentReads: ['worldPos'] },
        parentReadsUnknown: { name: 'E', ...base, cascade: 'ChildOf', parentReads: ['nope'] },
        mainThread: { name: 'F', reads: [], writes: [], cascade: 'ChildOf', run() {} },
      };
      const out = {};
      for (const [label, spec] of Object.entries(cases)) {
        try { scheduler.addSystem(spec); out[label] = 'no error'; } catch (e) { out[label] = e.message; }
      }
      out.plan = scheduler.plan();
      scheduler.dispose();
      world.dispose();
      return out;
    });
    expect(r.notExclusive).toMatch(/cascades over 'Likes', which is not exclusive/);
    expect(r.unknownRelation).toMatch(/no relation named 'Parent'; the defined relations are: ChildOf, IsA, Likes/);
    expect(r.componentAsRelation).toMatch(/'localPos' is a component, not a relation/);
    expect(r.parentReadsAlone).toMatch(/declares parent_reads without a cascade relation/);
    expect(r.parentReadsUnknown).toMatch(/parentReads names unknown component 'nope'/);
    expect(r.mainThread).toMatch(/cascade is for kernel systems/);
    expect(r.plan).toEqual([]);
    expectNoPageErrors(log);
  });
}
