// Snapshots in the browser (docs/SNAPSHOT.md): the same bytes as natively (the committed fixture
// tests/fixtures/snapshot_scenario.bin, which the native suite also checks byte for byte), a
// native snapshot restores here and continues with the native hashes, a browser snapshot replays
// at another worker count and in the other build, and bad bytes are refused with the world
// unchanged (G5).
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test } from './support.js';

// Each test runs the scenario in several worlds and both builds: more than the default minute on a
// loaded 2-core machine.
test.describe.configure({ timeout: 240_000 });

const fixture = Array.from(readFileSync(new URL('../tests/fixtures/snapshot_scenario.bin', import.meta.url)));
const recorded = JSON.parse(readFileSync(new URL('../tests/fixtures/snapshot_scenario.json', import.meta.url), 'utf8'));
// Movers spawned together, whose rows the format stores as runs of handles (tests/snapshot/snapshot_fixture_test.cpp).
const moversFixture = Array.from(readFileSync(new URL('../tests/fixtures/snapshot_movers.bin', import.meta.url)));

// On the page: the scenario after `before` frames, its snapshot, and the hashes of `after` more.
async function takeScenario(page, { workers, before, after }) {
  return page.evaluate(async ({ workers, before, after }) => {
    const { loadEcsia, snapshotReplay } = window.ecsiaTest;
    const ecsia = await loadEcsia({ threads: 2, onDiagnostic: () => {} });
    const run = snapshotReplay.scenarioWorld(ecsia, workers);
    await snapshotReplay.runFrames(run, before);
    const bytes = run.world.snapshot();
    const hashAt = run.world.stateHash();
    const later = await snapshotReplay.runFrames(run, after);
    // Back into the same world and scheduler: the same frames again.
    run.world.restore(bytes);
    const sameWorld = { hashAt: run.world.stateHash(), later: await snapshotReplay.runFrames(run, after) };
    snapshotReplay.dispose(run);
    return { variant: ecsia.variant, workers: ecsia.workers, bytes: Array.from(bytes), hashAt, later, sameWorld };
  }, { workers, before, after });
}

// On the page: `bytes` restored into a fresh scenario world on `workers`, then `frames` frames.
async function replay(page, { bytes, workers, frames }) {
  return page.evaluate(async ({ bytes, workers, frames }) => {
    const { loadEcsia, snapshotReplay } = window.ecsiaTest;
    const ecsia = await loadEcsia({ threads: 2, onDiagnostic: () => {} });
    const run = snapshotReplay.scenarioWorld(ecsia, workers);
    run.world.restore(new Uint8Array(bytes));
    const hashAt = run.world.stateHash();
    const again = Array.from(run.world.snapshot());
    const hashes = await snapshotReplay.runFrames(run, frames);
    snapshotReplay.dispose(run);
    return { variant: ecsia.variant, hashAt, again, hashes };
  }, { bytes, workers, frames });
}

test('the scenario snapshots to the native fixture byte for byte, and the fixture replays to the native hashes, in both builds', async ({ page, browser }) => {
  const before = recorded.frames_before;
  const after = recorded.hashes_after.length;
  const log = await openTestPage(page, servers.isolated);
  for (const workers of [2, 0]) {
    const taken = await takeScenario(page, { workers, before, after });
    expect(taken.variant).toBe('threaded');
    expect(taken.bytes.length).toBe(fixture.length);
    expect(taken.bytes).toEqual(fixture);              // browser -> native: the same bytes
    expect(taken.later).toEqual(recorded.hashes_after);
    expect(taken.sameWorld.later).toEqual(recorded.hashes_after);
    const restored = await replay(page, { bytes: fixture, workers, frames: after });
    expect(restored.again).toEqual(fixture);           // native -> browser: restores whole
    expect(restored.hashes).toEqual(recorded.hashes_after);
  }
  expectNoPageErrors(log);

  const plain = await browser.newPage();
  const plainLog = await openTestPage(plain, servers.plain);
  const single = await takeScenario(plain, { workers: undefined, before, after });
  expect(single.variant).toBe('single');
  expect(single.bytes).toEqual(fixture);
  expect(single.later).toEqual(recorded.hashes_after);
  const restored = await replay(plain, { bytes: fixture, workers: undefined, frames: after });
  expect(restored.hashes).toEqual(recorded.hashes_after);
  expectNoPageErrors(plainLog);
  await plain.close();
});

