// The rollback workload (docs/NETCODE.md): what one advance() costs when a late input makes it
// roll back 8 frames, at 10,000 entities running the determinism scenario's systems (spawns,
// despawns, adds, removes, writes; src/builtin/scenario.hpp) after a warm-up, topped up with bare
// movers to 10,000 (the scenario's spawns add about a thousand more by the last sample).
//   rollback advance   a RollbackSession of two players whose remote inputs come through a
//                      scripted transport: the inputs of the last 8 frames arrive, all different
//                      from their prediction, and one advance() restores the snapshot of 8
//                      frames back, runs those 8 frames again (their inputs each; confirmed now,
//                      they take no snapshot) and runs the new frame (a snapshot, predicted)
//   8 frames + restore the baseline: world.restore() of a snapshot and 8 plain
//                      scheduler.update() of a twin world, no session: the same 8 frames the
//                      advance runs again (the twin runs frame for frame with the session's
//                      world, so both sides time the same frames of the scenario, whose cost
//                      varies from frame to frame with its spawns and despawns)
//   9 frames + restore the same with the new frame too: what the advance does besides its
//                      bookkeeping, the inputs and the new frame's snapshot
// Serial executor and the worker count threads: 'auto' starts, each its own worlds.
import { autoWorkers } from '../internal/engine.js';
import { encodeInput } from '../internal/netcode_protocol.js';
import { RollbackSession } from '../netcode.js';
import { builtinsOf } from '../builtins.js';
import { median } from './timing.js';

const DT = 1 / 60;
const DEPTH = 8;

