// Playwright: headless Chromium from the system (Debian's chromium package; never a downloaded
// browser) against two static servers: one cross-origin isolated (COOP/COEP, the threaded
// build) and one without the headers (the single-threaded fallback).
import { defineConfig } from '@playwright/test';

const isolatedPort = Number(process.env.ECSIA_E2E_PORT ?? 8089);
const plainPort = isolatedPort + 1;
const page = 'web/test/index.html';

// The tests that time the page or load the machine to its limit (a bound on main-thread stalls,
// real-time netcode over a lossy link, 50,000 three.js instances in SwiftShader): scripts/test
// runs them alone (project `alone`), after the others ran two at a time (project `shared`,
// --workers=2). `npx playwright test` runs both projects, one test at a time.
const ALONE = /@alone|netcode\.spec|three\.spec|g2_stress\.spec/;
// ECSIA_E2E_RUN names one of several runs (scripts/test's `shared` and `alone`), so each keeps its
// own artifacts and JUnit file: Playwright empties outputDir when a run starts.
const run = process.env.ECSIA_E2E_RUN ? `-${process.env.ECSIA_E2E_RUN}` : '';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.js',
  outputDir: `test-results/artifacts${run}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  fullyParallel: false,
  // Always: a test.only left in a spec would make every run (not only CI's) skip the rest silently.
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI
    ? [['list'], ['junit', { outputFile: `test-results/e2e-results${run}.xml` }]]
    : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    // A trace only on a retry, and retries are 0: add --retries=1 to get one of a failing test.
    // Recording a trace of every test ('retain-on-failure') cost 15% of the suite's time.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'shared', grepInvert: ALONE },
    { name: 'alone', grep: ALONE },
  ],
  webServer: [
    {
      command: `node scripts/serve.mjs . --port ${isolatedPort}`,
      url: `http://127.0.0.1:${isolatedPort}/${page}`,
      reuseExistingServer: false,
      timeout: 10_000,
    },
    {
      command: `node scripts/serve.mjs . --port ${plainPort} --no-coi`,
      url: `http://127.0.0.1:${plainPort}/${page}`,
      reuseExistingServer: false,
      timeout: 10_000,
    },
  ],
});
