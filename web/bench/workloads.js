// The DESIGN.md reference workloads in the browser: ecsia through its JS API (the threaded build,
// as a page loads it) against the peers of peers.js, each measured in the same page run.
// Results mirror the native programs' --json output (bench/*.cpp) so bench/report.mjs can put
// the two side by side.
import { builtinsOf, forcePlacement } from '../builtins.js';
import { autoWorkers, internalsOf } from '../internal/engine.js';
import { rangesLineUp } from '../internal/snapshot.js';
import { interleave, median, percentile, ratio } from './timing.js';
import * as peers from './peers.js';

const DT = 1 / 60;

async function runFrames(scheduler, frames, dt = DT) {
  for (let f = 0; f < frames; f += 1) await scheduler.update(dt);
}

function ecsiaMovers(ecsia, count, systems) {
  const world = ecsia.createWorld({ maxEntities: Math.max(count, 1024) });
  const scheduler = world.createScheduler({ systems, workers: 0 });
  builtinsOf(ecsia).spawnMovers(world, count, 1, { bare: true });
  return {
    world,
    scheduler,
    run: (frames) => runFrames(scheduler, frames),
    dispose() { scheduler.dispose(); world.dispose(); },
  };
}

function summarise(samples, entities) {
  const out = {};
  for (const [name, ms] of Object.entries(samples)) out[name] = median(ms) * 1e6 / entities;  // ns/entity
  return out;
}

/** move: ecsia (serial executor, one thread) against the JS loop, the wasm loops and bitECS. */
export async function move(env, { sizes = [50_000, 1_000_000], repetitions = 21, warmupMs = 300 } = {}) {
  const results = [];
  for (const entities of sizes) {
    const engine = ecsiaMovers(env.ecsia, entities, ['Move']);
    const js = peers.jsLoop(entities, DT);
    const scalar = peers.wasmLoop(env.bench, 'scalar', entities, DT);
    const simd = peers.wasmLoop(env.bench, 'simd', entities, DT);
    const bitecs = peers.bitecsMove(entities, DT);
    const variants = [
      { name: 'wasm loop, SIMD', run: simd.run },
      { name: 'wasm loop, scalar', run: scalar.run },
      { name: 'JS loop', run: js.run },
      { name: 'bitECS 0.4.0', run: bitecs.run },
      { name: 'ecsia', run: engine.run },
    ];
    const { samples, frames } = await interleave(variants, { repetitions, warmupMs });
    results.push({
      entities,
      framesPerSample: frames,
      nsPerEntity: summarise(samples, entities),
      ecsiaOverSimdLoop: ratio(samples, 'ecsia', 'wasm loop, SIMD'),
      bitecsOverEcsia: ratio(samples, 'bitECS 0.4.0', 'ecsia'),
      ecsiaOverJsLoop: ratio(samples, 'ecsia', 'JS loop'),
    });
    engine.dispose();
    scalar.dispose();
    simd.dispose();
  }
  return { sizes: results };
}

/** tracked: Move plus SumMoved (a changed<position> drainer) against Move alone, and bitECS's. */
export async function tracked(env, { sizes = [50_000, 1_000_000], repetitions = 21, warmupMs = 300 } = {}) {
  const results = [];
  for (const entities of sizes) {
    const untracked = ecsiaMovers(env.ecsia, entities, ['Move']);
    const trackedEngine = ecsiaMovers(env.ecsia, entities, ['Move', 'SumMoved']);
    const bitecsMove = peers.bitecsMove(entities, DT);
    const bitecsTracked = peers.bitecsTracked(entities, DT);
    const variants = [
      { name: 'ecsia move', run: untracked.run },
      { name: 'ecsia tracked', run: trackedEngine.run },
      { name: 'bitECS move', run: bitecsMove.run },
      { name: 'bitECS tracked (dirty list)', run: bitecsTracked.run },
    ];
    const { samples, frames } = await interleave(variants, { repetitions, warmupMs });
    results.push({
      entities,
      framesPerSample: frames,
      plan: trackedEngine.scheduler.plan(),
      nsPerEntity: summarise(samples, entities),
      trackedOverMove: ratio(samples, 'ecsia tracked', 'ecsia move'),
      bitecsTrackedOverEcsiaTracked: ratio(samples, 'bitECS tracked (dirty list)', 'ecsia tracked'),
    });
    untracked.dispose();
    trackedEngine.dispose();
  }
  return { sizes: results };
}

function heavyRun(ecsia, oneSystem, workers, frames, steps) {
  const world = ecsia.createWorld({ maxEntities: 16_384 });
  const scheduler = world.createScheduler({ workers, batchRows: 256 });
  const builtins = builtinsOf(ecsia);
  if (oneSystem) {
    builtins.spawnHeavy(world, 8 * 1024, 0, { group: 0 });
    builtins.addSystem(scheduler, 'Heavy0', { heavySteps: steps });
  } else {
    builtins.spawnHeavy(world, 1024, 0);
    for (let g = 0; g < 8; g += 1) builtins.addSystem(scheduler, `Heavy${g}`, { heavySteps: steps });
  }
  return { world, scheduler };
}

