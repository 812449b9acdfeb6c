// The Entities section's live values (web/internal/devtools_entities.js), drawn as text on one
// canvas behind the value inputs. Text written into the DOM every display frame costs the page's
// thread a whole rendering step each time (style, layout, paint, commit: about 8% of a busy page
// in headless Chromium on 2 cores, measured with 8 values); a canvas that a Web Worker owns
// (OffscreenCanvas) is drawn and handed to the compositor without the page's thread, which then
// only posts the texts. Where a worker or OffscreenCanvas is not available (a strict
// Content-Security-Policy, an old browser), the same drawing runs on the page's thread. Either
// context is a software one (willReadFrequently): a few lines of text need no GPU raster, which
// headless Chromium does in software GL in its GPU process, beside the page's frames.
// Thread rule: the page's main thread (the worker draws what it is sent).

// Draws `texts` into the cells of `layout` where they differ from `drawn`, the texts drawn last
// ([] after a new layout: every cell); texts[i] null leaves cell i empty (the field being edited,
// whose input shows what is typed). A value's cell costs about 8 µs on the worker's software
// canvas in headless Chromium (its clear, clip and fillText, rasterised): an entity's fields that
// did not change (most of them, as a rule) are not drawn again. Returns whether it drew any cell.
// Self-contained: the worker's source is this function's text.
export function paintValues(context, layout, texts, drawn) {
  const { scale, font, color, cells } = layout;
  context.setTransform(1, 0, 0, 1, 0, 0);
  if (drawn.length === 0) context.clearRect(0, 0, context.canvas.width, context.canvas.height);
  context.font = font;
  context.fillStyle = color;
  context.textBaseline = 'middle';
  let painted = drawn.length === 0;
  for (let i = 0; i < cells.length; i += 1) {
    const text = texts[i] ?? null;
    if (text === (drawn[i] ?? null)) continue;
    painted = true;
    const [x, y, w, h] = cells[i];
    // A cell's box in whole device pixels (cells come from the page's layout, in fractions of a
    // CSS pixel, times devicePixelRatio): the clear and the clip then cover the same pixels, and
    // a text cut at the cell's edge leaves nothing behind for the next draw.
    const left = Math.round(x * scale);
    const top = Math.round(y * scale);
    const box = [left, top, Math.round((x + w) * scale) - left, Math.round((y + h) * scale) - top];
    context.clearRect(...box);
    if (text === null) continue;
    context.save();
    context.beginPath();
    context.rect(...box);
    context.clip();
    context.setTransform(scale, 0, 0, scale, 0, 0);
    context.fillText(text, x, y + h / 2);
    context.restore();
  }
  return painted;
}

const WORKER_SOURCE = `const paintValues = ${paintValues};
let canvas = null, context = null, layout = null, drawn = [];
onmessage = ({ data }) => {
  if (data.canvas) { canvas = data.canvas; context = canvas.getContext('2d', { willReadFrequently: true }); }
  if (data.layout) {
    layout = data.layout;
    [canvas.width, canvas.height] = layout.pixels;
    drawn = [];
  }
  if (data.texts && layout !== null) {
    // Rasterised now, in this task, between the page's frames: a 2D canvas records its calls and
    // rasterises them when flushed, which else happens when the canvas is committed at the next
    // display frame, beside the page's next frame (update() per display frame 3% faster on
    // average with this flush, better in four of five probe runs, docs/PERFORMANCE.md).
    if (paintValues(context, layout, data.texts, drawn)) context.getImageData(0, 0, 1, 1);
    drawn = data.texts;
  }
};`;

export class ValueCanvas {
  #canvas;
  #worker = null;
  #context = null;   // drawing on the page's thread (no worker)
  #layout = null;
  #texts = [];       // as last drawn

  /** `canvas`: an element of the panel, placed over the inputs' box by its CSS. */
  constructor(canvas) {
    this.#canvas = canvas;
    let url = null;
    try {
      const offscreen = canvas.transferControlToOffscreen();
      url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
      this.#worker = new Worker(url, { name: 'ecsia devtools values' });
      // A worker the page's policy refuses may fail only once it loads.
      this.#worker.addEventListener('error', () => this.#drawHere());
      this.#worker.postMessage({ canvas: offscreen }, [offscreen]);
    } catch {
      this.#drawHere();
    } finally {
      if (url !== null) URL.revokeObjectURL(url);
    }
  }

  // Draws on the page's thread from now on, on a fresh canvas in the place of this one (whose
  // control may have gone to the worker already).
  #drawHere() {
    this.#worker?.terminate();
    this.#worker = null;
    const fresh = this.#canvas.cloneNode();
    this.#canvas.replaceWith(fresh);
    this.#canvas = fresh;
    this.#context = fresh.getContext('2d', { willReadFrequently: true });
    if (this.#layout === null) return;
    const { width, height, font, color, cells } = this.#layout;
    const texts = this.#texts;
    this.layOut(width, height, font, color, cells);
    this.draw(texts);
  }

  /** The canvas element shown (a replacement when drawing fell back to the page's thread). */
  get element() { return this.#canvas; }

  /**
   * Where the values go: `cells` are the [x, y, width, height] boxes of their text in CSS pixels
   * of a `width` x `height` canvas; `font` and `color` as the inputs have them.
   */
  layOut(width, height, font, color, cells) {
    const scale = globalThis.devicePixelRatio || 1;
    const pixels = [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
    this.#layout = { width, height, scale, pixels, font, color, cells };
    this.#texts = [];
    this.#canvas.style.width = `${width}px`;
    this.#canvas.style.height = `${height}px`;
    if (this.#worker !== null) this.#worker.postMessage({ layout: this.#layout });
    else [this.#canvas.width, this.#canvas.height] = pixels;
  }

  /**
   * Draws the texts, one per cell, unless they are the ones drawn last. `texts` is kept: pass a
   * new array each call.
   */
  draw(texts) {
    if (this.#layout === null || sameTexts(texts, this.#texts)) return;
    if (this.#worker !== null) this.#worker.postMessage({ texts });
    else paintValues(this.#context, this.#layout, texts, this.#texts);
    this.#texts = texts;
  }

  dispose() {
    this.#worker?.terminate();
    this.#worker = null;
  }
}

function sameTexts(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}
