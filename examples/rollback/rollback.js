// Rollback, as a game using ecsia writes it: keep the last 8 frames' snapshots in a ring; when an
// input for a past frame arrives late, restore the frame before it and resimulate up to now with
// the input applied, then carry on. Because restore + the same systems replay bit for bit, the
// result equals a run that had the input from the start (e2e/rollback.spec.js checks exactly
// that, frame by frame, threaded and single-threaded).
//
// Only the public API: loadEcsia (with the kernel module ./kernels.js), createWorld,
// defineComponent, spawn/set/get, createScheduler, a JS system, JS kernels,
// world.snapshot(into) and world.restore().

const DT = 1 / 60;
const MOVERS = 2000;

/**
 * The last `size` frames' snapshots, by frame number. Each slot keeps its buffer and hands it to
 * world.snapshot(into), so a snapshot every frame allocates nothing once the buffers fit.
 */
export class SnapshotRing {
  constructor(size) {
    this.size = size;
    this.entries = new Array(size).fill(null);
  }

  /** Takes `world`'s snapshot as frame `frame`'s, into the buffer of the slot it replaces. */
  save(frame, world) {
    const slot = frame % this.size;
    const buffer = this.entries[slot]?.buffer;
    const bytes = world.snapshot(buffer);
    // A view of `buffer` when it was large enough, else a new array: the buffer for next time.
    this.entries[slot] = { frame, bytes, buffer: buffer !== undefined && bytes.buffer === buffer.buffer ? buffer : bytes };
  }

  /** The snapshot taken after `frame`; throws when it has already been overwritten. */
  get(frame) {
    const entry = this.entries[frame % this.size];
    if (entry === null || entry.frame !== frame) throw new Error(`frame ${frame} is no longer in the ring of ${this.size}`);
    return entry.bytes;
  }
}

// A small deterministic generator, so every peer spawns the same world.
function lcg(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * A game: movers and a player under Move and Bounce (the JS kernels of ./kernels.js, which the
 * page's loadEcsia({ kernels }) loaded), and a JS system that
 * applies the inputs known for the frame being simulated (a kick to the player's velocity and a
 * burst of shots: a value change and a structural change).
 */
export function createGame(ecsia, { workers }) {
  const world = ecsia.createWorld({ maxEntities: 16_384 });
  world.defineComponent('position', { x: 'f32', y: 'f32' });
  world.defineComponent('velocity', { dx: 'f32', dy: 'f32' });
  const random = lcg(7);
  for (let i = 0; i < MOVERS; i++) {
    world.spawn({
      position: { x: random() * 1000, y: random() * 1000 },
      velocity: { dx: (random() - 0.5) * 120, dy: (random() - 0.5) * 120 },
    });
  }
  const player = world.spawn({ position: { x: 500, y: 500 }, velocity: { dx: 0, dy: 0 } });
  const game = { world, player, frame: 0, inputs: new Map(), scheduler: null };
  // Input first: systems that touch the same components run in the order they were added.
  const scheduler = world.createScheduler({ workers });
  scheduler.addSystem({
    name: 'Input', reads: [], writes: ['position', 'velocity'],
    run(w) {
      const input = game.inputs.get(game.frame);
      if (input === undefined) return;
      w.set(game.player, 'velocity', { dx: input.dx, dy: input.dy });
      const { x, y } = w.get(game.player, 'position');
      for (let s = 0; s < input.shots; s++) {
        w.spawn({ position: { x, y }, velocity: { dx: input.dx * 3 + s, dy: input.dy * 3 - s } });
      }
    },
  });
  scheduler.addSystem({ name: 'Move', kernel: 'integrate', reads: ['velocity'], writes: ['position'] });
  scheduler.addSystem({ name: 'Bounce', kernel: 'bounce', reads: ['position'], writes: ['velocity'] });
  game.scheduler = scheduler;
  /** Simulates the next frame (its number is game.frame afterwards). */
  game.step = async () => {
    game.frame += 1;
    await scheduler.update(DT);
  };
  game.dispose = () => {
    scheduler.dispose();
    world.dispose();
  };
  return game;
}

/**
 * Runs 120 frames live with a ring of the last 8 snapshots. At frame 107 the input for frame 101
 * arrives late: restore frame 100 (still in the ring), resimulate 101..107 with it, and go on to
 * 120. Returns the hash of every frame, and the same for a straight run that knew the input from
 * the start, and for one without it.
 */
export async function runRollbackExample(ecsia, { workers = ecsia.workers, frames = 120, lateFrame = 101, arrivesAt = 107 } = {}) {
  const input = { dx: 45, dy: -30, shots: 6 };
  const ring = new SnapshotRing(8);

  const live = createGame(ecsia, { workers });
  ring.save(0, live.world);
  const hashes = [];
  const predicted = [];  // hashes of the frames that were later resimulated, as first simulated
  let rolledBackFrom = null;
  while (live.frame < frames) {
    await live.step();
    ring.save(live.frame, live.world);
    hashes[live.frame] = live.world.stateHash();
    if (live.frame === arrivesAt) {
      live.inputs.set(lateFrame, input);              // the late input, for a past frame
      const now = live.frame;
      for (let f = lateFrame; f <= now; f++) predicted[f] = hashes[f];
      live.world.restore(ring.get(lateFrame - 1));    // back to the end of frame 100
      live.frame = lateFrame - 1;
      while (live.frame < now) {                      // resimulate 101..107 with the input
        await live.step();
        ring.save(live.frame, live.world);
        hashes[live.frame] = live.world.stateHash();
      }
      rolledBackFrom = now;
    }
  }
  const shotsAlive = live.world.count(['position']) - MOVERS - 1;
  live.dispose();

  const straight = createGame(ecsia, { workers });
  straight.inputs.set(lateFrame, input);
  const straightHashes = [];
  while (straight.frame < frames) {
    await straight.step();
    straightHashes[straight.frame] = straight.world.stateHash();
  }
  straight.dispose();

  const without = createGame(ecsia, { workers });
  while (without.frame < frames) await without.step();
  const withoutHash = without.world.stateHash();
  without.dispose();

  return {
    variant: ecsia.variant, workers, frames, lateFrame, rolledBackFrom, shotsAlive,
    hashes: hashes.slice(1), straight: straightHashes.slice(1), predicted: predicted.slice(lateFrame),
    withoutInput: withoutHash,
  };
}