/**
 * heavy: wall ms per frame for the serial executor and 1, 2, 4, 8 workers; hash vs serial. Each
 * worker count is timed frame for frame against a serial scheduler of its own (fresh worlds, the
 * same frames, alternating which runs first), and its speedup is the median of those pairs: a
 * machine whose spare core comes and goes (another process, V8 still collecting the previous
 * workload's garbage) then slows both sides of a pair alike instead of whichever count ran first.
 */
export async function heavy(env, { frames = 6, steps = 512, workerCounts = [1, 2, 4, 8] } = {}) {
  const variants = [];
  const timedFrame = async (scheduler) => {
    const start = performance.now();
    await scheduler.update(DT);
    return performance.now() - start;
  };
  for (const oneSystem of [false, true]) {
    const runs = [];
    const serialMs = [];
    let serialHash = null;
    for (const workers of workerCounts) {
      const serial = heavyRun(env.ecsia, oneSystem, 0, frames, steps);
      const threaded = heavyRun(env.ecsia, oneSystem, workers, frames, steps);
      await serial.scheduler.update(DT);  // warm-up: first touch, threads, tier-up
      await threaded.scheduler.update(DT);
      const ms = [];
      const pairMs = [];
      for (let f = 0; f < frames; f += 1) {
        let serialFrame;
        let threadedFrame;
        if (f % 2 === 0) {
          serialFrame = await timedFrame(serial.scheduler);
          threadedFrame = await timedFrame(threaded.scheduler);
        } else {
          threadedFrame = await timedFrame(threaded.scheduler);
          serialFrame = await timedFrame(serial.scheduler);
        }
        ms.push(threadedFrame);
        pairMs.push(serialFrame);
        serialMs.push(serialFrame);
      }
      // Where the executor ran the wave in the last frame (inline on the page, pool, shared),
      // and how the batches and busy time split over the workers (totals since the scheduler started).
      const last = threaded.scheduler.lastFrame();
      const hash = threaded.world.stateHash();
      serialHash ??= serial.world.stateHash();
      runs.push({
        workers, msPerFrame: median(ms), frameMs: ms, pairedSerialMs: pairMs,
        speedup: median(ms.map((t, i) => pairMs[i] / t)),
        placements: last.waves.map((w) => w.placement), jobs: last.jobs, busyMs: last.busyNs.map((ns) => ns / 1e6),
        hash, hashEqualsSerial: hash === serial.world.stateHash(), activeWorkers: threaded.scheduler.workers,
      });
      for (const run of [serial, threaded]) { run.scheduler.dispose(); run.world.dispose(); }
    }
    // The serial executor's row: every frame it ran beside the threaded counts.
    runs.unshift({ workers: 0, msPerFrame: median(serialMs), frameMs: serialMs, speedup: 1, hash: serialHash,
      hashEqualsSerial: true, activeWorkers: 0, placements: ['inline'] });
    variants.push({ name: oneSystem ? '1 system x 8192' : '8 systems x 1024', runs });
  }
  return { frames, steps, variants };
}

async function fenceRuns(env, { frames, group, workerCounts, fencePollUs }) {
  const runs = [];
  for (const workers of workerCounts) {
    const world = env.ecsia.createWorld({ maxEntities: 1024 });
    const options = { systems: ['Idle'], workers };
    if (fencePollUs !== undefined) options.fencePollUs = fencePollUs;
    const scheduler = world.createScheduler(options);
    builtinsOf(env.ecsia).spawnMovers(world, Math.max(workers, 1), 1, { bare: true });
    await runFrames(scheduler, 200, 0);
    const us = [];
    for (let g = 0; g < frames / group; g += 1) {
      const start = performance.now();
      await runFrames(scheduler, group, 0);
      us.push(((performance.now() - start) * 1e3) / group);
    }
    runs.push({ workers, medianUs: median(us), p99Us: percentile(us, 0.99), maxUs: Math.max(...us) });
    scheduler.dispose();
    world.dispose();
  }
  return runs;
}

/**
 * fence: one-wave frames whose kernel does nothing. performance.now() ticks in 5 µs steps here,
 * so each sample is the mean of a group of `group` frames; median and p99 are over the groups
 * (bench_fence reports the same statistic). `runs`: the scheduler's defaults (update() polls a
 * just-dispatched wave for 20 µs); `waitAsyncRuns`: fencePollUs 0, every wave awaited with
 * Atomics.waitAsync.
 */
