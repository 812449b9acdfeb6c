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
