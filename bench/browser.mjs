#!/usr/bin/env node
// Runs the browser half of the benchmarks: serves the repository with COOP/COEP (scripts/serve.mjs),
// opens web/bench/index.html in headless Debian Chromium through Playwright (never a downloaded
// browser), runs each workload in the page and writes the results as JSON.
//   node bench/browser.mjs --out FILE [--workloads move,tracked,heavy,fence,churn,kernels,jsapi,snapshot,executor,calls,iteration,hierarchy,rollback,snapshotChurn,topics,devtools] [--quick]
// --quick: fewer repetitions and frames (a smoke run, not figures to report).
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { freePort } from '../scripts/lib/free_port.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ALL = ['move', 'tracked', 'heavy', 'fence', 'churn', 'kernels', 'jsapi', 'snapshot', 'executor', 'calls', 'iteration', 'hierarchy', 'rollback', 'snapshotChurn', 'topics', 'devtools'];
const QUICK = {
  move: { repetitions: 3, sizes: [50_000] },
  tracked: { repetitions: 3, sizes: [50_000] },
  heavy: { frames: 2, steps: 64, workerCounts: [2] },
  fence: { frames: 1000, workerCounts: [0, 1, 2] },
  churn: { repetitions: 3, populations: [10_000] },
  kernels: { repetitions: 3, sizes: [50_000], heavyFrames: 2, tierFrames: 2, batchCostRows: 8192 },
  jsapi: { repetitions: 2, entities: 20_000, perEntityCalls: 2000, warmupMs: 50 },
  snapshot: { repetitions: 3 },
  executor: { repetitions: 3, sizes: [1_000, 50_000], scenarioRepetitions: 3, scenarioWarmup: 20, extractSizes: [100_000] },
  calls: { repetitions: 3, warmupMs: 100, sampleMs: 10 },
  iteration: { repetitions: 3, sampleMs: 10 },
  hierarchy: { repetitions: 3, nodes: 20_000, roots: 200, reparent: 2_000, reparentFrames: 2 },
  rollback: { repetitions: 3, warmup: 20 },
  snapshotChurn: { frames: 300, repetitions: 3 },
  topics: { repetitions: 3, entities: 100_000, settleMs: 500 },
  devtools: { repetitions: 3, pacedRepetitions: 3, sampleMs: 150 },
};

function parseArgs(argv) {
  const options = { out: null, workloads: ALL, quick: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--out') options.out = argv[(i += 1)];
    else if (arg === '--workloads') options.workloads = argv[(i += 1)].split(',');
    else if (arg === '--quick') options.quick = true;
    else throw new Error(`bench/browser.mjs: unknown argument '${arg}'`);
  }
  const unknown = options.workloads.filter((w) => !ALL.includes(w));
  if (unknown.length) throw new Error(`bench/browser.mjs: unknown workload(s) ${unknown.join(', ')} (known: ${ALL.join(', ')})`);
  if (!options.out) throw new Error('bench/browser.mjs: --out FILE is required');
  return options;
}

async function startServer() {
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(root, 'scripts/serve.mjs'), root, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  let exited = false;
  server.once('exit', () => { exited = true; });
  for (let attempt = 0; attempt < 100 && !exited; attempt += 1) {
    try {
      const response = await fetch(`${url}/web/bench/index.html`);
      if (response.ok) return { server, url };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill();
  throw new Error(`bench/browser.mjs: the server did not answer on port ${port}`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const { server, url } = await startServer();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`); });
    await page.goto(`${url}/web/bench/index.html`);
    await page.waitForFunction(() => window.ecsiaBench?.ready === true, null, { timeout: 60_000 });
    const info = await page.evaluate(() => ({
      variant: window.ecsiaBench.variant,
      crossOriginIsolated: window.ecsiaBench.crossOriginIsolated,
      userAgent: window.ecsiaBench.userAgent,
      hardwareConcurrency: window.ecsiaBench.hardwareConcurrency,
    }));
    if (info.variant !== 'threaded' || !info.crossOriginIsolated) {
      throw new Error(`the bench page did not get the threaded build (variant ${info.variant}, isolated ${info.crossOriginIsolated})`);
    }
    const results = { browser: { name: 'chromium', version: browser.version(), ...info }, workloads: {} };
    for (const name of options.workloads) {
      const started = Date.now();
      process.stderr.write(`  browser: ${name}...`);
      results.workloads[name] = await page.evaluate(
        ([workload, settings]) => window.ecsiaBench.run(workload, settings),
        [name, options.quick ? QUICK[name] : {}],
      );
      process.stderr.write(` ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    }
    results.pageDiagnostics = await page.evaluate(() => window.ecsiaBench.diagnostics);
    results.pageErrors = errors;
    await writeFile(options.out, `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await browser.close();
    server.kill();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
