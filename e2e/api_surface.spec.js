// The public JS objects (extracts and their frames, and queries with pair terms, too) keep the Embind plumbing private: no `module`, `raw` or `heapState`, and
// no property (own, inherited or a getter's value) that is a raw Embind object or the wasm module.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, test, variants } from './support.js';

for (const { variant, server } of variants) {
  test(`${variant} build: Ecsia, World, Scheduler and Chunk expose no raw module, world or heap`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 100 });
      world.spawn({ position: { x: 1, y: 2 } });
      const scheduler = world.createScheduler({ systems: ['Move'], workers: 0 });
      const [chunk] = world.chunks(['position']);
      const extract = scheduler.extract({ components: ['position'] });
      const extracted = extract.latest();
      // The relations: a pair query is scanned like the rest, and the pair calls are the World's.
      world.defineRelation('Targets', { since: 'u32' });
      const pairQuery = world.query({ with: ['position'], pairs: [['ChildOf', '*']], withoutPairs: [['Targets', '*']] });
      const relationCalls = ['defineRelation', 'addPair', 'setPair', 'getPair', 'hasPair', 'removePair', 'targetOf', 'targetsOf', 'subjectsOf']
        .filter((name) => typeof world[name] !== 'function');
      const looksRaw = (v) => v !== null && (typeof v === 'object' || typeof v === 'function') &&
        ('$$' in v || 'HEAPU8' in v || '_malloc' in v || 'stackSave' in v);
      const found = [];
      for (const [label, object] of Object.entries({ ecsia, world, scheduler, chunk, extract, extracted, pairQuery })) {
        for (let o = object; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
          for (const key of Reflect.ownKeys(o)) {
            if (['module', 'raw', 'heapState', '_raw', '_module'].includes(String(key))) found.push(`${label}.${String(key)}`);
            let value;
            try { value = object[key]; } catch { continue; }
            if (looksRaw(value)) found.push(`${label}.${String(key)} is raw`);
          }
        }
      }
      scheduler.dispose();
      world.dispose();
      return { found, relationCalls, internalsReachable: typeof window.ecsiaTest.internalsOf(ecsia).module.World === 'function' };
    });
    expect(r.found).toEqual([]);
    expect(r.relationCalls).toEqual([]);  // every relation call of the API is there
    expect(r.internalsReachable).toBe(true);  // the internal module still reaches it
    expectNoPageErrors(log);
  });
}
