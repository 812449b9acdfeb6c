// Types of web/extract.js: Extract and ExtractedFrame (scheduler.extract). See web/ecsia.d.ts.
// Thread rule: the page's main thread.

import type { ColumnView } from './query.js';

/** What an extract copies at the end of every frame (component names). */
export interface ExtractSpec {
  /** Components whose values are copied (at least one; no tags). Rows must have all of them. */
  components: readonly string[];
  /** Components the rows must also have (tags too); not copied. */
  with?: readonly string[];
  /** Components the rows must not have. */
  without?: readonly string[];
}

/**
 * One frame's copy. Row i's field f of component c is `columns[c][i * strides[c] + offsets[c][f]]`
 * (bytes for a DataView), as in a Chunk; rows come table after table. The values stay as they
 * were at the end of frame `frame` until the next `extract.latest()`: frames that end meanwhile
 * write the extract's other buffer. Read `entities` and `columns` from the frame when drawing (they
 * are re-made if the heap grew); after the next latest() or dispose() reading them throws.
 */
export interface ExtractedFrame {
  /** `scheduler.frames` when the copy was taken: frames completed over the world, restored by world.restore() (the copy made by extract() has the count then). */
  readonly frame: number;
  /** Rows copied. */
  readonly count: number;
  /** The rows' entity handles. */
  readonly entities: Uint32Array;
  /** Per component of the spec, its rows' values packed. */
  readonly columns: Readonly<Record<string, ColumnView>>;
  readonly strides: Readonly<Record<string, number>>;
  readonly offsets: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/**
 * Made by scheduler.extract(spec): the engine copies the spec's rows in wasm (a memcpy per
 * component per table) at the end of every frame, so a page draws frame N while frame N+1 runs.
 * Every call throws once the extract or its scheduler was disposed.
 */
export interface Extract {
  /** The spec, as given. */
  readonly spec: Readonly<{ components: readonly string[]; with: readonly string[]; without: readonly string[] }>;
  /** True once dispose() ran, or once its scheduler (or the scheduler's world) was disposed. */
  readonly disposed: boolean;
  /**
   * The newest copy (the last completed frame's; before the first, the world when extract() was
   * called). The page's until its next latest() call; the frame it returned before is released.
   */
  latest(): ExtractedFrame;
  /** Frees the buffers. A second call does nothing. */
  dispose(): void;
}
