#!/usr/bin/env node
// Measures the three.js example (examples/three): serves its build (examples/three/dist, from
// `npm run build` there) with COOP/COEP (scripts/serve.mjs), opens it in headless Debian Chromium
// through Playwright with bench/chromium.mjs (so WebGL runs on SwiftShader), lets it warm
// up, then prints the frame time split over the measured seconds as JSON, then a one-line summary.
//   node bench/three.mjs [--seconds N] [--warmup N]
// What each phase measures: the top of examples/three/src/main.js and examples/three/README.md.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'examples/three/dist');

function parseArgs(argv) {
  const options = { seconds: 10, warmup: 3 };
  for (let i = 0; i < argv.length; i += 2) {
    const name = /^--(\w+)$/.exec(argv[i])?.[1] ?? '';
    const value = Number(argv[i + 1]);
    if (!Object.hasOwn(options, name) || !(value >= 0)) {
      throw new Error(`bench/three.mjs: bad arguments '${argv.slice(i, i + 2).join(' ')}' (--seconds N, --warmup N)`);
    }
    options[name] = value;
  }
  return options;
}

// scripts/serve.mjs on a port of the kernel's choosing: resolves to its URL once it listens.
function serve(dir) {
  const server = spawn(process.execPath, [path.join(root, 'scripts/serve.mjs'), dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    server.stdout.on('data', (data) => {
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(data)?.[0];
      if (url) resolve({ url, stop: () => server.kill() });
    });
    server.once('exit', (code) => reject(new Error(`bench/three.mjs: scripts/serve.mjs exited with ${code}`)));
  });
}

// The page's numbers now (evaluate() returns a copy).
const sample = (page) => page.evaluate(() => ({ at: performance.now(), ...window.threeExample }));

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error('bench/three.mjs: no examples/three/dist: build it (examples/three/README.md: npm run build)');
  }
  const server = await serve(dist);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(server.url);
    await page.waitForFunction(() => window.threeExample?.frames >= 1 || window.threeExample?.error, null, { timeout: 60_000 });
    await page.waitForTimeout(options.warmup * 1000);
    const before = await sample(page);
    await page.waitForTimeout(options.seconds * 1000);
    const after = await sample(page);
    if (after.error || errors.length > 0) throw new Error(`bench/three.mjs: the page failed: ${after.error ?? errors.join('; ')}`);
    const frames = after.frames - before.frames;
    if (frames === 0) throw new Error('bench/three.mjs: no frame in the measured seconds');
    const split = Object.fromEntries(Object.keys(after.totals).map((phase) => [phase, (after.totals[phase] - before.totals[phase]) / frames]));
    const gpu = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      return gl.getParameter(gl.getExtension('WEBGL_debug_renderer_info')?.UNMASKED_RENDERER_WEBGL ?? gl.RENDERER);
    });
    const result = {
      browser: `chromium ${browser.version()}`, gpu, variant: after.variant, workers: after.workers, isolated: after.isolated,
      instances: after.instances, placement: after.placement, frames, seconds: (after.at - before.at) / 1000,
      fps: (frames * 1000) / (after.at - before.at), msPerFrame: split,
    };
    console.log(JSON.stringify(result, null, 2));
    const ms = Object.entries(split).map(([phase, value]) => `${phase} ${value.toFixed(2)}`).join(' + ');
    console.log(`three.js example, ${result.instances.toLocaleString('en')} instances, ${result.variant} build, ${result.workers} worker(s): ` +
      `${ms} ms/frame, ${result.fps.toFixed(2)} fps (${frames} frames in ${result.seconds.toFixed(1)} s; batches ${result.placement})`);
  } finally {
    await browser.close();
    server.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
