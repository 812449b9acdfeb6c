// Topics in the JS API: messages published by JS kernels on the workers (commands.publish), by
// the page (world.publish) and consumed by a main-thread JS system (run's 4th argument) and a
// consumer kernel (its 4th argument) arrive once each, in one order at every worker count and in
// both builds (G1); a restored snapshot replays them; bad input is refused with the world
// unchanged (G5). Set-up: web/test/topics_scenario.js; kernels: web/test/kernels/topics.js.
import { expect } from '@playwright/test';
import { acrossExecutors, expectNoPageErrors, openTestPage, test, variants } from './support.js';

async function topics(page, options) {
  return page.evaluate(async (options) => {
    const { runTopics } = await import('/web/test/topics_scenario.js');
    const out = await runTopics(window.ecsiaTest.loadEcsia, options);
    delete out.snapshot;
    return out;
  }, options);
}

test('messages from JS kernels on the workers and from the page reach both consumers once, in one order at every worker count and build', async ({ page, browser }) => {
  const frames = 16;
  const { serial } = await acrossExecutors(page, browser, topics, { frames }, (r, s, label) => {
    expect(r.seen, label).toEqual(s.seen);
    expect(r.tally, label).toEqual(s.tally);
  });
  const hits = serial.seen.filter((m) => m[0] === 'hit');
  const heals = serial.seen.filter((m) => m[0] === 'heal');
  expect(hits.length).toBeGreaterThan(3000);
  // The page's heals in call order: frame f published f % 3 of them.
  expect(heals.map((m) => m[2])).toEqual(Array.from({ length: frames }, (_, f) => Array.from({ length: f % 3 }, (_, k) => k + 1)).flat());
  // Both consumers saw every hit once: the kernel's tally counts the main-thread system's.
  expect(serial.tally[0]).toBe(hits.length);
  expect(serial.tally[1]).toBe(hits.reduce((sum, m) => sum + m[3], 0));
  // Decoys spawned in a batch (pending handles beyond its reservation) arrive as real handles.
  const decoys = hits.filter((m) => m[2] >= 3000 && m[2] !== 0xffffffff);
  expect(decoys.length).toBeGreaterThan(0);
  expect(serial.plan).toContain("'Shoot' publishes 'hit', which 'ApplyHits' consumes");
  expect(serial.diagnostics.filter((m) => !m.includes("exceeded their batch's reservation"))).toEqual([]);
});

