// Extract and ExtractedFrame of the JS API: scheduler.extract({ components, with, without }) makes
// the engine copy, at the end of every frame, the listed components of the rows it selects into
// buffers the page owns (src/ecsia/extract/frame_extract.hpp: one memcpy per component per table,
// in wasm). The page then draws frame N from extract.latest() while the waves of frame N+1 run:
//
//   const drawn = scheduler.extract({ components: ['position'] });
//   for (;;) {
//     const next = scheduler.update(dt);   // frame N+1's waves start on the workers
//     draw(drawn.latest());                 // frame N, while they run
//     await next;
//   }
//
// Two buffers per extract: latest() hands the page the newest copy and the engine never writes
// that one again until the next latest(); every frame's end writes the other.
// Thread rule: the page's main thread.

import { describe, isPlainObject, knownKeys } from './internal/checks.js';

const SPEC_KEYS = ['components', 'with', 'without'];

/**
 * One frame's copy: `count` rows, their `entities` and per component `columns[name]` (a typed
 * array, a DataView for components of mixed field types) with `strides` and `offsets` as a Chunk
 * has them: row i's field f is columns[name][i * strides[name] + offsets[name][f]]. Rows come
 * table after table, each table's in row order. `frame` is scheduler.frames when the copy was
 * taken (frames completed over the world). The values stay as they were at that frame's end until the
 * page calls latest() again (or disposes the extract); later frames do not touch them.
 * `entities` and `columns` are made over the heap when read, so take them from the frame each
 * time you draw: the single build's heap may have grown (which detaches older views).
 */
export class ExtractedFrame {
  #extract;
  #engine;
  #address;     // the record of acquireExtract (wasm/scheduler_binding.hpp)
  #columnsOf;   // [{ name, layout }]
  #views = null;
  #viewsEpoch = -1;

  constructor(extract, engine, address, columnsOf) {
    this.#extract = extract;
    this.#engine = engine;
    this.#address = address;
    this.#columnsOf = columnsOf;
    const { u32 } = engine.views();
    const r = address >>> 2;
    this.frame = u32[r] + u32[r + 1] * 2 ** 32;
    this.count = u32[r + 2];
    this.strides = Object.freeze(Object.fromEntries(columnsOf.map(({ name, layout }) => [name, layout.stride])));
    this.offsets = Object.freeze(Object.fromEntries(columnsOf.map(({ name, layout }) => [name, layout.offsets])));
    Object.freeze(this);
  }

  /** The rows' entity handles (a Uint32Array). */
  get entities() { return this.#current().entities; }
  /** Per component, the rows' values packed: { position: Float32Array [x0, y0, x1, y1, ...] }. */
  get columns() { return this.#current().columns; }

  #current() {
    if (Extract.replaced(this.#extract, this)) {
      throw new Error('extract frame: this frame was released by a later latest() call or dispose(); use the frame latest() returned last');
    }
    const { buffer, epoch } = this.#engine.heapState();
    if (this.#views !== null && this.#viewsEpoch === epoch) return this.#views;
    const { u32 } = this.#engine.views();
    const r = this.#address >>> 2;
    const count = this.count;
    const columns = {};
    this.#columnsOf.forEach(({ name, layout }, c) => {
      const address = u32[r + 4 + c];
      columns[name] = layout.View === DataView
        ? new DataView(buffer, address, count * layout.stride)
        : new layout.View(buffer, address, count * layout.stride);
    });
    this.#views = Object.freeze({ entities: new Uint32Array(buffer, u32[r + 3], count), columns: Object.freeze(columns) });
    this.#viewsEpoch = epoch;
    return this.#views;
  }
}

/**
 * The spec's shape: a plain object of the known keys. What the names mean (known components, no
 * tags in components, no name twice, without apart from the rest) the engine checks, and words.
 */
function extractSpec(spec) {
  const op = 'scheduler.extract';
  if (!isPlainObject(spec)) throw new Error(`${op}: takes { components, with, without }, got ${describe(spec)}`);
  knownKeys(op, spec, SPEC_KEYS, 'the extract spec');
  return spec;
}

export class Extract {
  #engine;
  #raw;        // (op) => the raw scheduler, or the scheduler's "disposed" error
  #id;
  #disposed = false;
  #columnsOf;
  #frame = null;  // the ExtractedFrame latest() returned last: the buffer the page holds

  /** Made by scheduler.extract(spec). */
  constructor(engine, core, raw, spec) {
    const { components, with: withNames, without } = extractSpec(spec);
    this.#engine = engine;
    this.#raw = raw;
    this.#id = engine.call('scheduler.extract', () => raw('extract').addExtract(components, withNames, without));
    this.#columnsOf = components.map((name) => ({ name, layout: core.component('extract', name).layout }));
    /** The spec, as given (names). */
    this.spec = Object.freeze({ components: [...components], with: [...(withNames ?? [])], without: [...(without ?? [])] });
  }

  /**
   * The newest copy: the last completed frame's (or, before the first, the world when the
   * extract was made). It is the page's until the next latest(): frames that end meanwhile write
   * the other buffer. The frame returned before is released (reading its views then throws).
   */
  latest() {
    if (arguments.length > 0) throw new Error(`extract.latest: takes no arguments, got ${arguments.length}`);
    const raw = this.#live('latest');
    const address = this.#engine.call('extract.latest', () => raw.acquireExtract(this.#id)) >>> 0;
    this.#frame = new ExtractedFrame(this, this.#engine, address, this.#columnsOf);
    return this.#frame;
  }

  /** Whether dispose() ran, or the scheduler (or its world) was disposed, which disposes the extract too. */
  get disposed() {
    if (this.#disposed) return true;
    try { this.#raw('extract'); } catch { return true; }
    return false;
  }

  /** Frees the buffers; later calls throw. A second call does nothing. Disposing the scheduler disposes it too. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#frame = null;
    let raw;
    try { raw = this.#raw('extract.dispose'); } catch { return; }  // the scheduler went first: its extracts with it
    this.#engine.call('extract.dispose', () => raw.removeExtract(this.#id));
  }

  /** @internal whether `frame` is no longer the one this extract holds for the page */
  static replaced(extract, frame) {
    if (extract.#frame !== frame) return true;
    try { extract.#raw('extract'); } catch { return true; }  // the scheduler (and the buffers) went
    return false;
  }

  #live(op) {
    if (this.#disposed) throw new Error(`extract.${op}: the extract was disposed`);
    try {
      return this.#raw(op);
    } catch (error) {
      throw new Error(`extract.${op}: ${String(error.message).replace(/^scheduler\.[A-Za-z.]+: /, '')}`);
    }
  }
}
