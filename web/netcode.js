// Rollback netcode (GGPO-style) over the engine's deterministic frames and snapshots: each peer
// runs every frame at once with the inputs it has, predicting the ones still on their way (a
// player's last known input), and when a real input differs from what a frame used, restores the
// snapshot taken before that frame and runs the frames since again, inside advance(), on all the
// page's threads. Peers compare stateHash() of confirmed frames, so a desync is never silent (G3).
// docs/NETCODE.md: the protocol, its limits and how to use it.
//   import { RollbackSession, LoopbackTransport, WebSocketTransport } from 'ecsia-wasm/netcode'
// Thread rule: the page's main thread (the session's calls are the world's and scheduler's).

import { describe, isHandle, isPlainObject } from './internal/checks.js';
import { internalsOf } from './internal/engine.js';
import { decode, encodeHash, encodeInput, KIND_HASH, KIND_INPUT, sameInput } from './internal/netcode_protocol.js';
import { checkField, loadField, storeField } from './internal/world_core.js';

export { LoopbackTransport, WebSocketTransport } from './internal/netcode_transports.js';

const EVENTS = ['desync', 'stall', 'resume'];
// The transports of open sessions: one transport serves one session (it has one onmessage).
const TRANSPORTS_IN_USE = new WeakSet();
const HASH_HISTORY = 32;        // hashes kept per side, in hashEvery steps
const STALLED_RESEND_MS = 50;   // while stalled, inputs are resent at most this often
const MAX_INPUT_DELAY = 60;     // the options' limits
const MAX_ROLLBACK = 120;
// How far past this session's next frame a peer's input or hash can be: a peer runs at most its
// maxRollback frames past the inputs it holds of ours (which reach our next frame + our delay),
// and its inputs go its own delay further on. A message beyond it is no peer session's; its
// frames are dropped, unacknowledged (a genuine input is resent), instead of being held until
// this session reached them (for frame 4e9: never, and every prune walks them).
const PEER_LEAD = MAX_ROLLBACK + MAX_INPUT_DELAY + 1;

