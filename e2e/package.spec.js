// The npm package as its users get it. scripts/lib/test_package.sh (run by scripts/test before
// Playwright) packs build/npm/ecsia-wasm-<version>.tgz with scripts/pack, installs it offline
// into each consumer app of e2e/apps and builds the apps; this spec checks the package's contents
// and manifest, a server-side import, and every app in Chromium, served with COOP/COEP (threaded,
// waves on the workers) and without (single, exactly one warning), all ending with one stateHash.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { test } from './support.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const apps = path.join(root, 'e2e/apps');
const stage = path.join(root, 'build/npm/package');
const manifest = JSON.parse(readFileSync(path.join(root, 'npm/package.json'), 'utf8'));
const tarball = path.join(root, `build/npm/ecsia-wasm-${manifest.version}.tgz`);
const PREPARE = 'bash -c "source scripts/lib/setup.sh && source scripts/lib/test_package.sh && prepare_package_apps"';

// Exactly what the tarball holds. A new web/*.js or web/*.d.ts module lands in the package (and
// must be added here); anything else appearing is a packaging mistake.
const EXPECTED_FILES = [
  'CHANGELOG.md',
  'LICENSE',
  'README.md',
  'devtools.d.ts',
  'devtools.js',
  'dist/ecsia_single.mjs',
  'dist/ecsia_single.wasm',
  'dist/ecsia_single_debug.mjs',
  'dist/ecsia_single_debug.wasm',
  'dist/ecsia_threaded.mjs',
  'dist/ecsia_threaded.wasm',
  'dist/ecsia_threaded.worker.js',
  'dist/ecsia_threaded_debug.mjs',
  'dist/ecsia_threaded_debug.wasm',
  'dist/ecsia_threaded_debug.worker.js',
  'ecsia.d.ts',
  'ecsia.js',
  'extract.d.ts',
  'extract.js',
  'internal/checks.js',
  'internal/constants.js',
  'internal/devtools_dom.js',
  'internal/devtools_entities.js',
  'internal/devtools_plan.js',
  'internal/devtools_style.js',
  'internal/devtools_timeline.js',
  'internal/devtools_values.js',
  'internal/devtools_world.js',
  'internal/engine.js',
  'internal/frame_record.js',
  'internal/kernel_module.js',
  'internal/kernel_runtime.js',
  'internal/module_files.js',
  'internal/netcode_protocol.js',
  'internal/netcode_transports.js',
  'internal/snapshot.js',
  'internal/user_timing.js',
  'internal/worker_crashes.js',
  'internal/world_core.js',
  'netcode.d.ts',
  'netcode.js',
  'package.json',
  'query.d.ts',
  'query.js',
  'scheduler.d.ts',
  'scheduler.js',
  'vite.d.ts',
  'vite.js',
  'world.d.ts',
  'world.js',
];

const COOP = 'Cross-Origin-Opener-Policy: same-origin';
const COEP = 'Cross-Origin-Embedder-Policy: require-corp';

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

// The apps must hold the package scripts/pack just built (the repository's own loader and
// modules), and their builds must be newer than that install: otherwise this spec would test
// something stale. Fails with the command that prepares them.
function expectPrepared(app, built) {
  const installed = path.join(apps, app, 'node_modules/ecsia-wasm');
  const hint = `e2e/apps/${app} is not prepared from the current package: run ${PREPARE}`;
  expect(existsSync(path.join(installed, 'package.json')), hint).toBe(true);
  for (const [mine, theirs] of [['web/ecsia.js', 'ecsia.js'], ['web/scheduler.js', 'scheduler.js'],
    ['web/dist/ecsia_threaded.wasm', 'dist/ecsia_threaded.wasm'], ['web/dist/ecsia_single.wasm', 'dist/ecsia_single.wasm']]) {
    expect(sha256(path.join(installed, theirs)), `${hint} (${theirs} differs from ${mine})`).toBe(sha256(path.join(root, mine)));
  }
  if (built) {
    const output = path.join(apps, app, built);
    expect(existsSync(output), `${hint} (no ${built})`).toBe(true);
    expect(statSync(output).mtimeMs, `${hint} (${built} is older than the install)`)
      .toBeGreaterThanOrEqual(statSync(path.join(installed, 'package.json')).mtimeMs);
  }
}

