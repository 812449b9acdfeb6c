// The devtools panel's Timeline section (web/devtools.js): the last frames side by side, a lane
// for the page's thread and one per worker; each batch a bar labelled with its system and rows,
// the page's serial slots, merges and waits (the wave running on the workers while the page
// awaits the fence) on its lane. Hovering a bar shows its numbers.
// Thread rule: the page's main thread.

import { el, fill, micros } from './devtools_dom.js';
import { decodeFrame } from './frame_record.js';

const PAGE = -1;  // BatchTiming.lane of the page's thread

/**
 * The frames the timeline keeps: the newest `capacity`, as the scheduler handed them over. Each
 * frame's record is copied into a buffer the record keeps and reuses: the copy runs inside the
 * frame (the scheduler's record is overwritten by the next one), where making a 2 kB typed array
 * or slice() of one took Chromium 7 to 18 µs in a warm loop and 25 to 50 µs once per display
 * frame, and a set() into a kept buffer 0.08 µs and 2 to 3 µs (measured in the page).
 */
export class TimelineRecord {
  #capacity;
  #kept = [];   // { frame, startMs, endMs, failed, pageUs, record, names }, oldest first
  #spare = [];  // buffers of frames no longer kept
  constructor(capacity) { this.#capacity = capacity; }

  /** How many frames it keeps (the panel's `frames` option). */
  get capacity() { return this.#capacity; }

  /** Whether no frame is kept. */
  get empty() { return this.#kept.length === 0; }

  /**
   * One frame: { frame, startMs, endMs, failed, pageUs, record, names } (Scheduler's afterFrame).
   * The kept frames are consecutive: a frame that does not follow the newest starts afresh.
   */
  record(frame) {
    // Read now, the record first (names may be asked of the engine, which may grow the heap and
    // detach the record's view): the frame's fields are the scheduler's until its next frame.
    const source = frame.record;
    const record = source === null ? null : this.#copy(source);
    const { frame: number, startMs, endMs, failed, pageUs, names } = frame;
    // A failed frame carries the number of the frame before it.
    const newest = this.#kept.at(-1)?.frame;
    if (newest !== undefined && (number > newest + 1 || number < newest)) this.clear();
    this.#kept.push({ frame: number, startMs, endMs, failed, pageUs, record, names });
    if (this.#kept.length > this.#capacity) this.#release(this.#kept.shift());
  }

  clear() {
    for (const kept of this.#kept) this.#release(kept);
    this.#kept = [];
  }

  // A buffer at least as long as `source` holding its values (decodeFrame reads by the record's
  // own counts, so what follows them in the buffer is never read).
  #copy(source) {
    let buffer = this.#spare.pop();
    if (buffer === undefined || buffer.length < source.length) buffer = new Float64Array(Math.max(256, source.length * 2));
    buffer.set(source);
    return buffer;
  }

  #release(kept) {
    if (kept.record !== null) this.#spare.push(kept.record);
  }

  /** The kept frames, decoded: { number, waves, batches, workers, pageUs, updateUs, failed }. */
  get frames() {
    return this.#kept.map(({ frame, startMs, endMs, failed, pageUs, record, names }) => {
      // A failed frame has no record of its own: its time, without bars.
      const { waves, batches = [], busyNs } = record === null ? { waves: [], busyNs: [] } : decodeFrame(record, names, pageUs);
      return { number: frame, waves, batches, workers: busyNs.length, pageUs, updateUs: (endMs - startMs) * 1000, failed };
    });
  }
}

// A frame's bars: [lane, kind, beginUs, endUs, label, tip, system (batches) or null]. Batches
// narrower than `mergeUs` that follow each other on a lane (same system and wave) are one bar
// that says how many they are: a wave run inline is 16 batches of a few µs, and each bar is
// elements for the browser to lay out and paint at every redraw, invisible at that width.
function barsOf(frame, mergeUs) {
  const bars = [];
  for (const wave of frame.waves) {
    const serialEnd = wave.serialEndUs ?? wave.beginUs;
    const merged = wave.mergedUs ?? wave.endUs;
    if (serialEnd > wave.beginUs) {
      bars.push([PAGE, 'serial', wave.beginUs, serialEnd, `serial ${wave.wave}`, `wave ${wave.wave}: serial slot (main-thread systems)`, null]);
    }
    if (wave.placement !== 'inline' && wave.endUs > serialEnd) {
      bars.push([PAGE, 'wait', serialEnd, wave.endUs, 'wait', `wave ${wave.wave} (${wave.placement}): the page awaits the workers' fence`, null]);
    }
    if (merged > wave.endUs) bars.push([PAGE, 'merge', wave.endUs, merged, 'merge', `wave ${wave.wave}: merge (commands applied in batch order)`, null]);
  }
  const runs = new Map();  // lane -> the run of narrow batches it ends with: { first, last, count }
  const close = (lane) => {
    const run = runs.get(lane);
    if (run === undefined) return;
    runs.delete(lane);
    const { first, last, count } = run;
    const end = last.firstRow + last.rows;  // a run's rows are contiguous
    const rows = end - first.firstRow;
    bars.push([lane, 'batch', first.beginUs, last.endUs, count === 1 ? `${first.system} ${rows}` : `${first.system} ${rows} ×${count}`,
      `${first.system}, wave ${first.wave}: rows ${first.firstRow}..${end - 1} (${rows})${count === 1 ? '' : `, ${count} batches`}`, first.system]);
  };
  for (const batch of frame.batches) {
    const run = runs.get(batch.lane);
    const narrow = batch.endUs - batch.beginUs < mergeUs;
    // Joins the run when the rows go on (one range, one table) of the same system and wave, with
    // no visible gap between the bars.
    if (run !== undefined && narrow && run.first.system === batch.system && run.first.wave === batch.wave &&
        batch.firstRow === run.last.firstRow + run.last.rows && batch.beginUs - run.last.endUs < mergeUs) {
      run.last = batch;
      run.count += 1;
      continue;
    }
    close(batch.lane);
    runs.set(batch.lane, { first: batch, last: batch, count: 1 });
    if (!narrow) close(batch.lane);
  }
  for (const lane of [...runs.keys()]) close(lane);
  return bars;
}

const frameSpan = (frame) => Math.max(frame.updateUs, ...frame.waves.map((w) => w.mergedUs ?? w.endUs), 1);

/**
 * Draws the kept frames. `latest` is the number of the scheduler's newest frame, `paused` whether
 * frames are held: the Timeline records windows of frames while it is shown, so the frames it
 * holds may be older than the newest, which the status line above the lanes then says.
 */
export function renderTimeline(section, record, tooltip, { latest, paused }) {
  const frames = record.frames;
  if (frames.length === 0) {
    fill(section, el('p', { class: 'muted', 'data-role': 'timeline-status' },
      paused ? 'no frame recorded yet: step to record one' : 'no frame recorded yet'));
    return;
  }
  const first = frames[0].number;
  const newest = frames.at(-1).number;
  const behind = latest - newest;
  const status = `frames ${first}${newest === first ? '' : `–${newest}`}` + (behind <= 0 ? ''
    : paused ? `, recorded ${behind} frame${behind === 1 ? '' : 's'} before frame ${latest} (paused there): step to record the next ones`
      : `; ${behind} frame${behind === 1 ? '' : 's'} ran since (a new window is drawn about once a second)`);
  const workers = Math.max(...frames.map((f) => f.workers));
  const gap = frames.reduce((sum, f) => sum + frameSpan(f), 0) * 0.01;
  const total = frames.reduce((sum, f) => sum + frameSpan(f) + gap, 0);
  const lanes = new Map([[PAGE, el('div', { class: 'lane', 'data-lane': 'page' }, el('span', { class: 'label' }, 'page'))]]);
  for (let w = 0; w < workers; ++w) lanes.set(w, el('div', { class: 'lane', 'data-lane': `worker ${w}` }, el('span', { class: 'label' }, `worker ${w}`)));
  const heads = el('div', { class: 'frames' });
  const pct = (us) => `${(us / total * 100).toFixed(3)}%`;
  // Only bars wide enough to read get their label: text is most of what a redraw costs.
  const usPerPixel = total / Math.max(section.clientWidth - 64, 100);
  const labelledUs = 40 * usPerPixel;
  let x = 0;
  for (const frame of frames) {
    const span = frameSpan(frame);
    heads.append(el('div', { class: 'frame', style: `left: ${pct(x)}; width: ${pct(span)}`, 'data-frame': frame.number,
      title: `frame ${frame.number}: update() ${micros(frame.updateUs)}, the page inside the engine ${micros(frame.pageUs)}` },
    `${frame.failed ? '✗ ' : ''}${frame.number} · ${micros(frame.updateUs)}`));
    for (const [lane, kind, begin, end, label, tip, system] of barsOf(frame, 3 * usPerPixel)) {
      const width = Math.max(end - begin, 0);
      lanes.get(lane)?.append(el('div', {
        class: `bar ${kind}`, style: `left: ${pct(x + begin)}; width: max(1px, ${pct(width)})`,
        'data-kind': kind, 'data-system': system, 'data-tip': `frame ${frame.number} · ${tip}\n${micros(begin)} → ${micros(end)} (${micros(width)})`,
      }, width >= labelledUs ? label : null));
    }
    x += span + gap;
  }
  const timeline = el('div', { class: 'timeline', 'data-role': 'timeline' }, heads, [...lanes.values()]);
  const hover = (event) => {
    const bar = event.target instanceof Element ? event.target.closest('.bar') : null;
    tooltip.hidden = bar === null;
    if (bar === null) return;
    tooltip.textContent = bar.getAttribute('data-tip');
    tooltip.style.left = `${Math.min(event.clientX + 12, innerWidth - 320)}px`;
    tooltip.style.top = `${event.clientY + 14}px`;
  };
  timeline.addEventListener('mouseover', hover);
  timeline.addEventListener('mousemove', hover);
  timeline.addEventListener('mouseleave', () => { tooltip.hidden = true; });
  fill(section, el('p', { class: 'muted', 'data-role': 'timeline-status' }, status), timeline, el('p', { class: 'legend muted' },
    el('span', {}, el('i', { class: 'swatch batch' }), 'batch (system, rows)'),
    el('span', {}, el('i', { class: 'swatch serial' }), 'serial slot'),
    el('span', {}, el('i', { class: 'swatch merge' }), 'merge'),
    el('span', {}, el('i', { class: 'swatch wait' }), 'page waits')));
}
