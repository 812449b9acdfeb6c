// The frames every consumer app runs (e2e/apps/*): the same entities, systems and frames, so
// every app, in every mode, must end with the same stateHash. The one source: each app is a
// self-contained project, so scripts/lib/test_package.sh copies this file into it (plain/ and
// <app>/src/, untracked) before the app is built.
const ENTITIES = 4096;  // 16 batches of 256 rows per system: work for every worker
const FRAMES = 30;

/**
 * Runs the frames with the `loadEcsia` the app imported; resolves to what the test checks. With
 * `kernels` (the URL of the app's kernel module), positions move by its JS kernel `integrate` on
 * the workers instead of the built-in C++ Move: the same arithmetic, so the same stateHash.
 */
export async function runScenario(loadEcsia, { kernels } = {}) {
  const ecsia = await loadEcsia(kernels === undefined ? {} : { kernels });
  const world = ecsia.createWorld({ maxEntities: 2 * ENTITIES });
  for (let i = 0; i < ENTITIES; i += 1) {
    world.spawn({
      position: { x: (i * 37) % 1000, y: (i * 91) % 1000 },
      velocity: { dx: ((i % 13) - 6) * 3.5, dy: ((i % 7) - 3) * 2.25 },
    });
  }
  const scheduler = world.createScheduler({ systems: kernels === undefined ? ['Move', 'Bounce'] : ['Bounce'] });
  if (kernels !== undefined) {
    scheduler.addSystem({ name: 'Integrate', kernel: 'integrate', reads: ['velocity'], writes: ['position'], before: ['Bounce'] });
  }
  // A frame ran on the workers when the workers' job counters grew by exactly the batches of
  // the frame's waves (the counters are totals since the scheduler started).
  let workerFrames = 0;
  let jobs = scheduler.lastFrame().jobs;
  for (let frame = 0; frame < FRAMES; frame += 1) {
    await scheduler.update(1 / 60);
    const last = scheduler.lastFrame();
    const batches = last.waves.reduce((sum, wave) => sum + wave.batches, 0);
    const ran = last.jobs.reduce((sum, total, w) => sum + total - (jobs[w] ?? 0), 0);
    if (batches > 0 && ran === batches) workerFrames += 1;
    jobs = last.jobs;
  }
  const result = {
    kernels: ecsia.kernels,
    plan: scheduler.plan(),
    variant: ecsia.variant,
    workers: ecsia.workers,
    schedulerWorkers: scheduler.workers,
    frames: scheduler.frames,
    workerFrames,
    workersThatRanJobs: jobs.filter((total) => total > 0).length,
    hash: world.stateHash(),
  };
  scheduler.dispose();
  world.dispose();
  return result;
}
