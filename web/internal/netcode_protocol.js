// Internal to the netcode module (web/netcode.js): the wire format of a rollback session's
// messages and the codec of one player's input. docs/NETCODE.md describes both; keep it true.
//
// Every message starts with a 4-byte header: kind (u8), protocol version (u8), the sender's
// player index (u8), 0 (u8). Numbers are little-endian.
//   INPUT  header, u32 acks[players] (per player, the newest frame of theirs the sender holds
//          with every frame before it; -1 as 0xFFFFFFFF: none), u32 first frame, u16 count,
//          u16 input size, then `count` inputs of the sender's from `first frame` on.
//   HASH   header, u32 frame, 8 bytes: the world's stateHash() after that frame (confirmed).

export const PROTOCOL_VERSION = 1;
export const KIND_INPUT = 1;
export const KIND_HASH = 2;
const HEADER_BYTES = 4;
const NONE = 0xffffffff;

function header(view, kind, player) {
  view.setUint8(0, kind);
  view.setUint8(1, PROTOCOL_VERSION);
  view.setUint8(2, player);
  view.setUint8(3, 0);
}

/** An INPUT message: `inputs` are Uint8Arrays of `size` bytes, the sender's frames first..first+n-1. */
export function encodeInput(player, acks, first, inputs, size) {
  const bytes = new Uint8Array(HEADER_BYTES + 4 * acks.length + 8 + inputs.length * size);
  const view = new DataView(bytes.buffer);
  header(view, KIND_INPUT, player);
  let at = HEADER_BYTES;
  for (const ack of acks) { view.setUint32(at, ack < 0 ? NONE : ack, true); at += 4; }
  view.setUint32(at, first, true);
  view.setUint16(at + 4, inputs.length, true);
  view.setUint16(at + 6, size, true);
  at += 8;
  for (const input of inputs) { bytes.set(input, at); at += size; }
  return bytes;
}

/** A HASH message: `hash` is stateHash()'s 16 hex digits. */
export function encodeHash(player, frame, hash) {
  const bytes = new Uint8Array(HEADER_BYTES + 12);
  const view = new DataView(bytes.buffer);
  header(view, KIND_HASH, player);
  view.setUint32(HEADER_BYTES, frame, true);
  for (let i = 0; i < 8; i += 1) bytes[HEADER_BYTES + 4 + i] = parseInt(hash.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * A received message as { kind, player, ... }, or null when it is not one of this protocol's for
 * a session of `players` players with inputs of `size` bytes (another version, a header whose
 * last byte is not 0, truncated, a player out of range): such a message is dropped, never trusted.
 */
export function decode(bytes, players, size) {
  if (!(bytes instanceof Uint8Array) || bytes.length < HEADER_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = view.getUint8(0);
  const player = view.getUint8(2);
  // The fourth byte is 0 in this version: anything else is another protocol's message.
  if (view.getUint8(1) !== PROTOCOL_VERSION || player >= players || view.getUint8(3) !== 0) return null;
  if (kind === KIND_INPUT) {
    const fixed = HEADER_BYTES + 4 * players + 8;
    if (bytes.length < fixed) return null;
    const acks = [];
    for (let p = 0; p < players; p += 1) {
      const ack = view.getUint32(HEADER_BYTES + 4 * p, true);
      acks.push(ack === NONE ? -1 : ack);
    }
    const at = HEADER_BYTES + 4 * players;
    const first = view.getUint32(at, true);
    const count = view.getUint16(at + 4, true);
    if (view.getUint16(at + 6, true) !== size || bytes.length !== fixed + count * size) return null;
    const inputs = [];
    for (let i = 0; i < count; i += 1) inputs.push(bytes.slice(fixed + i * size, fixed + (i + 1) * size));
    return { kind, player, acks, first, inputs };
  }
  if (kind === KIND_HASH) {
    if (bytes.length !== HEADER_BYTES + 12) return null;
    let hash = '';
    for (let i = 0; i < 8; i += 1) hash += bytes[HEADER_BYTES + 4 + i].toString(16).padStart(2, '0');
    return { kind, player, frame: view.getUint32(HEADER_BYTES, true), hash };
  }
  return null;
}

/** Whether two inputs hold the same bytes (prediction checks compare bytes, never values). */
export function sameInput(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}
