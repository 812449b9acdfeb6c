// The JS kernels of the e2e specs (e2e/kernels.spec.js): a scenario that spawns, despawns, adds,
// removes, sets and writes values every frame, so that its state hash can be compared frame by
// frame across executors and builds. Values stay exact in f32 where they are compared.

/** position += velocity * dt (the *move* workload). */
export function integrate(chunk, dt) {
  const p = chunk.columns.position;
  const v = chunk.columns.velocity;
  for (let i = 0; i < chunk.count; i++) {
    p[2 * i] += v[2 * i] * dt;
    p[2 * i + 1] += v[2 * i + 1] * dt;
  }
}

/** hp (mixed i32/f32: a DataView) counts down; at 0 the entity despawns; every 5th value flags it. */
export function age(chunk, dt, commands) {
  const hp = chunk.columns.hp;
  const stride = chunk.strides.hp;
  const { value, regen } = chunk.offsets.hp;
  for (let i = 0; i < chunk.count; i++) {
    const at = i * stride;
    const left = hp.getInt32(at + value, true) - 1;
    hp.setInt32(at + value, left, true);
    hp.setFloat32(at + regen, hp.getFloat32(at + regen, true) + dt, true);
    if (left <= 0) commands.despawn(chunk.entities[i]);
    else if (left % 5 === 0) commands.add(chunk.entities[i], 'flag');
  }
}

/** Entities whose hp is 3 mod 7 spawn a child next to them, linked to its parent. */
export function breed(chunk, dt, commands) {
  const hp = chunk.columns.hp;
  const p = chunk.columns.position;
  for (let i = 0; i < chunk.count; i++) {
    const left = hp.getInt32(i * chunk.strides.hp + chunk.offsets.hp.value, true);
    if (left % 7 !== 3) continue;
    const child = commands.spawn({
      position: { x: p[2 * i] + 1, y: p[2 * i + 1] },
      velocity: { dx: -1, dy: 0.5 },
      hp: { value: 9 },
    });
    commands.add(child, 'parent', { of: chunk.entities[i] });  // the handle works in the same batch
    commands.set(child, 'hp', { regen: 0.25 });
  }
}

/**
 * Entities whose hp is 4 mod 6 spawn a child that is ChildOf them, and target it (Targets, with
 * data): the spawn's handle is the subject of one pair and the target of the other in the same
 * batch, reserved or pending.
 */
export function adopt(chunk, dt, commands) {
  const hp = chunk.columns.hp;
  for (let i = 0; i < chunk.count; i++) {
    const left = hp.getInt32(i * chunk.strides.hp + chunk.offsets.hp.value, true);
    if (left % 6 !== 4) continue;
    const e = chunk.entities[i];
    const child = commands.spawn({ hp: { value: 1 + (left % 3) } });  // too low to adopt in turn
    commands.addPair(child, 'ChildOf', e);
    commands.addPair(e, 'Targets', child, { since: left });
  }
}

/**
 * Entities whose hp is 1 mod 4 leave their parent; 2 mod 9 drop every target, 5 mod 9 the pair to
 * the batch's first row; 7 mod 8 move under the batch's first row (an exclusive relation: the
 * old parent's pair goes; a cycle is refused at the merge with a diagnostic).
 */
export function orphan(chunk, dt, commands) {
  const hp = chunk.columns.hp;
  const first = chunk.entities[0];
  for (let i = 0; i < chunk.count; i++) {
    const left = hp.getInt32(i * chunk.strides.hp + chunk.offsets.hp.value, true);
    const e = chunk.entities[i];
    if (left % 4 === 1) commands.removePair(e, 'ChildOf', '*');
    if (left % 9 === 2) commands.removePair(e, 'Targets', '*');
    else if (left % 9 === 5) commands.removePair(e, 'Targets', first);
    if (left % 8 === 7 && e !== first) commands.addPair(e, 'ChildOf', first);
  }
}

