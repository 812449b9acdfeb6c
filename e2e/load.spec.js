// Loading: the isolated page gets the threaded build silently; the page without COOP/COEP gets
// the single build and exactly one warning that names both headers.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test, warningsOf } from './support.js';

const COOP = 'Cross-Origin-Opener-Policy: same-origin';
const COEP = 'Cross-Origin-Embedder-Policy: require-corp';

test('the isolated page loads the threaded build with workers and no warning', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const result = await page.evaluate(async () => {
    const ecsia = await window.ecsiaTest.loadEcsia();
    return {
      isolated: globalThis.crossOriginIsolated,
      sharedArrayBuffer: typeof SharedArrayBuffer,
      variant: ecsia.variant,
      workers: ecsia.workers,
      maxWorkers: ecsia.maxWorkers,
      cores: navigator.hardwareConcurrency,
      heapShared: (() => {
        const world = ecsia.createWorld();
        world.spawn({ position: { x: 0, y: 0 } });
        const shared = world.chunks(['position'])[0].columns.position.buffer instanceof SharedArrayBuffer;
        world.dispose();
        return shared;
      })(),
    };
  });
  expect(result).toMatchObject({ isolated: true, sharedArrayBuffer: 'function', variant: 'threaded', heapShared: true });
  // threads: 'auto' leaves the page's thread a core of its own: cores - 1 workers, at least 1.
  expect(result.workers).toBe(Math.min(Math.max(1, result.cores - 1), result.maxWorkers));
  expect(result.workers).toBeGreaterThanOrEqual(1);
  expect(warningsOf(log)).toEqual([]);
  expectNoPageErrors(log);
});

test('the page without COOP/COEP falls back to the single build with exactly one warning', async ({ page }) => {
  const log = await openTestPage(page, servers.plain);
  const result = await page.evaluate(async () => {
    const ecsia = await window.ecsiaTest.loadEcsia();
    return {
      isolated: globalThis.crossOriginIsolated,
      sharedArrayBuffer: typeof SharedArrayBuffer,
      variant: ecsia.variant,
      workers: ecsia.workers,
    };
  });
  expect(result).toEqual({ isolated: false, sharedArrayBuffer: 'undefined', variant: 'single', workers: 0 });
  const warnings = warningsOf(log);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('threads are off');
  expect(warnings[0]).toContain('not cross-origin isolated');
  expect(warnings[0]).toContain(COOP);
  expect(warnings[0]).toContain(COEP);
  expectNoPageErrors(log);
});

test('onDiagnostic receives the fallback warning instead of console.warn', async ({ page }) => {
  const log = await openTestPage(page, servers.plain);
  const diagnostics = await page.evaluate(async () => {
    const seen = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: (message) => seen.push(message) });
    ecsia.createWorld().dispose();
    return seen;
  });
  expect(diagnostics).toHaveLength(1);
  expect(diagnostics[0]).toContain(COOP);
  expect(diagnostics[0]).toContain(COEP);
  expect(warningsOf(log)).toEqual([]);
  expectNoPageErrors(log);
});

test('threads: 0 on the isolated page loads the single build and says why, once', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const result = await page.evaluate(async () => {
    const seen = [];
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 0, onDiagnostic: (message) => seen.push(message) });
    return { variant: ecsia.variant, workers: ecsia.workers, seen };
  });
  expect(result.variant).toBe('single');
  expect(result.workers).toBe(0);
  expect(result.seen).toHaveLength(1);
  expect(result.seen[0]).toContain('options.threads is 0');
  expectNoPageErrors(log);
});

test('bad loader options throw an Error naming the option', async ({ page }) => {
  await openTestPage(page, servers.isolated);
  const messages = await page.evaluate(async () => {
    const out = [];
    for (const options of [{ threads: -1 }, { threads: 'many' }, { onDiagnostic: 'yes' }]) {
      try {
        await window.ecsiaTest.loadEcsia(options);
        out.push('no error');
      } catch (error) {
        out.push(error instanceof Error ? error.message : `not an Error: ${error}`);
      }
    }
    return out;
  });
  expect(messages[0]).toContain('options.threads');
  expect(messages[1]).toContain('options.threads');
  expect(messages[2]).toContain('options.onDiagnostic');
});

test('the servers send COOP/COEP only when isolated, and the wasm MIME type', async ({ request }) => {
  const isolated = await request.get(`${servers.isolated}/web/dist/ecsia_threaded.wasm`);
  expect(isolated.status()).toBe(200);
  expect(isolated.headers()['content-type']).toBe('application/wasm');
  expect(isolated.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(isolated.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  const plain = await request.get(`${servers.plain}/web/ecsia.js`);
  expect(plain.headers()['content-type']).toContain('text/javascript');
  expect(plain.headers()['cross-origin-opener-policy']).toBeUndefined();
  expect(plain.headers()['cross-origin-embedder-policy']).toBeUndefined();
  expect((await request.get(`${servers.plain}/web/..%2f..%2f..%2fetc%2fpasswd`)).status()).toBe(403);
});
