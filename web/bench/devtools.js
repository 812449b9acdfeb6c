// The devtools workload (issue: see inside a running world): what the panel of web/devtools.js
// costs a running world of 100,000 entities on 2 workers (with threads), in two worlds: the
// lightest frame there is (C++ Move and Bounce over bare movers: a fraction of a millisecond) and
// the demo's C++ systems over its particles (Attract, which pulls every particle towards the
// attractors, then Move and Bounce). One world and
// scheduler in every variant:
//   no devtools        never attached (before the first attach, and between the panel variants)
//   panel: world       attached (the default options: User Timing on), the World section shown (looked at 4
//                      times a second, redrawn when it changed)
//   panel: timeline    attached, the Timeline section shown (a window of 8 frames' bars a second)
//   panel: entities    attached, an entity selected: its values read between frames about
//                      60 times a second and drawn by the panel's worker
//   the same three with attachDevtools({ userTiming: false }) (the panel's "measures" button
//   off): no performance.measure per frame and wave (made a few frames at a time, outside the frames, when on)
//   User Timing only   no panel, scheduler.userTiming on: what the measures alone cost
//   detached           attached and detached again: must cost what "no devtools" does
// Each variant is timed twice (the three with User Timing and a panel back to back only):
//   backToBack       frames as fast as they run, each update() then a yield to the event loop (a
//                    message), so the panel's drawing (requestAnimationFrame, at the display's
//                    rate) and Chromium's style, layout and paint of it run between frames and
//                    are counted: the panel's whole cost, spread over many frames per display frame
//   perDisplayFrame  one update() per display frame (requestAnimationFrame), as a game runs;
//                    update() alone is timed: the frame's cost with the panel's hooks, the
//                    timeline's recording, and whatever the browser's drawing of the panel on the
//                    other threads takes from it. A display frame's update() here varies by a
//                    factor of 2 from frame to frame and a sample's mean by 10% from one
//                    repetition to the next (the shared machine's memory and caches), against a
//                    5% line: so more repetitions (pacedRepetitions) of fewer variants (the
//                    panels without User Timing: back to back shows what it takes away)
// A variant's estimate against no devtools: per display frame the ratio of the pooled frame times,
// back to back the median of the per-repetition ratios (see measure()), each with a 90% bootstrap
// interval over the repetitions; the samples are kept in the results.
// Attaching, detaching and switching sections happen before a sample's frames and are not timed,
// nor are the frames of the 300 ms after them (the section's first draw). Ratios against "no
// devtools" in the same run.
import { attachDevtools } from '../devtools.js';
import { builtinsOf } from '../builtins.js';
import { interleave, median, medianRatio, pooledRatio } from './timing.js';

const DT = 1 / 60;
const SETTLE_MS = 300;  // untimed frames after a variant's panel was set up: its first draw is over by then
const PACED_SETTLE_FRAMES = 3;  // untimed display frames before the timed ones
// Timed display frames a sample: 75 (1.25 s) outlast the Timeline's redraw period, so a sample
// holds one of its recording windows (the first opens and is drawn within the settle).
const PACED_FRAMES = 75;

// A macrotask: lets due animation frames (the panel's drawing) run, as a page's loop would.
const yieldToPage = () => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => resolve();
  channel.port2.postMessage(null);
});

export async function devtools(env, { entities = 100_000, repetitions = 10, pacedRepetitions = 16, sampleMs = 1000, warmupMs = 500 } = {}) {
  const worlds = [];
  for (const [systems, bare] of [[['Move', 'Bounce'], true], [['Attract', 'Move', 'Bounce'], false]]) {
    worlds.push(await panelCosts(env, systems, bare, { entities, repetitions, pacedRepetitions, sampleMs, warmupMs }));
  }
  return { worlds };
}