export async function fence(env, { frames = 20_000, group = 20, workerCounts = [0, 1, 2] } = {}) {
  const runs = await fenceRuns(env, { frames, group, workerCounts });
  const threaded = workerCounts.filter((w) => w > 0);
  const waitAsyncRuns = await fenceRuns(env, { frames: frames / 4, group, workerCounts: threaded, fencePollUs: 0 });
  return { frames, group, runs, waitAsyncRuns };
}

/** churn: the native program's workload compiled into the bench module; M records/s of apply. */
export async function churn(env, { populations = [10_000, 100_000], repetitions = 15, sampleMs = 50 } = {}) {
  const { bench } = env;
  const out = bench._malloc(5 * 8);
  const results = [];
  try {
    for (const population of populations) {
      bench._bench_churn_start(population);
      bench._bench_churn_frames(5, out);  // warm-up: tables, edges, buffer capacity
      const sizing = new Float64Array(bench.wasmMemory.buffer, out, 5).slice();
      bench._bench_churn_frames(5, out);
      const cycle = new Float64Array(bench.wasmMemory.buffer, out, 5)[2] / 5;
      const frames = Math.max(2, Math.ceil(sampleMs / 1e3 / Math.max(cycle, 1e-6)));
      const apply = [];
      const whole = [];
      let skipped = sizing[3];
      let diagnostics = 0;
      for (let rep = 0; rep < repetitions; rep += 1) {
        bench._bench_churn_frames(frames, out);
        const [applied, applySeconds, cycleSeconds, skips, diag] = new Float64Array(bench.wasmMemory.buffer, out, 5);
        apply.push(applied / 1e6 / applySeconds);
        whole.push(applied / 1e6 / cycleSeconds);
        skipped += skips;
        diagnostics = diag;
      }
      results.push({
        population,
        recordsPerFrame: (population / 20) * 4,
        framesPerSample: frames,
        applyMRecordsPerSecond: median(apply),
        cycleMRecordsPerSecond: median(whole),
        clean: skipped === 0 && diagnostics === 0,
      });
    }
  } finally {
    bench._free(out);
  }
  return { populations: results };
}

// web/bench/kernels.js's move as a plain function of two arrays (the fresh-views yardstick).
function freshViewsMove(p, v, rows, dt) {
  for (let i = 0, n = 2 * rows; i < n; i++) p[i] += v[i] * dt;
}

function kernelMovers(ecsia, count, kernel) {
  const world = ecsia.createWorld({ maxEntities: Math.max(count, 1024) });
  const scheduler = world.createScheduler({ workers: 0 });
  builtinsOf(ecsia).spawnMovers(world, count, 1, { bare: true });
  scheduler.addSystem({ name: 'Move', kernel, reads: ['velocity'], writes: ['position'] });
  return {
    world,
    scheduler,
    run: (frames) => runFrames(scheduler, frames),
    dispose() { scheduler.dispose(); world.dispose(); },
  };
}

