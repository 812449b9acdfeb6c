// The snapshot churn workload: what world.snapshot(into) costs, and how big it is, in a world a
// game has churned for a minute, not one freshly spawned. An asteroids-like game of about 23,000
// entities (docs/PERFORMANCE.md, "snapshot churn"): asteroids drift and spin, ships fire bullets
// that expire, hits lower health and tag the asteroid for a frame, a dead asteroid splits in two
// smaller ones until they are too small, and new asteroids keep the population up. After 3,600
// frames (a minute at 60 Hz):
//   snapshot(into)     the snapshot into a reused buffer, as a rollback ring takes it
//   copy               TypedArray.set of as many bytes as the snapshot writes, buffer to buffer
//   size               the snapshot's bytes against the component bytes it holds, and where the
//                      rest is: handles, change ticks (per row, in runs, uniform, the same as
//                      another array's), alignment padding, the other sections
import { internalsOf } from '../internal/engine.js';
import { interleave, median } from './timing.js';

const DT = 1 / 60;
const TARGET = 23_000;

function xorshift(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
}

function churnWorld(ecsia, workers) {
  const world = ecsia.createWorld({ maxEntities: 1 << 16 });
  world.defineComponent('position', { x: 'f32', y: 'f32' });
  world.defineComponent('velocity', { dx: 'f32', dy: 'f32' });
  world.defineComponent('angle', { a: 'f32', spin: 'f32' });
  world.defineComponent('radius', { r: 'f32' });
  world.defineComponent('health', { hp: 'i32' });
  world.defineComponent('asteroid', {});
  world.defineComponent('hit', {});
  world.defineComponent('bullet', { ttl: 'u16', owner: 'u8' });
  world.defineComponent('ship', { score: 'u32', cooldown: 'u16' });
  const random = xorshift(42);
  const asteroids = (n, r) => {
    const column = (f) => Float32Array.from({ length: n }, f);
    return world.spawnMany(n, {
      position: { x: column(() => random() * 4000), y: column(() => random() * 4000) },
      velocity: { dx: column(() => random() * 40 - 20), dy: column(() => random() * 40 - 20) },
      angle: { a: column(() => random() * 6.28), spin: column(() => random() - 0.5) },
      radius: { r: typeof r === 'number' ? r : column(() => 8 + random() * 24) },
      health: { hp: 3 },
      asteroid: true,
    });
  };
  asteroids(TARGET - 300);
  const ships = Array.from({ length: 4 }, (_, i) => world.spawn({ position: { x: 1000 * i, y: 2000 }, velocity: {}, angle: {}, ship: {} }));
  const scheduler = world.createScheduler({ workers });
  const rocks = world.query({ with: ['asteroid', 'health', 'radius', 'position'] });
  const spinning = world.query({ with: ['angle'] });
  const bullets = world.query({ with: ['bullet'] });
  let lastHit = [];
  scheduler.addSystem({ name: 'Move', kernel: 'move', reads: ['velocity'], writes: ['position'] });
  scheduler.addSystem({
    name: 'Spin', writes: ['angle'],
    run(w, dt) {
      for (const chunk of spinning.chunks()) {
        const a = chunk.columns.angle;
        for (let i = 0; i < chunk.count; i += 1) a[2 * i] += a[2 * i + 1] * dt;
      }
    },
  });
  scheduler.addSystem({
    name: 'Fire', writes: ['bullet', 'position', 'velocity'],
    run(w) {
      for (const [i, ship] of ships.entries()) {
        const { x, y } = w.get(ship, 'position');
        const angle = random() * 6.28;
        w.spawn({ position: { x, y }, velocity: { dx: Math.cos(angle) * 300, dy: Math.sin(angle) * 300 }, bullet: { ttl: 30 + (i * 7) % 40, owner: i } });
      }
    },
  });
  scheduler.addSystem({
    name: 'Expire', writes: ['bullet'], after: ['Fire'],
    run(w) {
      const spent = [];
      for (const chunk of bullets.chunks()) {
        const view = chunk.columns.bullet;  // DataView: ttl u16 at 0
        const stride = chunk.strides.bullet;
        for (let i = 0; i < chunk.count; i += 1) {
          const ttl = view.getUint16(i * stride, true);
          if (ttl <= 1) spent.push(chunk.entities[i]);
          else view.setUint16(i * stride, ttl - 1, true);
        }
      }
      if (spent.length > 0) w.despawnMany(spent);
    },
  });
  scheduler.addSystem({
    name: 'Hits', writes: ['health', 'hit', 'asteroid', 'radius', 'position', 'velocity', 'angle', 'ship'], after: ['Expire'],
    run(w) {
      for (const e of lastHit) if (w.isAlive(e) && w.has(e, 'hit')) w.remove(e, 'hit');
      lastHit = [];
      const all = [];
      for (const chunk of rocks.chunks()) for (let i = 0; i < chunk.count; i += 1) all.push(chunk.entities[i]);
      const splits = [];
      for (let k = 0; k < 40 && all.length > 0; k += 1) {
        const e = all[Math.floor(random() * all.length)];
        if (!w.isAlive(e) || lastHit.includes(e)) continue;
        const hp = w.get(e, 'health').hp - 1;
        if (hp > 0) {
          w.set(e, 'health', { hp });
          w.add(e, 'hit');
          lastHit.push(e);
        } else {
          splits.push(e);
        }
      }
      for (const e of splits) {
        const r = w.get(e, 'radius').r;
        const { x, y } = w.get(e, 'position');
        w.despawn(e);
        if (r > 10) {
          for (let c = 0; c < 2; c += 1) {
            w.spawn({ position: { x, y }, velocity: { dx: random() * 60 - 30, dy: random() * 60 - 30 }, angle: { spin: random() - 0.5 },
              radius: { r: r / 2 }, health: { hp: 2 }, asteroid: true });
          }
        }
      }
      const missing = TARGET - 300 - rocks.count();
      if (missing > 0) asteroids(Math.min(missing, 20));
    },
  });
  return { world, scheduler };
}