async function panelCosts(env, systems, bare, { entities, repetitions, pacedRepetitions, sampleMs, warmupMs }) {
  const { ecsia } = env;
  const workers = Math.min(2, ecsia.workers);
  const world = ecsia.createWorld({ maxEntities: entities + 1024 });
  const scheduler = world.createScheduler({ systems, workers });
  builtinsOf(ecsia).spawnMovers(world, entities, 1, { bare });
  const selected = world.query({ with: ['position'] }).chunks()[0].entities[0];
  let panel = null;
  let everAttached = false;
  // The panel as the variant wants it (untimed), then `frames` frames: back to back (each then a
  // yield to the page), or one per display frame (update() alone timed).
  let panelTimed = false;
  const variant = (name, tab, paced, userTiming = true) => ({
    name,
    run: async (frames) => {
      const attached = tab !== null && tab !== 'detached' && tab !== 'timing';
      if (panel !== null && (!attached || panelTimed !== userTiming)) panel.detach();
      if (!attached || panelTimed !== userTiming) panel = null;
      if (tab === 'detached' && !everAttached) attachDevtools({ world, scheduler }).detach();
      if (panel === null) scheduler.userTiming = tab === 'timing';  // what a new panel finds and restores
      if (attached) {
        panel ??= attachDevtools({ world, scheduler, userTiming });
        panelTimed = userTiming;
        if (tab === 'entities') panel.select(selected);
        else panel.show(tab);
      }
      everAttached ||= tab !== null;
      // What the switch itself costs (a section's first draw, a new panel's first layout and
      // paint) is a click's, not a frame's: frames run untimed until it is done.
      // Frames back to back in both modes: V8 has optimised the frame's code for the panel (or
      // its absence) by the timed frames, as in a game that has been running with it a while.
      const settleEnd = performance.now() + SETTLE_MS;
      while (performance.now() < settleEnd) {
        await scheduler.update(DT);
        await yieldToPage();
      }
      if (paced) {
        for (let f = 0; f < PACED_SETTLE_FRAMES; f += 1) {
          await new Promise(requestAnimationFrame);
          await scheduler.update(DT);
        }
        let updating = 0;
        for (let f = 0; f < frames; f += 1) {
          await new Promise(requestAnimationFrame);
          const start = performance.now();
          await scheduler.update(DT);
          updating += performance.now() - start;
        }
        return updating;
      }
      const start = performance.now();
      for (let f = 0; f < frames; f += 1) {
        await scheduler.update(DT);
        await yieldToPage();
      }
      return performance.now() - start;
    },
    // Back to back, a sample lasts sampleMs of timed frames (the set-up and settling above are
    // not part of it); per display frame, it is PACED_FRAMES frames.
    ...(paced ? { sampleFrames: PACED_FRAMES } : { sizedByCounted: true }),
  });
  const measure = async (paced, options) => {
    const variants = [
      variant('no devtools', null, paced), variant('panel: world', 'world', paced), variant('panel: timeline', 'timeline', paced),
      variant('panel: entities', 'entities', paced),
      ...(paced ? [] : [variant('panel: world, User Timing off', 'world', paced, false),
        variant('panel: timeline, User Timing off', 'timeline', paced, false), variant('panel: entities, User Timing off', 'entities', paced, false)]),
      variant('User Timing only', 'timing', paced), variant('detached', 'detached', paced),
    ];
    const { samples } = await interleave(variants, { warmupMs, settleMs: 0, ...options });
    const byVariant = (fn) => Object.fromEntries(variants.map(({ name }) => [name, fn(name)]));
    // Per display frame, a variant's samples hold the same number of frames in every repetition:
    // its pooled frame time is the mean of its samples, and the estimate the ratio of two pooled
    // times. Back to back, a sample is a second of whatever the page does, and now and then the
    // shared machine stalls one for most of it (a 1 s sample at 17 times its neighbours'): the
    // estimate is the median of the per-repetition ratios, which such a repetition moves at most
    // to the neighbouring ratio.
    const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
    const estimate = byVariant((name) => (paced ? pooledRatio : medianRatio)(samples, name, 'no devtools'));
    return {
      ms: byVariant((name) => (paced ? mean : median)(samples[name])),
      overNone: byVariant((name) => estimate[name].ratio),
      interval: byVariant((name) => estimate[name].interval),
      samples,  // ms per frame, per repetition: runs of the same code can be pooled
    };
  };
  // A sample of a second of frames: each holds a redraw of the section shown (the Timeline's, once
  // a second; the others', 4 times), so no sample leaves the draws out.
  // Per display frame, a sample of PACED_FRAMES holds one of the Timeline's recording windows.
  const backToBack = await measure(false, { sampleMs, repetitions });
  const perDisplayFrame = await measure(true, { repetitions: pacedRepetitions });
  panel?.detach();
  const placements = scheduler.lastFrame().waves.map((w) => w.placement);
  scheduler.dispose();
  world.dispose();
  return { systems, entities, workers, placements, backToBack, perDisplayFrame };
}
