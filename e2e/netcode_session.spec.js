// Rollback sessions (web/netcode.js) where no clock matters, so they run beside other tests
// (e2e/netcode.spec.js holds the ones that pace frames in real time and run alone): bad options
// and inputs, and the inputs each frame writes.
import { expect } from '@playwright/test';
import { openNetcodePeer, servers, test } from './support.js';

test('bad session options and inputs throw errors that name them', async ({ page }) => {
  await openNetcodePeer(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { ecsia, netcode, game } = window.peer;
    const g = game.createGame(ecsia, { dust: 10 });
    const [transport] = netcode.LoopbackTransport.pair();
    const base = { world: g.world, scheduler: g.scheduler, players: 2, localPlayer: 0, inputComponent: 'input', playerEntities: g.ships, transport };
    const attempt = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.message; } };
    const out = {
      players: attempt(() => new netcode.RollbackSession({ ...base, players: 0 })),
      local: attempt(() => new netcode.RollbackSession({ ...base, localPlayer: 2 })),
      component: attempt(() => new netcode.RollbackSession({ ...base, inputComponent: 'nope' })),
      entities: attempt(() => new netcode.RollbackSession({ ...base, playerEntities: [g.ships[0]] })),
      unknown: attempt(() => new netcode.RollbackSession({ ...base, rollbackFrames: 4 })),
      transport: attempt(() => new netcode.RollbackSession({ ...base, transport: {} })),
      link: attempt(() => netcode.LoopbackTransport.pair({ loss: 2 })),
      sameEntity: attempt(() => new netcode.RollbackSession({ ...base, playerEntities: [g.ships[0], g.ships[0]] })),
      extra: attempt(() => new netcode.RollbackSession(base, {})),
      notHandle: attempt(() => new netcode.RollbackSession({ ...base, playerEntities: ['a', 'b'] })),
    };
    const elsewhere = ecsia.createWorld({ maxEntities: 4 });
    const elsewhereScheduler = elsewhere.createScheduler();
    out.otherWorld = attempt(() => new netcode.RollbackSession({ ...base, scheduler: elsewhereScheduler }));
    elsewhereScheduler.dispose();
    elsewhere.dispose();
    const session = new netcode.RollbackSession(base);
    // One transport, one session: another open session's, or a closed one, is refused.
    out.shared = attempt(() => new netcode.RollbackSession(base));
    out.field = attempt(() => session.setLocalInput({ thrust: 1, jump: 1 }));
    out.value = attempt(() => session.setLocalInput({ fire: 300 }));
    out.event = attempt(() => session.on('boom', () => {}));
    out.extraInput = attempt(() => session.setLocalInput({}, 5));
    session.close();
    out.closed = attempt(() => session.setLocalInput({}));
    out.closedTransport = attempt(() => new netcode.RollbackSession(base));
    // Delays setTimeout cannot keep (it fires at once past 2^31 - 1 ms) are refused.
    out.forever = attempt(() => netcode.LoopbackTransport.pair({ latencyMs: Infinity }));
    out.tooLong = attempt(() => netcode.LoopbackTransport.pair({ jitterMs: 3e9 }));
    const orphan = new netcode.RollbackSession({ ...base, transport: netcode.LoopbackTransport.pair()[0] });
    orphan.close();
    // A player's entity lost behind the session: advance says which player, and why.
    const lost = new netcode.RollbackSession({ ...base, transport: netcode.LoopbackTransport.pair()[0] });
    const late = new netcode.RollbackSession({ ...base, transport: netcode.LoopbackTransport.pair()[0] });
    g.world.despawn(g.ships[1]);
    try { await lost.advance(1 / 60); out.lost = 'no error'; } catch (e) { out.lost = e.message; }
    lost.close();
    g.scheduler.dispose();
    out.schedulerGone = attempt(() => late.setLocalInput({}));
    out.disposedScheduler = attempt(() => new netcode.RollbackSession({ ...base, transport: netcode.LoopbackTransport.pair()[0] }));
    g.world.dispose();
    out.worldGone = attempt(() => late.setLocalInput({}));
    return out;
  });
  expect(r.players).toContain('players must be a whole number from 1 to 255');
  expect(r.local).toContain('localPlayer must be a whole number from 0 to 1');
  expect(r.component).toMatch(/^new RollbackSession: UnknownComponent: .*'nope'/);
  expect(r.lost).toMatch(new RegExp(`^session: player 1's entity \\d+ cannot take its input for frame 0: world\\.set: StaleEntity: `));
  expect(r.entities).toContain('playerEntities must be an array of 2 entities');
  expect(r.unknown).toContain("unknown option 'rollbackFrames'");
  expect(r.transport).toContain('transport must have send(bytes)');
  expect(r.link).toContain('loss must be a number from 0 to 1');
  expect(r.field).toContain("'input' has no field 'jump' (fields: thrust, turn, fire)");
  expect(r.value).toContain('u8');
  expect(r.event).toContain('unknown event');
  expect(r.closed).toContain('the session was closed');
  expect(r.schedulerGone).toBe("session.setLocalInput: the session's scheduler was disposed");
  expect(r.worldGone).toBe("session.setLocalInput: the session's world was disposed");
  expect(r.sameEntity).toContain('playerEntities names an entity twice');
  expect(r.notHandle).toBe('new RollbackSession: playerEntities holds a string ("a"), not an entity handle (handles are the numbers spawn() returns)');
  expect(r.disposedScheduler).toBe('new RollbackSession: options.scheduler was disposed');
  expect(r.extra).toBe('new RollbackSession: takes at most 1 argument, got 2');
  expect(r.otherWorld).toBe('new RollbackSession: options.scheduler runs another world than options.world');
  expect(r.extraInput).toBe('session.setLocalInput: takes at most 1 argument, got 2');
  expect(r.shared).toBe('new RollbackSession: the transport belongs to another open session (its messages go to one session): close that one first, or give a new one');
  expect(r.closedTransport).toBe('new RollbackSession: the transport was closed (closing a session closes its transport): give a new one');
  expect(r.forever).toBe('LoopbackTransport.pair: latencyMs must be a number from 0 to 1000000000, got number Infinity');
  expect(r.tooLong).toBe('LoopbackTransport.pair: jitterMs must be a number from 0 to 1000000000, got number 3000000000');
});

