// examples/three, the three.js recipe, as its users build it: three.js and Vite from the example's
// lock file and ecsia-wasm from the packed tarball (scripts/lib/test_three.sh, run by scripts/test
// before Playwright), then `vite build` here, the build served with COOP/COEP and opened in
// Chromium. WebGL2 runs on SwiftShader there (playwright.config.js passes --disable-gpu; no other
// flag is needed), which draws instances one by one: 50,000 take 0.5 to 1 s a frame, hence the
// few frames below.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { servers, test } from './support.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const example = path.join(root, 'examples/three');
const PREPARE = 'scripts/pack, then bash -c "source scripts/lib/test_three.sh && prepare_three_example"';
const FRAMES = 5;
const BACKGROUND = [5, 6, 10];  // main.js's BACKGROUND, 0x05060a

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

// The example must hold the package scripts/pack staged last (build/npm/package), or this would
// test something else than what users install.
function expectPrepared() {
  const installed = path.join(example, 'node_modules/ecsia-wasm');
  const hint = `examples/three is not prepared from the current package: run ${PREPARE}`;
  for (const dependency of ['ecsia-wasm', 'three', 'vite']) {
    expect(existsSync(path.join(example, 'node_modules', dependency, 'package.json')), `${hint} (no ${dependency})`).toBe(true);
  }
  const wasm = 'dist/ecsia_threaded.wasm';
  expect(sha256(path.join(installed, wasm)), `${hint} (its ${wasm} is not the packed one)`)
    .toBe(sha256(path.join(root, 'build/npm/package', wasm)));
}

// Decodes two PNG screenshots (base64) in the page: how many pixels of each are not the background,
// and how many differ between the two.
function comparePixels(page, first, second) {
  return page.evaluate(async ([a, b, background]) => {
    const decode = async (base64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
      const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      context.drawImage(bitmap, 0, 0);
      return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
    };
    const [pixelsA, pixelsB] = await Promise.all([decode(a), decode(b)]);
    const far = (p, i, r, g, b) => Math.abs(p[i] - r) + Math.abs(p[i + 1] - g) + Math.abs(p[i + 2] - b) > 48;
    const [red, green, blue] = background;
    const result = { lit: [0, 0], changed: 0 };
    for (let i = 0; i < pixelsA.length; i += 4) {
      if (far(pixelsA, i, red, green, blue)) result.lit[0] += 1;
      if (far(pixelsB, i, red, green, blue)) result.lit[1] += 1;
      if (far(pixelsA, i, pixelsB[i], pixelsB[i + 1], pixelsB[i + 2])) result.changed += 1;
    }
    return result;
  }, [first, second, BACKGROUND]);
}

test('examples/three: vite build, threaded, 50,000 instances drawn from the extract and moving, the frame time split', async ({ page }) => {
  expectPrepared();
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { cwd: example, stdio: 'pipe' });

  const errors = [];
  const warnings = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  // SwiftShader's "GPU stall due to ReadPixels" notes come from the page's wait for the GPU.
  page.on('console', (m) => { if (m.type() === 'warning' && !m.text().includes('GL Driver Message')) warnings.push(m.text()); });
  await page.goto(`${servers.isolated}/examples/three/dist/`);
  await page.waitForFunction(() => window.threeExample?.frames >= 1 || window.threeExample?.error, null, { timeout: 30_000 });
  // The canvas below the overlay (whose numbers change every frame), straight from the compositor:
  // Playwright's own screenshot takes a few more round trips to the page, each waiting for a frame.
  const cdp = await page.context().newCDPSession(page);
  const { width, height } = page.viewportSize();
  const clip = { x: 0, y: 100, width, height: height - 100, scale: 1 };
  const screenshot = async () => (await cdp.send('Page.captureScreenshot', { clip })).data;
  const first = await screenshot();
  const firstFrame = await page.evaluate(() => window.threeExample.frames);
  await page.waitForFunction((n) => window.threeExample.frames >= n || window.threeExample.error, Math.max(FRAMES, firstFrame + 2), { timeout: 40_000 });
  const second = await screenshot();
  await cdp.detach();
  const stats = await page.evaluate(() => window.threeExample);
  await test.info().attach('three', { body: Buffer.from(second, 'base64'), contentType: 'image/png' });

  expect(stats.error).toBeUndefined();
  expect(stats).toMatchObject({ isolated: true, variant: 'threaded', instances: 50_000 });
  expect(stats.workers).toBeGreaterThan(0);
  expect(stats.workerJobs, 'kernel batches run on the workers').toBeGreaterThan(0);
  expect(stats.frames).toBeGreaterThanOrEqual(FRAMES);
  for (const [phase, ms] of Object.entries(stats.split)) {
    expect(Number.isFinite(ms) && ms > 0, `${phase}: ${ms} ms`).toBe(true);
  }
  expect(Number.isFinite(stats.fps) && stats.fps > 0, `fps ${stats.fps}`).toBe(true);
  // Compared on a blank page: the example's page spends its main thread drawing (about a second a
  // frame in SwiftShader), and an evaluate there waits behind the frames (19 s of the test's 45).
  await page.goto('about:blank');
  const pixels = await comparePixels(page, first, second);
  for (const lit of pixels.lit) expect(lit, 'pixels drawn over the background').toBeGreaterThan(20_000);
  expect(pixels.changed, `pixels changed from frame ${firstFrame} to a later one`).toBeGreaterThan(5_000);
  expect(errors).toEqual([]);
  expect(warnings).toEqual([]);

  const ms = Object.entries(stats.split).map(([phase, value]) => `${phase} ${value.toFixed(2)}`).join(', ');
  const line = `${stats.frames} frames, ${stats.workers} worker(s), ${stats.placement}; ms/frame: ${ms}; ${stats.fps.toFixed(2)} fps; ` +
    `${pixels.lit.join(' and ')} lit pixels, ${pixels.changed} changed`;
  console.log(line);
  test.info().annotations.push({ type: 'three.js split', description: line });
});

test('README.md and npm/README.md show the recipe\'s heart as examples/three/src/main.js has it', () => {
  const source = readFileSync(path.join(example, 'src/main.js'), 'utf8');
  for (const file of ['README.md', 'npm/README.md']) {
    const blocks = [...readFileSync(path.join(root, file), 'utf8').matchAll(/```javascript\n([\s\S]*?)```/g)].map((m) => m[1]);
    const shown = blocks.filter((block) => block.includes('instancePosition'));
    expect(shown.length, `${file} shows the three.js recipe`).toBe(1);
    expect(source.includes(shown[0]), `${file}'s three.js block is an excerpt of examples/three/src/main.js as it is`).toBe(true);
  }
});