// Starts a server that prints its URL (scripts/serve.mjs, vite) on an ephemeral port.
async function startServer(command, args, cwd) {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} printed no URL in 30 s:\n${output}`)), 30_000);
    const onData = (data) => {
      output += data;
      const match = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return { url, stop: () => child.kill('SIGTERM') };
}

const serveStatic = (dir, isolated) => startServer(process.execPath,
  [path.join(root, 'scripts/serve.mjs'), dir, '--port', '0', ...(isolated ? [] : ['--no-coi'])], root);
const serveCredentialless = (dir) => startServer(process.execPath,
  [path.join(root, 'scripts/serve.mjs'), dir, '--port', '0', '--coep', 'credentialless'], root);
const serveVite = (isolated) => startServer(process.execPath,
  ['node_modules/vite/bin/vite.js', '--config', isolated ? 'vite.config.js' : 'vite.no-isolation.config.js',
    '--port', '0', '--strictPort', '--host', '127.0.0.1'], path.join(apps, 'vite'));

// Each app: how it is prepared (the build output checked for freshness) and served.
const APPS = [
  { name: 'plain ES modules (import map)', app: 'plain', built: null, serve: (iso) => serveStatic(path.join(apps, 'plain'), iso) },
  { name: 'Vite 8 dev server', app: 'vite', built: null, serve: serveVite },
  { name: 'Vite 8 build', app: 'vite', built: 'dist/index.html', serve: (iso) => serveStatic(path.join(apps, 'vite/dist'), iso) },
  { name: 'webpack 5 build', app: 'webpack', built: 'dist/main.js', serve: (iso) => serveStatic(path.join(apps, 'webpack'), iso) },
  { name: 'esbuild bundle, dist/ copied', app: 'esbuild', built: 'dist/main.js', serve: (iso) => serveStatic(path.join(apps, 'esbuild'), iso) },
];

/** Opens an app, waits for its frames, returns its result and every console warning. */
async function runApp(page, url, query = '') {
  const warnings = [];
  const errors = [];
  page.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${url}/${query}`);
  await page.waitForFunction(() => window.ecsiaApp?.done === true, null, { timeout: 45_000 });
  const result = await page.evaluate(() => ({ ...window.ecsiaApp, isolated: globalThis.crossOriginIsolated }));
  return { result, warnings, errors };
}

