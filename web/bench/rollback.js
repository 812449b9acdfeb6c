// The rollback workload (docs/NETCODE.md): what one advance() costs when a late input makes it
// roll back 8 frames, at 10,000 entities running the determinism scenario's systems (spawns,
// despawns, adds, removes, writes; src/builtin/scenario.hpp) topped up with movers.
//   rollback advance   a RollbackSession of two players whose remote inputs come through a
//                      scripted transport: the inputs of the last 8 frames arrive, all different
//                      from their prediction, and one advance() restores the snapshot of 8
//                      frames back, runs those 8 frames again (a snapshot and the inputs each)
//                      and runs the new frame
//   8 frames + restore the baseline: world.restore() of a snapshot and 8 plain
//                      scheduler.update() of the same world, no session
//   9 frames + restore the same with the new frame too: what the advance does besides
//                      bookkeeping and its 9 snapshots
// Serial executor and the worker count threads: 'auto' starts, each its own worlds.
import { autoWorkers } from '../internal/engine.js';
import { encodeInput } from '../internal/netcode_protocol.js';
import { RollbackSession } from '../netcode.js';
import { builtinsOf } from '../builtins.js';
import { median } from './timing.js';

const DT = 1 / 60;
const DEPTH = 8;

// A world with the scenario and `entities` in all, and an input component on two players.
function scenarioWorld(ecsia, workers, entities) {
  const builtins = builtinsOf(ecsia);
  const world = ecsia.createWorld({ maxEntities: 2 * entities });
  const scheduler = world.createScheduler({ workers });
  const scenario = builtins.setupScenario(scheduler, 1);
  builtins.spawnMovers(world, Math.max(0, entities - world.count()), 7);
  world.defineComponent('input', { move: 'u8' });
  const players = [world.spawn({ input: {} }), world.spawn({ input: {} })];
  return { world, scheduler, players, scenario };
}

// A session whose peer is the bench itself: deliver(from, to, value) hands it player 1's inputs
// of those frames, acknowledging every local input (nothing is resent).
function scriptedSession(setup) {
  const transport = { onmessage: null, send() {} };
  const session = new RollbackSession({
    world: setup.world, scheduler: setup.scheduler, players: 2, localPlayer: 0, inputComponent: 'input',
    playerEntities: setup.players, inputDelay: 2, maxRollback: DEPTH, hashEvery: 1 << 20, transport,
  });
  const deliver = (from, to, value) => {
    const inputs = [];
    for (let f = from; f <= to; f += 1) inputs.push(Uint8Array.of(value));
    const acks = [session.stats.frame + 2, to];
    transport.onmessage(encodeInput(1, acks, from, inputs, 1));
  };
  return { session, deliver };
}

export async function rollback(env, { entities = 10_000, repetitions = 15, warmup = 60 } = {}) {
  const { ecsia } = env;
  const auto = autoWorkers(globalThis.navigator?.hardwareConcurrency, ecsia.maxWorkers);
  const modes = {};
  for (const [mode, workers] of [['serial', 0], ['auto', auto]]) {
    const played = scenarioWorld(ecsia, workers, entities);
    const plain = scenarioWorld(ecsia, workers, entities);
    const { session, deliver } = scriptedSession(played);
    // Warm-up: frames with every remote input on time (no rollback), then the first 8 predicted.
    for (let f = 0; f < warmup; f += 1) {
      deliver(f, f, 0);
      await session.advance(DT);
    }
    for (let f = 0; f < warmup; f += 1) await plain.scheduler.update(DT);
    let value = 0;
    for (let f = 0; f < DEPTH; f += 1) await session.advance(DT);
    const ms = { advance: [], frames8: [], frames9: [] };
    const snapshotBytes = [];
    let restoreInto;
    const plainFrames = async (frames) => {
      const saved = plain.world.snapshot(restoreInto);
      restoreInto = saved;
      for (let f = 0; f < frames; f += 1) await plain.scheduler.update(DT);  // untimed: the state to go back from
      const start = performance.now();
      plain.world.restore(saved);
      for (let f = 0; f < frames; f += 1) await plain.scheduler.update(DT);
      return performance.now() - start;
    };
    for (let rep = 0; rep < repetitions; rep += 1) {
      // The session: the last DEPTH frames ran predicted; their real inputs arrive, all different.
      const next = session.stats.frame;
      value ^= 1;
      deliver(next - DEPTH, next - 1, value);
      const rollbacks = session.stats.rollbacks;
      const start = performance.now();
      if (!(await session.advance(DT))) throw new Error('rollback bench: the session stalled');
      const took = performance.now() - start;
      if (session.stats.rollbacks !== rollbacks + 1 || session.stats.framesResimulated !== (rep + 1) * DEPTH) {
        throw new Error(`rollback bench: expected one rollback of ${DEPTH} frames, stats ${JSON.stringify(session.stats)}`);
      }
      ms.advance.push(took);
      // Untimed: predicted frames again, up to DEPTH behind the remote input.
      for (let f = 1; f < DEPTH; f += 1) await session.advance(DT);
      const order = rep % 2 === 0 ? [8, 9] : [9, 8];
      for (const frames of order) ms[`frames${frames}`].push(await plainFrames(frames));
      snapshotBytes.push(restoreInto.byteLength);
    }
    const us = (values) => median(values) * 1e3;
    modes[mode] = {
      workers,
      entities: played.world.count(),
      snapshotBytes: median(snapshotBytes),
      usAdvanceWithRollback: us(ms.advance),
      us8FramesPlusRestore: us(ms.frames8),
      us9FramesPlusRestore: us(ms.frames9),
      advanceOver8FramesPlusRestore: us(ms.advance) / us(ms.frames8),
      advanceOver9FramesPlusRestore: us(ms.advance) / us(ms.frames9),
      sessionHash: played.world.stateHash(),
    };
    session.close();
    for (const s of [played, plain]) {
      s.scheduler.dispose();
      s.world.dispose();
    }
  }
  return {
    depth: DEPTH,
    modes,
    autoOverSerial: modes.serial.usAdvanceWithRollback / modes.auto.usAdvanceWithRollback,
  };
}
