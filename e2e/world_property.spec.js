// The JS World API against a small JS model (web/test/world_property.js): random sequences of
// valid and invalid calls, compared after every call (return values, alive set, values, counts,
// errors, and that a rejected call changed nothing). Several seeds, both builds.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, test, variants } from './support.js';

for (const { variant, server } of variants) {
  test(`${variant} build: random valid and invalid calls agree with the model after every call`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const results = await page.evaluate(async () => {
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
      const out = [];
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const world = ecsia.createWorld({ maxEntities: 1000 });
        out.push({ seed, variant: ecsia.variant, ...window.ecsiaTest.runProperty(world, seed, 400) });
        world.dispose();
      }
      return out;
    });
    for (const r of results) {
      expect(r.variant).toBe(variant);
      expect(r.mismatches, `seed ${r.seed}`).toEqual([]);
      expect(r.accepted + r.rejected).toBe(400);
      expect(r.rejected).toBeGreaterThan(40);  // the invalid calls are really exercised
      expect(r.accepted).toBeGreaterThan(150);
    }
    expectNoPageErrors(log);
  });
}