/** Flagged entities whose hp is a multiple of 3 lose the flag and gain `mixed` and `tally`. */
export function unflag(chunk, dt, commands) {
  const hp = chunk.columns.hp;
  for (let i = 0; i < chunk.count; i++) {
    const left = hp.getInt32(i * chunk.strides.hp + chunk.offsets.hp.value, true);
    if (left % 3 !== 0) continue;
    const e = chunk.entities[i];
    commands.remove(e, 'flag');
    commands.add(e, 'mixed', { a: left & 255, b: left / 4 });
    commands.add(e, 'tally', { n: 0 });
  }
}

/** mixed (u8 + f64, a DataView) changes every frame. */
export function mix(chunk, dt) {
  const m = chunk.columns.mixed;
  const { a, b } = chunk.offsets.mixed;
  for (let i = 0; i < chunk.count; i++) {
    const at = i * chunk.strides.mixed;
    m.setUint8(at + a, (m.getUint8(at + a) + 3) & 255);
    m.setFloat64(at + b, m.getFloat64(at + b, true) + dt, true);
  }
}

/** Counts, per entity, the frames in which `mixed` changed (a `changed` query). */
export function tally(chunk) {
  const t = chunk.columns.tally;
  for (let i = 0; i < chunk.count; i++) t[i] += 1;
}

/** hp gains the low bit of mixed.a where the table has `mixed` (an optional component). */
export function heal(chunk) {
  const hp = chunk.columns.hp;
  const m = chunk.columns.mixed;
  if (m === undefined) return;
  for (let i = 0; i < chunk.count; i++) {
    const at = i * chunk.strides.hp + chunk.offsets.hp.value;
    hp.setInt32(at, hp.getInt32(at, true) + (m.getUint8(i * chunk.strides.mixed + chunk.offsets.mixed.a) & 1), true);
  }
}

/** Counts rows whose position changed since this system's last run (query changed: position). */
export function countChanged(chunk) {
  const t = chunk.columns.tally;
  for (let i = 0; i < chunk.count; i++) t[i] += 1;
}

/** Reads position only: must not mark it changed. */
export function peek(chunk) {
  let sum = 0;
  const p = chunk.columns.position;
  for (let i = 0; i < chunk.count; i++) sum += p[2 * i];
  return sum;
}

/** Records a spawn, then throws when the batch holds an entity whose hp is 13. */
export function explode(chunk, dt, commands) {
  commands.spawn({ hp: { value: 1000 } });
  const hp = chunk.columns.hp;
  for (let i = 0; i < chunk.count; i++) {
    if (hp.getInt32(i * chunk.strides.hp + chunk.offsets.hp.value, true) === 13) throw new Error(`hp 13 at row ${i}`);
  }
}

/** Never returns. */
export function spin() {
  for (;;) { /* a kernel stuck in a loop */ }
}

/** Spawns `big` entities: 1,000 per batch, to grow the heap far past its initial size. */
export function grow(chunk, dt, commands) {
  for (let i = 0; i < chunk.count; i++) {
    for (let k = 0; k < 1000; k++) commands.spawn({ big: { f0: k } });
  }
}

/** big.f0 += 1 through the batch's view. */
export function bump(chunk) {
  const b = chunk.columns.big;
  const stride = chunk.strides.big;
  for (let i = 0; i < chunk.count; i++) b[i * stride] += 1;
}

/** Bad command input: an unknown component. */
export function badCommand(chunk, dt, commands) {
  commands.spawn({ nosuch: {} });
}

/**
 * Tries each malformed pair command (the world has the relation Targets { since: i32 }), records
 * one good pair, then throws every message it got: the batch fails and records nothing.
 */