async function kernelHeavyRun(ecsia, workers, frames, tierFrames) {
  // The Web Workers of the threaded schedulers before (the move section's) return to the pool,
  // with their kernel module, once the page reads their messages: let it, or this scheduler gets
  // fewer workers (createScheduler says so in a diagnostic).
  if (workers > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  const world = ecsia.createWorld({ maxEntities: 16_384 });
  const scheduler = world.createScheduler({ workers, batchRows: 256 });
  builtinsOf(ecsia).spawnHeavy(world, 1024, 0);
  for (let g = 0; g < 8; g += 1) scheduler.addSystem({ name: `Heavy${g}`, kernel: `heavy${g}`, reads: [], writes: [`heavy${g}`] });
  // The first frames run while each worker's V8 compiles and then optimises the kernel: kept apart.
  const firstMs = [];
  for (let f = 0; f < tierFrames; f += 1) {
    const start = performance.now();
    await scheduler.update(DT);
    firstMs.push(performance.now() - start);
  }
  const ms = [];
  for (let f = 0; f < frames; f += 1) {
    const start = performance.now();
    await scheduler.update(DT);
    ms.push(performance.now() - start);
  }
  const out = { workers, activeWorkers: scheduler.workers, firstFramesMs: firstMs, msPerFrame: median(ms), hash: world.stateHash() };
  scheduler.dispose();
  world.dispose();
  return out;
}

// Frames of one system over `rows` rows cut into batches of `batchRows`: per-batch time.
function batchCostRun(ecsia, rows, batchRows, system) {
  const world = ecsia.createWorld({ maxEntities: rows + 1024 });
  const scheduler = world.createScheduler({ workers: 0, batchRows });
  builtinsOf(ecsia).spawnMovers(world, rows, 1, { bare: true });
  if (system === 'Idle') scheduler.addSystem('Idle');
  else scheduler.addSystem({ name: 'Nothing', kernel: system, reads: ['position'], writes: [] });
  return {
    batches: () => scheduler.lastFrame().waves.reduce((n, w) => n + w.batches, 0),
    run: (frames) => runFrames(scheduler, frames),
    dispose() { scheduler.dispose(); world.dispose(); },
  };
}

/**
 * kernels: DESIGN.md's workloads as JS kernels (web/bench/kernels.js). move on the serial executor
 * against the plain JS loop (and the C++ Move, for reference); heavy as 8 JS kernel systems on
 * 0 and 2 workers (the first `tierFrames` frames reported apart); the per-batch cost of a JS
 * kernel call (a kernel that does nothing, batches of 16 rows) next to a C++ kernel's.
 */
export async function kernels(env, {
  sizes = [50_000, 1_000_000], repetitions = 21, heavyFrames = 6, tierFrames = 8, workerCounts = [2],
  batchRows = 16, batchCostRows = 65_536, warmupMs = 300, settleMs = 2500,
} = {}) {
  const { ecsia } = env;
  const move = [];
  for (const entities of sizes) {
    const jsKernel = kernelMovers(ecsia, entities, 'move');
    const cpp = ecsiaMovers(ecsia, entities, ['Move']);
    const js = peers.jsLoop(entities, DT);
    // The same plain loop over views of the kernel world's own columns (the wasm heap, a
    // SharedArrayBuffer here): what a JS loop costs on that memory, without the engine.
    const [columns] = jsKernel.world.chunks(['position', 'velocity']);
    const heapP = columns.columns.position;
    const heapV = columns.columns.velocity;
    const heapLoop = (frames) => {
      for (let f = 0; f < frames; f += 1) {
        for (let i = 0, n = heapP.length; i < n; i += 1) heapP[i] += heapV[i] * DT;
      }
    };
    // The same loop again, over typed arrays made afresh for each of the kernel's batches (as a
    // kernel gets them): V8 compiles a loop over arrays it cannot treat as constants (the two
    // loops above close over theirs) to about half their speed, with no engine in the way.
    await jsKernel.run(1);
    const batches = jsKernel.scheduler.lastFrame().waves.reduce((n, w) => n + w.batches, 0);
    const perBatch = Math.ceil(entities / batches);
    const heapBuffer = heapP.buffer;
    const pAddress = heapP.byteOffset;
    const vAddress = heapV.byteOffset;
    const freshLoop = (frames) => {
      for (let f = 0; f < frames; f += 1) {
        for (let b = 0; b < entities; b += perBatch) {
          const rows = Math.min(perBatch, entities - b);
          freshViewsMove(new Float32Array(heapBuffer, pAddress + 8 * b, 2 * rows), new Float32Array(heapBuffer, vAddress + 8 * b, 2 * rows), rows, DT);
        }
      }
    };
    // Every variant is timed once its code has settled (see interleave): steady-state speed. A
    // kernel called once per batch ran for seconds in V8's baseline tier here (--trace-opt: its
    // Maglev code deoptimised on every call to enter on-stack replacement while TurboFan's code
    // was still being made), so 300 ms of warm-up timed the tier-up, not the kernel.
    const variants = [
      { name: 'JS loop', run: js.run, settle: true },
      { name: 'JS loop over heap views', run: heapLoop, settle: true },
      { name: 'JS loop over fresh views', run: freshLoop, settle: true },
      { name: 'ecsia JS kernel', run: jsKernel.run, settle: true },
      { name: 'ecsia C++ kernel', run: cpp.run, settle: true },
    ];
    const timed = await interleave(variants, { repetitions, warmupMs, settleMs });
    const { samples, frames } = timed;
    move.push({
      entities,
      framesPerSample: frames,
      warmupMs: timed.warmupMs,
      batches: jsKernel.scheduler.lastFrame().waves.reduce((n, w) => n + w.batches, 0),
      nsPerEntity: summarise(samples, entities),
      kernelOverJsLoop: ratio(samples, 'ecsia JS kernel', 'JS loop'),
      kernelOverHeapLoop: ratio(samples, 'ecsia JS kernel', 'JS loop over heap views'),
      kernelOverFreshViewsLoop: ratio(samples, 'ecsia JS kernel', 'JS loop over fresh views'),
      freshViewsLoopOverJsLoop: ratio(samples, 'JS loop over fresh views', 'JS loop'),
      kernelOverCpp: ratio(samples, 'ecsia JS kernel', 'ecsia C++ kernel'),
    });
    jsKernel.dispose();
    cpp.dispose();
  }

  const heavyRuns = [];
  for (const workers of [0, ...workerCounts]) heavyRuns.push(await kernelHeavyRun(ecsia, workers, heavyFrames, tierFrames));
  for (const run of heavyRuns) {
    run.speedup = heavyRuns[0].msPerFrame / run.msPerFrame;
    run.hashEqualsSerial = run.hash === heavyRuns[0].hash;
  }
  // The C++ Heavy systems in the same run and settings: how much of a speedup the machine gives now.
  const cppHeavyRuns = [];
  for (const workers of [0, ...workerCounts]) {
    const { world, scheduler } = heavyRun(ecsia, false, workers, heavyFrames, 512);
    await scheduler.update(DT);
    const ms = [];
    for (let f = 0; f < heavyFrames; f += 1) {
      const start = performance.now();
      await scheduler.update(DT);
      ms.push(performance.now() - start);
    }
    cppHeavyRuns.push({ workers, msPerFrame: median(ms) });
    scheduler.dispose();
    world.dispose();
  }
  for (const run of cppHeavyRuns) run.speedup = cppHeavyRuns[0].msPerFrame / run.msPerFrame;

  const jsBatches = batchCostRun(ecsia, batchCostRows, batchRows, 'nothing');
  const cppBatches = batchCostRun(ecsia, batchCostRows, batchRows, 'Idle');
  const { samples } = await interleave([
    { name: 'JS kernel', run: jsBatches.run },
    { name: 'C++ kernel', run: cppBatches.run },
  ], { repetitions });
  const batches = jsBatches.batches();
  const batchCost = {
    rows: batchCostRows,
    batchRows,
    batches,
    usPerBatch: median(samples['JS kernel']) * 1e3 / batches,
    cppUsPerBatch: median(samples['C++ kernel']) * 1e3 / cppBatches.batches(),
  };
  batchCost.jsCallUsPerBatch = batchCost.usPerBatch - batchCost.cppUsPerBatch;
  jsBatches.dispose();
  cppBatches.dispose();
  return { move, heavy: { frames: heavyFrames, tierFrames, steps: 512, runs: heavyRuns, cppRuns: cppHeavyRuns }, batchCost };
}

// jsapi's per-entity loops: `spawned.length` spawns with values, then a get+set pair on each.
function spawnLoop(world, spawned) {
  for (let i = 0; i < spawned.length; i += 1) {
    spawned[i] = world.spawn({ position: { x: i, y: 0 }, velocity: { dx: 1, dy: 0 } });
  }
}

function getSetLoop(world, spawned) {
  for (let i = 0; i < spawned.length; i += 1) {
    const e = spawned[i];
    const p = world.get(e, 'position');
    world.set(e, 'position', { x: p.x + 1 });
  }
}

/**
 * jsapi: the JS API's own costs at 100,000 entities, next to bitECS and a plain JS loop:
 *   spawnMany of position+velocity with values (Float32Arrays) against bitECS's addEntity + 2
 *   addComponent + typed-array writes; world.spawn per entity; a get+set pair; a main-thread JS
 *   query system moving every entity (one update() a frame) against a plain JS loop.
 */
export async function jsapi(env, { entities = 100_000, repetitions = 9, perEntityCalls = 20_000, warmupMs = 500 } = {}) {
  const { ecsia } = env;
  const world = ecsia.createWorld({ maxEntities: 2 * entities + perEntityCalls });
  const xs = new Float32Array(entities);
  const ys = new Float32Array(entities);
  const dxs = new Float32Array(entities);
  const dys = new Float32Array(entities);
  for (let i = 0; i < entities; i += 1) {
    [xs[i], ys[i]] = peers.initialPosition(i);
    [dxs[i], dys[i]] = peers.initialVelocity(i);
  }
  const values = { position: { x: xs, y: ys }, velocity: { dx: dxs, dy: dys } };

  // spawnMany against bitECS, fresh state each sample (the ecsia world's slots are reused).
  const spawnManyMs = [];
  const bitecsMs = [];
  for (let rep = 0; rep < repetitions + 2; rep += 1) {
    let start = performance.now();
    const handles = world.spawnMany(entities, values);
    const ecsiaMs = performance.now() - start;
    world.despawnMany(handles);
    start = performance.now();
    peers.bitecsSpawn(entities, xs, ys, dxs, dys);
    const peerMs = performance.now() - start;
    if (rep >= 2) { spawnManyMs.push(ecsiaMs); bitecsMs.push(peerMs); }  // 2 warm-up rounds
  }

  // Per-entity calls: spawn with values, then get+set pairs on those entities. Each loop is its
  // own function and runs for warmupMs first: V8 runs a loop in its baseline tiers until the
  // optimised code is ready (under load, that compile alone can take tens of ms), and a few
  // passes timed from a cold start measure that, not the calls.
  const spawnUs = [];
  const getSetUs = [];
  const spawned = new Uint32Array(perEntityCalls);
  const warmupStart = performance.now();
  do {
    spawnLoop(world, spawned);
    getSetLoop(world, spawned);
    world.despawnMany(spawned);
  } while (performance.now() - warmupStart < warmupMs);
  for (let rep = 0; rep < repetitions; rep += 1) {
    let start = performance.now();
    spawnLoop(world, spawned);
    const spawnTook = performance.now() - start;
    start = performance.now();
    getSetLoop(world, spawned);
    const getSetTook = performance.now() - start;
    world.despawnMany(spawned);
    spawnUs.push((spawnTook * 1e3) / perEntityCalls);
    getSetUs.push((getSetTook * 1e3) / perEntityCalls);
  }

  // A JS main-thread query system against a plain loop over the same layout.
  const movers = world.spawnMany(entities, values);
  const scheduler = world.createScheduler({ workers: 0 });
  scheduler.addSystem({
    name: 'JsMove',
    query: { with: ['position', 'velocity'] },
    writes: ['position'],
    run(w, dt, chunks) {
      for (const chunk of chunks) {
        const p = chunk.columns.position;
        const v = chunk.columns.velocity;
        const n = 2 * chunk.count;  // both {x, y} pairs of f32: the same stride and offsets
        for (let i = 0; i < n; i += 1) p[i] += v[i] * dt;
      }
    },
  });
  const js = peers.jsLoop(entities, DT);
  // The system's loop as a plain function over the query's own chunk views, no frame around it:
  // what V8 makes of a loop over typed arrays handed in as values (see the kernels workload).
  const viewQuery = world.query({ with: ['position', 'velocity'] });
  const viewLoop = (n) => {
    for (let f = 0; f < n; f += 1) {
      for (const chunk of viewQuery.chunks()) freshViewsMove(chunk.columns.position, chunk.columns.velocity, chunk.count, DT);
    }
  };
  const { samples, frames } = await interleave([
    { name: 'JS loop', run: js.run },
    { name: 'JS loop over the chunk views', run: viewLoop },
    { name: 'ecsia JS system', run: (n) => runFrames(scheduler, n) },
  ], { repetitions: 2 * repetitions + 1 });
  scheduler.dispose();
  world.despawnMany(movers);
  world.dispose();

  const spawnManyNs = (median(spawnManyMs) * 1e6) / entities;
  const bitecsNs = (median(bitecsMs) * 1e6) / entities;
  return {
    entities,
    perEntityCalls,
    spawnManyNsPerEntity: spawnManyNs,
    bitecsSpawnNsPerEntity: bitecsNs,
    spawnManyOverBitecs: spawnManyNs / bitecsNs,
    spawnUsPerEntity: median(spawnUs),
    getSetUsPerPair: median(getSetUs),
    systemFramesPerSample: frames,
    systemNsPerEntity: summarise(samples, entities),
    systemOverJsLoop: ratio(samples, 'ecsia JS system', 'JS loop'),
    systemOverChunkViewLoop: ratio(samples, 'ecsia JS system', 'JS loop over the chunk views'),
  };
}

/**
 * snapshot: world.snapshot(into) (into a reused Uint8Array, as a ring of snapshots does; the
 * target, like the native bench's reused buffer), world.snapshot() (a new array each time) and
 * world.restore(bytes) of `entities` movers after a frame of Move, against TypedArray.set of the
 * same column bytes (every position and velocity value) into a ready Uint8Array: the issue's
 * yardstick (each within 3x). Restore puts back the same state each time (the world's own
 * entities, as in a rollback), after a frame of Move that is not counted (the target, as
 * natively), and into the unchanged world ('restore (unchanged world)'). The parts of both calls are
 * timed alone too (msPer['snapshot: engine'], ['snapshot: copy out'], ['restore: copy in']), so a
 * miss says where the time goes.
 */
export async function snapshot(env, { entities = 100_000, repetitions = 21 } = {}) {
  const engine = ecsiaMovers(env.ecsia, entities, ['Move']);
  await engine.run(1);
  const { world } = engine;
  let chunks = world.chunks(['position', 'velocity']);
  const columnBytes = chunks.reduce((sum, c) => sum + c.columns.position.byteLength + c.columns.velocity.byteLength, 0);
  const copy = new Uint8Array(columnBytes);
  const bytes = world.snapshot();
  const hash = world.stateHash();
  let last = bytes;
  const ring = new Uint8Array(bytes.length);
  const core = internalsOf(world, 'world');
  const { module } = core.engine;
  const raw = core.raw('snapshot');
  const variants = [
    {
      name: 'TypedArray.set',
      run: (frames) => {
        if (!world.isCurrent(chunks[0])) chunks = world.chunks(['position', 'velocity']);
        for (let f = 0; f < frames; f += 1) {
          let at = 0;
          for (const c of chunks) {
            for (const view of [c.columns.position, c.columns.velocity]) {
              copy.set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), at);
              at += view.byteLength;
            }
          }
        }
      },
    },
    { name: 'snapshot', run: (frames) => { for (let f = 0; f < frames; f += 1) last = world.snapshot(ring); } },
    { name: 'snapshot (new array)', run: (frames) => { for (let f = 0; f < frames; f += 1) last = world.snapshot(); } },
    // The rollback the target is about, as natively: a frame of Move (not counted) moves every
    // position, then the restore puts them back. Into the unchanged world, every value equals the
    // column's already and is only compared (docs/SNAPSHOT.md "Speed").
    {
      name: 'restore',
      run: async (frames) => {
        let counted = 0;
        for (let f = 0; f < frames; f += 1) {
          await engine.run(1);
          const start = performance.now();
          world.restore(bytes);
          counted += performance.now() - start;
        }
        return counted;
      },
    },
    { name: 'restore (unchanged world)', run: (frames) => { for (let f = 0; f < frames; f += 1) world.restore(bytes); } },
    // The parts of the two calls, each alone through the raw bindings web/internal/snapshot.js
    // uses, so a miss of the target says which part costs what.
    // snapshot: engine = the ranges gathered and the checksum computed over them in place;
    // copy out = a TypedArray.set of each range into the ring (the direct path; when the ranges
    // do not line up, world.snapshot assembles in the heap instead: `snapshotDirect` says which).
    {
      name: 'snapshot: engine',
      run: (frames) => {
        for (let f = 0; f < frames; f += 1) {
          module.snapshotTakeRanges(raw);
          module.snapshotSealRanges();
        }
      },
    },
    {
      name: 'snapshot: copy out',
      run: (frames) => {
        const count = module.snapshotTakeRanges(raw);
        module.snapshotSealRanges();
        const heap = core.engine.heapState().buffer;
        const table = new Uint32Array(heap, module.snapshotRangeTable(), count * 2);
        for (let f = 0; f < frames; f += 1) {
          for (let i = 0, at = 0; i < table.length; i += 2) {
            ring.set(new Uint8Array(heap, table[i], table[i + 1]), at);
            at += table[i + 1];
          }
        }
      },
    },
    // restore: copy in = one TypedArray.set of the bytes into wasm memory (the engine's heap
    // buffer, made the snapshot's size): what the engine's pulls of the bytes cost at least; the
    // rest of a restore is its checksum, checks and commit.
    {
      name: 'restore: copy in',
      run: (frames) => {
        module.snapshotTakeRanges(raw);
        const size = module.snapshotCopySealed();
        const target = new Uint8Array(core.engine.heapState().buffer, module.snapshotBuffer(), Math.min(size, bytes.length));
        for (let f = 0; f < frames; f += 1) target.set(bytes.subarray(0, target.length));
      },
    },
  ];
  const rangeCount = module.snapshotTakeRanges(raw);
  const rangeTable = new Uint32Array(core.engine.heapState().buffer, module.snapshotRangeTable(), rangeCount * 2);
  const snapshotDirect = rangesLineUp(rangeTable, ring.byteOffset);
  const { samples, frames } = await interleave(variants, { repetitions });
  const unchanged = world.stateHash() === hash && last.length === bytes.length && last.every((b, i) => b === bytes[i]);
  engine.dispose();
  const ms = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  return {
    entities, columnBytes, snapshotBytes: bytes.length, snapshotRanges: rangeCount, snapshotDirect, samplesPerVariant: frames, msPer: ms, unchanged,
    snapshotOverSet: ratio(samples, 'snapshot', 'TypedArray.set'),
    snapshotNewOverSet: ratio(samples, 'snapshot (new array)', 'TypedArray.set'),
    restoreOverSet: ratio(samples, 'restore', 'TypedArray.set'),
    restoreUnchangedOverSet: ratio(samples, 'restore (unchanged world)', 'TypedArray.set'),
  };
}