test('a message that acknowledges frames of ours never sent is dropped with a diagnostic: the session keeps sending', async ({ page }) => {
  // Taken, it stopped every resend of our inputs and pruned the ones the peer lacked: both
  // peers then waited for each other for good.
  await openNetcodePeer(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { ecsia, netcode, diagnostics } = window.peer;
    const world = ecsia.createWorld({ maxEntities: 16 });
    const info = world.defineComponent('input', { aim: 'f32' });
    const players = [world.spawn({ input: {} }), world.spawn({ input: {} })];
    const scheduler = world.createScheduler({ workers: 0 });
    const sent = [];
    const transport = { onmessage: null, send(bytes) { sent.push(bytes.slice()); } };
    const session = new netcode.RollbackSession({
      world, scheduler, players: 2, localPlayer: 0, inputComponent: 'input', playerEntities: players, inputDelay: 0, transport,
    });
    // Player 1's INPUT message (docs/NETCODE.md): its ack of our frames is far beyond what we sent.
    const bytes = new Uint8Array(20 + info.size);
    const dv = new DataView(bytes.buffer);
    bytes.set([1, 1, 1, 0]);
    dv.setUint32(4, 0xfffffff0, true);
    dv.setUint32(8, 0, true);
    dv.setUint32(12, 0, true);
    dv.setUint16(16, 1, true);
    dv.setUint16(18, info.size, true);
    dv.setFloat32(20, 0.5, true);
    transport.onmessage(bytes);
    await session.advance(1 / 60);
    const sentAfter = sent.length;
    const out = {
      reports: diagnostics.filter((m) => m.includes('player 1 acknowledged frame 4294967280 of ours, which we have not sent')).length,
      taken: world.get(players[1], 'input').aim,  // the message's input was not taken either
      sentAfter,
      confirmed: session.stats.confirmedFrame,
    };
    session.close();
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.reports).toBe(1);
  expect(r.taken).toBe(0);
  expect(r.sentAfter).toBeGreaterThan(0);  // our frame's input went out, as to any peer
  expect(r.confirmed).toBe(-1);
});