export function badPairs(chunk, dt, commands) {
  const e = chunk.entities[0];
  const tries = [
    () => commands.addPair(e, 'Nope', e),
    () => commands.addPair(e, 'hp', e),
    () => commands.add(e, 'ChildOf'),
    () => commands.addPair(e, 'ChildOf', e),
    () => commands.addPair(e, 'ChildOf', '*'),
    () => commands.addPair(e, 'Targets', e, { since: 'x' }),
    () => commands.addPair(e, 'Targets', e, { nope: 1 }),
    () => commands.addPair(e, 'ChildOf', 12, { a: 1 }),
    () => commands.removePair(e, 'Targets', -1),
    () => commands.addPair('e', 'Targets', e),
    // NaN is never a value, in kernels as in every world call.
    () => commands.add(e, 'hp', { regen: NaN }),
    () => commands.set(e, 'mixed', { b: NaN }),
    () => commands.spawn({ hp: { value: 1, regen: NaN } }),
    // chunk.targetOf: what it refuses, and null for a handle that is not alive (pending, stale,
    // never made) or has no target.
    () => chunk.targetOf(e, 'Nope'),
    () => chunk.targetOf(e, 'hp'),
    () => chunk.targetOf(e, 'Targets'),
    () => {
      const pending = commands.spawn({ hp: { value: 2 } });
      const stale = e + 2 ** 22;  // e's slot one generation on (22 index bits)
      throw new Error(`targetOf ${JSON.stringify([pending, stale, 0x3ffffe, e].map((x) => chunk.targetOf(x, 'ChildOf')))}`);
    },
  ];
  commands.addPair(e, 'Targets', e, { since: 5 });
  const messages = [];
  for (const attempt of tries) {
    try {
      attempt();
      messages.push('no error');
    } catch (error) {
      messages.push(error.message);
    }
  }
  throw new Error(messages.join(' | '));
}

/** Sets fields at offsets other than 0 through commands.set: hp.regen (f32 at 4), mixed.b (f64 at 8). */
export function setFields(chunk, dt, commands) {
  for (let i = 0; i < chunk.count; i++) {
    commands.set(chunk.entities[i], 'hp', { regen: 0.75 });
    commands.set(chunk.entities[i], 'mixed', { b: -2.5, a: 7 });
  }
}

/** Keeps its commands object and uses it after its call. */
let kept = null;
export function keep(chunk, dt, commands) {
  if (kept !== null) kept.despawn(chunk.entities[0]);
  kept = commands;
}

/** Does nothing: the per-batch cost of a JS kernel call. */
export function nothing() {}

/**
 * Spawns one entity (hp 500) per batch with no reserved handles, so its handle is a pending one,
 * and sets the new entity's hp to 600 through it (valid: its own batch). Then it misuses every
 * pending handle an earlier batch on this thread returned (another batch of this frame, or an
 * earlier frame): hp -7 must never reach any entity; the merge refuses those records.
 */
const hoarded = [];
export function hoard(chunk, dt, commands) {
  const own = commands.spawn({ hp: { value: 500 } });
  commands.set(own, 'hp', { value: 600 });
  for (const old of hoarded) commands.set(old, 'hp', { value: -7 });
  hoarded.push(own);
}

/**
 * Writes `parent.of` in place: the batch's first row gets the pending handle of the batch's own
 * spawn; the others get the one this module kept from the batch it ran before, which names no
 * spawn of this batch. The merge must put the real handle in the first and null in the others.
 */
let keptLink = null;
export function link(chunk, dt, commands) {
  const of = chunk.columns.parent;
  const own = commands.spawn({ hp: { value: 700 } });
  for (let i = 0; i < chunk.count; i++) of[i] = i === 0 || keptLink === null ? own : keptLink;
  keptLink = own;
}

/**
 * Calls the page's world (globalThis.meddleWorld, set by the test) from inside its batch, which
 * a kernel must never do: world.set, world.markChanged and world.stateHash, each refused during the wave.
 */
export function meddle(chunk) {
  const world = globalThis.meddleWorld;
  if (world === undefined) throw new Error('meddle runs only on the page (serial executor or single build)');
  const e = chunk.entities[0];
  const refused = [];
  for (const call of [() => world.set(e, 'hp', { value: 99 }), () => world.markChanged(e, 'hp'), () => world.stateHash()]) {
    try { call(); refused.push(null); } catch (error) { refused.push(error.message); }
  }
  globalThis.meddleRefused = refused;
}

/**
 * Rows after the batch's first each get a Link pair to it without values, and so does a spawn of
 * the batch: such pairs hold the relation's defaults (null in entity fields, never handle 0).
 */
export function linkDefaults(chunk, dt, commands) {
  const first = chunk.entities[0];
  for (let i = 1; i < chunk.count; i++) commands.addPair(chunk.entities[i], 'Link', first);
  commands.addPair(commands.spawn({ velocity: { dx: 0, dy: 0 } }), 'Link', first);
}
