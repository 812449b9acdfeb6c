// Internal to the netcode module (web/netcode.js): the transports a RollbackSession talks
// through. A transport carries whole binary messages (Uint8Array) between peers, with no promise
// of delivery or order: the session resends what is not acknowledged and ignores duplicates.
//   send(bytes)     hands one message to the link (never throws for a link that is down)
//   onmessage       set by the session: called with each message that arrives
//   close()         ends the link for good
// Thread rule: the page's main thread (or the worker that owns the session).

import { describe, isPlainObject } from './checks.js';

/** A seeded generator of numbers in [0, 1) (mulberry32): the same link conditions every run. */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The longest delay setTimeout keeps (a longer one fires at once): latencyMs and jitterMs are at
// most half of it each, so that their sum is one too.
const MAX_TIMER_MS = 2 ** 31 - 1;
const MAX_DELAY_MS = 1e9;

function nonNegative(op, options, key, fallback, max = Infinity) {
  const value = options[key] ?? fallback;
  if (typeof value !== 'number' || !(value >= 0) || value > max) {
    throw new Error(`${op}: ${key} must be a number from 0 to ${max}, got ${describe(value)}`);
  }
  return value;
}

/**
 * Link conditions applied to each message a link carries: a delay of latencyMs ± jitterMs
 * (uniform), a loss probability, and whether a later message may overtake an earlier one.
 * Options are checked here so every transport that takes them words errors the same way.
 */
export class LinkConditions {
  constructor(op, options = {}) {
    if (!isPlainObject(options)) throw new Error(`${op}: takes an object of link conditions, got ${describe(options)}`);
    const known = ['latencyMs', 'jitterMs', 'loss', 'reorder', 'seed'];
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) throw new Error(`${op}: unknown option '${key}' (known: ${known.join(', ')})`);
    }
    this.latencyMs = nonNegative(op, options, 'latencyMs', 0, MAX_DELAY_MS);
    this.jitterMs = nonNegative(op, options, 'jitterMs', 0, MAX_DELAY_MS);
    this.loss = nonNegative(op, options, 'loss', 0, 1);
    this.reorder = options.reorder ?? false;
    if (typeof this.reorder !== 'boolean') throw new Error(`${op}: reorder must be true or false, got ${describe(this.reorder)}`);
    const seed = options.seed ?? 1;
    if (!Number.isInteger(seed)) throw new Error(`${op}: seed must be a whole number, got ${describe(seed)}`);
    this.random = seededRandom(seed);
    this.lastDelivery = 0;  // without reorder: no message is delivered before an earlier one
  }

  /** When to deliver a message sent now (performance.now() ms), or -1 to lose it. */
  deliveryTime(now) {
    if (this.loss > 0 && this.random() < this.loss) return -1;
    const jitter = this.jitterMs === 0 ? 0 : (2 * this.random() - 1) * this.jitterMs;
    let at = now + Math.max(0, this.latencyMs + jitter);
    if (!this.reorder) at = Math.max(at, this.lastDelivery);
    this.lastDelivery = Math.max(this.lastDelivery, at);
    return at;
  }
}

/**
 * One end of an in-page link (LoopbackTransport.pair): for tests and for two players in one page.
 * disconnect() and reconnect() cut and restore the link (messages sent while cut are lost), as a
 * network outage would.
 */
export class LoopbackTransport {
  #peer = null;
  #conditions;
  #connected = true;
  #closed = false;
  #timers = new Set();

  constructor(conditions) {
    this.#conditions = conditions;
    /** Called with each message that arrives (the session sets it). */
    this.onmessage = null;
  }

  /**
   * Two connected ends. Options (each direction has its own copy, seeded apart): latencyMs
   * (default 0), jitterMs (± uniform, default 0), loss (a probability, default 0), reorder
   * (default false: messages keep their order), seed (default 1).
   */
  static pair(options = {}) {
    const a = new LoopbackTransport(new LinkConditions('LoopbackTransport.pair', options));
    const b = new LoopbackTransport(new LinkConditions('LoopbackTransport.pair', { ...options, seed: (options.seed ?? 1) + 0x9e3779b9 }));
    a.#peer = b;
    b.#peer = a;
    return [a, b];
  }

  get connected() { return this.#connected && !this.#closed; }
  /** True once close() ran: the end never carries a message again. */
  get closed() { return this.#closed; }

  send(bytes) {
    if (!(bytes instanceof Uint8Array)) throw new Error(`LoopbackTransport.send: takes a Uint8Array, got ${describe(bytes)}`);
    const peer = this.#peer;
    if (!this.connected || peer === null || !peer.connected) return;
    const now = performance.now();
    const at = this.#conditions.deliveryTime(now);
    if (at < 0) return;
    const copy = bytes.slice();
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (this.connected && peer.connected && typeof peer.onmessage === 'function') peer.onmessage(copy);
    }, at - now);
    this.#timers.add(timer);
  }

  /** Cuts the link both ways until reconnect(): what is sent or in flight meanwhile is lost. */
  disconnect() { this.#connected = false; }
  reconnect() { this.#connected = true; }

  close() {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}

/**
 * A WebSocket to a relay (scripts/relay) that forwards each message to the other peers of the
 * same room (the URL's path). Reconnects on its own after a drop (every `reconnectMs`, default
 * 500); messages sent while it is down are dropped (a session resends its inputs until acked).
 */
export class WebSocketTransport {
  #url;
  #socket = null;
  #closed = false;
  #reconnectMs;
  #timer = null;

  constructor(url, options = {}) {
    if (typeof url !== 'string' && !(url instanceof URL)) {
      throw new Error(`new WebSocketTransport: takes the relay's ws:// URL, got ${describe(url)}`);
    }
    if (!isPlainObject(options)) throw new Error(`new WebSocketTransport: options must be an object, got ${describe(options)}`);
    this.#url = String(url);
    this.#reconnectMs = nonNegative('new WebSocketTransport', options, 'reconnectMs', 500, MAX_TIMER_MS);
    this.onmessage = null;
    /** Drops of the connection so far (each followed by a reconnect attempt). */
    this.drops = 0;
    this.#open();
  }

  get connected() { return this.#socket !== null && this.#socket.readyState === 1; }
  /** True once close() ran: no reconnect follows. */
  get closed() { return this.#closed; }

  #open() {
    if (this.#closed) return;
    const socket = new WebSocket(this.#url);
    socket.binaryType = 'arraybuffer';
    socket.onmessage = (event) => {
      if (event.data instanceof ArrayBuffer && typeof this.onmessage === 'function') this.onmessage(new Uint8Array(event.data));
    };
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      if (this.#closed) return;
      this.drops += 1;
      this.#timer = setTimeout(() => { this.#timer = null; this.#open(); }, this.#reconnectMs);
    };
    this.#socket = socket;
  }

  send(bytes) {
    if (!(bytes instanceof Uint8Array)) throw new Error(`WebSocketTransport.send: takes a Uint8Array, got ${describe(bytes)}`);
    if (this.connected) this.#socket.send(bytes);
  }

  close() {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    const socket = this.#socket;
    this.#socket = null;
    if (socket !== null) socket.close();
  }
}