// A world with the scenario run for `warmup` frames, then `entities` in all, and an input
// component on two players.
async function scenarioWorld(ecsia, workers, entities, warmup) {
  const builtins = builtinsOf(ecsia);
  const world = ecsia.createWorld({ maxEntities: 2 * entities });
  const scheduler = world.createScheduler({ workers });
  builtins.setupScenario(scheduler, 1);
  for (let f = 0; f < warmup; f += 1) await scheduler.update(DT);
  world.defineComponent('input', { move: 'u8' });
  const players = [world.spawn({ input: {} }), world.spawn({ input: {} })];
  // Bare movers (position, velocity): the scenario's Move moves them, its Reaper leaves them.
  builtins.spawnMovers(world, Math.max(0, entities - world.count()), 7, { bare: true });
  return { world, scheduler, players };
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

// One mode's worlds (the session's and the baseline's) and its samples.
async function rollbackRig(ecsia, workers, entities, warmup) {
  const played = await scenarioWorld(ecsia, workers, entities, warmup);
  const plain = await scenarioWorld(ecsia, workers, entities, warmup);
  const entitiesAtStart = played.world.count();
  const { session, deliver } = scriptedSession(played);
  // The session's first frames with every remote input on time (no rollback), then the first
  // DEPTH frames predicted.
  for (let f = 0; f < 10; f += 1) {
    deliver(f, f, 0);
    await session.advance(DT);
  }
  for (let f = 0; f < DEPTH; f += 1) await session.advance(DT);
  // The twin, frame for frame with the session's world: at frame `next` with `back`, its
  // snapshot of the state DEPTH frames before (the state the advance restores).
  for (let f = 0; f < 10; f += 1) await plain.scheduler.update(DT);
  let back = plain.world.snapshot();
  let spare;
  for (let f = 0; f < DEPTH; f += 1) await plain.scheduler.update(DT);
  let value = 0;
  const ms = { advance: [], frames8: [], frames9: [] };
  const plainFrames = async (frames) => {
    const start = performance.now();
    plain.world.restore(back);
    for (let f = 0; f < frames; f += 1) await plain.scheduler.update(DT);
    return performance.now() - start;
  };
  // Untimed: the twin's snapshot of the state before frame `next` (the next repetition goes back
  // to it), taken when the twin is there.
  const keepBack = () => {
    spare = plain.world.snapshot(spare);
    return spare;
  };
  return {
    ms,
    async sample(rep) {
      // The session: the last DEPTH frames ran predicted; their real inputs arrive, all different.
      const next = session.stats.frame;
      value ^= 1;
      deliver(next - DEPTH, next - 1, value);
      const rollbacks = session.stats.rollbacks;
      const start = performance.now();
      if (!(await session.advance(DT))) throw new Error('rollback bench: the session stalled');
      ms.advance.push(performance.now() - start);
      if (session.stats.rollbacks !== rollbacks + 1 || session.stats.framesResimulated !== (rep + 1) * DEPTH) {
        throw new Error(`rollback bench: expected one rollback of ${DEPTH} frames, stats ${JSON.stringify(session.stats)}`);
      }
      // Untimed: predicted frames again, up to DEPTH behind the remote input.
      for (let f = 1; f < DEPTH; f += 1) await session.advance(DT);
      // The twin's same frames, the 8 and the 9 taking turns to go first; then on to the
      // session's frame.
      let newBack;
      if (rep % 2 === 0) {
        ms.frames8.push(await plainFrames(8));
        newBack = keepBack();
        ms.frames9.push(await plainFrames(9));
        for (let f = DEPTH + 1; f < 2 * DEPTH; f += 1) await plain.scheduler.update(DT);
      } else {
        ms.frames9.push(await plainFrames(9));
        ms.frames8.push(await plainFrames(8));
        newBack = keepBack();
        for (let f = 0; f < DEPTH; f += 1) await plain.scheduler.update(DT);
      }
      [spare, back] = [back, newBack];
      if (plain.world.count() !== played.world.count()) {
        throw new Error(`rollback bench: the twin (${plain.world.count()} entities) is not at the session's frame (${played.world.count()})`);
      }
    },
    report() {
      const us = (values) => median(values) * 1e3;
      return {
        workers: played.scheduler.workers,
        entitiesAtStart,
        entitiesAtEnd: played.world.count(),
        snapshotBytes: back.byteLength,
        usAdvanceWithRollback: us(ms.advance),
        us8FramesPlusRestore: us(ms.frames8),
        us9FramesPlusRestore: us(ms.frames9),
        // Ratios of each repetition's own samples (taken back to back), then their median: drift
        // on a shared machine moves both sides of a pair alike.
        advanceOver8FramesPlusRestore: median(ms.advance.map((t, i) => t / ms.frames8[i])),
        advanceOver9FramesPlusRestore: median(ms.advance.map((t, i) => t / ms.frames9[i])),
        sessionHash: played.world.stateHash(),
      };
    },
    dispose() {
      session.close();
      for (const s of [played, plain]) {
        s.scheduler.dispose();
        s.world.dispose();
      }
    },
  };
}

export async function rollback(env, { entities = 10_000, repetitions = 101, warmup = 60 } = {}) {
  const { ecsia } = env;
  const auto = autoWorkers(globalThis.navigator?.hardwareConcurrency, ecsia.maxWorkers);
  const rigs = { serial: await rollbackRig(ecsia, 0, entities, warmup), auto: await rollbackRig(ecsia, auto, entities, warmup) };
  // The modes take turns within each repetition, the first one alternating.
  for (let rep = 0; rep < repetitions; rep += 1) {
    for (const mode of rep % 2 === 0 ? ['serial', 'auto'] : ['auto', 'serial']) await rigs[mode].sample(rep);
  }
  const modes = { serial: rigs.serial.report(), auto: rigs.auto.report() };
  const { advance: serial } = rigs.serial.ms;
  const { advance: threaded } = rigs.auto.ms;
  for (const rig of Object.values(rigs)) rig.dispose();
  return {
    depth: DEPTH,
    modes,
    // Serial over auto, per repetition: above 1 when the workers make the rollback faster.
    autoOverSerial: median(serial.map((t, i) => t / threaded[i])),
    sameState: modes.serial.sessionHash === modes.auto.sessionHash,
  };
}