test.describe('the package', () => {
  test('npm pack --dry-run lists exactly the expected files; the tarball size is reported', () => {
    expect(existsSync(path.join(stage, 'package.json')), `no staged package: run scripts/pack`).toBe(true);
    const [info] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    expect(info.files.map((f) => f.path).sort()).toEqual(EXPECTED_FILES);
    expect(existsSync(tarball), `no ${tarball}: run scripts/pack`).toBe(true);
    const size = statSync(tarball).size;
    const line = `${path.basename(tarball)}: ${(size / 1024).toFixed(1)} KiB packed, ${(info.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${info.entryCount} files`;
    console.log(line);
    test.info().annotations.push({ type: 'tarball size', description: line });
    expect(info.name).toBe('ecsia-wasm');
    expect(info.version).toBe(manifest.version);
  });

  test('web/dist holds the engine\'s modules and nothing else (the test, bench and example modules are built beside their pages)', () => {
    const engine = /^ecsia_(threaded|single)(_debug)?\.(mjs|wasm)$|^ecsia_threaded(_debug)?\.worker\.js$/;
    const files = readdirSync(path.join(root, 'web/dist'));
    expect(files.filter((file) => engine.test(file)).length, 'web/dist has the engine\'s modules (built by scripts/test)').toBeGreaterThan(0);
    expect(files.filter((file) => !engine.test(file)), 'files in web/dist that are not the engine\'s modules').toEqual([]);
  });

  test('the installed manifest: ESM only, types first, explicit files, no install scripts or dependencies', () => {
    expectPrepared('plain', null);
    const installed = JSON.parse(readFileSync(path.join(apps, 'plain/node_modules/ecsia-wasm/package.json'), 'utf8'));
    expect(installed.name).toBe('ecsia-wasm');
    expect(installed.version).toBe(manifest.version);
    expect(installed.type).toBe('module');
    expect(installed.main).toBeUndefined();
    expect(Array.isArray(installed.files) && installed.files.length > 0).toBe(true);
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies']) {
      expect(installed[field], field).toBeUndefined();
    }
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish']) {
      expect(installed.scripts?.[hook], `scripts.${hook}`).toBeUndefined();
    }
    const entry = installed.exports['.'];
    expect(entry.default).toBe('./ecsia.js');
    expect(Object.keys(entry)).not.toContain('require');
    expect(Object.keys(entry)[0]).toBe('types');
    expect(entry.types).toBe('./ecsia.d.ts');
    expect(installed.types).toBe(entry.types);
    // Only the entries, dist/ and the manifest are importable: web/internal/ stays internal.
    expect(Object.keys(installed.exports).sort()).toEqual(['.', './devtools', './dist/*', './netcode', './package.json', './vite']);
    expect(installed.exports['./vite']).toEqual({ types: './vite.d.ts', default: './vite.js' });
    expect(installed.exports['./netcode']).toEqual({ types: './netcode.d.ts', default: './netcode.js' });
    expect(installed.exports['./devtools']).toEqual({ types: './devtools.d.ts', default: './devtools.js' });
    // The one version: npm/package.json's, with its CHANGELOG section.
    expect(readFileSync(path.join(root, 'npm/CHANGELOG.md'), 'utf8')).toContain(`\n## ${manifest.version}\n`);
  });

  test('a server-side import touches no browser global, and loadEcsia() there rejects with one clear error', () => {
    expectPrepared('plain', null);
    const out = execFileSync(process.execPath, ['ssr.mjs'], { cwd: path.join(apps, 'plain'), encoding: 'utf8' });
    const report = JSON.parse(out.trim().split('\n').pop());
    expect(report.touched).toEqual([]);
    expect(report.exports).toContain('loadEcsia');
    expect(report.errors).toHaveLength(2);
    for (const message of report.errors) {
      expect(message).toContain('loadEcsia: ecsia runs in a browser');
      expect(message).toContain('call loadEcsia() in code that runs in the browser');
    }
    expect(report.errors[1]).toBe(report.errors[0]);  // bad options too: the same one error
  });
});

// stateHash of every app and mode, compared by the last test.
const hashes = {};

for (const { name, app, built, serve } of APPS) {
  test.describe(name, () => {
    for (const isolated of [true, false]) {
      const mode = isolated ? 'with COOP/COEP' : 'without COOP/COEP';
      test(`${mode}: ${isolated ? 'threaded, the app\'s JS kernels on the workers' : 'single, exactly one warning'}`, async ({ page }) => {
        expectPrepared(app, built);
        const server = await serve(isolated);
        try {
          const { result, warnings, errors } = await runApp(page, server.url);
          expect(result.error, 'the app failed').toBeUndefined();
          expect(errors).toEqual([]);
          expect(result.frames).toBe(30);
          // The package's module has no systems of its own: the app's kernels are all that runs.
          expect(result.kernels).toEqual(['bounce', 'integrate']);
          expect(result.plan.flat()).toEqual(['Integrate', 'Bounce']);
          if (isolated) {
            expect(result.isolated).toBe(true);
            expect(result.variant).toBe('threaded');
            // threads: 'auto': a core per worker, one left for the page (1 worker on 2 cores).
            expect(result.workers).toBeGreaterThanOrEqual(1);
            expect(result.schedulerWorkers).toBe(result.workers);
            // Only the Web Workers the engine uses were started (the build's pool holds 8).
            expect(result.startedWorkers).toBe(result.workers);
            expect(result.workerFrames).toBeGreaterThanOrEqual(1);
            // The deciding executor (it picks where each wave runs from measured costs) runs a wave this small on as few workers as pay, and
            // the first worker awake may take every batch: at least one worker ran jobs.
            expect(result.workersThatRanJobs).toBeGreaterThanOrEqual(1);
            expect(warnings).toEqual([]);
          } else {
            expect(result.isolated).toBe(false);
            expect(result.variant).toBe('single');
            expect(result.workers).toBe(0);
            expect(result.startedWorkers).toBe(0);
            expect(result.workerFrames).toBe(0);
            expect(warnings).toHaveLength(1);
            expect(warnings[0]).toContain(COOP);
            expect(warnings[0]).toContain(COEP);
          }
          expect(result.hash).toMatch(/^[0-9a-f]{16}$/);
          hashes[`${name}, ${mode}`] = result.hash;
        } finally {
          server.stop();
        }
      });
    }
  });
}

