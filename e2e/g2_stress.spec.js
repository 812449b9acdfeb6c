// G2 under stress: the page's thread never waits on a lock a worker holds. Allocation-heavy JS
// kernels (web/test/kernels/g2_stress.js: command buffers that grow, spawns past the reservation,
// a burst that grows the wasm heap from a worker) and a C++ system that allocates on every row
// (web/test/modules/g2_stress.cpp, a user's module) run on 1 and 2 workers for several hundred
// frames, while the page spawns, despawns and snapshots between frames and reads (and has its
// writes refused) while each wave is out. It fails on any futex wait of the page's thread (the
// threaded module counts them: wasm/worker_heap.cpp), on the diagnostic update() gives for one,
// and on Emscripten's "Blocking on the main thread" warning. Then the case where the page runs
// batches too (placement shared): on fresh modules, where the page's and the workers' first
// batches run at the same moment.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test } from './support.js';

const FRAMES = 300;
const BURST_FRAME = 120;

for (const workers of [1, 2]) {
  test(`threaded, ${workers} worker(s): ${FRAMES} allocation-heavy frames, the page busy between and during them, and it never waits`, async ({ page }) => {
    const log = await openTestPage(page, servers.isolated);
    const r = await page.evaluate(async ({ workers, frames, burstFrame }) => {
      const { loadEcsia, internalsOf } = window.ecsiaTest;
      const diagnostics = [];
      // A user's module (web/test/modules/g2_stress.cpp: the engine and an allocating C++
      // system) with the JS kernels.
      const ecsia = await loadEcsia({
        threads: 2, module: '/web/test/dist/g2_stress', kernels: new URL('/web/test/kernels/g2_stress.js', location.href),
        onDiagnostic: (m) => diagnostics.push(m),
      });
      const engine = internalsOf(ecsia);
      const world = ecsia.createWorld({ maxEntities: 1 << 20 });
      world.defineComponent('hp', { value: 'i32' });
      world.defineComponent('payload', { a: 'f64', b: 'f64', c: 'f64', d: 'f64' });
      world.defineComponent('young', {});
      world.defineComponent('burst', {});
      const scheduler = world.createScheduler({ workers, batchRows: 64 });
      // Every wave on the workers: left to decide, the executor may run small waves on the page.
      window.ecsiaTest.forcePlacement(scheduler, 'pool');
      scheduler.addSystem({ name: 'Churn', kernel: 'churn', reads: ['hp'], writes: [], query: { without: ['young'] }, spawnsPerBatch: 1 });
      scheduler.addSystem({ name: 'Fade', kernel: 'fade', reads: [], writes: ['hp'], query: { with: ['young'] } });
      // The burst's spawns come from reserved handles (a batch of 64 rows spawns 64 x 1024): the
      // pending handles a wave can name are far fewer (docs/GUARANTEES.md G4). Churn's go past theirs.
      scheduler.addSystem({ name: 'Burst', kernel: 'burst', reads: [], writes: [], query: { with: ['burst'] }, spawnsPerBatch: 64 * 1024 });
      scheduler.addSystem('Allocate');  // C++: a vector and a string per row
      world.spawnMany(2048, { ballast: { value: 1 } });

      const parents = [];
      for (let i = 0; i < 300; i++) parents.push(world.spawn({ hp: { value: i } }));
      const heapBefore = engine.heapState().buffer.byteLength;
      const waitsBefore = engine.pageWaits();
      const counts = { readsInWaves: 0, snapshots: 0, pageSpawned: 0, pageDespawned: 0 };
      const unexpected = [];
      let snapshot = new Uint8Array(0);
      for (let f = 0; f < frames; f++) {
        // Between frames: the page spawns and despawns parents and takes snapshots.
        for (let i = 0; i < 8; i++) parents.push(world.spawn({ hp: { value: f + i }, payload: { a: f, b: i, c: 0, d: 1 } }));
        counts.pageSpawned += 8;
        for (let i = 0; i < 8; i++) world.despawn(parents.shift());
        counts.pageDespawned += 8;
        if (f % 10 === 0) {
          snapshot = world.snapshot(snapshot.length > 0 ? snapshot : undefined);
          counts.snapshots += 1;
        }
        if (f === burstFrame) for (const e of parents.slice(0, 300)) world.add(e, 'burst');

        // During the frame: while each wave is out the page reads, queries, and has writes refused.
        let done = false;
        let failure = null;
        scheduler.update(1 / 60).then(() => { done = true; }, (error) => { done = true; failure = error; });
        while (!done) {
          // A refused write says a wave is out (every world write is, then): the reads that follow
          // run while workers allocate. (Between two waves of a frame the page may find the world
          // serial for a moment: a write is accepted there.)
          const e = parents[f % parents.length];
          let inWave = false;
          try {
            world.set(e, 'hp', { value: f });
          } catch (error) {
            if (error.code === 'WrongPhase') inWave = true;
            else unexpected.push(`write: ${error.message}`);
          }
          try {
            world.get(e, 'hp');
            world.count(['young']);
            world.isAlive(e);
            world.has(e, 'payload');
            world.chunks(['hp'], ['young']);
            if (inWave) counts.readsInWaves += 1;
          } catch (error) {
            unexpected.push(`read: ${error.message}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        if (failure !== null) throw failure;
      }
      const out = {
        counts, unexpected,
        poolJobs: scheduler.lastFrame().jobs.reduce((a, b) => a + b, 0),
        pageWaits: engine.pageWaits() - waitsBefore,
        workerStatics: engine.workerStaticInits(),
        heap: [heapBefore, engine.heapState().buffer.byteLength],
        young: world.count(['young']),
        workers: scheduler.workers,
        overflowSpawns: diagnostics.some((m) => m.includes("exceeded their batch's reservation")),
        // Everything but the spawns past the reservation, which this stress makes on purpose.
        diagnostics: diagnostics.filter((m) => !m.includes("exceeded their batch's reservation")),
      };
      scheduler.dispose();
      world.dispose();
      return out;
    }, { workers, frames: FRAMES, burstFrame: BURST_FRAME });

    expect(r.workers).toBe(workers);
    // The stress happened: waves on the workers, spawns past the reservation, a heap that grew,
    // the page's reads while waves were out (its writes refused there), its work between frames.
    expect(r.poolJobs).toBeGreaterThan(FRAMES);
    expect(r.overflowSpawns).toBe(true);
    expect(r.heap[1], `heap bytes before and after: ${r.heap}`).toBeGreaterThan(r.heap[0]);
    expect(r.counts.readsInWaves).toBeGreaterThan(FRAMES / 2);
    expect(r.counts.snapshots).toBe(FRAMES / 10);
    expect(r.young).toBeGreaterThan(1000);
    expect(r.unexpected).toEqual([]);
    // And the page's thread never waited: no futex wait, no diagnostic, no Emscripten warning.
    expect(r.pageWaits).toBe(0);
    expect(r.diagnostics).toEqual([]);
    // Nor could it have: no worker initialised a function-local static (the page waits when it
    // reaches one a worker is initialising; wasm/worker_heap.cpp), the user's module's included.
    expect(r.workerStatics.count, r.workerStatics.site ?? '').toBe(0);
    expect(log.console.filter((m) => m.text.includes('Blocking on the main thread'))).toEqual([]);
    expectNoPageErrors(log);
  });
}

// Shared waves make the page and the workers run their first batches at the same moment: whatever
// a thread initialises on first use, both reach together. A function-local static is the case
// that made the page wait (libc++abi guards them with one mutex and condition variable: the page
// spun on it while a worker initialised __cxa_thread_atexit's, and Emscripten printed "Blocking
// on the main thread"); the threaded module initialises those on the page as it starts, and
// counts any static a worker initialises (wasm/worker_heap.cpp). A race that happened only now and
// then, so this does not wait for it: every fresh module must show no static initialised on a
// worker at all (which the race needs), as well as no page wait.
test('threaded, shared waves on fresh modules (1 and 2 workers, release and debug, JS and C++ kernels): no worker initialises a function-local static, and the page never waits', async ({ page }) => {
  test.setTimeout(120_000);
  const log = await openTestPage(page, servers.isolated);
  const runs = await page.evaluate(async () => {
    const { KERNELS_URL, defineScenarioComponents, addScenarioSystems, spawnScenario } = await import('/web/test/kernel_scenario.js');
    const { loadEcsia, internalsOf } = window.ecsiaTest;
    const out = [];
    for (const workers of [1, 2]) {
      for (const debug of [false, true]) {
        for (const cpp of [false, true]) {
          const diagnostics = [];
          const ecsia = await loadEcsia({ threads: 2, kernels: KERNELS_URL, debug, onDiagnostic: (m) => diagnostics.push(m) });
          const engine = internalsOf(ecsia);
          const world = ecsia.createWorld({ maxEntities: 1 << 16 });
          defineScenarioComponents(world);
          const scheduler = world.createScheduler({ workers, batchRows: 32 });
          window.ecsiaTest.forcePlacement(scheduler, 'shared');
          addScenarioSystems(scheduler, { cpp });
          spawnScenario(world, 600);
          const placements = new Set();
          for (let f = 0; f < 6; f++) {
            await scheduler.update(1 / 8);
            for (const w of scheduler.lastFrame().waves) if (w.batches > 0) placements.add(w.placement);
          }
          out.push({
            label: `${workers} worker(s)${debug ? ', debug' : ''}${cpp ? ', C++ Move and Bounce' : ''}`,
            placements: [...placements], pageWaits: engine.pageWaits(), statics: engine.workerStaticInits(),
            diagnostics: diagnostics.filter((m) => !m.includes("exceeded their batch's reservation")),
          });
          scheduler.dispose();
          world.dispose();
        }
      }
    }
    return out;
  });
  expect(runs).toHaveLength(8);
  for (const r of runs) {
    expect(r.placements, r.label).toEqual(['shared']);
    expect(r.statics.count, `${r.label}: ${r.statics.site}`).toBe(0);
    expect(r.pageWaits, r.label).toBe(0);
    expect(r.diagnostics, r.label).toEqual([]);
  }
  expect(log.console.filter((m) => m.text.includes('Blocking on the main thread'))).toEqual([]);
  expectNoPageErrors(log);
});