// Where the snapshot's bytes go: its sections, and in TABL the handles, ticks, values and padding
// (docs/SNAPSHOT.md, the format).
function anatomy(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at) => String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
  const sections = {};
  const tabl = { handles: 0, handleRuns: 0, ticks: 0, tickRuns: 0, tickRunCount: 0, uniformTicks: 0, sameTicks: 0, values: 0, padding: 0, counts: 0, tables: 0, rows: 0 };
  const sizes = [];
  let at = 32;
  while (at < bytes.length) {
    const name = tag(at);
    const length = Number(view.getBigUint64(at + 4, true));
    const body = at + 12;
    sections[name] = length + 12;
    if (name === 'COMP') {
      let p = body + 4;
      const count = view.getUint32(body, true);
      for (let c = 0; c < count; c += 1) {
        p += 4 + view.getUint32(p, true);
        sizes.push(view.getUint32(p, true));
        const fields = view.getUint32(p + 8, true);
        p += 12;
        for (let f = 0; f < fields; f += 1) p += 4 + view.getUint32(p, true) + 5;
      }
    }
    if (name === 'TABL') {
      let p = body;
      const u32 = () => { const v = view.getUint32(p, true); p += 4; return v; };
      const pad = () => { const next = (p + 7) & ~7; tabl.padding += next - p; p = next; };
      tabl.tables = u32();
      for (let t = 0; t < tabl.tables; t += 1) {
        const columns = [];
        const count = u32();
        for (let c = 0; c < count; c += 1) columns.push(u32());
        const rows = u32();
        tabl.rows += rows;
        tabl.counts += 4 * (2 + count);
        // Each encoding's bytes include its words (encoding, run count), not the padding.
        if (u32() === 0) { pad(); p += 4 * rows; tabl.handles += 4 + 4 * rows; } else { const runs = u32(); p += 8 * runs; tabl.handleRuns += 8 + 8 * runs; }
        for (const component of columns) {
          p += 16;
          tabl.counts += 16;
          for (let k = 0; k < 2; k += 1) {
            const encoding = u32();
            if (encoding === 0) { pad(); p += 4 * rows; tabl.ticks += 4 + 4 * rows; }
            else if (encoding === 1) { p += 4; tabl.uniformTicks += 8; }
            else if (encoding === 2) { const runs = u32(); p += 8 * runs; tabl.tickRuns += 8 + 8 * runs; tabl.tickRunCount += runs; }
            else { p += 4; tabl.sameTicks += 8; }
          }
          pad();
          p += rows * sizes[component];
          tabl.values += rows * sizes[component];
        }
      }
    }
    at = body + length;
  }
  return { sections, tabl };
}

export async function snapshotChurn(env, { frames = 3_600, repetitions = 21, workers = 2 } = {}) {
  const { ecsia } = env;
  const { world, scheduler } = churnWorld(ecsia, workers);
  for (let f = 0; f < frames; f += 1) await scheduler.update(DT);
  let ring = world.snapshot();
  const source = ring.slice();
  const copy = new Uint8Array(ring.length);
  const { samples } = await interleave([
    { name: 'copy', run: (n) => { for (let i = 0; i < n; i += 1) copy.set(source); } },
    { name: 'snapshot(into)', run: (n) => { for (let i = 0; i < n; i += 1) ring = world.snapshot(ring); } },
  ], { repetitions, warmupMs: 200 });
  // Where the time goes: the engine's part (the writer, then the checksum over the ranges in
  // place) and the JS copies of the ranges, as world.snapshot(into) does them (web/internal/snapshot.js).
  const core = internalsOf(world, 'world');
  const module = core.engine.module;
  const parts = { writer: [], checksum: [], copies: [] };
  for (let i = 0; i < 51; i += 1) {
    const t0 = performance.now();
    const count = core.call('snapshot', (raw) => module.snapshotTakeRanges(raw));
    const t1 = performance.now();
    module.snapshotSealRanges();
    const t2 = performance.now();
    const heap = core.engine.heapState().buffer;
    const table = new Uint32Array(heap, module.snapshotRangeTable(), count * 2);
    for (let k = 0, at = 0; k < table.length; k += 2) {
      ring.set(new Uint8Array(heap, table[k], table[k + 1]), at);
      at += table[k + 1];
    }
    parts.writer.push(t1 - t0);
    parts.checksum.push(t2 - t1);
    parts.copies.push(performance.now() - t2);
  }
  const { sections, tabl } = anatomy(ring);
  const entities = world.count();
  const result = {
    frames,
    entities,
    tables: tabl.tables,
    snapshotBytes: ring.length,
    componentBytes: tabl.values,
    bytesPerEntity: ring.length / entities,
    sizeOverComponentBytes: ring.length / tabl.values,
    usSnapshot: median(samples['snapshot(into)']) * 1e3,
    usCopy: median(samples.copy) * 1e3,
    snapshotOverCopy: median(samples['snapshot(into)']) / median(samples.copy),
    nsPerEntity: (median(samples['snapshot(into)']) * 1e6) / entities,
    usParts: Object.fromEntries(Object.entries(parts).map(([name, ms]) => [name, median(ms) * 1e3])),
    sections,
    tabl,
  };
  scheduler.dispose();
  world.dispose();
  return result;
}
