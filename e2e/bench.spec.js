// The benchmark page (web/bench/, driven by scripts/bench) still loads and runs every workload:
// a smoke run with tiny settings, checking the results' shape, not speed (figures come from
// scripts/bench, never from the test suite).
import { expect } from '@playwright/test';
import { expectNoPageErrors, servers, test } from './support.js';

test('the benchmark page runs every workload, and heavy hashes equal the serial one', async ({ page }) => {
  test.setTimeout(180_000);  // twelve workloads, each warming up every variant it compares
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${servers.isolated}/web/bench/index.html`);
  await page.waitForFunction(() => window.ecsiaBench?.ready === true);
  const r = await page.evaluate(async () => {
    const b = window.ecsiaBench;
    return {
      variant: b.variant,
      move: await b.run('move', { sizes: [2000], repetitions: 2, warmupMs: 5 }),
      tracked: await b.run('tracked', { sizes: [2000], repetitions: 2, warmupMs: 5 }),
      heavy: await b.run('heavy', { frames: 1, steps: 8, workerCounts: [2] }),
      fence: await b.run('fence', { frames: 200, workerCounts: [0, 2] }),
      churn: await b.run('churn', { populations: [2000], repetitions: 2, sampleMs: 5 }),
      kernels: await b.run('kernels', { sizes: [2000], repetitions: 2, heavyFrames: 1, tierFrames: 1, batchCostRows: 512, warmupMs: 5, settleMs: 0 }),
      snapshot: await b.run('snapshot', { entities: 2000, repetitions: 1 }),
      jsapi: await b.run('jsapi', { entities: 2000, repetitions: 1, perEntityCalls: 200, warmupMs: 10 }),
      executor: await b.run('executor', { sizes: [1000, 4000], repetitions: 1, scenarioFrames: 2, scenarioRepetitions: 2, scenarioWarmup: 4, extractSizes: [3000] }),
      calls: await b.run('calls', { population: 200, repetitions: 2, sampleMs: 2, warmupMs: 20 }),
      iteration: await b.run('iteration', { repetitions: 2, sampleMs: 2, warmupMs: 5, settleMs: 0 }),
      hierarchy: await b.run('hierarchy', { nodes: 3000, roots: 30, repetitions: 1, reparent: 200, reparentFrames: 1, warmupMs: 5, settleMs: 0 }),
      unknown: await b.run('warp').then(() => 'no error', (e) => e.message),
    };
  });
  expect(r.variant).toBe('threaded');
  const positive = (value) => Number.isFinite(value) && value > 0;
  const move = r.move.sizes[0];
  expect(Object.keys(move.nsPerEntity).sort()).toEqual(['JS loop', 'bitECS 0.4.0', 'ecsia', 'wasm loop, SIMD', 'wasm loop, scalar']);
  expect(Object.values(move.nsPerEntity).every(positive)).toBe(true);
  expect(positive(move.ecsiaOverSimdLoop) && positive(move.bitecsOverEcsia)).toBe(true);
  expect(r.tracked.sizes[0].plan).toEqual([['Move'], ['SumMoved']]);
  expect(positive(r.tracked.sizes[0].trackedOverMove)).toBe(true);
  for (const variant of r.heavy.variants) {
    expect(variant.runs.map((run) => run.workers)).toEqual([0, 2]);
    expect(variant.runs.every((run) => run.hashEqualsSerial && positive(run.msPerFrame))).toBe(true);
    expect(variant.runs[1].activeWorkers).toBe(2);
  }
  expect(r.fence.runs.map((run) => run.workers)).toEqual([0, 2]);
  expect(r.fence.runs.every((run) => positive(run.medianUs))).toBe(true);
  expect(r.churn.populations[0].clean).toBe(true);
  expect(r.snapshot.unchanged).toBe(true);
  expect(positive(r.snapshot.snapshotOverSet) && positive(r.snapshot.snapshotNewOverSet) && positive(r.snapshot.restoreOverSet)).toBe(true);
  expect(r.snapshot.snapshotBytes).toBeGreaterThan(r.snapshot.columnBytes);
  expect(positive(r.churn.populations[0].applyMRecordsPerSecond)).toBe(true);
  const kernelMove = r.kernels.move[0];
  expect(Object.keys(kernelMove.nsPerEntity).sort()).toEqual(['JS loop', 'JS loop over fresh views', 'JS loop over heap views', 'ecsia C++ kernel', 'ecsia JS kernel']);
  expect(positive(kernelMove.kernelOverJsLoop) && positive(kernelMove.kernelOverFreshViewsLoop)).toBe(true);
  const jsapi = r.jsapi;
  expect(Object.keys(jsapi.systemNsPerEntity).sort()).toEqual(['JS loop', 'JS loop over the chunk views', 'ecsia JS system']);
  expect([jsapi.spawnManyOverBitecs, jsapi.spawnUsPerEntity, jsapi.getSetUsPerPair, jsapi.systemOverJsLoop,
    jsapi.systemOverChunkViewLoop].every(positive)).toBe(true);
  expect(r.kernels.heavy.runs.map((run) => run.workers)).toEqual([0, 2]);
  expect(r.kernels.heavy.cppRuns.map((run) => run.workers)).toEqual([0, 2]);
  expect(r.kernels.heavy.runs.every((run) => run.hashEqualsSerial && positive(run.msPerFrame))).toBe(true);
  expect(r.kernels.batchCost.batches).toBe(32);  // 512 rows in batches of 16
  expect(positive(r.kernels.batchCost.usPerBatch)).toBe(true);
  // executor: threads: 'auto' = cores - 1 workers; every run of the same frames hashes the same.
  expect(r.executor.autoWorkers).toBe(Math.max(1, Math.min(r.executor.hardwareConcurrency - 1, 8)));
  expect(r.executor.move.map((m) => m.entities)).toEqual([1000, 4000]);
  for (const m of r.executor.move) {
    expect(Object.keys(m.usPerFrame).sort()).toEqual(['auto', 'pool, 2 workers', 'serial']);
    expect(positive(m.autoOverSerial) && positive(m.poolOverSerial)).toBe(true);
    expect(m.autoPlacements.every((p) => ['inline', 'pool', 'shared'].includes(p))).toBe(true);
  }
  expect(positive(r.executor.scenario.autoOverSerial) && r.executor.scenario.hashesEqual).toBe(true);
  expect(r.executor.extract.map((x) => [x.entities, x.bytes])).toEqual([[3000, 3000 * 20]]);
  expect(positive(r.executor.extract[0].usWith) && positive(r.executor.extract[0].usWithout)).toBe(true);
  // hierarchy: every variant propagates the same world positions as the JS loop.
  expect(Object.values(r.hierarchy.differ)).toEqual([0, 0, 0, 0]);
  expect(r.hierarchy.hashesEqual).toBe(true);
  expect(r.hierarchy.maxDepth).toBe(8);
  expect(Object.values(r.hierarchy.msPerFrame).every(positive)).toBe(true);
  expect(positive(r.hierarchy.reparent.frameAfterMs)).toBe(true);
  expect(positive(r.hierarchy.lookup.nsPerRowLookup) && positive(r.hierarchy.lookup.lookupOverDirect)).toBe(true);
  expect(positive(r.hierarchy.prefab.instantiateManyMs) && positive(r.hierarchy.prefab.spawnManyMs)).toBe(true);
  // calls and iteration: every library measured, ecsia's ratio to the fastest per operation/shape.
  const libraries = ['bitECS', 'ecsia', 'koota', 'piecs', 'wolf-ecs'];
  expect(Object.keys(r.calls.nsPerOp).sort()).toEqual(libraries);
  // A library's typed-array get + set takes under 1 ns: in the smoke run's short samples the
  // clock (5 µs in an isolated page) can read 0 for it, and the ratio is then not a number.
  for (const [op, o] of Object.entries(r.calls.ops)) {
    const measured = positive(o.ecsiaNs) && Number.isFinite(o.fastestNs) && o.fastestNs >= 0 &&
      (o.fastestNs === 0 || positive(o.ecsiaOverFastest));
    expect([op, measured]).toEqual([op, true]);
  }
  expect(Object.keys(r.calls.bulk).sort()).toEqual(['addManyTag', 'addManyValue', 'removeManyTag', 'removeManyValue']);
  for (const b of Object.values(r.calls.bulk)) expect(b === null || positive(b.perCallOverBulk)).toBe(true);
  expect(r.iteration.shapes.map((s) => s.shape)).toEqual(['packed5', 'simple', 'frag']);
  for (const s of r.iteration.shapes) {
    expect(Object.keys(s.nsPerFrame).sort()).toEqual(['JS loop', ...libraries].sort());
    expect(positive(s.ecsiaSpeedOverFastest) && positive(s.jsLoopSpeedOverEcsia)).toBe(true);
  }
  expect(r.unknown).toContain("no workload 'warp'");
  expectNoPageErrors({ errors });
});

// The estimators behind the devtools table's ratios and intervals (web/bench/timing.js), on samples
// whose answers are known: a model of a cost, a stalled repetition, and the fixed seed.
test('the benchmark ratios: pooled and median estimates, their intervals, a stalled repetition', async () => {
  const { medianRatio, pooledRatio } = await import('../web/bench/timing.js');
  let seed = 3;
  const noise = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return 0.9 + 0.2 * (seed / 2 ** 32); };
  const base = Array.from({ length: 16 }, () => noise());
  const samples = { none: base, same: [...base], slower: base.map((v) => v * 1.04), stalled: [...base] };
  samples.stalled[5] *= 17;  // one repetition the machine stalled
  for (const estimate of [pooledRatio, medianRatio]) {
    expect(estimate(samples, 'same', 'none')).toEqual({ ratio: 1, interval: [1, 1] });
    const slower = estimate(samples, 'slower', 'none');
    expect(slower.ratio).toBeCloseTo(1.04, 10);
    expect(slower.interval[0]).toBeCloseTo(1.04, 10);
  }
  const total = (values) => values.reduce((a, b) => a + b, 0);
  expect(pooledRatio(samples, 'stalled', 'none').ratio).toBeCloseTo(total(samples.stalled) / total(base), 12);
  expect(pooledRatio(samples, 'stalled', 'none').ratio).toBeGreaterThan(1.5);
  expect(medianRatio(samples, 'stalled', 'none').ratio).toBe(1);
  // Ratios that differ per repetition: the interval holds the estimate and is not a point.
  const mixed = { none: base, other: base.map((v, i) => v * (1 + (i % 4) * 0.02)) };
  for (const estimate of [pooledRatio, medianRatio]) {
    const { ratio, interval } = estimate(mixed, 'other', 'none');
    expect(interval[0]).toBeLessThanOrEqual(ratio);
    expect(interval[1]).toBeGreaterThanOrEqual(ratio);
    expect(interval[1]).toBeGreaterThan(interval[0]);
    // The same samples give the same interval (a fixed seed: a run's figures can be derived again).
    expect(estimate(mixed, 'other', 'none')).toEqual({ ratio, interval });
  }
});