test('Cross-Origin-Embedder-Policy: credentialless isolates the page too (the README\'s way when resources cannot opt in)', async ({ page }) => {
  expectPrepared('plain', null);
  const server = await serveCredentialless(path.join(apps, 'plain'));
  try {
    const { result, warnings, errors } = await runApp(page, server.url);
    expect(result.error, 'the app failed').toBeUndefined();
    expect(errors).toEqual([]);
    expect(result).toMatchObject({ isolated: true, variant: 'threaded', frames: 30 });
    expect(result.workerFrames).toBeGreaterThanOrEqual(1);
    expect(warnings).toEqual([]);
    hashes['plain ES modules (import map), COEP credentialless'] = result.hash;
  } finally {
    server.stop();
  }
});

test('esbuild bundle with COOP/COEP, its kernel runtime not served: the kernels option rejects at once, naming it', async ({ page }) => {
  expectPrepared('esbuild', 'dist/main.js');
  const server = await serveStatic(path.join(apps, 'esbuild'), true);
  try {
    await page.route(/\/kernel_runtime\.js(\?.*)?$/, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
    const started = Date.now();
    const { result } = await runApp(page, server.url);
    expect(result.error).toMatch(/^loadEcsia: the workers' kernel runtime, http:\/\/127\.0\.0\.1:\d+\/dist\/kernel_runtime\.js, failed to load/);
    expect(result.error).toContain('see the ecsia-wasm README');
    expect(Date.now() - started).toBeLessThan(10_000);  // at once, not the 15 s load deadline
  } finally {
    server.stop();
  }
});

// loadEcsia({ module }) from the installed package: the Vite app serves examples/boids' browser
// module from its public/ folder (copied there by scripts/lib/test_package.sh), in the dev server
// and the build, and runs the module's own C++ systems: the same state in every mode.
const BOIDS_FILES = ['boids_threaded.mjs', 'boids_threaded.wasm', 'boids_threaded.worker.js', 'boids_single.mjs', 'boids_single.wasm'];
const boidsHashes = {};
for (const { name, app, built, serve } of APPS.filter(({ app }) => app === 'vite')) {
  for (const isolated of [true, false]) {
    const mode = isolated ? 'with COOP/COEP' : 'without COOP/COEP';
    test(`${name}, ${mode}: the module option runs a module of the app's own (examples/boids from public/)`, async ({ page }) => {
      expectPrepared(app, built);
      for (const file of BOIDS_FILES) {
        const copy = path.join(apps, 'vite', built === null ? 'public/boids' : 'dist/boids', file);
        expect(existsSync(copy) && sha256(copy), `${copy} is examples/boids/dist/${file}: run ${PREPARE}`)
          .toBe(sha256(path.join(root, 'examples/boids/dist', file)));
      }
      const server = await serve(isolated);
      try {
        const { result, warnings, errors } = await runApp(page, server.url, '?module');
        expect(result.error, 'the app failed').toBeUndefined();
        expect(errors).toEqual([]);
        expect(result.systems).toEqual(['BuildGrid', 'Flock', 'Integrate']);
        expect(result.plan).toEqual([['BuildGrid'], ['Flock'], ['Integrate']]);
        expect(result.frames).toBe(10);
        expect(result.boids).toBe(1000);
        expect(result.variant).toBe(isolated ? 'threaded' : 'single');
        if (isolated) {
          expect(result.workers).toBeGreaterThanOrEqual(1);
          expect(warnings).toEqual([]);
        } else {
          expect(warnings).toHaveLength(1);
        }
        expect(result.hash).toMatch(/^[0-9a-f]{16}$/);
        boidsHashes[`${name}, ${mode}`] = result.hash;
      } finally {
        server.stop();
      }
    });
  }
}

test('the boids module gives the same stateHash in the dev server and the build, threaded and single', () => {
  expect(Object.keys(boidsHashes)).toHaveLength(4);
  expect(new Set(Object.values(boidsHashes)).size, JSON.stringify(boidsHashes, null, 2)).toBe(1);
});

test('every app and mode ends with the same stateHash', () => {
  // (A failed test restarts Playwright's worker, which loses the hashes of the tests before it.)
  expect(Object.keys(hashes)).toHaveLength(APPS.length * 2 + 1);
  expect(new Set(Object.values(hashes)).size, JSON.stringify(hashes, null, 2)).toBe(1);
});

test('every app runs the scenario of e2e/apps/shared/scenario.js as it is', () => {
  const source = readFileSync(path.join(apps, 'shared/scenario.js'), 'utf8');
  for (const copy of ['plain/scenario.js', 'vite/src/scenario.js', 'webpack/src/scenario.js', 'esbuild/src/scenario.js']) {
    expect(readFileSync(path.join(apps, copy), 'utf8'), `e2e/apps/${copy} (copied by scripts/lib/test_package.sh)`).toBe(source);
  }
});

test('a dev server that sends index.html for the .wasm: loadEcsia names the file and the README recipe', async ({ page }) => {
  expectPrepared('vite', null);
  const server = await serveVite(true);
  try {
    let requested = null;
    await page.route(/ecsia_threaded\.wasm(\?.*)?$/, async (route) => {
      requested = route.request().url();
      await route.fulfill({ status: 200, contentType: 'text/html', headers: { 'Cross-Origin-Resource-Policy': 'same-origin' }, body: '<!doctype html>\n<html><body>not the wasm</body></html>\n' });
    });
    const { result } = await runApp(page, server.url);
    expect(requested).not.toBeNull();
    expect(result.error).toContain(`loadEcsia: ${requested} is not a WebAssembly file`);
    expect(result.error).toContain('3c 21 64 6f ("<!do"), an HTML page');
    expect(result.error).toContain('dist/ecsia_threaded.wasm');
    expect(result.error).toContain('"Bundlers" section of the ecsia-wasm README');
  } finally {
    server.stop();
  }
});

test.describe('TypeScript', () => {
  for (const config of ['tsconfig.json', 'tsconfig.nodenext.json']) {
    test(`tsc --strict --noEmit type-checks a consumer of 'ecsia-wasm' (${config})`, () => {
      expectPrepared('typescript', null);
      const cwd = path.join(apps, 'typescript');
      const tsconfig = readFileSync(path.join(cwd, 'tsconfig.json'), 'utf8');
      expect(tsconfig).toContain('"strict": true');
      let output = '';
      let status = 0;
      try {
        output = execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '--strict', '--noEmit', '-p', config], { cwd, encoding: 'utf8' });
      } catch (error) {
        status = error.status;
        output = `${error.stdout}${error.stderr}`;
      }
      expect(output).toBe('');
      expect(status).toBe(0);
    });
  }
});

