// Shared by the specs: the two servers playwright.config.js starts, and opening the test page
// with every console message and page error recorded.
import { test as base, expect } from '@playwright/test';

const isolatedPort = Number(process.env.ECSIA_E2E_PORT ?? 8089);

export const servers = {
  isolated: `http://127.0.0.1:${isolatedPort}`,  // COOP/COEP: the threaded build
  plain: `http://127.0.0.1:${isolatedPort + 1}`,  // no headers: the single build
};

/**
 * The specs' `test`: Playwright's, with `page` one page per Playwright worker that each test
 * navigates afresh (openTestPage), instead of a new browser context and renderer per test, which
 * cost more than a second each: most of the suite's time. Each test leaves the page as it found
 * it: its routes and listeners are removed and it is sent to about:blank, which ends the
 * engine's workers; after a test that closed the page or crashed it, the next one gets a new page.
 * A spec that changes what a page is for good (addInitScript, the viewport) uses Playwright's own
 * `test`. What this page does not give: a screenshot and trace of a failing test.
 */
export const test = base.extend({
  reusedPage: [async ({ browser }, use) => {
    const context = await browser.newContext();
    let page = null;
    let crashed = false;
    await use(async () => {
      if (page === null || page.isClosed() || crashed) {
        if (page !== null && !page.isClosed()) await page.close();
        page = await context.newPage();
        crashed = false;
      }
      page.on('crash', () => { crashed = true; });
      return page;
    });
    await context.close();
  }, { scope: 'worker' }],
  page: async ({ reusedPage }, use) => {
    const page = await reusedPage();
    await use(page);
    if (page.isClosed()) return;
    await page.removeAllListeners();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.goto('about:blank').catch(() => {});
  },
});

// Which server gives which variant when loadEcsia() runs with default options.
export const variants = [
  { variant: 'threaded', server: servers.isolated },
  { variant: 'single', server: servers.plain },
];

/** Opens web/test/index.html on `server`; returns { console, errors } arrays that keep filling. */
export async function openTestPage(page, server) {
  const log = { console: [], errors: [] };
  page.on('console', (message) => log.console.push({ type: message.type(), text: message.text() }));
  page.on('pageerror', (error) => log.errors.push(String(error)));
  await page.goto(`${server}/web/test/index.html`);
  await page.waitForFunction(() => window.ecsiaTest?.ready === true);
  return log;
}

export function warningsOf(log) {
  return log.console.filter((m) => m.type === 'warning').map((m) => m.text);
}

export function expectNoPageErrors(log) {
  expect(log.errors, 'uncaught errors on the page').toEqual([]);
}

/**
 * How many times the diagnostics in `messages` happened: a message said counts once, a summary of
 * repeats ("... (repeated: N more like it in M later frame(s))", src/ecsia/base/diagnostics.hpp)
 * counts N.
 */
export function occurrences(messages) {
  return messages.reduce((n, m) => n + Number(/ \(repeated: (\d+) more like it/.exec(m)?.[1] ?? 1), 0);
}

/**
 * G1 across executors and builds, in the shape most specs need: `run(page, options)` runs a
 * scenario in the page and returns at least { variant, hashes } (the state hash after each
 * frame). It runs with the serial executor (threads 4, workers 0) on the isolated page, then with
 * 1, 2 and 4 workers there, then on the single build in a page of its own; every run's hashes
 * must equal the serial run's, and `same(result, serial, label)` checks whatever else must match.
 * Returns { serial, threaded, single } for the caller's own checks.
 */
export async function acrossExecutors(page, browser, run, options, same = () => {}) {
  const log = await openTestPage(page, servers.isolated);
  const serial = await run(page, { ...options, threads: 4, workers: 0 });
  expect(serial.variant).toBe('threaded');
  const threaded = [];
  for (const workers of [1, 2, 4]) {
    const label = `${workers} worker(s)`;
    const result = await run(page, { ...options, threads: 4, workers });
    if ('workers' in result) expect(result.workers, label).toBe(workers);
    expect(result.hashes, label).toEqual(serial.hashes);
    same(result, serial, label);
    threaded.push(result);
  }
  expectNoPageErrors(log);
  const plainPage = await browser.newPage();
  const plainLog = await openTestPage(plainPage, servers.plain);
  const single = await run(plainPage, { ...options, threads: 'auto', workers: undefined });
  expect(single.variant).toBe('single');
  expect(single.hashes, 'the single build').toEqual(serial.hashes);
  same(single, serial, 'the single build');
  expectNoPageErrors(plainLog);
  await plainPage.close();
  return { serial, threaded, single };
}

// Opens `server`'s peer page (web/test/netcode_peer.html: the engine, the game, the netcode
// module, nothing started) and waits until it is ready.
export async function openNetcodePeer(page, server) {
  const log = { errors: [], console: [] };
  page.on('pageerror', (error) => log.errors.push(String(error)));
  page.on('console', (message) => log.console.push(message.text()));
  await page.goto(`${server}/web/test/netcode_peer.html`);
  await page.waitForFunction(() => window.peer?.ready === true, null, { timeout: 30_000 });
  return log;
}