function wholeNumber(op, options, key, fallback, min, max) {
  const value = options[key] ?? fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${op}: ${key} must be a whole number from ${min} to ${max}, got ${describe(value)}`);
  }
  return value;
}

/** One input's bytes from field values (the component's element; fields not given are 0). */
function inputCodec(op, core, name) {
  const entry = core.component(op, name);
  if (entry.tag) throw new Error(`${op}: inputComponent '${name}' is a tag; an input needs fields`);
  const size = entry.size;
  return {
    name,
    entry,
    size,
    defaults: entry.defaults.slice(),
    encode(values, where) {
      if (!isPlainObject(values)) throw new Error(`${where}: takes an object of '${name}' field values, got ${describe(values)}`);
      const bytes = entry.defaults.slice();
      const dv = new DataView(bytes.buffer);
      for (const key of Object.keys(values)) {
        const field = entry.fieldMap.get(key);
        if (field === undefined) {
          throw new Error(`${where}: '${name}' has no field '${key}' (fields: ${entry.fields.map((f) => f.name).join(', ')})`);
        }
        storeField(dv, field.offset, field.type, checkField(where, name, field, values[key]));
      }
      return bytes;
    },
    // Whether `bytes` are exactly what encode() makes of the values they hold. A peer's input is
    // written into the world as its bytes, so one that setLocalInput could not have made (a NaN,
    // a bool of 7, bytes between fields) is refused, not written.
    accepts(bytes) {
      if (bytes.length !== size) return false;
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const again = entry.defaults.slice();
      const out = new DataView(again.buffer);
      for (const field of entry.fields) {
        let value;
        try {
          value = checkField('', name, field, loadField(dv, field.offset, field.type));
        } catch {
          return false;
        }
        storeField(out, field.offset, field.type, value);
      }
      return sameInput(again, bytes);
    },
  };
}

/** The last `size` frames' snapshots by frame: the state before each frame ran. */
class SnapshotRing {
  #slots;

  constructor(size) { this.#slots = Array.from({ length: size }, () => ({ frame: -1, bytes: null, buffer: undefined })); }

  save(frame, world) {
    const slot = this.#slots[frame % this.#slots.length];
    slot.bytes = world.snapshot(slot.buffer);
    if (slot.buffer === undefined || slot.bytes.buffer !== slot.buffer.buffer) slot.buffer = slot.bytes;
    slot.frame = frame;
  }

  get(frame) {
    const slot = this.#slots[frame % this.#slots.length];
    return slot.frame === frame ? slot.bytes : null;
  }
}

// Extra arguments are errors, never ignored (as in every other call of the API).
function arity(op, given, most) {
  throw new Error(`${op}: takes ${most === 0 ? 'no arguments' : `at most ${most} argument${most === 1 ? '' : 's'}`}, got ${given}`);
}

/**
 * A rollback session of `players` peers, one of them this page (`localPlayer`). Each frame the
 * session writes every player's input into `inputComponent` of that player's entity, then runs
 * the scheduler's frame. See docs/NETCODE.md.
 */
export class RollbackSession {
  #world;
  #scheduler;
  #core;
  #transport;
  #codec;
  #players;
  #local;
  #entities;
  #delay;
  #maxRollback;
  #hashEvery;
  #frame = 0;                // the next frame to run
  #inputs;                   // per player: frame -> input bytes (real ones: local or received)
  #contiguous;               // per player: the newest frame with every frame up to it known
  #peerAcks;                 // per player: the newest frame of ours they hold with all before it
  #used = new Map();         // frame -> { inputs: per player, the inputs it ran with; dt }
  #rollbackFrom = Infinity;  // the earliest frame that ran with an input now known wrong
  #ring;
  #localInput;
  #queue = [];               // messages arrived since the last advance/poll
  #localHashes = new Map();  // frame -> our stateHash() after it
  #remoteHashes = new Map(); // frame -> Map(player -> hash)
  #refused = new Set();      // players whose inputs were refused (reported once each)
  #refusedAcks = new Set();  // players whose acknowledgements were refused (reported once each)
  #refusedAhead = new Set(); // players whose frames beyond PEER_LEAD were dropped (reported once each)
  #compared = new Set();     // frame * 256 + player: the hashes compared already (players <= 255)
  #hashesSentTo = -1;        // the newest hashed frame whose hash was sent (-1: none)
  #listeners = new Map(EVENTS.map((e) => [e, new Set()]));
  #stalled = false;
  #lastResend = -Infinity;
  #busy = false;
  #closed = false;
  #stats = { frame: 0, confirmedFrame: -1, rollbacks: 0, framesResimulated: 0, lastRollbackMs: 0, desyncs: 0, hashesCompared: 0, stalls: 0 };

  /**
   * @param {object} options
   *   world, scheduler: the world the session runs and its scheduler
   *   players (>= 1), localPlayer (0..players-1)
   *   inputComponent: the component each player's input is written into every frame
   *   playerEntities: one entity per player that has inputComponent
   *   inputDelay (default 2): frames between setting a local input and the frame it applies to
   *   maxRollback (default 8): the deepest prediction; beyond it the session stalls
   *   hashEvery (default 30): confirmed frames between two exchanged state hashes
   *   transport: a LoopbackTransport end, a WebSocketTransport, or any { send(bytes), onmessage }
   */
  constructor(options) {
    const op = 'new RollbackSession';
    if (arguments.length > 1) arity(op, arguments.length, 1);
    if (!isPlainObject(options)) throw new Error(`${op}: takes an options object, got ${describe(options)}`);
    const known = ['world', 'scheduler', 'players', 'localPlayer', 'inputComponent', 'playerEntities', 'inputDelay', 'maxRollback', 'hashEvery', 'transport'];
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) throw new Error(`${op}: unknown option '${key}' (known: ${known.join(', ')})`);
    }
    const { world, scheduler, transport, inputComponent, playerEntities } = options;
    this.#core = internalsOf(world, 'world (options.world)');
    if (internalsOf(scheduler, 'scheduler (options.scheduler)').world !== this.#core) {
      throw new Error(`${op}: options.scheduler runs another world than options.world`);
    }
    if (world.disposed) throw new Error(`${op}: options.world was disposed`);
    if (scheduler.disposed) throw new Error(`${op}: options.scheduler was disposed`);
    this.#world = world;
    this.#scheduler = scheduler;
    this.#players = wholeNumber(op, options, 'players', undefined, 1, 255);
    this.#local = wholeNumber(op, options, 'localPlayer', undefined, 0, this.#players - 1);
    this.#delay = wholeNumber(op, options, 'inputDelay', 2, 0, MAX_INPUT_DELAY);
    this.#maxRollback = wholeNumber(op, options, 'maxRollback', 8, 1, MAX_ROLLBACK);
    this.#hashEvery = wholeNumber(op, options, 'hashEvery', 30, 1, 1 << 20);
    if (typeof inputComponent !== 'string') throw new Error(`${op}: inputComponent must be a component name, got ${describe(inputComponent)}`);
    this.#codec = inputCodec(op, this.#core, inputComponent);
    if (!Array.isArray(playerEntities) || playerEntities.length !== this.#players) {
      throw new Error(`${op}: playerEntities must be an array of ${this.#players} entities (one per player), got ${describe(playerEntities)}`);
    }
    for (const entity of playerEntities) {
      if (!isHandle(entity)) {
        throw new Error(`${op}: playerEntities holds ${describe(entity)}, not an entity handle (handles are the numbers spawn() returns)`);
      }
      if (!world.isAlive(entity) || !world.has(entity, inputComponent)) {
        throw new Error(`${op}: player entity ${describe(entity)} is not alive with a '${inputComponent}'`);
      }
    }
    if (new Set(playerEntities).size !== playerEntities.length) {
      throw new Error(`${op}: playerEntities names an entity twice: each player needs an entity of its own`);
    }
    this.#entities = playerEntities.slice();
    if (transport === null || typeof transport !== 'object' || typeof transport.send !== 'function') {
      throw new Error(`${op}: transport must have send(bytes) (a LoopbackTransport end or a WebSocketTransport), got ${describe(transport)}`);
    }
    if (transport.closed === true) throw new Error(`${op}: the transport was closed (closing a session closes its transport): give a new one`);
    if (TRANSPORTS_IN_USE.has(transport)) {
      throw new Error(`${op}: the transport belongs to another open session (its messages go to one session): close that one first, or give a new one`);
    }
    this.#transport = transport;
    // Frames before the input delay run with every player's default input: known to all.
    this.#inputs = Array.from({ length: this.#players }, () => new Map());
    this.#contiguous = new Array(this.#players).fill(this.#delay - 1);
    this.#peerAcks = new Array(this.#players).fill(this.#delay - 1);
    this.#localInput = this.#codec.defaults.slice();
    this.#ring = new SnapshotRing(this.#maxRollback + 2);
    transport.onmessage = (bytes) => { if (!this.#closed) this.#queue.push(bytes); };
    TRANSPORTS_IN_USE.add(transport);
  }

  /** This frame's local input: values of inputComponent's fields (those not given are 0). */
  setLocalInput(values) {
    if (arguments.length > 1) arity('session.setLocalInput', arguments.length, 1);
    this.#open('setLocalInput');
    this.#localInput = this.#codec.encode(values, 'session.setLocalInput');
  }

  /**
   * One frame: takes the local input for frame + inputDelay, sends what the peers lack, rolls
   * back and runs again the frames a late input changed, then runs the next frame. Resolves
   * true when it ran a frame, false when it stalled: a peer's inputs are more than maxRollback
   * frames behind (the session waits rather than predict deeper; a diagnostic says for whom).
   */
  async advance(dt) {
    if (arguments.length > 1) arity('session.advance', arguments.length, 1);
    this.#open('advance');
    if (typeof dt !== 'number' || !(dt >= 0) || dt === Infinity) throw new Error(`session.advance: dt must be a finite number >= 0, got ${describe(dt)}`);
    this.#enter('advance');
    try {
      this.#receive();
      await this.#rollBack();
      const waitingFor = this.#waitingFor();
      if (waitingFor.length > 0) {
        this.#stall(waitingFor);
        return false;
      }
      if (this.#stalled) {
        this.#stalled = false;
        this.#emit('resume', { frame: this.#frame });
      }
      const target = this.#frame + this.#delay;
      this.#inputs[this.#local].set(target, this.#localInput.slice());
      this.#contiguous[this.#local] = target;
      this.#sendInputs();
      await this.#run(this.#frame, dt);
      this.#frame += 1;
      this.#finish();
      return true;
    } finally {
      this.#busy = false;
    }
  }

  /**
   * Takes in what arrived without running a new frame: rolls back if an input says so, sends
   * acknowledgements and hashes. For a page that stops at a frame and waits for the peers.
   */
  async poll() {
    if (arguments.length > 0) arity('session.poll', arguments.length, 0);
    this.#open('poll');
    this.#enter('poll');
    try {
      this.#receive();
      await this.#rollBack();
      this.#sendInputs();
      this.#finish();
    } finally {
      this.#busy = false;
    }
  }

  /**
   * { frame: frames run, confirmedFrame: the newest frame run with every player's real input
   * (-1: none), rollbacks, framesResimulated, lastRollbackMs, desyncs, hashesCompared, stalls }.
   */
  get stats() { return { ...this.#stats }; }

  /** Listens to 'desync' ({ frame, local, remote, player }), 'stall' ({ frame, waitingFor }) or 'resume' ({ frame }). Returns a function that stops it. */
  on(event, listener) {
    if (arguments.length > 2) arity('session.on', arguments.length, 2);
    if (!EVENTS.includes(event)) throw new Error(`session.on: unknown event ${describe(event)} (events: ${EVENTS.join(', ')})`);
    if (typeof listener !== 'function') throw new Error(`session.on: the listener must be a function, got ${describe(listener)}`);
    this.#listeners.get(event).add(listener);
    return () => this.#listeners.get(event).delete(listener);
  }

  /** Stops the session: the transport is closed, later calls throw. The world stays as it is. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    TRANSPORTS_IN_USE.delete(this.#transport);
    this.#transport.onmessage = null;
    if (typeof this.#transport.close === 'function') this.#transport.close();
  }

  #open(op) {
    if (this.#closed) throw new Error(`session.${op}: the session was closed`);
    if (this.#world.disposed) throw new Error(`session.${op}: the session's world was disposed`);
    if (this.#scheduler.disposed) throw new Error(`session.${op}: the session's scheduler was disposed`);
  }

  #enter(op) {
    if (this.#busy) throw new Error(`session.${op}: the previous advance() or poll() has not finished (await it first)`);
    this.#busy = true;
  }

  #emit(event, detail) {
    for (const listener of this.#listeners.get(event)) {
      try { listener(detail); } catch (error) { this.#core.report(`netcode: a '${event}' listener threw: ${error?.message ?? error}`); }
    }
  }

  // The messages that arrived: inputs fill the players' queues (and mark a rollback when one
  // differs from what its frame ran with); hashes wait for their frame to be confirmed here.
  #receive() {
    const queue = this.#queue;
    this.#queue = [];
    for (const bytes of queue) {
      const message = decode(bytes, this.#players, this.#codec.size);
      if (message === null || message.player === this.#local) continue;
      if (message.kind === KIND_INPUT) {
        if (message.inputs.every((input) => this.#codec.accepts(input))) this.#takeInputs(message);
        else this.#refuse(message.player);
      } else if (message.kind === KIND_HASH) this.#takeHash(message);
    }
  }

  // A peer's inputs that no setLocalInput could have made: the whole message is dropped (said
  // once per player), as a message of another protocol is.
  #refuse(player) {
    if (this.#refused.has(player)) return;
    this.#refused.add(player);
    this.#core.report(`netcode: player ${player} sent inputs that are no values of '${this.#codec.name}' ` +
      '(a NaN, a bool other than 0 or 1, or bytes between its fields); such messages are dropped');
  }

  #takeInputs({ player, acks, first, inputs }) {
    // An acknowledgement of local frames not yet sent cannot come from the peer's session: taken,
    // it would stop every resend of our inputs and prune the ones it still needs (both sides
    // would then wait for each other for good). The message is dropped, said once per player.
    if (acks[this.#local] > this.#contiguous[this.#local]) {
      if (!this.#refusedAcks.has(player)) {
        this.#refusedAcks.add(player);
        this.#core.report(`netcode: player ${player} acknowledged frame ${acks[this.#local]} of ours, which we have not sent ` +
          `(we are at ${this.#contiguous[this.#local]}); such messages are dropped`);
      }
      return;
    }
    this.#peerAcks[player] = Math.max(this.#peerAcks[player], acks[this.#local]);
    const known = this.#inputs[player];
    for (let i = 0; i < inputs.length; i += 1) {
      const frame = first + i;
      if (frame <= this.#contiguous[player] || known.has(frame)) continue;
      if (this.#beyondLead(player, frame, 'an input')) break;
      known.set(frame, inputs[i]);
      const used = this.#used.get(frame);
      if (used !== undefined && !sameInput(used.inputs[player], inputs[i])) this.#rollbackFrom = Math.min(this.#rollbackFrom, frame);
    }
    while (known.has(this.#contiguous[player] + 1)) this.#contiguous[player] += 1;
  }

  #takeHash({ player, frame, hash }) {
    if (this.#compared.has(frame * 256 + player)) return;  // a resent hash, compared already
    if (this.#beyondLead(player, frame, 'a hash')) return;
    if (!this.#remoteHashes.has(frame)) this.#remoteHashes.set(frame, new Map());
    this.#remoteHashes.get(frame).set(player, hash);
  }

  // True when `frame` is further ahead than a peer's session can be (PEER_LEAD): said once per player.
  #beyondLead(player, frame, what) {
    const newest = this.#frame + this.#delay + PEER_LEAD;
    if (frame <= newest) return false;
    if (!this.#refusedAhead.has(player)) {
      this.#refusedAhead.add(player);
      this.#core.report(`netcode: player ${player} sent ${what} for frame ${frame}, beyond frame ${newest}, the furthest ` +
        `a peer's session can be ahead of this one (at frame ${this.#frame}); such frames are dropped`);
    }
    return true;
  }

  // The players whose missing inputs would make the next frame predict deeper than maxRollback.
  #waitingFor() {
    const out = [];
    for (let p = 0; p < this.#players; p += 1) {
      if (p !== this.#local && this.#frame - this.#contiguous[p] > this.#maxRollback) out.push(p);
    }
    return out;
  }

  #stall(waitingFor) {
    if (!this.#stalled) {
      this.#stalled = true;
      this.#stats.stalls += 1;
      this.#core.report(`netcode: frame ${this.#frame} waits for the inputs of player ${waitingFor.join(', ')} ` +
        `(more than maxRollback = ${this.#maxRollback} frames behind); the session stalls rather than predict deeper`);
      this.#emit('stall', { frame: this.#frame, waitingFor });
    }
    // Resend now and then, so a peer that lost our inputs (or reconnects) gets them again.
    const now = performance.now();
    if (now - this.#lastResend >= STALLED_RESEND_MS) this.#sendInputs();
  }

  // A player's input at `frame`: the real one when known, else the newest one before it
  // (repeat-last prediction), else the default (also every frame before the input delay).
  #inputAt(player, frame) {
    if (frame < this.#delay) return this.#codec.defaults;
    const known = this.#inputs[player];
    const exact = known.get(frame);
    if (exact !== undefined) return exact;
    for (let f = frame - 1; f >= this.#delay && f >= this.#contiguous[player]; f -= 1) {
      const input = known.get(f);
      if (input !== undefined) return input;
    }
    return this.#codec.defaults;
  }

  // The oldest of our frames some peer still lacks, less one.
  #minPeerAck() {
    let min = Infinity;
    for (let p = 0; p < this.#players; p += 1) if (p !== this.#local) min = Math.min(min, this.#peerAcks[p]);
    return min === Infinity ? this.#contiguous[this.#local] : min;
  }

  // Runs frame `frame` from the world as it is: snapshot first (the state a rollback to it
  // restores), then the inputs, then the scheduler's frame with `dt` (a frame run again keeps
  // the dt it first ran with); records its hash when it is one. A confirmed frame takes no
  // snapshot: a rollback goes back to a frame some input was predicted for, never to one that
  // every player's real input has reached (those are most of a rollback's frames, and a
  // snapshot costs a third of a frame of 10,000 entities: docs/PERFORMANCE.md, rollback).
  async #run(frame, dt) {
    if (frame > this.#confirmedFrame()) this.#ring.save(frame, this.#world);
    const used = [];
    for (let p = 0; p < this.#players; p += 1) {
      const input = this.#inputAt(p, frame);
      used.push(input);
      // The input's bytes are the component's element: written as they are, as world.set would.
      try {
        this.#core.setElementBytes('set', this.#entities[p], this.#codec.entry, input);
      } catch (error) {
        // The player's entity was despawned or lost the input component behind the session.
        error.message = `session: player ${p}'s entity ${this.#entities[p]} cannot take its input for frame ${frame}: ${error.message}`;
        throw error;
      }
    }
    this.#used.set(frame, { inputs: used, dt });
    await this.#scheduler.update(dt);
    if ((frame + 1) % this.#hashEvery === 0) this.#localHashes.set(frame, this.#world.stateHash());
  }

  async #rollBack() {
    const from = this.#rollbackFrom;
    if (from >= this.#frame) {
      this.#rollbackFrom = Infinity;
      return;
    }
    const bytes = this.#ring.get(from);
    if (bytes === null) {
      throw new Error(`session.advance: frame ${from} is no longer in the snapshot ring of ${this.#maxRollback + 2} (a bug: the session never predicts deeper than maxRollback)`);
    }
    const started = performance.now();
    this.#rollbackFrom = Infinity;
    this.#world.restore(bytes);
    for (let frame = from; frame < this.#frame; frame += 1) await this.#run(frame, this.#used.get(frame).dt);
    this.#stats.rollbacks += 1;
    this.#stats.framesResimulated += this.#frame - from;
    this.#stats.lastRollbackMs = performance.now() - started;
  }

  #sendInputs() {
    const from = Math.max(Math.min(this.#minPeerAck(), this.#contiguous[this.#local]) + 1, this.#delay);
    const inputs = [];
    for (let f = from; f <= this.#contiguous[this.#local]; f += 1) inputs.push(this.#inputs[this.#local].get(f));
    this.#transport.send(encodeInput(this.#local, this.#contiguous, from, inputs, this.#codec.size));
    // Every hashed frame confirmed since the last send goes once (the confirmed frame may jump by
    // many at a time), and the newest two go along every time: a lost one arrives with the next send.
    const every = this.#hashEvery;
    const confirmed = this.#confirmedFrame();
    const newest = confirmed - ((confirmed + 1) % every);
    for (let frame = Math.min(this.#hashesSentTo + every, newest - every); frame <= newest; frame += every) {
      const hash = frame < 0 ? undefined : this.#localHashes.get(frame);
      if (hash !== undefined) this.#transport.send(encodeHash(this.#local, frame, hash));
    }
    if (newest > this.#hashesSentTo) this.#hashesSentTo = newest;
    this.#lastResend = performance.now();
  }

  // The newest frame every player's real input has reached, and that has run.
  #confirmedFrame() {
    let confirmed = this.#frame - 1;
    for (let p = 0; p < this.#players; p += 1) confirmed = Math.min(confirmed, this.#contiguous[p]);
    return confirmed;
  }

  // After a frame or a poll: the confirmed frame, its hashes sent and compared, old state pruned.
  #finish() {
    const confirmed = this.#confirmedFrame();
    this.#stats.frame = this.#frame;
    this.#stats.confirmedFrame = confirmed;
    for (const [frame, hash] of this.#localHashes) {
      if (frame > confirmed) continue;
      const remote = this.#remoteHashes.get(frame);
      if (remote === undefined) continue;
      for (const [player, theirs] of remote) {
        this.#compared.add(frame * 256 + player);
        this.#stats.hashesCompared += 1;
        if (theirs !== hash) {
          this.#stats.desyncs += 1;
          this.#core.report(`netcode: desync at frame ${frame}: this peer's state hash ${hash}, player ${player}'s ${theirs}`);
          this.#emit('desync', { frame, local: hash, remote: theirs, player });
        }
      }
      this.#remoteHashes.delete(frame);
    }
    this.#prune(confirmed);
  }

  #prune(confirmed) {
    // Inputs and records no rollback can reach any more (every frame up to `confirmed` is final).
    const keepFrom = Math.min(confirmed, this.#frame - this.#maxRollback - 2);
    for (const frame of this.#used.keys()) if (frame < keepFrom) this.#used.delete(frame);
    for (let p = 0; p < this.#players; p += 1) {
      const floor = Math.min(keepFrom, this.#contiguous[p] - 1, p === this.#local ? this.#minPeerAck() + 1 : Infinity);
      for (const frame of this.#inputs[p].keys()) if (frame < floor) this.#inputs[p].delete(frame);
    }
    const oldest = confirmed - HASH_HISTORY * this.#hashEvery;
    for (const frame of this.#localHashes.keys()) if (frame < oldest) this.#localHashes.delete(frame);
    for (const frame of this.#remoteHashes.keys()) if (frame < oldest) this.#remoteHashes.delete(frame);
    for (const key of this.#compared) if (key < oldest * 256) this.#compared.delete(key);
  }
}