// On the page: the movers world of tests/fixtures/snapshot_movers.bin built through the JS API,
// its snapshot, and the snapshot of a fresh world restored from `fixture`.
async function takeMovers(page, fixture) {
  return page.evaluate(async (fixture) => {
    const { loadEcsia, builtinsOf } = window.ecsiaTest;
    const ecsia = await loadEcsia({ threads: 2, onDiagnostic: () => {} });
    const builtins = builtinsOf(ecsia);
    const world = ecsia.createWorld({ maxEntities: 1 << 16 });
    builtins.spawnMovers(world, 3000, 3);
    builtins.spawnMovers(world, 2000, 1, { bare: true });
    for (const handle of [17, 1500, 2999]) world.despawn(handle);
    builtins.spawnMovers(world, 2, 1, { bare: true });
    const bytes = Array.from(world.snapshot());
    const fresh = ecsia.createWorld({ maxEntities: 1 << 16 });
    builtins.spawnMovers(fresh, 1, 1, { bare: true });  // defines the built-in components; the restore replaces its one entity
    fresh.restore(new Uint8Array(fixture));
    const again = Array.from(fresh.snapshot());
    world.dispose();
    fresh.dispose();
    return { variant: ecsia.variant, bytes, again };
  }, fixture);
}

test('movers spawned together snapshot to the native fixture byte for byte, their rows as runs, in both builds', async ({ page, browser }) => {
  const log = await openTestPage(page, servers.isolated);
  const threaded = await takeMovers(page, moversFixture);
  expect(threaded.variant).toBe('threaded');
  expect(threaded.bytes.length).toBe(moversFixture.length);
  expect(threaded.bytes).toEqual(moversFixture);   // browser -> native: the same bytes
  expect(threaded.again).toEqual(moversFixture);   // native -> browser: restores whole
  expectNoPageErrors(log);
  const plain = await browser.newPage();
  const plainLog = await openTestPage(plain, servers.plain);
  const single = await takeMovers(plain, moversFixture);
  expect(single.variant).toBe('single');
  expect(single.bytes).toEqual(moversFixture);
  expect(single.again).toEqual(moversFixture);
  expectNoPageErrors(plainLog);
  await plain.close();
});

test('a snapshot taken at 2 workers replays at 1 and 0 workers and in the single build', async ({ page, browser }) => {
  const log = await openTestPage(page, servers.isolated);
  // A later frame than the fixture's, so this is not only the committed bytes again.
  const taken = await takeScenario(page, { workers: 2, before: 47, after: 25 });
  expect(taken.sameWorld.hashAt).toBe(taken.hashAt);
  expect(taken.sameWorld.later).toEqual(taken.later);
  for (const workers of [1, 0]) {
    const r = await replay(page, { bytes: taken.bytes, workers, frames: 25 });
    expect(r.hashAt).toBe(taken.hashAt);
    expect(r.hashes).toEqual(taken.later);
  }
  expectNoPageErrors(log);
  const plain = await browser.newPage();
  await openTestPage(plain, servers.plain);
  const single = await replay(plain, { bytes: taken.bytes, workers: undefined, frames: 25 });
  expect(single.variant).toBe('single');
  expect(single.hashes).toEqual(taken.later);
  await plain.close();
});

