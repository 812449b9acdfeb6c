// The rollback example (examples/rollback/): a ring of the last 8 snapshots; a late input for
// frame 101 arrives at frame 107; the game restores frame 100, resimulates with the input and runs
// on to 120. Every frame must then equal a straight run that had the input from the start, in the
// threaded build (2 workers, and the serial executor) and in the single build.
import { expect } from '@playwright/test';
import { expectNoPageErrors, servers, test } from './support.js';

async function runExample(page, server, workers) {
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  const query = workers === undefined ? '' : `?workers=${workers}`;
  await page.goto(`${server}/examples/rollback/index.html${query}`);
  await page.waitForFunction(() => window.rollback?.done === true, null, { timeout: 50_000 });
  const r = await page.evaluate(() => window.rollback.result);
  expectNoPageErrors({ errors });
  return r;
}

function expectRollbackEqualsStraightRun(r) {
  expect(r.rolledBackFrom).toBe(107);
  expect(r.hashes).toHaveLength(120);
  expect(r.hashes).toEqual(r.straight);                      // frame by frame, 1..120
  expect(r.hashes.at(-1)).not.toBe(r.withoutInput);          // the input changed the outcome
  // The frames first simulated without the input differ from the corrected ones.
  expect(r.predicted).toHaveLength(7);
  expect(r.predicted).not.toEqual(r.hashes.slice(100, 107));
  expect(r.shotsAlive).toBe(6);
}

test('rolling back to frame 100 with a late input equals a straight run with that input (threaded)', async ({ page }) => {
  const threaded = await runExample(page, servers.isolated, 2);
  expect(threaded.variant).toBe('threaded');
  expect(threaded.workers).toBe(2);
  expectRollbackEqualsStraightRun(threaded);
  const serial = await runExample(page, servers.isolated, 0);
  expectRollbackEqualsStraightRun(serial);
  expect(serial.hashes).toEqual(threaded.hashes);              // and the worker count changes nothing
});

test('rolling back equals a straight run in the single-threaded build too', async ({ page }) => {
  const single = await runExample(page, servers.plain, undefined);
  expect(single.variant).toBe('single');
  expectRollbackEqualsStraightRun(single);
});
