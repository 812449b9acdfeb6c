// The engine's own module (web/dist/ecsia_*, the package's) is the engine and nothing else: no
// registered systems, no components in a new world, no built-in workloads and no test hooks
// (those are the test module's, web/test/dist/ecsia_test). And loadEcsia starts only the Web
// Workers it will use: the threaded build's pool is not started whole when fewer are asked for.
import { expect, test } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, variants } from './support.js';

for (const { variant, server } of variants) {
  test(`${variant}: the engine's own module registers no systems or components and has no test hooks`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const { loadEngine, loadEcsia, internalsOf, builtinsOf, forcePlacement } = window.ecsiaTest;
      const attempt = (fn) => { try { fn(); return 'ok'; } catch (error) { return `${error.code ?? ''} ${error.message}`; } };
      const out = {};
      for (const debug of [false, true]) {
        const ecsia = await loadEngine({ debug, onDiagnostic: () => {} });
        const module = internalsOf(ecsia, 'engine').module;
        const world = ecsia.createWorld({ maxEntities: 16 });
        const scheduler = world.createScheduler();
        out[debug ? 'debug' : 'release'] = {
          systems: [...ecsia.systems],
          // A component the test module's worlds start with is unknown here until the page defines it.
          spawnPosition: attempt(() => world.spawn({ position: { x: 0, y: 0 } })),
          definePosition: attempt(() => world.defineComponent('position', { x: 'f32', y: 'f32' })),
          addMove: attempt(() => scheduler.addSystem('Move')),
          hooks: Object.keys(module).filter((name) => /^(builtin|test)[A-Z]/.test(name)).sort(),
          builtins: attempt(() => builtinsOf(ecsia)),
          forcePlacement: attempt(() => forcePlacement(scheduler, 'pool')),
        };
        scheduler.dispose();
        world.dispose();
      }
      // The test module, by contrast, has them: what the other specs rely on.
      const test = await loadEcsia({ onDiagnostic: () => {} });
      const testModule = internalsOf(test, 'engine').module;
      out.test = {
        systems: test.systems.length,
        hooks: ['builtinSetupScenario', 'builtinAddFaultSystem', 'testForcePlacement'].filter((name) => typeof testModule[name] === 'function'),
      };
      return out;
    });
    for (const mode of ['release', 'debug']) {
      const m = r[mode];
      expect(m.systems, mode).toEqual([]);
      expect(m.spawnPosition, mode).toContain("unknown component 'position' (defined: none)");
      expect(m.definePosition, mode).toBe('ok');
      expect(m.addMove, mode).toContain('UnknownSystem');
      expect(m.hooks, mode).toEqual([]);
      expect(m.builtins, mode).toContain('has no built-ins');
      expect(m.forcePlacement, mode).toContain('has no test hooks');
    }
    expect(r.test.systems).toBeGreaterThan(10);
    expect(r.test.hooks).toEqual(['builtinSetupScenario', 'builtinAddFaultSystem', 'testForcePlacement']);
    expectNoPageErrors(log);
  });
}

test('threaded: loadEcsia starts as many Web Workers as the engine uses, and says so', async ({ page }) => {
  // Count the pool's Web Workers as the page creates them (Emscripten's <name>_threaded.worker.js).
  await page.addInitScript(() => {
    const Native = globalThis.Worker;
    globalThis.poolWorkersCreated = 0;
    globalThis.Worker = class extends Native {
      constructor(url, options) {
        super(url, options);
        if (String(url).endsWith('.worker.js')) globalThis.poolWorkersCreated += 1;
      }
    };
  });
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const runs = [];
    for (const threads of ['auto', 1, 3, 8]) {
      const before = globalThis.poolWorkersCreated;
      const ecsia = await window.ecsiaTest.loadEngine({ threads });
      runs.push({ threads, workers: ecsia.workers, startedWorkers: ecsia.startedWorkers, created: globalThis.poolWorkersCreated - before });
      // A scheduler with every worker the engine has runs its waves on them.
      const world = ecsia.createWorld({ maxEntities: 16 });
      const scheduler = world.createScheduler();
      runs.at(-1).schedulerWorkers = scheduler.workers;
      await scheduler.update(1 / 60);
      scheduler.dispose();
      world.dispose();
    }
    return { runs, cores: navigator.hardwareConcurrency };
  });
  const auto = Math.min(Math.max(1, r.cores - 1), 8);
  expect(r.runs).toEqual([
    { threads: 'auto', workers: auto, startedWorkers: auto, created: auto, schedulerWorkers: auto },
    { threads: 1, workers: 1, startedWorkers: 1, created: 1, schedulerWorkers: 1 },
    { threads: 3, workers: 3, startedWorkers: 3, created: 3, schedulerWorkers: 3 },
    { threads: 8, workers: 8, startedWorkers: 8, created: 8, schedulerWorkers: 8 },
  ]);
  expectNoPageErrors(log);
});

test('single: no Web Worker is started and startedWorkers is 0', async ({ page }) => {
  const log = await openTestPage(page, servers.plain);
  const r = await page.evaluate(async () => {
    const ecsia = await window.ecsiaTest.loadEngine({ onDiagnostic: () => {} });
    return { variant: ecsia.variant, workers: ecsia.workers, startedWorkers: ecsia.startedWorkers };
  });
  expect(r).toEqual({ variant: 'single', workers: 0, startedWorkers: 0 });
  expectNoPageErrors(log);
});
