// Internal to the JS layer: world.snapshot(into) and world.restore(bytes) (web/world.js) over the
// raw calls of wasm/bind_snapshot.cpp. A snapshot is copied straight from where its bytes lie (the
// engine's header and count pieces, the world's row, tick and column memory) into the Uint8Array,
// one TypedArray.set per range, once the engine has computed the checksum over them in place: one
// read of the column bytes for the checksum, one copy, and no heap buffer between. V8 copies out
// of shared memory at full speed only when source and destination are 8-byte aligned alike
// (wasm/bind_snapshot.cpp), so when a range of any size does not line up with its place in the
// array, or the ranges are too many and small for a set each to pay, the engine assembles the
// snapshot in its heap buffer instead and JS copies it out in one set. A restore leaves the bytes
// where they are: the engine pulls each part in as it reads it (wasm/bind_snapshot.cpp), each
// column's values into spare column memory (only compared while they equal the column's own),
// which it swaps in once all is valid.
// Thread rule: the page's main thread, between frames.

import { describe } from './checks.js';

// A range shorter than this is copied directly even when it does not line up: byte by byte, it
// costs less than assembling the whole snapshot elsewhere would.
const kSmallRange = 256;
// Below this many bytes a range on average, the per-range set's own cost (a subarray and a call)
// outweighs the heap buffer's extra copy.
const kMinMeanRange = 512;

/**
 * Whether copying each range of `table` (u32 pairs: heap address, byte count) to its running
 * offset in an array at `byteOffset` of its buffer is the fast way: every range but the short ones
 * starts at the same address mod 8 as its destination, and the ranges are not too many.
 */
export function rangesLineUp(table, byteOffset) {
  let size = 0;
  for (let i = 0, at = byteOffset; i < table.length; i += 2) {
    if (table[i + 1] >= kSmallRange && (table[i] - at) % 8 !== 0) return false;
    at += table[i + 1];
    size += table[i + 1];
  }
  return size >= (table.length / 2) * kMinMeanRange;
}

/**
 * The world's snapshot: written at the start of `into` (a Uint8Array) when it is large enough,
 * and returned as into.subarray(0, size); otherwise (or without `into`) a new Uint8Array.
 */
export function takeSnapshot(core, into) {
  if (into !== undefined && !(into instanceof Uint8Array)) {
    throw new Error(`world.snapshot: takes a Uint8Array to reuse (or nothing), got ${describe(into)}`);
  }
  const module = core.engine.module;
  const count = core.call('snapshot', (raw) => module.snapshotTakeRanges(raw));
  // The call may have grown the heap: take the buffer after it.
  const heap = core.engine.heapState().buffer;
  const table = new Uint32Array(heap, module.snapshotRangeTable(), count * 2);
  let size = 0;
  for (let i = 1; i < table.length; i += 2) size += table[i];
  const out = into !== undefined && into.byteLength >= size ? into.subarray(0, size) : new Uint8Array(size);
  const aligned = rangesLineUp(table, out.byteOffset);
  if (!aligned) {
    const assembled = core.engine.call('world.snapshot', () => module.snapshotCopySealed());
    out.set(new Uint8Array(core.engine.heapState().buffer, module.snapshotBuffer(), assembled));
    return out;
  }
  module.snapshotSealRanges();
  for (let i = 0, at = 0; i < table.length; i += 2) {
    out.set(new Uint8Array(heap, table[i], table[i + 1]), at);
    at += table[i + 1];
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
  module.ecsiaRestoreBytes = view;
  try {
    core.call('restore', (raw) => module.snapshotRestore(raw, view.length));
  } finally {
    module.ecsiaRestoreBytes = undefined;  // the caller's bytes are not kept
  }
}
