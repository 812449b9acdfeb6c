// Internal to the JS layer: world.snapshot() and world.restore(bytes) (web/world.js) over the raw
// calls of wasm/bind_snapshot.cpp. A snapshot is copied once, from the ranges the engine lists
// (its own header and counts, and the world's rows, tick arrays and column values where they lie)
// straight into the Uint8Array returned; a restore copies the bytes once into a heap buffer.
// Thread rule: the page's main thread, between frames.

import { describe } from './checks.js';

/** The world's snapshot as a new Uint8Array. */
export function takeSnapshot(core) {
  const module = core.engine.module;
  const { size, ranges, count } = core.call('snapshot', (raw) => module.snapshotRanges(raw));
  // The call may have grown the heap: take the buffer after it.
  const { buffer } = core.engine.heapState();
  const words = new Uint32Array(buffer, ranges, count * 2);
  const out = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const address = words[2 * i];
    const length = words[2 * i + 1];
    out.set(new Uint8Array(buffer, address, length), at);
    at += length;
  }
  return out;
}

/** Restores the world from `bytes` (a Uint8Array or an ArrayBuffer). */
export function restoreSnapshot(core, bytes) {
  let view = bytes;
  if (bytes instanceof ArrayBuffer) view = new Uint8Array(bytes);
  if (!(view instanceof Uint8Array)) {
    throw new Error(`world.restore: takes the Uint8Array that world.snapshot() returned (or an ArrayBuffer), got ${describe(bytes)}`);
  }
  const module = core.engine.module;
  core.raw('restore');
  const address = core.engine.call('world.restore', () => module.snapshotRestoreBuffer(view.length));
  const { buffer } = core.engine.heapState();  // after the allocation, which may have grown the heap
  new Uint8Array(buffer, address, view.length).set(view);
  core.call('restore', (raw) => module.snapshotRestore(raw, view.length));
}
