// Prefabs in the JS API, on both builds: definePrefab (with extends), instantiate and
// instantiateMany (overrides keep the prefab's values in the fields not given), the IsA pair,
// queries that skip prefabs unless asked, bad input refused with the world unchanged (G5),
// snapshots that carry prefab names; and JS kernels instantiating through commands.instantiate,
// hashing the same at every worker count and in both builds (G1).
import { expect } from '@playwright/test';
import { acrossExecutors, expectNoPageErrors, openTestPage, servers, test, variants } from './support.js';

for (const { variant, server } of variants) {
  test.describe(`${variant} build`, () => {
    test('define, extend, instantiate, instantiateMany; queries skip prefabs unless asked', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const world = ecsia.createWorld({ maxEntities: 1000 });
        world.defineComponent('health', { hp: 'i32', regen: 'f32' });
        world.defineComponent('speed', { v: 'f32' });
        world.defineComponent('position', { x: 'f32', y: 'f32' });
        world.defineComponent('boss', {});
        const orc = world.definePrefab('orc', { health: { hp: 30, regen: 0.5 }, speed: { v: 2 } });
        const boss = world.definePrefab('orcBoss', { health: { hp: 300 }, boss: true }, { extends: orc });
        const out = { names: [world.prefab('orc') === orc, world.prefab('orcBoss') === boss] };
        out.bossValues = [world.get(boss, 'health'), world.get(boss, 'speed'), world.has(boss, 'boss'), world.targetOf(boss, 'IsA') === orc];
        const e = world.instantiate(boss, { position: { x: 1, y: 2 }, speed: {} });
        out.instance = [world.get(e, 'health'), world.get(e, 'speed'), world.get(e, 'position'), world.has(e, 'boss'),
          world.targetsOf(e, 'IsA').length === 1 && world.targetOf(e, 'IsA') === boss];
        const many = world.instantiateMany(orc, 5, { position: { x: new Float32Array([0, 1, 2, 3, 4]), y: 7 }, health: { hp: [1, 2, 3, 4, 5] } });
        out.many = Array.from(many, (h) => [world.get(h, 'health').hp, world.get(h, 'health').regen, world.get(h, 'position').x, world.get(h, 'position').y]);
        // Queries and counts see the 6 instances, not the 2 prefabs, unless asked.
        out.counts = [world.query({ with: ['health'] }).count(), world.query({ with: ['health'], prefabs: true }).count(), world.count(['health'])];
        // Changing a prefab later changes no instance.
        world.set(orc, 'speed', { v: 99 });
        out.afterChange = [world.get(many[0], 'speed').v, world.get(world.instantiate(orc), 'speed').v];
        world.dispose();
        return out;
      });
      expect(r.names).toEqual([true, true]);
      expect(r.bossValues).toEqual([{ hp: 300, regen: 0.5 }, { v: 2 }, true, true]);
      expect(r.instance).toEqual([{ hp: 300, regen: 0.5 }, { v: 2 }, { x: 1, y: 2 }, true, true]);
      expect(r.many).toEqual([[1, 0.5, 0, 7], [2, 0.5, 1, 7], [3, 0.5, 2, 7], [4, 0.5, 3, 7], [5, 0.5, 4, 7]]);
      expect(r.counts).toEqual([6, 8, 6]);
      expect(r.afterChange).toEqual([2, 99]);
      expectNoPageErrors(log);
    });

    test('bad prefab input is refused with the engine\'s error and the world unchanged; snapshots keep prefab names', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
        const define = (w) => {
          w.defineComponent('health', { hp: 'i32', regen: 'f32' });
          w.defineComponent('position', { x: 'f32', y: 'f32' });
        };
        const world = ecsia.createWorld({ maxEntities: 64 });
        define(world);
        const orc = world.definePrefab('orc', { health: { hp: 30 } });
        const plain = world.spawn({ health: { hp: 1 } });
        const gone = world.definePrefab('ghost');
        world.despawn(gone);
        const cases = {
          duplicate: () => world.definePrefab('orc'),
          emptyName: () => world.definePrefab(''),
          unknownName: () => world.prefab('troll'),
          notAPrefab: () => world.instantiate(plain),
          deadPrefab: () => world.instantiate(gone),
          extendsNotAPrefab: () => world.definePrefab('x', {}, { extends: plain }),
          badOption: () => world.definePrefab('y', {}, { extend: orc }),
          badField: () => world.instantiate(orc, { health: { hpp: 2 } }),
          badValue: () => world.instantiate(orc, { health: { hp: 'many' } }),
          tooMany: () => world.instantiateMany(orc, 100),
          // All or nothing: one bad value, or an array of the wrong length, and no instance is made.
          manyBadValue: () => world.instantiateMany(orc, 3, { health: { hp: [1, 2.5, 3] } }),
          manyShortArray: () => world.instantiateMany(orc, 3, { health: { hp: [1, 2] } }),
          prefabAsComponent: () => world.add(plain, 'Prefab'),
          badQueryFlag: () => world.query({ with: ['health'], prefabs: 'yes' }),
        };
        const hash = world.stateHash();
        const out = {};
        for (const [label, call] of Object.entries(cases)) {
          try { call(); out[label] = 'no error'; } catch (e) { out[label] = `${e.code ?? '-'}: ${e.message}`; }
        }
        out.unchanged = world.stateHash() === hash;
        out.alive = world.count(['health']);
        const bytes = world.snapshot();
        const copy = ecsia.createWorld({ maxEntities: 64 });
        define(copy);
        copy.restore(bytes);
        out.restored = [copy.prefab('orc') === orc, copy.stateHash() === hash, copy.get(copy.instantiate(orc), 'health').hp];
        world.dispose();
        copy.dispose();
        return out;
      });
      expect(r.duplicate).toMatch(/^BadDefinition: .*'orc'/);
      expect(r.emptyName).toMatch(/name must be a non-empty string/);
      expect(r.unknownName).toMatch(/^UnknownComponent: .*'troll'.*orc/);
      expect(r.notAPrefab).toMatch(/^BadValue: world\.instantiate: .*not a prefab/);
      expect(r.deadPrefab).toMatch(/^StaleEntity: world\.instantiate: /);
      expect(r.extendsNotAPrefab).toMatch(/^BadValue: .*not a prefab/);
      expect(r.badOption).toMatch(/unknown option 'extend' \(known: extends\)/);
      expect(r.badField).toMatch(/'health' has no field 'hpp'/);
      expect(r.badValue).toMatch(/'health\.hp' is i32/);
      expect(r.tooMany).toMatch(/^CapacityExceeded: /);
      expect(r.manyBadValue).toMatch(/'health\.hp' is i32 and takes a whole number/);
      expect(r.manyShortArray).toMatch(/'health\.hp'.*3/);
      expect(r.prefabAsComponent).toMatch(/^BadValue: .*define_?[pP]refab/);
      expect(r.badQueryFlag).toMatch(/prefabs must be true or false/);
      expect(r.unchanged).toBe(true);
      expect(r.alive).toBe(1);
      expect(r.restored).toEqual([true, true, 30]);
      expectNoPageErrors(log);
    });
  });
}

