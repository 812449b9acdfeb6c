// examples/boids: a separate CMake project with its own browser module (ecsia_add_browser_module)
// and its own page. Its state hash after 60 frames must be the same at 0 and 2 workers, in the
// single build, and in the native program built from the same sources (scripts/lib/test_examples.sh
// builds both; this spec fails, never skips, when either is missing).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { expectNoPageErrors, servers, test } from './support.js';

const native = fileURLToPath(new URL('../build/plain/examples/boids/boids_native', import.meta.url));
const dist = fileURLToPath(new URL('../examples/boids/dist/', import.meta.url));
const run = { boids: 2000, frames: 60, seed: 7 };

function nativeHash(workers) {
  if (!existsSync(native)) throw new Error(`${native} is missing: build it with scripts/lib/test_examples.sh (scripts/test does)`);
  return execFileSync(native, ['--boids', String(run.boids), '--frames', String(run.frames), '--seed', String(run.seed),
    '--workers', String(workers)], { encoding: 'utf8' }).trim();
}

async function openExample(page, server) {
  const log = { errors: [] };
  page.on('pageerror', (error) => log.errors.push(String(error)));
  await page.goto(`${server}/examples/boids/index.html?test`);
  await page.waitForFunction(() => window.boidsExample?.ready === true);
  return log;
}

test('boids: the same hash natively, at 0 and 2 workers, and in the single build', async ({ page, browser }) => {
  for (const file of ['boids_threaded.mjs', 'boids_threaded.wasm', 'boids_threaded.worker.js', 'boids_single.mjs', 'boids_single.wasm']) {
    expect(existsSync(dist + file), `examples/boids/dist/${file} (built by scripts/lib/test_examples.sh)`).toBe(true);
  }
  const expected = nativeHash(0);
  expect(expected).toMatch(/^[0-9a-f]{16}$/);
  expect(nativeHash(2)).toBe(expected);

  const log = await openExample(page, servers.isolated);
  const serial = await page.evaluate((r) => window.boidsExample.simulate({ ...r, workers: 0 }), run);
  const threaded = await page.evaluate((r) => window.boidsExample.simulate({ ...r, threads: 2, workers: 2 }), run);
  expect(threaded.variant).toBe('threaded');
  expect(threaded.workers).toBe(2);
  expect(serial.workers).toBe(0);
  expect(threaded.boids).toBe(run.boids);
  // Only the example's systems: the engine's built-ins are not in a module of your own.
  expect(threaded.systems).toEqual(['BuildGrid', 'Flock', 'Integrate']);
  expect(threaded.plan).toEqual([['BuildGrid'], ['Flock'], ['Integrate']]);
  expect(serial.hash).toBe(expected);
  expect(threaded.hash).toBe(expected);
  expectNoPageErrors(log);

  const plainPage = await browser.newPage();
  const plainLog = await openExample(plainPage, servers.plain);
  const single = await plainPage.evaluate((r) => window.boidsExample.simulate(r), run);
  expect(single.variant).toBe('single');
  expect(single.hash).toBe(expected);
  expectNoPageErrors(plainLog);
  await plainPage.close();
});

test('boids: the page animates the flock from the module it built', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${servers.isolated}/examples/boids/index.html`);
  await expect(page.locator('#status')).toContainText('threaded build', { timeout: 30_000 });
  await expect(page.locator('#status')).toContainText('BuildGrid, Flock, Integrate');
  expect(errors).toEqual([]);
});

test('loadEcsia({ module }) rejects naming the URLs it tried when the module is not there', async ({ page }) => {
  await openExample(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { loadEcsia } = await import('/web/ecsia.js');
    const attempt = async (options) => {
      try { await loadEcsia({ onDiagnostic: () => {}, ...options }); return 'loaded'; } catch (e) { return e.message; }
    };
    return {
      missing: await attempt({ module: '/examples/boids/dist/nothing' }),
      missingUrl: await attempt({ module: new URL('/examples/nowhere/game', location.href) }),
      singleMissing: await attempt({ module: '/examples/boids/dist/nothing', threads: 0 }),
      file: await attempt({ module: '/examples/boids/dist/boids_threaded.mjs' }),
      notString: await attempt({ module: 42 }),
      relative: await attempt({ module: './dist/boids', threads: 0 }),  // resolved against the page
      duplicate: await attempt({ module: '/web/test/fixtures/broken_registry' }),
    };
  });
  const origin = servers.isolated;
  expect(r.missing).toContain(`${origin}/examples/boids/dist/nothing_threaded.mjs (HTTP 404)`);
  expect(r.missing).toContain(`${origin}/examples/boids/dist/nothing_threaded.wasm (HTTP 404)`);
  expect(r.missing).toContain(`${origin}/examples/boids/dist/nothing_threaded.worker.js (HTTP 404)`);
  expect(r.missingUrl).toContain(`${origin}/examples/nowhere/game_threaded.mjs`);
  expect(r.singleMissing).toContain(`${origin}/examples/boids/dist/nothing_single.mjs (HTTP 404)`);
  expect(r.singleMissing).toContain(`${origin}/examples/boids/dist/nothing_single.wasm (HTTP 404)`);
  expect(r.file).toContain("without '_threaded.mjs'");
  expect(r.notString).toContain('options.module must be a URL prefix');
  expect(r.relative).toBe('loaded');
  expect(r.duplicate).toContain('cannot start');
  expect(r.duplicate).toContain("system 'Twice' is registered twice");
});