// A scheduler over `count` bare movers running Move: the serial executor (workers 0), or
// `workers` workers left to decide where each wave runs, or (placement 'pool') every wave
// dispatched to the workers, as the executor did before it decided.
function executorMovers(ecsia, count, workers, placement) {
  const world = ecsia.createWorld({ maxEntities: Math.max(count, 1024) });
  const scheduler = world.createScheduler({ systems: ['Move'], workers });
  if (placement) forcePlacement(scheduler, placement);
  builtinsOf(ecsia).spawnMovers(world, count, 1, { bare: true });
  return { world, scheduler, run: (frames) => runFrames(scheduler, frames), dispose() { scheduler.dispose(); world.dispose(); } };
}

/**
 * executor (threads must never make a page slower than the serial executor): move through the JS API at each size,
 * threads: 'auto' (the worker count loadEcsia({ threads: 'auto' }) picks on this machine, the
 * executor deciding) against the serial executor in the same page, and the old way (2 workers,
 * every wave on the pool) against it too; then a frame of the determinism scenario, auto against
 * serial, both worlds advanced frame for frame in lockstep (their hashes must agree). Ratios are
 * speeds: serial time / threaded time, so 1.0 = as fast, above = faster. Last, what the extract
 * step (scheduler.extract) adds to a frame at each of `extractSizes` movers.
 */
