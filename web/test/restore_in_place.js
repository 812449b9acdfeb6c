// Page-side half of e2e/restore.spec.js: a game's rewind key. One world and one scheduler run
// `frames` frames and keep a snapshot after chosen frames; then, for each restore point, the SAME
// world and scheduler restore that snapshot (world.restore on the running world) and run on to
// the last frame. Every frame records what a page and its systems can see, so the spec can compare
// each replayed frame with the original one: the state hash, what main-thread JS systems with
// `changed` queries saw, the frame number they read, what observers saw, and the frame's extract.
//
// Systems: the JS kernel scenario (./kernel_scenario.js; its Tally kernel has a `changed` query),
// optionally with the C++ Move and Bounce, plus three main-thread JS systems:
//   Nudge (no query): sets the velocity of a few movers picked by the frame number it reads
//     (scheduler.frames), so a frame number that did not survive the restore changes the state;
//   Watch (query changed: velocity, with: tally; writes tally through views): records the rows it
//     got and counts them into tally, so rows it missed change the state too;
//   Census (query changed: hp): records how many rows it got (hp changes every frame).

import { addScenarioSystems, KERNELS_URL, defineScenarioComponents, spawnScenario } from './kernel_scenario.js';

// FNV-1a over the bytes of typed arrays or DataViews: a short fingerprint of what a system saw.
function fingerprint(views, seed = 0x811c9dc5) {
  let h = seed >>> 0;
  for (const view of views) {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < bytes.length; i++) {
      h ^= bytes[i];
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return h;
}

/**
 * Runs the rewind scenario. options: { threads, workers, placement ('inline' | 'pool' | 'shared',
 * forced on every wave when the scheduler has workers), frames, restoreAt (frames after which a
 * snapshot is taken and later restored; 0 = before the first frame), entities, cpp }.
 * Returns { variant, workers, placements (of the waves that had batches), original: [record per frame],
 * replays: [{ at, frames: [record per frame after `at`] }], diagnostics }.
 */
export async function runRestoreInPlace(loadEcsia, { threads, workers, placement, frames, restoreAt, entities = 300, cpp = false }) {
  const diagnostics = [];
  const ecsia = await loadEcsia({ threads, kernels: KERNELS_URL, onDiagnostic: (m) => diagnostics.push(m) });
  const world = ecsia.createWorld({ maxEntities: 1 << 16 });
  defineScenarioComponents(world);
  const scheduler = world.createScheduler({ workers, batchRows: 32 });
  addScenarioSystems(scheduler, { cpp });

  // What this frame's systems and observers saw; reset before each frame.
  let seen = null;
  const movers = world.query({ with: ['velocity'] });  // no changed/added terms: no cursor of its own
  scheduler.addSystem({
    name: 'Nudge', reads: [], writes: ['velocity'],
    run(w) {
      const frame = scheduler.frames;
      seen.nudgeFrame = frame;
      let k = 0;
      for (const chunk of movers.chunks()) {
        for (let i = 0; i < chunk.count; i++, k++) {
          // A few rows a frame, which rows depending on the frame number.
          if ((k * 7 + frame * 3) % 41 === 0) w.set(chunk.entities[i], 'velocity', { dx: (frame % 5) - 2, dy: 1 });
        }
      }
    },
  });
  scheduler.addSystem({
    name: 'Watch', reads: [], writes: ['tally'], after: ['Nudge'],
    query: { changed: ['velocity'], with: ['tally'] },
    run(w, dt, chunks) {
      let rows = 0;
      const views = [];
      for (const chunk of chunks) {
        rows += chunk.count;
        views.push(chunk.entities);
        for (let i = 0; i < chunk.count; i++) chunk.columns.tally[i] += 100;
      }
      seen.watch = { rows, entities: fingerprint(views), frame: scheduler.frames };
    },
  });
  scheduler.addSystem({
    name: 'Census', reads: [], writes: [], query: { changed: ['hp'] },
    run(w, dt, chunks) {
      let rows = 0;
      for (const chunk of chunks) rows += chunk.count;
      seen.census = rows;
    },
  });
  world.observe('change', 'velocity', (e) => { seen.observed.push(`v${e}`); });
  world.observe('add', 'parent', (e) => { seen.observed.push(`p${e}`); });
  world.observe('remove', 'flag', (e) => { seen.observed.push(`f${e}`); });
  const drawn = scheduler.extract({ components: ['position', 'hp'] });

  if (workers > 0 && placement !== undefined) {
    globalThis.ecsiaTest.forcePlacement(scheduler, placement);
  }
  spawnScenario(world, entities);

  const placements = new Set();
  const frame = async () => {
    seen = { observed: [] };
    await scheduler.update(1 / 8);
    for (const wave of scheduler.lastFrame().waves) if (wave.batches > 0) placements.add(wave.placement);
    const extracted = drawn.latest();
    return {
      frames: scheduler.frames,
      hash: world.stateHash(),
      ...seen,
      extract: { frame: extracted.frame, count: extracted.count, bytes: fingerprint([extracted.entities, ...Object.values(extracted.columns)]) },
    };
  };

  const saved = new Map();
  if (restoreAt.includes(0)) saved.set(0, world.snapshot());
  const original = [];
  for (let f = 1; f <= frames; f++) {
    original.push(await frame());
    if (restoreAt.includes(f)) saved.set(f, world.snapshot());
  }
  const replays = [];
  for (const at of restoreAt) {
    world.restore(saved.get(at));
    const replayed = { at, framesAfterRestore: scheduler.frames, frames: [] };
    for (let f = at + 1; f <= frames; f++) replayed.frames.push(await frame());
    replays.push(replayed);
  }
  const out = {
    variant: ecsia.variant, workers: scheduler.workers, placements: [...placements].sort(), original, replays,
    diagnostics: diagnostics.filter((m) => !m.includes('threads are off') && !m.includes("exceeded their batch's reservation")),
  };
  scheduler.dispose();
  world.dispose();
  return out;
}
