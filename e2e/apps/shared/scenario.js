// The frames every consumer app runs (e2e/apps/*): the same entities, systems and frames, so
// every app, in every mode, must end with the same stateHash. The one source: each app is a
// self-contained project, so scripts/lib/test_package.sh copies this file into it (plain/ and
// <app>/src/, untracked) before the app is built.
const ENTITIES = 4096;  // 16 batches of 256 rows per system: work for every worker
const FRAMES = 30;

/**
 * Runs the frames with the `loadEcsia` the app imported and `kernels`, the URL of the app's
 * kernel module (its JS kernels integrate and bounce move the entities on the workers);
 * resolves to what the test checks.
 */
export async function runScenario(loadEcsia, { kernels }) {
  const ecsia = await loadEcsia({ kernels });
  const world = ecsia.createWorld({ maxEntities: 2 * ENTITIES });
  world.defineComponent('position', { x: 'f32', y: 'f32' });
  world.defineComponent('velocity', { dx: 'f32', dy: 'f32' });
  for (let i = 0; i < ENTITIES; i += 1) {
    world.spawn({
      position: { x: (i * 37) % 1000, y: (i * 91) % 1000 },
      velocity: { dx: ((i % 13) - 6) * 3.5, dy: ((i % 7) - 3) * 2.25 },
    });
  }
  const scheduler = world.createScheduler();
  scheduler.addSystem({ name: 'Integrate', kernel: 'integrate', reads: ['velocity'], writes: ['position'], before: ['Bounce'] });
  scheduler.addSystem({ name: 'Bounce', kernel: 'bounce', reads: ['position'], writes: ['velocity'] });
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
    startedWorkers: ecsia.startedWorkers,
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