test('inputs and hashes further ahead than a peer session can be are dropped with a diagnostic, never held', async ({ page }) => {
  // Held, an input for frame 4e9 stayed until the session reached it (never), every prune walked
  // it, and an input a peer sent for that frame later was ignored as a duplicate.
  await openNetcodePeer(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { ecsia, netcode, diagnostics } = window.peer;
    const world = ecsia.createWorld({ maxEntities: 16 });
    const info = world.defineComponent('input', { aim: 'f32' });
    const players = [world.spawn({ input: {} }), world.spawn({ input: {} })];
    const scheduler = world.createScheduler({ workers: 0 });
    const transport = { onmessage: null, send() {} };
    const session = new netcode.RollbackSession({
      world, scheduler, players: 2, localPlayer: 0, inputComponent: 'input', playerEntities: players, inputDelay: 0, transport,
    });
    // Player 1's INPUT message (docs/NETCODE.md) with one input, `aim`, for `frame`; it holds none of ours.
    const input = (frame, aim) => {
      const bytes = new Uint8Array(20 + info.size);
      const dv = new DataView(bytes.buffer);
      bytes.set([1, 1, 1, 0]);
      dv.setUint32(4, 0xffffffff, true);
      dv.setUint32(8, 0xffffffff, true);
      dv.setUint32(12, frame, true);
      dv.setUint16(16, 1, true);
      dv.setUint16(18, info.size, true);
      dv.setFloat32(20, aim, true);
      return bytes;
    };
    const hash = (frame) => {
      const bytes = new Uint8Array(16);
      bytes.set([2, 1, 1, 0]);
      new DataView(bytes.buffer).setUint32(4, frame, true);
      return bytes;
    };
    // At frame 0 with no input delay a peer's inputs reach frame 181 at most (maxRollback 120 and
    // inputDelay 60 at most, plus one).
    transport.onmessage(input(182, 0.5));
    transport.onmessage(input(4e9, 0.5));
    transport.onmessage(hash(4e9));
    transport.onmessage(input(181, 0.75));  // within the lead: taken
    const aims = [];
    for (let frame = 0; frame <= 182; frame += 1) {
      if (frame !== 181) transport.onmessage(input(frame, frame === 182 ? 0.25 : 0));
      await session.advance(1 / 60);
      aims.push(world.get(players[1], 'input').aim);
    }
    const out = {
      reports: diagnostics.filter((m) => m.includes(" sent an input for frame ")),
      hashReports: diagnostics.filter((m) => m.includes('sent a hash for frame')).length,
      at181: aims[181],
      at182: aims[182],
      confirmed: session.stats.confirmedFrame,
      desyncs: session.stats.desyncs,
    };
    session.close();
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.reports).toEqual([
    "ecsia: netcode: player 1 sent an input for frame 182, beyond frame 181, the furthest a peer's session can be ahead of this one (at frame 0); such frames are dropped",
  ]);
  expect(r.hashReports).toBe(0);  // said once per player: the input's report covers the hash
  expect(r.at181).toBe(0.75);
  expect(r.at182).toBe(0.25);  // the frame ran with the input sent when it was within reach
  expect(r.confirmed).toBe(182);
  expect(r.desyncs).toBe(0);
});

test("a message whose header's last byte is not 0 is another protocol's: dropped, its inputs not taken", async ({ page }) => {
  await openNetcodePeer(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { ecsia, netcode } = window.peer;
    const world = ecsia.createWorld({ maxEntities: 16 });
    const info = world.defineComponent('input', { aim: 'f32' });
    const players = [world.spawn({ input: {} }), world.spawn({ input: {} })];
    const scheduler = world.createScheduler({ workers: 0 });
    const transport = { onmessage: null, send() {} };
    const session = new netcode.RollbackSession({
      world, scheduler, players: 2, localPlayer: 0, inputComponent: 'input', playerEntities: players, inputDelay: 0, transport,
    });
    // Player 1's input for frame 0 (docs/NETCODE.md), once with the header's last byte 1, once 0.
    const message = (last) => {
      const bytes = new Uint8Array(20 + info.size);
      const dv = new DataView(bytes.buffer);
      bytes.set([1, 1, 1, last]);
      dv.setUint32(4, 0xffffffff, true);
      dv.setUint32(8, 0xffffffff, true);
      dv.setUint32(12, 0, true);
      dv.setUint16(16, 1, true);
      dv.setUint16(18, info.size, true);
      dv.setFloat32(20, 0.5, true);
      return bytes;
    };
    transport.onmessage(message(1));
    await session.advance(1 / 60);
    const dropped = world.get(players[1], 'input').aim;
    const confirmedAfterDropped = session.stats.confirmedFrame;
    transport.onmessage(message(0));
    await session.poll();
    const out = { dropped, confirmedAfterDropped, confirmed: session.stats.confirmedFrame };
    session.close();
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.dropped).toBe(0);  // predicted: the message was not taken
  expect(r.confirmedAfterDropped).toBe(-1);
  expect(r.confirmed).toBe(0);  // the same input with a 0 there is
});

