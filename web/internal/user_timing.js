// A scheduler's User Timing measures (scheduler.userTiming): "ecsia frame N" and "ecsia frame N
// wave W (placement)", made after the frames, outside update(), a few frames at a time.
//
// Why: Chromium takes a few µs to make a measure, and a frame of a light world lasts a fraction
// of a millisecond. Made inside update(), three measures a frame cost it 12% to 27% (the lightest
// frames of docs/PERFORMANCE.md, Devtools); made in a task after each frame (setTimeout 0, which
// runs after the code awaiting update(), before the next display frame), update() still measured
// 13% slower one frame per display frame, the task's work (the timer, the measures and their
// garbage) showing in the frames around it. Made every FLUSH_MS from a queue of the frames' times:
// about 5%, most of it reading the engine's record when the next frame begins. (An idle callback was tried
// too: Chromium runs it inside update() while update() awaits its workers.)
// So a frame notes its start and end; the next frame, or the flush, whichever comes first, reads
// the engine's record of it (a call into wasm and a view of its memory) and copies the waves'
// times (a few dozen bytes) into the queue before the engine replaces the record; the flush makes
// the measures with the frames' own times, so the Performance panel shows them where the frames
// ran. A queue of QUEUED_FRAMES is made at once, so frames run back to back in one task are all
// measured too. Turning the measures off, or disposing the scheduler, makes what is queued.
// Thread rule: the page's main thread.

import { WAVE_PLACEMENTS as PLACEMENTS } from './constants.js';
import { copyWaveTimes, framesOf } from './frame_record.js';

const QUEUED_FRAMES = 64;
const FLUSH_MS = 250;  // how late a measure may be made
// The newest frames' measures stay in the performance timeline (performance.getEntriesByType);
// the older ones are cleared, or a long session would fill it. A PerformanceObserver sees all.
const KEPT_MEASURES = 256;
// One frame in the queue: [frame, startMs, endMs, failed, waves], then per wave [wave, placement, beginUs, endUs].
const FRAME_WORDS = 5;
const WAVE_WORDS = 4;  // copyWaveTimes' words a wave

export class UserTiming {
  #fetchRecord;
  #failed;
  #queue = new Float64Array(QUEUED_FRAMES * (FRAME_WORDS + 8 * WAVE_WORDS));
  #length = 0;
  #frames = 0;
  // The frame over whose record is still the engine's to read: its times.
  #pending = false;
  #startMs = 0;
  #endMs = 0;
  #pendingFailed = false;
  #scheduled = false;
  #kept = [];  // the names of the measures in the performance timeline, oldest first
  #flushLater = () => {
    this.#scheduled = false;
    this.#guarded(() => this.flush());
  };

  /**
   * fetchRecord(): the engine's record of the last frame (frame_record.js), valid until the next
   * frame; onError(error): what a failure outside a scheduler call reports to (its diagnostics).
   */
  constructor(fetchRecord, onError) {
    this.#fetchRecord = fetchRecord;
    this.#failed = onError;
  }

  /** A frame ended (update()'s finally): notes its times; the rest waits for the next frame or the flush. */
  add(startMs, endMs, failed) {
    if (this.#pending) this.#capture();
    this.#pending = true;
    this.#startMs = startMs;
    this.#endMs = endMs;
    this.#pendingFailed = failed;
    if (this.#frames + 1 >= QUEUED_FRAMES) {
      this.flush();
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      setTimeout(this.#flushLater, FLUSH_MS);
    }
  }

  /** A frame begins: the last frame's record, if still unread, is copied before the engine replaces it. */
  beforeFrame() {
    if (this.#pending) this.#guarded(() => this.#capture());
  }

  /** Makes the queued frames' measures now. */
  flush() {
    if (this.#pending) this.#capture();
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

  // The pending frame's numbers into the queue. A failed frame leaves the engine's record of the
  // frame before it: its number is the last frame's, and it has no waves of its own.
  #capture() {
    this.#pending = false;
    const record = this.#fetchRecord();
    const failed = this.#pendingFailed;
    const waves = failed ? 0 : record[0];
    this.#reserve(FRAME_WORDS + waves * WAVE_WORDS);
    const queue = this.#queue;
    const at = this.#length;
    queue[at] = framesOf(record);
    queue[at + 1] = this.#startMs;
    queue[at + 2] = this.#endMs;
    queue[at + 3] = failed ? 1 : 0;
    queue[at + 4] = waves;
    this.#length = waves > 0 ? copyWaveTimes(record, queue, at + FRAME_WORDS) : at + FRAME_WORDS;
    this.#frames += 1;
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

  #guarded(fn) {
    try {
      fn();
    } catch (error) {
      this.#failed(error);
    }
  }
}