test('a JS kernel system skips prefab entities unless its query asks for them (prefabs: true)', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { HIERARCHY_KERNELS_URL } = await import('/web/test/hierarchy_scenario.js');
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, kernels: HIERARCHY_KERNELS_URL, onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 1000 });
    world.defineComponent('mark', { v: 'u32' });
    const orc = world.definePrefab('orc', { mark: {} });
    const instances = world.instantiateMany(orc, 100);
    const scheduler = world.createScheduler({ workers: 2 });
    window.ecsiaTest.forcePlacement(scheduler, 'pool');  // on the workers
    scheduler.addSystem({ name: 'Plain', kernel: 'mark', reads: [], writes: ['mark'] });
    scheduler.addSystem({ name: 'WithPrefabs', kernel: 'mark', reads: [], writes: ['mark'], after: ['Plain'], query: { with: ['mark'], prefabs: true } });
    await scheduler.update(1 / 60);
    const out = { prefab: world.get(orc, 'mark').v, instances: [...new Set(Array.from(instances, (e) => world.get(e, 'mark').v))], jobs: scheduler.lastFrame().jobs.reduce((a, b) => a + b, 0) };
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.prefab).toBe(1);          // WithPrefabs only
  expect(r.instances).toEqual([2]);  // both
  expect(r.jobs).toBeGreaterThan(0);
  expectNoPageErrors(log);
});

