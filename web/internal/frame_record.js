// The last frame's timing as the engine hands it over (SchedulerBinding::last_frame_record in
// wasm/scheduler_binding.hpp): doubles, decoded here into scheduler.lastFrame()'s objects. The
// devtools panel keeps copies of the records of the frames it shows and decodes them only when it
// draws, so following every frame costs a copy of a few hundred bytes.
// Thread rule: the page's main thread.

import {
  FRAME_RECORD_BATCH as BATCH, FRAME_RECORD_HEADER as HEADER, FRAME_RECORD_WAVE as WAVE, FRAME_RECORD_WORKER as WORKER,
  WAVE_PLACEMENTS as PLACEMENTS,
} from './constants.js';

// The header: [waves, batches, workers, timeline recorded, frames completed over the world, systems].

/** Whether the frame recorded its timeline (batches, serial slots, merges). */
export const recordsTimeline = (record) => record[3] !== 0;

/** scheduler.frames when the record was taken. */
export const framesOf = (record) => record[4];

/** How many systems the scheduler had (the names a batch's system index refers to). */
export const systemCountOf = (record) => record[5];

/**
 * The record's length in doubles (its header says how many waves, batches and workers follow),
 * for a record that starts at `at` in `doubles`.
 */
export function recordLength(doubles, at = 0) {
  return HEADER + doubles[at] * WAVE + doubles[at + 1] * BATCH + doubles[at + 2] * WORKER;
}

/**
 * scheduler.lastFrame()'s object: { waves, busyNs, jobs, pageUs } and, with the timeline
 * recorded, each wave's serialEndUs and mergedUs and `batches`, whose systems `names` names (by
 * system index; null: do not decode batches).
 */
export function decodeFrame(record, names, pageUs) {
  const [waveCount, batchCount, workers, timeline] = record;
  let at = HEADER;
  const waves = [];
  for (let i = 0; i < waveCount; i += 1, at += WAVE) {
    const wave = { wave: record[at], batches: record[at + 1], beginUs: record[at + 2], endUs: record[at + 3], placement: PLACEMENTS[record[at + 4]] };
    if (timeline) Object.assign(wave, { serialEndUs: record[at + 5], mergedUs: record[at + 6] });
    waves.push(wave);
  }
  const frame = { waves, busyNs: [], jobs: [], pageUs };
  if (timeline && names !== null) {
    frame.batches = [];
    for (let i = 0; i < batchCount; i += 1, at += BATCH) {
      frame.batches.push({ wave: record[at], system: names[record[at + 1]], firstRow: record[at + 2], rows: record[at + 3], lane: record[at + 4],
        beginUs: record[at + 5], endUs: record[at + 6] });
    }
  } else {
    at += batchCount * BATCH;
  }
  for (let w = 0; w < workers; w += 1, at += WORKER) {
    frame.busyNs.push(record[at]);
    frame.jobs.push(record[at + 1]);
  }
  return frame;
}
