// The demo page: it loads without console errors, draws (from the scheduler's extract, while the
// next frame runs), shows the engine's time apart from update()'s, says which build runs and why,
// and the same seed gives the same hash at 0 and at 2 workers (and says so). A screenshot is kept.
import { expect, test } from '@playwright/test';
import { servers } from './support.js';

async function openDemo(page, server, query = '') {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize({ width: 1100, height: 700 });
  await page.goto(`${server}/web/demo/index.html${query}`);
  await page.waitForFunction(() => window.demo !== undefined && window.demo.frame > 2, null, { timeout: 30_000 });
  return errors;
}

test('the isolated demo runs threaded, draws, and replays to the same hash at 0 and 2 workers', async ({ page }, testInfo) => {
  const errors = await openDemo(page, servers.isolated, '?threads=2');
  const overlay = await page.evaluate(() => window.demo.overlay());
  expect(overlay.variant).toContain('threaded');
  expect(Number.parseInt(overlay.workers, 10)).toBe(2);
  expect(await page.evaluate(() => window.demo.litPixels())).toBeGreaterThan(5000);
  // The panel gives the engine's own time apart from update()'s wall time (which includes waiting
  // behind the page drawing the previous frame from the extract).
  await expect(page.locator('#s-engine')).toContainText(/^\d+\.\d\d ms \(page \d+\.\d\d \+ workers \d+\.\d\d\)$/);
  await expect(page.locator('#s-update')).toContainText(/^\d+\.\d\d ms \(waited \d+\.\d\d\)$/);
  const timing = await page.evaluate(() => window.demo.timing());
  expect(timing.engineMs).toBeGreaterThan(0);
  expect(timing.updateMs).toBeGreaterThan(0);
  // Move is a JS kernel on the workers, and the panel says so.
  await expect(page.locator('#plan')).toContainText('Move (JS kernel)');
  await expect(page.locator('#panel')).toContainText('Move is a JS kernel');
  // The orbiting bodies: a ChildOf hierarchy that the cascade system Place puts where their
  // parents and orbits say, in the same frame.
  await expect(page.locator('#plan')).toContainText('Place (JS kernel, cascade)');
  const bodies = await page.evaluate(async () => { await window.demo.step(2); return window.demo.bodiesPlaced(); });
  expect(bodies.total).toBeGreaterThan(10);
  expect(bodies.placed).toBe(bodies.total);
  expect(bodies.panel).toBe(`${bodies.total} bodies, depth 3`);

  const hashes = await page.evaluate(async () => {
    const out = {};
    for (const workers of [0, 2]) {
      await window.demo.reset({ seed: 7, entities: 20000, workers });
      out[workers] = await window.demo.step(30);
      out[`events${workers}`] = window.demo.events();
    }
    return { ...out, overlay: window.demo.overlay() };
  });
  expect(hashes[0]).toMatch(/^[0-9a-f]{16}$/);
  expect(hashes[2]).toBe(hashes[0]);
  // Move's 'crossed' messages (a topic, published on the workers) counted by the page's Events
  // system: the same at both worker counts, and shown in the panel.
  expect(hashes.events0.total).toBeGreaterThan(0);
  expect(hashes.events2).toEqual(hashes.events0);
  expect(hashes.events2.panel).toContain(`${hashes.events2.total.toLocaleString('en')} in all`);
  expect(hashes.overlay.determinism).toContain('same hash as with 0 worker(s)');
  await page.screenshot({ path: testInfo.outputPath('demo-threaded.png') });
  await testInfo.attach('demo-threaded', { path: testInfo.outputPath('demo-threaded.png'), contentType: 'image/png' });
  expect(errors).toEqual([]);
});

test('changing the worker count while a frame is in flight waits for the frame, then resets', async ({ page }) => {
  const errors = await openDemo(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const select = document.getElementById('c-workers');
    const seen = [];
    for (const workers of ['0', '1', '0']) {
      // From inside a frame (its main-thread Input system): the scheduler that frame runs on is
      // the one a reset disposes, and the world cannot be disposed from inside its own callback.
      const inFlight = await new Promise((resolve) => window.demo.duringNextFrame(() => {
        const running = window.demo.running;
        select.value = workers;
        select.dispatchEvent(new Event('change'));
        resolve(running);
      }));
      // The reset happens after that frame; then the loop runs frames again.
      const before = performance.now();
      while (!(window.demo.workers === Number(workers) && window.demo.frame >= 3) && performance.now() - before < 20_000) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      seen.push({ inFlight, workers: window.demo.workers, frame: window.demo.frame });
    }
    return seen;
  });
  for (const [i, workers] of [0, 1, 0].entries()) {
    expect(r[i].inFlight).toBe(true);
    expect(r[i].workers).toBe(workers);
    expect(r[i].frame).toBeGreaterThanOrEqual(3);  // the loop lives on after the reset
  }
  expect(errors).toEqual([]);
});

test('without isolation the demo runs the single build and shows why', async ({ page }, testInfo) => {
  const errors = await openDemo(page, servers.plain);
  const overlay = await page.evaluate(() => window.demo.overlay());
  expect(overlay.variant).toContain('single-threaded');
  expect(overlay.variant).toContain('Cross-Origin-Embedder-Policy');
  expect(await page.evaluate(() => window.demo.litPixels())).toBeGreaterThan(5000);
  await page.screenshot({ path: testInfo.outputPath('demo-single.png') });
  await testInfo.attach('demo-single', { path: testInfo.outputPath('demo-single.png'), contentType: 'image/png' });
  expect(errors).toEqual([]);
});

test('the demo\'s devtools button opens the panel over the running world; a reset keeps it open over the new one', async ({ page }) => {
  const errors = await openDemo(page, servers.isolated, '?threads=2');
  await page.locator('#c-devtools').click();
  const tools = page.locator('[data-role="devtools"]');
  await expect(tools).toBeVisible();
  // The galaxy's 100,000 particles and its suns, planets and moons.
  await expect.poll(async () => Number((await tools.locator('[data-stat="entities"]').textContent()).replace(/,/g, ''))).toBeGreaterThanOrEqual(100_000);
  await tools.locator('[data-tab="plan"]').click();
  await expect(tools.locator('[data-system="Move"]')).toContainText("JS kernel 'move'");
  await expect(tools.locator('[data-system="Attract"]')).toContainText('C++ kernel');
  await tools.locator('[data-tab="timeline"]').click();
  await expect(tools.locator('.lane')).toHaveCount(3);
  await expect(tools.locator('.bar.batch[data-system="Attract"]').first()).toBeAttached();
  await page.locator('#c-reset').click();
  await expect.poll(() => page.locator('.ecsia-devtools').count()).toBe(1);
  await expect(page.locator('[data-role="devtools"]')).toBeVisible();
  await page.locator('#c-devtools').click();
  await expect(page.locator('.ecsia-devtools')).toHaveCount(0);
  expect(errors).toEqual([]);
});