// JS kernels instantiating prefabs (commands.instantiate, the instance then a pair's subject),
// frame by frame the same hash for the serial executor, 1, 2 and 4 workers and the single build.
async function spawning(page, { threads, workers, frames }) {
  return page.evaluate(async ({ threads, workers, frames }) => {
    const { HIERARCHY_KERNELS_URL } = await import('/web/test/hierarchy_scenario.js');
    const diagnostics = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ threads, kernels: HIERARCHY_KERNELS_URL, onDiagnostic: (m) => diagnostics.push(m) });
    const world = ecsia.createWorld({ maxEntities: 1 << 14 });
    world.defineComponent('health', { hp: 'i32', regen: 'f32' });
    world.defineComponent('position', { x: 'f32', y: 'f32' });
    world.defineComponent('spawner', { prefab: 'u32', every: 'u32', n: 'u32' });  // all u32: a Uint32Array view
    const orc = world.definePrefab('orc', { health: { hp: 30, regen: 0.25 } });
    const boss = world.definePrefab('orcBoss', { health: { hp: 300 } }, { extends: orc });
    for (let i = 0; i < 300; i++) world.spawn({ spawner: { prefab: i % 3 === 0 ? boss : orc, every: 2 + (i % 5), n: 0 } });
    const scheduler = world.createScheduler({ workers, batchRows: 32 });
    scheduler.addSystem({ name: 'Spawn', kernel: 'spawnFromPrefab', reads: [], writes: ['spawner'], spawnsPerBatch: 2 });
    const hashes = [];
    for (let f = 0; f < frames; f++) {
      await scheduler.update(1 / 60);
      hashes.push(world.stateHash());
    }
    // Every instance: its prefab's regen, the hp override, IsA to its prefab, a spawner parent.
    let wrong = 0;
    let instances = 0;
    for (const chunk of world.query({ with: ['health', 'position'] }).chunks()) {
      for (let i = 0; i < chunk.count; i++) {
        const e = chunk.entities[i];
        instances += 1;
        const [prefab] = world.targetsOf(e, 'IsA');
        const parent = world.targetOf(e, 'ChildOf');
        if ((prefab !== orc && prefab !== boss) || world.get(e, 'health').regen !== 0.25 || parent === null ||
          world.get(e, 'health').hp % world.get(parent, 'spawner').every !== 0) wrong += 1;
      }
    }
    const out = { variant: ecsia.variant, hashes, wrong, instances, diagnostics: diagnostics.filter((m) => !m.includes('threads are off')) };
    scheduler.dispose();
    world.dispose();
    return out;
  }, { threads, workers, frames });
}

test('JS kernels instantiate prefabs the same at every worker count and build', async ({ page, browser }) => {
  const { serial } = await acrossExecutors(page, browser, spawning, { frames: 10 }, (r, s, label) => expect(r.wrong, label).toBe(0));
  expect(serial.instances).toBeGreaterThan(500);
  expect(serial.wrong).toBe(0);
  expect(serial.diagnostics.filter((m) => !m.includes("exceeded their batch's reservation"))).toEqual([]);
});