test.describe('the npm README', () => {
  const readme = readFileSync(path.join(root, 'npm/README.md'), 'utf8');
  const block = (language, text) => `\`\`\`${language}\n${text}\`\`\``;

  test('its Vite, webpack, plain ES module and esbuild recipes are the files and commands the apps above use', () => {
    for (const [language, file] of [['js', 'vite/vite.config.js'], ['js', 'webpack/webpack.config.js'], ['html', 'plain/index.html']]) {
      expect(readme.includes(block(language, readFileSync(path.join(apps, file), 'utf8'))), `npm/README.md shows e2e/apps/${file} as it is`).toBe(true);
    }
    const kernels = readFileSync(path.join(apps, 'plain/kernels.js'), 'utf8');
    expect(readme.includes(block('js', kernels)), 'npm/README.md shows the kernel module the apps run').toBe(true);
    const edges = readFileSync(path.join(apps, 'plain/edges.js'), 'utf8');
    expect(kernels, 'the kernel module imports another module').toContain("import { outside } from './edges.js';");
    expect(readme.includes(block('js', edges)), 'npm/README.md shows the module the kernel module imports').toBe(true);
    for (const app of ['vite', 'webpack', 'esbuild']) {
      expect(readFileSync(path.join(apps, app, 'src/kernels.js'), 'utf8'), `e2e/apps/${app}/src/kernels.js is plain/kernels.js`).toBe(kernels);
      expect(readFileSync(path.join(apps, app, 'src/edges.js'), 'utf8'), `e2e/apps/${app}/src/edges.js is plain/edges.js`).toBe(edges);
    }
    expect(readme.includes(block('js', readFileSync(path.join(apps, 'vite/src/own_module.js'), 'utf8'))),
      'npm/README.md shows the own-module code the Vite app runs (e2e/apps/vite/src/own_module.js)').toBe(true);
    const addKernelSystem = "scheduler.addSystem({ name: 'Integrate', kernel: 'integrate', reads: ['velocity'], writes: ['position'], before: ['Bounce'] });";
    expect(readme).toContain(addKernelSystem);
    expect(readFileSync(path.join(apps, 'shared/scenario.js'), 'utf8'), 'the README\'s kernel system is the one the apps run').toContain(addKernelSystem);
    const typed = /## Types\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(typed, 'npm/README.md has a ts block under "## Types"').toBeTruthy();
    expect(readFileSync(path.join(apps, 'typescript/consumer.ts'), 'utf8'), 'the README\'s imports are the type-checked consumer\'s').toContain(typed);
    const esbuild = JSON.parse(readFileSync(path.join(apps, 'esbuild/package.json'), 'utf8')).scripts.build;
    expect(readme.includes(block('sh', `${esbuild.split(' && ').join('\n')}\n`)), 'npm/README.md shows the esbuild app\'s build commands').toBe(true);
  });

  test('its API map names every member of the objects a page calls, as the declarations have them', () => {
    const map = /## The API a page uses\n([\s\S]*?)\n## /.exec(readme)?.[1];
    expect(map, 'npm/README.md has a section "## The API a page uses"').toBeTruthy();
    // Each interface's members: its lines `  name(`, `  name:`, `  name?:`, `  readonly name`, `  get name`.
    const members = (file, name) => {
      const text = readFileSync(path.join(root, 'web', file), 'utf8');
      const body = new RegExp(`^export (?:declare )?(?:interface|class) ${name}\\b[^\\n]*\\n([\\s\\S]*?)^}`, 'm').exec(text)?.[1];
      expect(body, `web/${file} declares ${name}`).toBeTruthy();
      return [...body.matchAll(/^ {2}(?:readonly |get )?(\w+)\??[(:<]/gm)].map((m) => m[1]);
    };
    const objects = [['ecsia.d.ts', 'Ecsia'], ['world.d.ts', 'World'], ['query.d.ts', 'Query'], ['query.d.ts', 'Chunk'],
      ['scheduler.d.ts', 'Scheduler'], ['scheduler.d.ts', 'KernelChunk'], ['scheduler.d.ts', 'KernelCommands'], ['extract.d.ts', 'Extract']];
    // Named as itself: `member` or `member(...)`, not as the start of a longer name (add, addMany).
    const named = (member) => map.includes(`\`${member}\``) || map.includes(`\`${member}(`);
    const missing = objects.flatMap(([file, name]) => members(file, name).filter((member) => !named(member)).map((m) => `${name}.${m}`));
    expect(missing, 'members of the declarations that npm/README.md\'s API map does not name').toEqual([]);
  });

  test('its example runs as printed, on the plain app\'s page (its import map)', async ({ page }) => {
    expectPrepared('plain', null);
    const example = /## Use\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'npm/README.md has a js block under "## Use"').toBeTruthy();
    const html = readFileSync(path.join(apps, 'plain/index.html'), 'utf8')
      .replace('<script type="module" src="./main.js"></script>', () => `<script type="module">\n${example}</script>`);
    expect(html).toContain(example);
    const server = await serveStatic(path.join(apps, 'plain'), true);
    try {
      const logs = [];
      const errors = [];
      page.on('console', (message) => logs.push({ type: message.type(), text: message.text() }));
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.route(`${server.url}/readme-example.html`, (route) => route.fulfill({
        status: 200,
        contentType: 'text/html',
        headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
        body: html,
      }));
      await page.goto(`${server.url}/readme-example.html`);
      await expect.poll(() => logs.filter((m) => m.type === 'log').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      expect(errors).toEqual([]);
      expect(logs.filter((m) => m.type === 'warning').map((m) => m.text)).toEqual([]);
      const lines = logs.filter((m) => m.type === 'log').map((m) => m.text);
      expect(lines[0]).toMatch(/^10000 entities, the first at 0\.01\d*, -0\.01\d*$/);
      expect(lines.at(-1)).toMatch(/^threaded [1-8] [0-9a-f]{16}$/);  // threads: 'auto': cores - 1, at least 1
    } finally {
      server.stop();
    }
  });
});