export async function executor(env, {
  sizes = [1_000, 10_000, 50_000, 200_000, 1_000_000], repetitions = 15, scenarioFrames = 8, scenarioRepetitions = 15,
  scenarioWarmup = 120, extractSizes = [100_000, 1_000_000],
} = {}) {
  const { ecsia } = env;
  const auto = autoWorkers(globalThis.navigator?.hardwareConcurrency, ecsia.maxWorkers);
  const move = [];
  for (const entities of sizes) {
    const serial = executorMovers(ecsia, entities, 0);
    const decided = executorMovers(ecsia, entities, auto);
    const pooled = executorMovers(ecsia, entities, 2, 'pool');
    const { samples, frames } = await interleave([
      { name: 'serial', run: serial.run },
      { name: 'auto', run: decided.run },
      { name: 'pool, 2 workers', run: pooled.run },
    ], { repetitions });
    const placements = decided.scheduler.lastFrame().waves.map((w) => w.placement);
    move.push({
      entities,
      framesPerSample: frames,
      usPerFrame: Object.fromEntries(Object.entries(samples).map(([name, ms]) => [name, median(ms) * 1e3])),
      autoOverSerial: ratio(samples, 'serial', 'auto'),
      poolOverSerial: ratio(samples, 'serial', 'pool, 2 workers'),
      autoPlacements: placements,
    });
    serial.dispose();
    decided.dispose();
    pooled.dispose();
  }

  // A frame of the determinism scenario: both worlds run the same frames, alternating which goes first.
  const builtins = builtinsOf(ecsia);
  const make = (workers) => {
    const world = ecsia.createWorld({ maxEntities: 1 << 16 });
    const scheduler = world.createScheduler({ workers });
    builtins.setupScenario(scheduler, 1);
    return { world, scheduler };
  };
  const runs = { serial: make(0), auto: make(auto) };
  for (const { scheduler } of Object.values(runs)) await runFrames(scheduler, scenarioWarmup);
  const ms = { serial: [], auto: [] };
  for (let rep = 0; rep < scenarioRepetitions; rep += 1) {
    for (const name of rep % 2 === 0 ? ['serial', 'auto'] : ['auto', 'serial']) {
      const start = performance.now();
      await runFrames(runs[name].scheduler, scenarioFrames);
      ms[name].push((performance.now() - start) / scenarioFrames);
    }
  }
  const scenario = {
    frames: scenarioWarmup + scenarioFrames * scenarioRepetitions,
    usPerFrame: { serial: median(ms.serial) * 1e3, auto: median(ms.auto) * 1e3 },
    autoOverSerial: ratio(ms, 'serial', 'auto'),
    autoPlacements: runs.auto.scheduler.lastFrame().waves.map((w) => w.placement),
    hashesEqual: runs.serial.world.stateHash() === runs.auto.world.stateHash(),
  };
  for (const { world, scheduler } of Object.values(runs)) { scheduler.dispose(); world.dispose(); }

  // What the extract step adds to a frame: two schedulers without systems over the same movers,
  // one with an extract of position and velocity (the demo's), the other without; the difference
  // of their frame times is the copy (a memcpy per component per table, and the entities).
  const extract = [];
  for (const entities of extractSizes) {
    const world = ecsia.createWorld({ maxEntities: Math.max(entities, 1024) });
    builtins.spawnMovers(world, entities, 1, { bare: true });
    const plain = world.createScheduler({ workers: 0 });
    const copying = world.createScheduler({ workers: 0 });
    const drawn = copying.extract({ components: ['position', 'velocity'] });
    const { samples } = await interleave([
      { name: 'frame', run: (frames) => runFrames(plain, frames) },
      { name: 'frame + extract', run: (frames) => runFrames(copying, frames) },
    ], { repetitions });
    const bytes = drawn.latest().count * (8 + 8 + 4);
    const usWith = median(samples['frame + extract']) * 1e3;
    const usWithout = median(samples.frame) * 1e3;
    extract.push({ entities, bytes, usWith, usWithout, usPerCopy: usWith - usWithout, gbPerSecond: bytes / ((usWith - usWithout) * 1e3) });
    plain.dispose();
    copying.dispose();
    world.dispose();
  }
  return { autoWorkers: auto, hardwareConcurrency: globalThis.navigator?.hardwareConcurrency ?? null, move, scenario, extract };
}

// Per-entity calls and small-world iteration against the JS ECS libraries (smallworld.js).
export { calls, iteration } from './smallworld.js';
export { hierarchy } from './hierarchy.js';
export { rollback } from './rollback.js';
export { snapshotChurn } from './snapshot_churn.js';
export { topics } from './topics.js';
export { devtools } from './devtools.js';
