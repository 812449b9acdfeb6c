// Internal to the JS layer: world.snapshot(into) and world.restore(bytes) (web/world.js) over the
// raw calls of wasm/bind_snapshot.cpp. The engine assembles a snapshot (and its checksum) in one
// heap buffer, which JS copies out in one TypedArray.set; a restore copies the bytes into that
// buffer in one set. Single copies of aligned ranges: V8 copies out of shared memory at full speed
// only when source and destination are 8-byte aligned alike (wasm/bind_snapshot.cpp).
// Thread rule: the page's main thread, between frames.

import { describe } from './checks.js';

/**
 * The world's snapshot: written at the start of `into` (a Uint8Array) when it is large enough,
 * and returned as into.subarray(0, size); otherwise (or without `into`) a new Uint8Array.
 */
export function takeSnapshot(core, into) {
  if (into !== undefined && !(into instanceof Uint8Array)) {
    throw new Error(`world.snapshot: takes a Uint8Array to reuse (or nothing), got ${describe(into)}`);
  }
  const module = core.engine.module;
  const size = core.call('snapshot', (raw) => module.snapshotTake(raw));
  // The call may have grown the heap: take the buffer after it.
  const { buffer } = core.engine.heapState();
  const source = new Uint8Array(buffer, module.snapshotBuffer(), size);
  const out = into !== undefined && into.byteLength >= size ? into.subarray(0, size) : new Uint8Array(size);
  out.set(source);
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