test('restore refuses bad bytes with a clear error and leaves the world unchanged', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async (fixtureBytes) => {
    const { loadEcsia, snapshotReplay } = window.ecsiaTest;
    const ecsia = await loadEcsia({ threads: 2, onDiagnostic: () => {} });
    const run = snapshotReplay.scenarioWorld(ecsia, 2);
    await snapshotReplay.runFrames(run, 5);
    const good = new Uint8Array(fixtureBytes);
    const attempt = (what, bytes) => {
      const hash = run.world.stateHash();
      const before = run.world.snapshot();
      let error = null;
      try { run.world.restore(bytes); } catch (e) { error = { code: e.code ?? null, message: e.message }; }
      const after = run.world.snapshot();
      const unchanged = run.world.stateHash() === hash && after.length === before.length && after.every((b, i) => b === before[i]);
      return { what, error, unchanged };
    };
    const flipped = good.slice();
    flipped[good.length >> 1] ^= 4;
    const otherVersion = good.slice();
    otherVersion[8] = 10;
    const results = [
      attempt('truncated', good.slice(0, good.length - 100)),
      attempt('flipped', flipped),
      attempt('version', otherVersion),
      attempt('empty', new Uint8Array(0)),
      attempt('not bytes', 'a snapshot'),
    ];
    // A world without the scenario's components cannot take it.
    const bare = ecsia.createWorld({ maxEntities: 1 << 16 });
    let missing = null;
    const bareHash = bare.stateHash();
    try { bare.restore(good); } catch (e) { missing = { code: e.code, message: e.message }; }
    results.push({ what: 'missing component', error: missing, unchanged: bare.stateHash() === bareHash });
    // One that defines the first of them (in name order) with other fields cannot either.
    const other = ecsia.createWorld({ maxEntities: 1 << 16 });
    other.defineComponent('age', { frames: 'f32' });
    let different = null;
    const otherHash = other.stateHash();
    try { other.restore(good); } catch (e) { different = { code: e.code, message: e.message }; }
    results.push({ what: 'defined differently', error: different, unchanged: other.stateHash() === otherHash });
    other.dispose();
    // During a frame (a JS system calling it) it is refused too.
    let inFrame = null;
    run.scheduler.addSystem({ name: 'Saver', reads: [], writes: [], run(world) {
      try { world.snapshot(); } catch (e) { inFrame = e.code; }
    } });
    await run.scheduler.update(1 / 60);
    bare.dispose();
    snapshotReplay.dispose(run);
    return { results, inFrame };
  }, fixture);
  const byWhat = Object.fromEntries(r.results.map((x) => [x.what, x]));
  for (const x of r.results) expect(x.unchanged, x.what).toBe(true);
  expect(byWhat.truncated.error.code).toBe('BadSnapshot');
  expect(byWhat.truncated.error.message).toMatch(/^world\.restore: BadSnapshot: snapshot is truncated/);
  expect(byWhat.flipped.error.code).toBe('BadSnapshot');
  expect(byWhat.flipped.error.message).toContain('checksum does not match');
  expect(byWhat.version.error.message).toContain('format version 10 is not supported');
  expect(byWhat.empty.error.code).toBe('BadSnapshot');
  expect(byWhat['not bytes'].error.message).toContain('world.restore: takes the Uint8Array');
  expect(byWhat['missing component'].error.code).toBe('SnapshotMismatch');
  expect(byWhat['missing component'].error.message).toMatch(/needs component '(age|energy|marked|seen)'/);
  expect(byWhat['defined differently'].error.code).toBe('SnapshotMismatch');
  expect(byWhat['defined differently'].error.message).toContain("component 'age' is defined differently here");
  expect(r.inFrame).toBe('WrongPhase');
  expectNoPageErrors(log);
});

// docs/SNAPSHOT.md "Not in the bytes": a standalone query's change cursor is the query object's,
// so a query made before a restore to an earlier frame keeps its later cursor; a fresh query sees
// every matching row.
test('a standalone query keeps its own change cursor across a restore; a fresh query sees every row', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { loadEcsia } = window.ecsiaTest;
    const ecsia = await loadEcsia({ onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 1024 });
    world.defineComponent('hp', { value: 'f32' });
    const a = world.spawn({ hp: { value: 1 } });
    const b = world.spawn({ hp: { value: 2 } });
    const rows = (query) => query.chunks().reduce((n, c) => n + c.count, 0);
    const early = world.snapshot();
    const old = world.query({ changed: ['hp'] });
    const first = rows(old);                      // every row: the first call sees all
    world.set(a, 'hp', { value: 10 });
    const afterWrite = rows(old);                 // the one written since
    world.restore(early);                         // back before the write (and before old's cursor)
    world.set(b, 'hp', { value: 20 });            // written at a tick the old query already passed
    const oldAfterRestore = rows(old);
    const fresh = rows(world.query({ changed: ['hp'] }));
    world.dispose();
    return { first, afterWrite, oldAfterRestore, fresh };
  });
  expect(r.first).toBe(2);
  expect(r.afterWrite).toBe(1);
  expect(r.oldAfterRestore).toBe(0);
  expect(r.fresh).toBe(2);
  expectNoPageErrors(log);
});