// The session writes each frame's inputs as their bytes (web/internal/world_core.js
// setElementBytes): the values a system reads must be the ones given, frame by frame through
// rollbacks, with a change observer of the input component (the write then goes through the set
// export) and without one.
test('every frame writes each player\'s input into inputComponent as world.set would, observed or not', async ({ page }) => {
  await openNetcodePeer(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { ecsia, netcode } = window.peer;
    const FRAMES = 40;
    const DELAY = 2;
    const scripted = (player, frame) => ({
      dx: ((frame * 7 + player * 3) % 11) - 5, fire: (frame + player) % 3 === 0 ? 1 : 0, aim: Math.fround(frame * 0.25 - player),
    });
    async function play(observed) {
      const sides = netcode.LoopbackTransport.pair({ latencyMs: 30 }).map((transport, player) => {
        const world = ecsia.createWorld({ maxEntities: 64 });
        world.defineComponent('input', { dx: 'i16', fire: 'u8', aim: 'f32' });
        world.defineComponent('sum', { dx: 'f64', fire: 'u32', aim: 'f64' });
        const players = [world.spawn({ input: {}, sum: {} }), world.spawn({ input: {}, sum: {} })];
        const side = { world, players, changes: 0, ran: 0 };
        if (observed) world.observe('change', 'input', () => { side.changes += 1; });
        side.scheduler = world.createScheduler({ workers: 0 });
        side.scheduler.addSystem({
          name: 'Sum', reads: ['input'], writes: ['sum'],
          run(w) {
            for (const p of players) {
              const i = w.get(p, 'input');
              const s = w.get(p, 'sum');
              w.set(p, 'sum', { dx: s.dx + i.dx, fire: s.fire + i.fire, aim: s.aim + i.aim });
            }
          },
        });
        side.session = new netcode.RollbackSession({
          world, scheduler: side.scheduler, players: 2, localPlayer: player, inputComponent: 'input', playerEntities: players, inputDelay: DELAY, transport,
        });
        return side;
      });
      while (sides.some((s) => s.ran < FRAMES)) {
        for (const [player, side] of sides.entries()) {
          if (side.ran === FRAMES) continue;
          side.session.setLocalInput(scripted(player, side.ran));
          if (await side.session.advance(1 / 60)) side.ran += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      for (let i = 0; i < 200 && sides.some((s) => s.session.stats.confirmedFrame < FRAMES - 1); i += 1) {
        await Promise.all(sides.map((s) => s.session.poll()));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const out = sides.map((s) => ({
        sums: s.players.map((p) => s.world.get(p, 'sum')), last: s.players.map((p) => s.world.get(p, 'input')),
        changes: s.changes, stats: s.session.stats,
      }));
      for (const s of sides) { s.session.close(); s.scheduler.dispose(); s.world.dispose(); }
      return out;
    }
    // Frame f runs with each player's input of frame f - DELAY (none before DELAY: zeros).
    const expected = [0, 1].map((player) => {
      const sum = { dx: 0, fire: 0, aim: 0 };
      for (let f = DELAY; f < FRAMES; f += 1) {
        const input = scripted(player, f - DELAY);
        for (const key of Object.keys(sum)) sum[key] += input[key];
      }
      return sum;
    });
    const last = [0, 1].map((player) => scripted(player, FRAMES - 1 - DELAY));
    return { plain: await play(false), observed: await play(true), expected, last, frames: FRAMES };
  });
  for (const run of [r.plain, r.observed]) {
    for (const side of run) {
      expect(side.stats.confirmedFrame).toBe(r.frames - 1);
      expect(side.sums).toEqual(r.expected);
      expect(side.last).toEqual(r.last);
    }
    expect(run[0].stats.rollbacks + run[1].stats.rollbacks).toBeGreaterThan(0);  // late inputs were written again
  }
  for (const side of r.plain) expect(side.changes).toBe(0);
  // Every frame run (the first time and again) writes both players' inputs: one change each.
  for (const side of r.observed) expect(side.changes).toBeGreaterThanOrEqual(2 * (r.frames + side.stats.framesResimulated));
});

// A peer's inputs are written into the world as their bytes, so bytes that no values could have
// made are refused on arrival: the message is dropped (a diagnostic the first time), the frame
// runs with the prediction, and a valid input for that frame later still rolls it back.
test('a peer\'s input that setLocalInput could not have made is dropped with a diagnostic, never written', async ({ page }) => {
  await openNetcodePeer(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { ecsia, netcode, diagnostics } = window.peer;
    const world = ecsia.createWorld({ maxEntities: 16 });
    const info = world.defineComponent('input', { fire: 'bool', aim: 'f32' });
    const players = [world.spawn({ input: {} }), world.spawn({ input: {} })];
    const scheduler = world.createScheduler({ workers: 0 });
    const transport = { onmessage: null, send() {} };
    const session = new netcode.RollbackSession({
      world, scheduler, players: 2, localPlayer: 0, inputComponent: 'input', playerEntities: players, inputDelay: 0, transport,
    });
    const offset = (name) => info.fields.find((f) => f.name === name).offset;
    // Player 1's INPUT message of docs/NETCODE.md: header, acks (none of ours, its own up to the
    // last), first frame, count, input size, then each input's bytes.
    const deliver = (first, inputs) => {
      const bytes = new Uint8Array(20 + inputs.length * info.size);
      const dv = new DataView(bytes.buffer);
      bytes.set([1, 1, 1, 0]);
      dv.setUint32(4, 0xffffffff, true);
      dv.setUint32(8, first + inputs.length - 1, true);
      dv.setUint32(12, first, true);
      dv.setUint16(16, inputs.length, true);
      dv.setUint16(18, info.size, true);
      inputs.forEach((fill, i) => fill(dv, 20 + i * info.size));
      transport.onmessage(bytes);
    };
    const valid = (aim) => (dv, at) => { dv.setFloat32(at + offset('aim'), aim, true); dv.setUint8(at + offset('fire'), 1); };
    const refusedBefore = () => diagnostics.filter((m) => m.includes('player 1 sent inputs that are no values')).length;
    const before = refusedBefore();
    deliver(0, [valid(0.5)]);
    await session.advance(1 / 60);
    const frame0 = world.get(players[1], 'input');
    deliver(1, [(dv, at) => dv.setFloat32(at + offset('aim'), NaN, true)]);
    deliver(1, [(dv, at) => dv.setUint8(at + offset('fire'), 7)]);
    // A byte no field covers (the bool's padding before the f32), not zero.
    const padding = [...Array(info.size).keys()].find((b) => b !== offset('fire') && (b < offset('aim') || b >= offset('aim') + 4));
    deliver(1, [(dv, at) => { valid(0.25)(dv, at); dv.setUint8(at + padding, 9); }]);
    await session.advance(1 / 60);
    const frame1 = world.get(players[1], 'input');
    const afterRefused = session.stats;
    deliver(1, [valid(0.25)]);
    await session.poll();
    const out = {
      frame0, frame1, afterRefused, stats: session.stats, corrected: world.get(players[1], 'input'),
      reports: refusedBefore() - before, padding,
    };
    session.close();
    scheduler.dispose();
    world.dispose();
    return out;
  });
  expect(r.padding).toBeGreaterThanOrEqual(0);
  expect(r.frame0).toEqual({ aim: 0.5, fire: true });
  // Frame 1 ran with the prediction (frame 0's input): nothing of the refused bytes was written.
  expect(r.frame1).toEqual({ aim: 0.5, fire: true });
  expect(r.afterRefused.confirmedFrame).toBe(0);
  expect(r.reports).toBe(1);
  // The valid input for frame 1 still arrives, and rolls frame 1 back onto it.
  expect(r.stats.confirmedFrame).toBe(1);
  expect(r.stats.rollbacks).toBe(1);
  expect(r.corrected).toEqual({ aim: 0.25, fire: true });
});
