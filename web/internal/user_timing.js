// A scheduler's User Timing measures (scheduler.userTiming): "ecsia frame N" and "ecsia frame N
// wave W (placement)", made after the frame, in the page's idle time.
//
// Why later: Chromium takes a few µs to make a measure, cold (once per display frame) several
// times that, and a frame of a light world lasts a fraction of a millisecond: made inside
// update(), three measures a frame cost it 12% to 27% (docs/PERFORMANCE.md, Devtools). A frame
// now copies its numbers (the frame's times and each wave's, a few dozen bytes) into a queue, and
// the measures are made from them in an idle callback, with the frame's own times: the
// Performance panel shows them where the frame ran. A queue of QUEUED_FRAMES is written at once
// (a page that never idles then pays inside a frame, once every QUEUED_FRAMES), so no frame goes
// unmeasured. Turning the measures off, or disposing the scheduler, writes what is queued.
// Thread rule: the page's main thread.

import { WAVE_PLACEMENTS as PLACEMENTS } from './constants.js';
import { copyWaveTimes, framesOf } from './frame_record.js';

const QUEUED_FRAMES = 64;
// The newest frames' measures stay in the performance timeline (performance.getEntriesByType);
// the older ones are cleared, or a long session would fill it. A PerformanceObserver sees all.
const KEPT_MEASURES = 256;
const FLUSH_TIMEOUT_MS = 1000;  // at most this late, even in a page that never idles
// One frame in the queue: [frame, startMs, endMs, failed, waves], then per wave [wave, placement, beginUs, endUs].
const FRAME_WORDS = 5;
const WAVE_WORDS = 4;  // copyWaveTimes' words a wave

export class UserTiming {
  #queue = new Float64Array(QUEUED_FRAMES * (FRAME_WORDS + 8 * WAVE_WORDS));
  #length = 0;
  #frames = 0;
  #scheduled = false;
  #kept = [];  // the names of the measures in the performance timeline, oldest first
  #failed;
  #flushWhenIdle = () => {
    this.#scheduled = false;
    try {
      this.flush();
    } catch (error) {
      this.#failed(error);
    }
  };

  /** onError(error): what a flush in idle time that threw reports to (the scheduler's diagnostics). */
  constructor(onError) {
    this.#failed = onError;
  }

  /** Queues the measures of the frame `look` describes (scheduler.js, FrameLook); allocates nothing once warm. */
  add(look) {
    const { startMs, endMs, failed } = look;
    const record = look.engineRecord();
    const waves = failed ? 0 : record[0];
    this.#reserve(FRAME_WORDS + waves * WAVE_WORDS);
    const queue = this.#queue;
    const at = this.#length;
    queue[at] = framesOf(record);
    queue[at + 1] = startMs;
    queue[at + 2] = endMs;
    queue[at + 3] = failed ? 1 : 0;
    queue[at + 4] = waves;
    this.#length = waves > 0 ? copyWaveTimes(record, queue, at + FRAME_WORDS) : at + FRAME_WORDS;
    this.#frames += 1;
    if (this.#frames >= QUEUED_FRAMES) {
      this.flush();
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      whenIdle(this.#flushWhenIdle);
    }
  }

  /** Makes the queued frames' measures now. */
  flush() {
    const queue = this.#queue;
    const end = this.#length;
    this.#length = 0;
    this.#frames = 0;
    for (let at = 0; at < end;) {
      const [frame, startMs, endMs, failed, waves] = queue.subarray(at, at + FRAME_WORDS);
      this.#measure(`ecsia frame ${frame}${failed ? ' (failed)' : ''}`, startMs, endMs);
      at += FRAME_WORDS;
      for (let w = 0; w < waves; w += 1, at += WAVE_WORDS) {
        const placement = PLACEMENTS[queue[at + 1]];
        this.#measure(`ecsia frame ${frame} wave ${queue[at]} (${placement})`,
          startMs + queue[at + 2] / 1000, Math.min(endMs, startMs + queue[at + 3] / 1000));
      }
    }
  }

  #measure(name, start, end) {
    const kept = this.#kept;
    if (kept.length >= KEPT_MEASURES) for (const old of kept.splice(0)) performance.clearMeasures(old);
    performance.measure(name, { start, end });
    kept.push(name);
  }

  #reserve(words) {
    if (this.#length + words <= this.#queue.length) return;
    const grown = new Float64Array(Math.max(this.#queue.length * 2, this.#length + words));
    grown.set(this.#queue.subarray(0, this.#length));
    this.#queue = grown;
  }
}

// requestIdleCallback where the browser has it (Safari does not): a timer otherwise.
function whenIdle(fn) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: FLUSH_TIMEOUT_MS });
  else setTimeout(fn, 0);
}
