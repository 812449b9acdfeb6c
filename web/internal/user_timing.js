// A scheduler's User Timing measures (scheduler.userTiming): "ecsia frame N" and "ecsia frame N
// wave W (placement)", made outside update(), a few frames at a time.
//
// Why so: Chromium takes a few µs to make a measure, and a frame of a light world lasts a fraction
// of a millisecond. Made inside update(), three measures a frame cost it 12% to 27% (the lightest
// frames of docs/PERFORMANCE.md, Devtools). Made in a task after each frame (setTimeout 0, which
// runs after the code awaiting update(), before the next display frame), update() still measured
// 13% slower, one frame per display frame: the task's work (the timer, the measures and their
// garbage) showed in the frames around it. Made every FLUSH_MS, about 5%, of which reading the
// engine's record of each frame (a call into wasm and a view of its memory) was most. (An idle
// callback was tried too: Chromium runs it inside update() while update() awaits its workers.)
// So a frame only notes its start and end here, and the engine keeps the frames' wave times in a
// queue of its own (wasm/scheduler_binding.hpp, take_timing_queue); every FLUSH_MS, or once
// QUEUED_FRAMES frames wait (frames run back to back in one task), one call takes the engine's
// queue and the measures are made with the frames' own times, so the Performance panel shows them
// where the frames ran. Turning the measures off, or disposing the scheduler, makes what waits.
// Thread rule: the page's main thread.

import { TIMING_QUEUE_FRAME, TIMING_QUEUE_WAVE, WAVE_PLACEMENTS as PLACEMENTS } from './constants.js';

const QUEUED_FRAMES = 64;
const FLUSH_MS = 250;  // how late a measure may be made
// The newest frames' measures stay in the performance timeline (performance.getEntriesByType);
// the older ones are cleared, or a long session would fill it. A PerformanceObserver sees all.
const KEPT_MEASURES = 256;
// A frame here: [startMs, endMs, failed (0/1), the frame's number if it failed]. A frame that
// completed has its number and waves in the engine's queue; one that failed has none there.
const FRAME_WORDS = 4;

export class UserTiming {
  #takeQueue;
  #failed;
  #frames = new Float64Array(QUEUED_FRAMES * FRAME_WORDS);
  #count = 0;
  #scheduled = false;
  #kept = [];  // the names of the measures in the performance timeline, oldest first
  #flushLater = () => {
    this.#scheduled = false;
    try {
      this.flush();
    } catch (error) {
      this.#failed(error);
    }
  };

  /**
   * takeQueue(): the engine's queue of the frames' wave times, taken (a Float64Array, valid until
   * the next call); onError(error): what a flush on the timer that threw reports to (the
   * scheduler's diagnostics).
   */
  constructor(takeQueue, onError) {
    this.#takeQueue = takeQueue;
    this.#failed = onError;
  }

  /**
   * A frame ended (update()'s finally). `failedFrame`: for a frame that failed, the number of the
   * last frame completed (a failed frame is named after it, as lastFrame() still describes it).
   */
  add(startMs, endMs, failed, failedFrame = 0) {
    const at = this.#count * FRAME_WORDS;
    const frames = this.#frames;
    frames[at] = startMs;
    frames[at + 1] = endMs;
    frames[at + 2] = failed ? 1 : 0;
    frames[at + 3] = failedFrame;
    this.#count += 1;
    if (this.#count === QUEUED_FRAMES) {
      this.flush();
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      setTimeout(this.#flushLater, FLUSH_MS);
    }
  }

  /** Makes the measures of the frames that wait, now. */
  flush() {
    const count = this.#count;
    if (count === 0) return;
    this.#count = 0;
    const frames = this.#frames;
    const engine = this.#takeQueue();
    let at = 0;  // in the engine's queue: [frame, waves], then per wave [wave, placement, beginUs, endUs]
    for (let i = 0; i < count * FRAME_WORDS; i += FRAME_WORDS) {
      const startMs = frames[i];
      const endMs = frames[i + 1];
      if (frames[i + 2] !== 0) {
        this.#measure(`ecsia frame ${frames[i + 3]} (failed)`, startMs, endMs);
        continue;
      }
      if (at + TIMING_QUEUE_FRAME > engine.length) break;  // never, unless the two sides disagree: the rest is not named
      const frame = engine[at];
      const waves = engine[at + 1];
      at += TIMING_QUEUE_FRAME;
      this.#measure(`ecsia frame ${frame}`, startMs, endMs);
      for (let w = 0; w < waves; w += 1, at += TIMING_QUEUE_WAVE) {
        this.#measure(`ecsia frame ${frame} wave ${engine[at]} (${PLACEMENTS[engine[at + 1]]})`,
          startMs + engine[at + 2] / 1000, Math.min(endMs, startMs + engine[at + 3] / 1000));
      }
    }
  }

  #measure(name, start, end) {
    const kept = this.#kept;
    if (kept.length >= KEPT_MEASURES) for (const old of kept.splice(0)) performance.clearMeasures(old);
    performance.measure(name, { start, end });
    kept.push(name);
  }
}