for (const { variant, server } of variants) {
  test.describe(`${variant} build`, () => {
    test('commands.publishMany publishes what the same publish calls would, and refuses bad values whole', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const { TOPICS_KERNELS_URL } = await import('/web/test/topics_scenario.js');
        const said = [];
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, kernels: TOPICS_KERNELS_URL, onDiagnostic: (m) => said.push(m) });
        const run = async (kernel) => {
          const world = ecsia.createWorld({ maxEntities: 1 << 14 });
          world.defineComponent('unit', { cooldown: 'i32', power: 'i32' });
          world.defineTopic('hit', { source: 'entity', target: 'entity', damage: 'f32' });
          world.spawnMany(3000, { unit: { cooldown: 1, power: Array.from({ length: 3000 }, (_, i) => i % 13) } });
          const scheduler = world.createScheduler({ batchRows: 256 });
          const seen = [];
          scheduler.addSystem({ name: 'Read', consumes: ['hit'], run(w, dt, chunks, { hit }) {
            for (const m of hit) seen.push([m.source, m.target, m.damage]);
          } });
          scheduler.addSystem({ name: 'Volley', kernel, reads: ['unit'], publishes: ['hit'] });
          await scheduler.update(1 / 60);
          await scheduler.update(1 / 60);
          const hash = world.stateHash();
          scheduler.dispose();
          world.dispose();
          return { seen, hash };
        };
        const many = await run('volley');
        const each = await run('volleyEach');
        const bad = await run('volleyBad');
        const huge = await run('volleyHuge');
        const nan = await run('volleyNaN');
        const nanOne = await run('publishNaN');
        const mixed = await run('volleyMixed');
        const mixedEach = await run('volleyMixedEach');
        const typed = await run('publishTypedArray');
        return {
          same: JSON.stringify(many.seen) === JSON.stringify(each.seen), count: many.seen.length, first: many.seen[1], bad: bad.seen.length,
          mixedSame: JSON.stringify(mixed.seen) === JSON.stringify(mixedEach.seen) && mixed.hash === mixedEach.hash,
          mixedCount: mixed.seen.length, mixedFirst: mixed.seen.slice(0, 2), decoy: mixed.seen[0][0],
          nan: nan.seen.length + nanOne.seen.length,
          nanSaid: said.filter((m) => m.includes("field 'hit.damage' is f32 and takes a number (not NaN), got number NaN")).length,
          typed: typed.seen.length, typedSaid: said.find((m) => m.includes("JS kernel 'publishTypedArray' threw")),
          huge: huge.seen.length, hugeSaid: said.some((m) => m.includes("1073741824 messages of 'hit' (12 bytes each) are more than a batch can publish")),
        };
      });
      expect(r.same).toBe(true);
      expect(r.count).toBe(6000);
      expect(r.first[1]).toBe(7);
      expect(r.first[2]).toBe(1);
      expect(r.bad).toBe(0);
      expect(r.huge).toBe(0);
      expect(r.nan).toBe(0);
      expect(r.nanSaid).toBeGreaterThanOrEqual(2);
      expect(r.hugeSaid).toBe(true);
      expect(r.typed).toBe(0);
      expect(r.typedSaid).toContain("commands.publish: 'hit' takes an object of field values, got a Float32Array | " +
        "commands.publishMany: 'hit' takes an object of field values, got a Float32Array");
      // Mixed with single messages and a partial publishMany in one batch: the order of the calls,
      // the spawned source made real (not null), the same state.
      expect(r.mixedSame).toBe(true);
      expect(r.mixedCount).toBe(2 * (3000 + 5 * Math.ceil(3000 / 256)));
      expect(r.decoy).not.toBe(null);
      expect(r.mixedFirst[1][0]).toBe(r.decoy);
      expectNoPageErrors(log);
    });

    test('kernels of several worlds publishing frame after frame, in turn, lose no message', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const { TOPICS_KERNELS_URL } = await import('/web/test/topics_scenario.js');
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, kernels: TOPICS_KERNELS_URL, onDiagnostic: () => {} });
        // Three worlds whose topic ids are the same: a thread's outboxes change hands between batches.
        const rigs = [3000, 500, 1200].map((units) => {
          const world = ecsia.createWorld({ maxEntities: 1 << 14 });
          world.defineComponent('unit', { cooldown: 'i32', power: 'i32' });
          world.defineComponent('aim', { at: 'entity' });
          world.defineTopic('hit', { source: 'entity', target: 'entity', damage: 'f32' });
          world.spawnMany(units, { unit: { cooldown: 1, power: 2 }, aim: { at: null } });
          const scheduler = world.createScheduler({ batchRows: 128 });
          const got = [];
          scheduler.addSystem({ name: 'Count', consumes: ['hit'], run(w, dt, chunks, messages) { got.push(messages.hit.count); } });
          scheduler.addSystem({ name: 'Shoot', kernel: 'shoot', reads: ['aim'], writes: ['unit'], publishes: ['hit'] });
          return { world, scheduler, got, units };
        });
        for (let f = 0; f < 60; f++) for (const rig of rigs) await rig.scheduler.update(1 / 60);
        // A unit shoots when its cooldown reaches 0, then waits 3 + (handle % 5) frames.
        const shots = rigs.map((rig) => rig.got.reduce((a, b) => a + b, 0));
        const out = { shots, firstFrames: rigs.map((rig) => rig.got[0]), units: rigs.map((rig) => rig.units) };
        for (const rig of rigs) { rig.scheduler.dispose(); rig.world.dispose(); }
        return out;
      });
      expect(r.firstFrames).toEqual(r.units);  // every unit shot in the first frame
      for (const [i, shots] of r.shots.entries()) expect(shots).toBeGreaterThan(r.units[i] * 60 / 8);
      expectNoPageErrors(log);
    });

    test('a restored snapshot replays the same messages: pending ones and the consumers\' cursors travel with it', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async () => {
        const { runTopics } = await import('/web/test/topics_scenario.js');
        const loadEcsia = window.ecsiaTest.loadEcsia;
        const from = 6;
        const first = await runTopics(loadEcsia, { threads: 2, workers: 2, frames: 12, snapshotAt: from });
        const replay = await runTopics(loadEcsia, { threads: 2, workers: 1, frames: 12, restore: { bytes: first.snapshot, from } });
        return {
          same: JSON.stringify(replay.hashes) === JSON.stringify(first.hashes.slice(from)),
          sameSeen: JSON.stringify(replay.seen) === JSON.stringify(first.seen.slice(first.seenAfter[from - 1])),
          replayed: replay.seen.length,
        };
      });
      expect(r.same).toBe(true);
      expect(r.sameSeen).toBe(true);
      expect(r.replayed).toBeGreaterThan(100);
      expectNoPageErrors(log);
    });

    test('bad topic input is refused with a clear error and the world unchanged', async ({ page }) => {
      const log = await openTestPage(page, server);
      const r = await page.evaluate(async (variant) => {
        const diagnostics = [];
        const { TOPICS_KERNELS_URL } = await import('/web/test/topics_scenario.js');
        const ecsia = await window.ecsiaTest.loadEcsia({ threads: 2, kernels: TOPICS_KERNELS_URL, onDiagnostic: (m) => diagnostics.push(m) });
        const world = ecsia.createWorld({ maxEntities: 1 << 14 });
        world.defineComponent('unit', { cooldown: 'i32', power: 'i32' });
        world.defineComponent('aim', { at: 'entity' });
        world.defineTopic('hit', { source: 'entity', target: 'entity', damage: 'f32' });
        world.spawnMany(2000, { unit: { cooldown: 1, power: 2 }, aim: { at: null } });
        const scheduler = world.createScheduler({ batchRows: 64, fencePollUs: 0 });
        const got = [];
        scheduler.addSystem({ name: 'Count', consumes: ['hit'], run(w, dt, chunks, messages) { got.push(messages.hit.count); } });
        const out = {};
        const attempt = (label, call) => {
          try { call(); out[label] = 'no error'; } catch (e) { out[label] = `${e.code ?? '-'}: ${e.message}`; }
        };
        const hash = world.stateHash();
        attempt('unknownTopic', () => world.publish('miss', { damage: 1 }));
        attempt('wrongField', () => world.publish('hit', { dmg: 1 }));
        attempt('badValue', () => world.publish('hit', { damage: 'lots' }));
        attempt('notAnObject', () => world.publish('hit', 5));
        attempt('aDate', () => world.publish('hit', new Date(0)));
        attempt('redefined', () => world.defineTopic('hit', { damage: 'f32' }));
        attempt('noFields', () => world.defineTopic('empty', {}));
        attempt('consumesUnknown', () => scheduler.addSystem({ name: 'Bad', consumes: ['nope'], run() {} }));
        attempt('publishesUnknown', () => scheduler.addSystem({ name: 'Bad', kernel: 'shoot', writes: ['unit'], reads: ['aim'], publishes: ['nope'] }));
        out.unchanged = world.stateHash() === hash;
        out.sameDefinition = world.defineTopic('hit', { source: 'entity', target: 'entity', damage: 'f32' }).name;
        // Undeclared publishes: a kernel's batch fails, a main-thread system's call throws; both said.
        scheduler.addSystem({ name: 'Sneaky', kernel: 'undeclared', writes: ['unit'] });
        scheduler.addSystem({ name: 'SneakyPage', run(w) { w.publish('hit', { damage: 1 }); } });
        // The page's publish while a frame's wave is out on the workers: refused.
        scheduler.addSystem({ name: 'Shoot', kernel: 'shoot', reads: ['aim'], writes: ['unit'], publishes: ['hit'] });
        const frame = scheduler.update(1 / 60);
        if (variant === 'threaded') attempt('duringWave', () => world.publish('hit', { damage: 1 }));
        await frame;
        out.got = got.slice();
        out.failures = diagnostics.filter((m) => m.includes('does not publish') || m.includes('without declaring')).length;
        // A consumer removed between frames: the next frame's messages go to nobody, and nothing is kept.
        scheduler.removeSystem('Count');
        await scheduler.update(1 / 60);
        out.afterRemove = got.length;
        out.plan = scheduler.plan().flat().includes('Count');
        const before = world.stateHash();
        world.publish('hit', { damage: 3 });
        out.droppedWithoutConsumer = world.stateHash() === before;
        scheduler.dispose();
        world.dispose();
        return out;
      }, variant);
      expect(r.unknownTopic).toMatch(/^UnknownTopic: .*no topic named 'miss' \(defined: 'hit'\)/);
      expect(r.wrongField).toMatch(/'hit' has no field 'dmg'/);
      expect(r.badValue).toMatch(/damage/);
      expect(r.notAnObject).toMatch(/takes an object of field values/);
      expect(r.aDate).toBe("-: world.publish: 'hit' takes an object of field values, got a Date");  // never "(or true)"
      expect(r.redefined).toMatch(/already defined with fields/);
      expect(r.noFields).toMatch(/^BadDefinition: .*has no fields/);
      expect(r.consumesUnknown).toMatch(/^UnknownTopic: .*'nope'/);
      expect(r.publishesUnknown).toMatch(/^UnknownTopic: .*'nope'/);
      expect(r.unchanged).toBe(true);
      expect(r.sameDefinition).toBe('hit');
      if (variant === 'threaded') expect(r.duringWave).toMatch(/^WrongPhase: .*publish\('hit'\) during a wave/);
      // 2000 units with cooldown 1 all shot in the first frame.
      expect(r.got).toEqual([2000]);
      expect(r.failures).toBeGreaterThanOrEqual(2);
      expect(r.afterRemove).toBe(1);
      expect(r.plan).toBe(false);
      expect(r.droppedWithoutConsumer).toBe(true);
      expectNoPageErrors(log);
    });
  });
}
