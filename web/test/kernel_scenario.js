// Page-side set-up of the JS kernel scenario (kernels in ./kernels/scenario.js), used by
// e2e/kernels.spec.js through a dynamic import: the same world and systems for every executor.

export const KERNELS_URL = new URL('./kernels/scenario.js', import.meta.url);

export function defineScenarioComponents(world) {
  world.defineComponent('hp', { value: 'i32', regen: 'f32' });
  world.defineComponent('flag', {});
  world.defineComponent('parent', { of: 'entity' });
  world.defineComponent('mixed', { a: 'u8', b: 'f64' });
  world.defineComponent('tally', { n: 'u32' });
}

/**
 * ecsia loaded with the scenario's kernel module (`threads` as loadEcsia takes it; left out: the
 * default) and a world of `maxEntities` with the scenario's components. Every diagnostic the page
 * gets is pushed to `diagnostics`.
 */
export async function openScenario({ threads, maxEntities = 1024 } = {}) {
  const diagnostics = [];
  const options = { kernels: KERNELS_URL, onDiagnostic: (m) => diagnostics.push(m) };
  if (threads !== undefined) options.threads = threads;
  const ecsia = await globalThis.ecsiaTest.loadEcsia(options);
  const world = ecsia.createWorld({ maxEntities });
  defineScenarioComponents(world);
  return { ecsia, world, diagnostics };
}

/**
 * The scenario's systems on `scheduler`. With cpp: the built-in C++ Move and Bounce take the
 * place of the JS integrate kernel, so C++ and JS systems share the plan.
 */
export function addScenarioSystems(scheduler, { cpp = false, pairs = false } = {}) {
  if (cpp) {
    scheduler.addSystem('Move');
    scheduler.addSystem('Bounce');
  } else {
    scheduler.addSystem({ name: 'Integrate', kernel: 'integrate', reads: ['velocity'], writes: ['position'] });
  }
  scheduler.addSystem({ name: 'Age', kernel: 'age', reads: [], writes: ['hp'] });
  // 16 reserved handles per batch: some batches spawn more, so both paths (reserved handles and
  // handles given at the merge) are taken.
  scheduler.addSystem({ name: 'Breed', kernel: 'breed', reads: ['hp', 'position'], writes: [], after: ['Age'], spawnsPerBatch: 16 });
  scheduler.addSystem({ name: 'Unflag', kernel: 'unflag', reads: ['hp'], writes: [], query: { with: ['flag'] }, after: ['Age'] });
  scheduler.addSystem({ name: 'Mix', kernel: 'mix', reads: [], writes: ['mixed'] });
  scheduler.addSystem({ name: 'Tally', kernel: 'tally', reads: [], writes: ['tally'], query: { changed: ['mixed'] }, after: ['Mix'] });
  scheduler.addSystem({ name: 'Heal', kernel: 'heal', reads: ['mixed'], writes: ['hp'], query: { optional: ['mixed'] }, after: ['Age', 'Mix'] });
  if (pairs) {
    // Pairs from kernels (the world needs the Targets relation, as runKernelScenario defines it).
    scheduler.addSystem({ name: 'Adopt', kernel: 'adopt', reads: ['hp'], writes: [], after: ['Age'], spawnsPerBatch: 4 });
    scheduler.addSystem({ name: 'Orphan', kernel: 'orphan', reads: ['hp'], writes: [], after: ['Adopt'] });
  }
}

/** `count` entities with exact f32 values; every third has `mixed`, every fifth the flag. */
export function spawnScenario(world, count) {
  for (let i = 0; i < count; i++) {
    const components = {
      position: { x: i, y: 2 * i },
      velocity: { dx: 1 + (i % 3), dy: -1 },
      hp: { value: 10 + (i % 17), regen: 0 },
    };
    if (i % 3 === 0) components.mixed = { a: i & 255, b: i / 8 };
    if (i % 5 === 0) components.flag = true;
    world.spawn(components);
  }
}

/**
 * Loads the engine with the scenario kernels and runs `frames` frames on `workers` workers;
 * returns { variant, workers, hashes (one per frame), alive, diagnostics, placements }.
 * pairs: also the Adopt and Orphan kernels, which add and remove pairs (ChildOf, Targets).
 * placement ('inline', 'pool', 'shared'; threaded build, workers > 0): every wave is pinned
 * there (the test hook forcePlacement). placements: per frame, the placement the engine recorded
 * for each wave that had batches (lastFrame()). debug: load the debug modules.
 */
export async function runKernelScenario(loadEcsia, { threads, workers, frames, entities = 600, cpp = false, pairs = false, batchRows = 64, placement, debug = false }) {
  const diagnostics = [];
  const ecsia = await loadEcsia({ threads, kernels: KERNELS_URL, debug, onDiagnostic: (m) => diagnostics.push(m) });
  const world = ecsia.createWorld({ maxEntities: 1 << 18 });
  defineScenarioComponents(world);
  if (pairs) world.defineRelation('Targets', { since: 'i32' });
  const scheduler = world.createScheduler({ workers, batchRows });
  if (placement !== undefined) globalThis.ecsiaTest.forcePlacement(scheduler, placement);
  addScenarioSystems(scheduler, { cpp, pairs });
  spawnScenario(world, entities);
  const hashes = [];
  const placements = [];
  for (let f = 0; f < frames; f++) {
    await scheduler.update(1 / 8);
    hashes.push(world.stateHash());
    placements.push(scheduler.lastFrame().waves.filter((w) => w.batches > 0).map((w) => w.placement));
  }
  const out = {
    variant: ecsia.variant, workers: scheduler.workers, hashes, placements, alive: world.count(['hp']),
    withParent: world.count(['parent']), withMixed: world.count(['mixed']), plan: scheduler.plan(),
    children: pairs ? world.subjectsOf('ChildOf', '*').length : 0, targeting: pairs ? world.subjectsOf('Targets', '*').length : 0,
    diagnostics: diagnostics.filter((m) => !m.includes('threads are off')),
  };
  scheduler.dispose();
  world.dispose();
  return out;
}