test('world.snapshot(into) writes into a Uint8Array large enough and returns a view of it, else a new array, the same bytes', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { loadEcsia, snapshotReplay } = window.ecsiaTest;
    const ecsia = await loadEcsia({ threads: 2, onDiagnostic: () => {} });
    const run = snapshotReplay.scenarioWorld(ecsia, 2);
    await snapshotReplay.runFrames(run, 3);
    const plain = run.world.snapshot();
    const big = new Uint8Array(plain.length + 100).fill(7);
    const intoBig = run.world.snapshot(big);
    const small = new Uint8Array(plain.length - 1).fill(7);
    const intoSmall = run.world.snapshot(small);
    const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
    let wrong = null;
    try { run.world.snapshot(plain.buffer); } catch (e) { wrong = e.message; }
    let extra = null;
    try { run.world.snapshot(big, 1); } catch (e) { extra = e.message; }
    // The reused bytes restore like any others.
    await snapshotReplay.runFrames(run, 2);
    run.world.restore(intoBig);
    const restored = same(run.world.snapshot(), plain);
    snapshotReplay.dispose(run);
    return {
      bigReused: intoBig.buffer === big.buffer && intoBig.byteOffset === 0 && intoBig.length === plain.length,
      bigSame: same(intoBig, plain),
      tailKept: big[plain.length] === 7,
      smallNew: intoSmall.buffer !== small.buffer && small.every((x) => x === 7),
      smallSame: same(intoSmall, plain),
      wrong, extra, restored,
    };
  });
  expect(r.bigReused).toBe(true);
  expect(r.bigSame).toBe(true);
  expect(r.tailKept).toBe(true);
  expect(r.smallNew).toBe(true);
  expect(r.smallSame).toBe(true);
  expect(r.wrong).toContain('world.snapshot: takes a Uint8Array to reuse');
  expect(r.extra).toMatch(/world\.snapshot/);
  expect(r.restored).toBe(true);
  expectNoPageErrors(log);
});

test('world.snapshot copies its ranges straight out when they line up with the array, else assembles them in the heap: the same bytes either way', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { loadEcsia, snapshotReplay, internalsOf, builtinsOf } = window.ecsiaTest;
    const ecsia = await loadEcsia({ threads: 2, onDiagnostic: () => {} });
    const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
    // Counts which way each snapshot went: sealed in place and copied range by range, or
    // assembled in the heap buffer (web/internal/snapshot.js).
    const paths = (world) => {
      const { module } = internalsOf(world, 'world').engine;
      const counts = { direct: 0, staged: 0 };
      const seal = module.snapshotSealRanges, staged = module.snapshotCopySealed;
      module.snapshotSealRanges = () => { counts.direct += 1; return seal(); };
      module.snapshotCopySealed = () => { counts.staged += 1; return staged(); };
      return { counts, restore() { module.snapshotSealRanges = seal; module.snapshotCopySealed = staged; } };
    };
    // Into a Uint8Array at every offset mod 8 of its buffer.
    const atEveryOffset = (world, plain) => {
      const spy = paths(world);
      let allSame = true;
      const direct = [];  // the offsets that took the direct path
      for (let offset = 0; offset < 8; offset += 1) {
        const view = new Uint8Array(plain.length + 8).subarray(offset);
        const before = spy.counts.direct;
        const got = world.snapshot(view);
        if (spy.counts.direct > before) direct.push(offset);
        allSame &&= got.buffer === view.buffer && got.byteOffset === offset && same(got, plain);
        world.restore(got);
        allSame &&= same(world.snapshot(), plain);  // a new array: byteOffset 0
      }
      spy.restore();
      return { allSame, direct, calls: spy.counts.direct + spy.counts.staged };
    };
    const movers = ecsia.createWorld({ maxEntities: 20_000 });
    const scheduler = movers.createScheduler({ systems: ['Move'], workers: 0 });
    builtinsOf(ecsia).spawnMovers(movers, 20_000, 1, { bare: true });
    await scheduler.update(1 / 60);
    const moversPlain = movers.snapshot();
    const moversResult = atEveryOffset(movers, moversPlain);
    scheduler.dispose();
    movers.dispose();
    // The scenario's world (several tables, per-row ticks, a free list): the same bytes whichever way.
    const run = snapshotReplay.scenarioWorld(ecsia, 2);
    await snapshotReplay.runFrames(run, 3);
    const scenarioPlain = run.world.snapshot();
    const scenarioResult = atEveryOffset(run.world, scenarioPlain);
    snapshotReplay.dispose(run);
    return { movers: moversResult, scenario: scenarioResult };
  });
  expect(r.movers.allSame).toBe(true);
  // The format pads arrays of rows to 8-byte offsets and the engine's memory is 8-aligned: an
  // array at byteOffset 0 takes the direct path, the other seven the heap buffer.
  expect(r.movers.direct).toEqual([0]);
  expect(r.movers.calls).toBe(16);
  expect(r.scenario.allSame).toBe(true);
  expect(r.scenario.calls).toBe(16);
  expectNoPageErrors(log);
});

