// Restoring in place (a game's rewind key: world.restore(saved) on the running world, then the same
// scheduler goes on) replays the original frames exactly, for every kind of system: JS kernels
// (one with a `changed` query), main-thread JS systems with and without queries (`changed` ones
// among them), observers and an extract; with every wave's placement forced to each mode, and in
// the single build. Each run restores at a few seeded random frames and compares every later frame
// with the original run: the state hash, what the systems and observers saw, the frame number they
// read (scheduler.frames, restored to the snapshot's) and the extract.
// The page side: web/test/restore_in_place.js.
import { expect } from '@playwright/test';
import { rng } from '../web/test/rng.js';
import { expectNoPageErrors, openTestPage, servers, test } from './support.js';

// Several runs of tens of frames on a loaded 2-core machine.
test.describe.configure({ timeout: 180_000 });

const FRAMES = 24;

// Three distinct restore points in [0, FRAMES - 2], ascending, from `seed`.
function restorePoints(seed) {
  const next = rng(seed);
  const points = new Set();
  while (points.size < 3) points.add(next(FRAMES - 1));
  return [...points].sort((a, b) => a - b);
}

async function rewind(page, options) {
  return page.evaluate(async (options) => {
    const { runRestoreInPlace } = await import('/web/test/restore_in_place.js');
    return runRestoreInPlace(window.ecsiaTest.loadEcsia, options);
  }, options);
}

function expectSameReplays(r, label) {
  expect(r.diagnostics, label).toEqual([]);
  // The scenario does what it says: Watch gets changed rows, how many depends on the frame, and
  // the frame number moves.
  expect(r.original.some((f) => f.watch.rows > 0), label).toBe(true);
  expect(new Set(r.original.map((f) => f.watch.rows)).size, label).toBeGreaterThan(2);
  expect(r.original.map((f) => f.frames), label).toEqual(r.original.map((_, i) => i + 1));
  expect(r.original.map((f) => f.nudgeFrame), label).toEqual(r.original.map((_, i) => i));
  expect(new Set(r.original.map((f) => f.hash)).size, label).toBe(FRAMES);
  for (const replay of r.replays) {
    expect(replay.framesAfterRestore, `${label}: scheduler.frames right after restoring frame ${replay.at}`).toBe(replay.at);
    for (let i = 0; i < replay.frames.length; i++) {
      const f = replay.at + 1 + i;
      expect(replay.frames[i], `${label}: frame ${f} replayed from a restore of frame ${replay.at}`).toEqual(r.original[f - 1]);
    }
  }
}

for (const [seed, cpp] of [[1, false], [2, true]]) {
  const points = restorePoints(seed);
  test(`threaded build, seed ${seed}${cpp ? ', with C++ Move and Bounce' : ''}: restoring in place at frames ${points.join(', ')} replays every later frame (serial; 2 workers with every wave inline, pool, shared)`, async ({ page }) => {
    const log = await openTestPage(page, servers.isolated);
    const serial = await rewind(page, { threads: 2, workers: 0, frames: FRAMES, restoreAt: points, cpp });
    expect(serial.variant).toBe('threaded');
    expectSameReplays(serial, 'serial');
    for (const placement of ['inline', 'pool', 'shared']) {
      const r = await rewind(page, { threads: 2, workers: 2, placement, frames: FRAMES, restoreAt: points, cpp });
      expect(r.workers).toBe(2);
      expect(r.placements, placement).toEqual([placement]);
      expectSameReplays(r, placement);
      // Threads never change results (G1): the same frames as the serial run.
      expect(r.original, placement).toEqual(serial.original);
    }
    expectNoPageErrors(log);
  });

  test(`single build, seed ${seed}${cpp ? ', with C++ Move and Bounce' : ''}: restoring in place at frames ${points.join(', ')} replays every later frame`, async ({ page }) => {
    const log = await openTestPage(page, servers.plain);
    const r = await rewind(page, { threads: 'auto', workers: undefined, frames: FRAMES, restoreAt: points, cpp });
    expect(r.variant).toBe('single');
    expectSameReplays(r, 'single');
    expectNoPageErrors(log);
  });
}
