// Types of the netcode module, web/netcode.js ('ecsia-wasm/netcode'): a rollback session over a
// transport. docs/NETCODE.md describes the protocol (messages, sizes), its guarantees and limits.
//
// Thread rule for everything: the page's main thread.

import type { ComponentValues, Entity, World } from './world.js';
import type { Scheduler } from './scheduler.js';

/** A link between peers: carries whole binary messages, with no promise of delivery or order. */
export interface Transport {
  /** Hands one message to the link; never throws for a link that is down (the message is lost). */
  send(bytes: Uint8Array): void;
  /** Set by the session: called with each message that arrives. */
  onmessage: ((bytes: Uint8Array) => void) | null;
  /** Ends the link for good (the session calls it from close()). */
  close?(): void;
  /** True once closed: a session refuses such a transport. */
  readonly closed?: boolean;
}

/** Conditions LoopbackTransport.pair applies to each message, each direction with its own draw. */
export interface LinkOptions {
  /** Delay of every message in ms (default 0). */
  latencyMs?: number;
  /** ± this many ms, uniform, on top of latencyMs (default 0). */
  jitterMs?: number;
  /** The probability that a message is lost, 0 to 1 (default 0). */
  loss?: number;
  /** Whether a later message may arrive before an earlier one (default false). */
  reorder?: boolean;
  /** The seed of the link's draws: the same conditions every run (default 1). */
  seed?: number;
}

/** One end of an in-page link: two players in one page, or a test's lossy network. */
export declare class LoopbackTransport implements Transport {
  /** Two connected ends. */
  static pair(options?: LinkOptions): [LoopbackTransport, LoopbackTransport];
  /** False while disconnected or once closed. */
  readonly connected: boolean;
  /** True once close() ran. */
  readonly closed: boolean;
  onmessage: ((bytes: Uint8Array) => void) | null;
  send(bytes: Uint8Array): void;
  /** Cuts the link both ways until reconnect(): what is sent or in flight meanwhile is lost. */
  disconnect(): void;
  reconnect(): void;
  close(): void;
  private constructor();
}

export interface WebSocketTransportOptions {
  /** Ms between a dropped connection and the next attempt (default 500). */
  reconnectMs?: number;
}

/**
 * A WebSocket to a relay (`scripts/relay --port N` in the repository) that forwards each message
 * to the other peers of the same room, the URL's path (ws://host:port/room/1). Reconnects on its
 * own; messages sent while it is down are lost (the session resends what is not acknowledged).
 */
export declare class WebSocketTransport implements Transport {
  constructor(url: string | URL, options?: WebSocketTransportOptions);
  readonly connected: boolean;
  /** True once close() ran: no reconnect follows. */
  readonly closed: boolean;
  /** Drops of the connection so far (each followed by a reconnect attempt). */
  readonly drops: number;
  onmessage: ((bytes: Uint8Array) => void) | null;
  send(bytes: Uint8Array): void;
  close(): void;
}

export interface RollbackSessionOptions {
  /** The world the session runs; every peer's must start in the same state. */
  world: World;
  /** The world's scheduler: one update() per frame. */
  scheduler: Scheduler;
  /** Peers in the session, 1 to 255. */
  players: number;
  /** This page's player, 0 to players - 1. */
  localPlayer: number;
  /** A component with fields on each player's entity, written with that player's input every frame. */
  inputComponent: string;
  /** One live entity per player, in player order, each with `inputComponent`. */
  playerEntities: Entity[];
  /** Frames between setLocalInput() and the frame it applies to (default 2, 0 to 60). */
  inputDelay?: number;
  /** The deepest prediction, in frames; beyond it the session stalls (default 8, 1 to 120). */
  maxRollback?: number;
  /** Frames between two exchanged state hashes (default 30). */
  hashEvery?: number;
  transport: Transport;
}

export interface SessionStats {
  /** Frames run (the next frame's number). */
  frame: number;
  /** The newest frame that ran with every player's real input (-1: none yet). */
  confirmedFrame: number;
  /** Times a late input restored a snapshot and ran frames again. */
  rollbacks: number;
  /** Frames run again by those rollbacks. */
  framesResimulated: number;
  /** The last rollback's restore and re-runs, in ms. */
  lastRollbackMs: number;
  /** Exchanged state hashes that differed. */
  desyncs: number;
  /** Exchanged state hashes compared (one per peer per hashed frame). */
  hashesCompared: number;
  /** Times the session began to wait for a peer. */
  stalls: number;
}

export interface DesyncEvent {
  /** The frame whose state differs (its hash taken after it ran). */
  frame: number;
  /** This peer's stateHash() after that frame, and the peer's. */
  local: string;
  remote: string;
  /** The peer that sent `remote`. */
  player: number;
}

export interface SessionEvents {
  desync: DesyncEvent;
  /** The session stopped running frames: these players' inputs are too far behind. */
  stall: { frame: number; waitingFor: number[] };
  /** It runs frames again. */
  resume: { frame: number };
}

/**
 * GGPO-style rollback over the engine's deterministic frames and snapshots. Each advance() runs
 * one frame with the inputs known, predicting a late player's as their last known one; when the
 * real input differs, the snapshot taken before the frame that used the prediction is restored
 * and the frames since run again, inside the same advance().
 */
export declare class RollbackSession {
  /** Throws an Error naming the option that is missing or wrong. */
  constructor(options: RollbackSessionOptions);
  /** This frame's local input: fields of inputComponent (those not given are 0); checked like world.set. */
  setLocalInput(values: ComponentValues): void;
  /**
   * One frame: sends the local input, rolls back and runs again what a late input changed, then
   * runs the next frame. Resolves true when it ran a frame, false when it stalled (a peer is more
   * than maxRollback frames behind; a diagnostic says whom). Call one advance() or poll() at a time.
   */
  advance(dt: number): Promise<boolean>;
  /** Takes in what arrived and rolls back if needed, without running a new frame. */
  poll(): Promise<void>;
  readonly stats: SessionStats;
  /** Listens to an event; returns a function that stops listening. */
  on<K extends keyof SessionEvents>(event: K, listener: (event: SessionEvents[K]) => void): () => void;
  /** Closes the transport; later calls throw. The world stays as it is. */
  close(): void;
}