test('world.restore reads the bytes where they lie, from any byteOffset, puts back the state every time and keeps no reference to them', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const { loadEcsia, internalsOf, builtinsOf } = window.ecsiaTest;
    const ecsia = await loadEcsia({ threads: 2, onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 20_000 });
    const scheduler = world.createScheduler({ systems: ['Move'], workers: 0 });
    builtinsOf(ecsia).spawnMovers(world, 20_000, 1, { bare: true });
    await scheduler.update(1 / 60);
    const bytes = world.snapshot();
    const hashAt = world.stateHash();
    const later = [];
    for (let f = 0; f < 3; f += 1) { await scheduler.update(1 / 60); later.push(world.stateHash()); }
    const { module } = internalsOf(world, 'world').engine;
    const rounds = [];
    // Every offset mod 8 of a larger buffer (V8 copies into shared memory fastest when the two
    // sides are 8-aligned alike), twice each: the second reads into the memory the first swapped out.
    for (let round = 0; round < 16; round += 1) {
      const offset = round % 8;
      const view = new Uint8Array(bytes.length + 16).subarray(offset, offset + bytes.length);
      view.set(bytes);
      world.restore(view);
      const restored = world.stateHash();
      const replayed = [];
      for (let f = 0; f < 3; f += 1) { await scheduler.update(1 / 60); replayed.push(world.stateHash()); }
      rounds.push({ offset, restored, replayed, kept: module.ecsiaRestoreBytes !== undefined });
    }
    // Refused bytes leave nothing behind either.
    const damaged = bytes.slice();
    damaged[damaged.length - 9] ^= 1;
    let code = null;
    try { world.restore(damaged); } catch (error) { code = error.code; }
    const keptAfterRefusal = module.ecsiaRestoreBytes !== undefined;
    scheduler.dispose();
    world.dispose();
    return { hashAt, later, rounds, code, keptAfterRefusal };
  });
  expect(r.later[0]).not.toBe(r.hashAt);
  for (const round of r.rounds) {
    expect(round, `byteOffset ${round.offset}`).toEqual({ offset: round.offset, restored: r.hashAt, replayed: r.later, kept: false });
  }
  expect(r.code).toBe('BadSnapshot');
  expect(r.keptAfterRefusal).toBe(false);
  expectNoPageErrors(log);
});

// Pairs and prefabs: the world of tests/snapshot/relations_fixture_test.cpp, built through the JS
// API (web/test/relations_fixture.js), snapshots to tests/fixtures/snapshot_relations.bin byte for
// byte in both builds, and the fixture restores into a fresh world with its pairs and prefab names.
const relationsFixture = Array.from(readFileSync(new URL('../tests/fixtures/snapshot_relations.bin', import.meta.url)));

test('pairs and prefabs snapshot to the native relations fixture byte for byte, and restore from it, in both builds', async ({ browser }) => {
  for (const server of [servers.isolated, servers.plain]) {
    const page = await browser.newPage();
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async (fixture) => {
      const { buildRelationsFixture, defineRelationsFixture } = await import('/web/test/relations_fixture.js');
      const ecsia = await window.ecsiaTest.loadEcsia({ onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 1 << 16 });
      buildRelationsFixture(world);
      const bytes = Array.from(world.snapshot());
      const fresh = ecsia.createWorld({ maxEntities: 1 << 16 });
      defineRelationsFixture(fresh);
      fresh.restore(new Uint8Array(fixture));
      const boss = fresh.prefab('orcBoss');
      const out = {
        variant: ecsia.variant, bytes, sameHash: fresh.stateHash() === world.stateHash(),
        again: Array.from(fresh.snapshot()), boss: boss === world.prefab('orcBoss'),
        bossHp: fresh.get(fresh.instantiate(boss), 'rhp').hp, children: fresh.subjectsOf('ChildOf', '*').length,
        targets: fresh.subjectsOf('Targets', '*').length,
      };
      world.dispose();
      fresh.dispose();
      return out;
    }, relationsFixture);
    expect(r.bytes.length).toBe(relationsFixture.length);
    expect(r.bytes, r.variant).toEqual(relationsFixture);
    expect(r.again).toEqual(relationsFixture);
    expect(r.sameHash && r.boss).toBe(true);
    expect(r.bossHp).toBe(300);
    expect(r.children).toBe(10);  // e1..e11 have a parent; 5 went with its child 11; the grunt has one
    expect(r.targets).toBeGreaterThan(0);
    expectNoPageErrors(log);
    await page.close();
  }
});
