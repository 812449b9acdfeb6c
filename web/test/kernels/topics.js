// The JS kernels of e2e/topics.spec.js: units that hit each other through a topic. Values are
// small integers, exact in f32, so every message can be checked.

/**
 * Each unit whose cooldown reaches 0 publishes a hit on the unit its `aim` names (a handle), and
 * every 5th one spawns a decoy first and hits that instead (a pending handle in a message field,
 * made real at the merge).
 */
export function shoot(chunk, dt, commands) {
  const unit = chunk.columns.unit;  // [cooldown, power] per row (i32)
  for (let i = 0; i < chunk.count; i++) {
    const cooldown = unit[2 * i] - 1;
    unit[2 * i] = cooldown;
    if (cooldown > 0) continue;
    unit[2 * i] = 3 + (chunk.entities[i] % 5);
    let target = chunk.columns.aim[i];
    if (chunk.entities[i] % 5 === 0) target = commands.spawn({ unit: { cooldown: 100, power: 0 } });
    commands.publish('hit', { source: chunk.entities[i], target, damage: unit[2 * i + 1] });
  }
}

/**
 * A consumer kernel over the tally row: every batch sees the same messages; it folds them into
 * the row in order (count, sum of damage, an order-sensitive digest).
 */
export function tally(chunk, dt, commands, messages) {
  const hit = messages.hit;
  const tallyView = chunk.columns.tally;  // [count, damage, digest] (u32)
  const damage = hit.fields.damage;
  const source = hit.fields.source;
  for (let r = 0; r < chunk.count; r++) {
    let digest = tallyView[3 * r + 2];
    let sum = tallyView[3 * r + 1];
    for (let i = 0; i < hit.count; i++) {
      digest = (Math.imul(digest, 31) + source[i] * 7 + damage[i]) >>> 0;
      sum += damage[i];
    }
    tallyView[3 * r] += hit.count;
    tallyView[3 * r + 1] = sum;
    tallyView[3 * r + 2] = digest;
  }
}

/** Publishes a message of a topic the system did not declare: its batch fails. */
export function undeclared(chunk, dt, commands) {
  commands.publish('hit', { damage: 1 });
}

/** A volley: a hit per row in one call (commands.publishMany), the damage from each row's power. */
export function volley(chunk, dt, commands) {
  const unit = chunk.columns.unit;
  const damage = new Float32Array(chunk.count);
  for (let i = 0; i < chunk.count; i++) damage[i] = unit[2 * i + 1];
  commands.publishMany('hit', chunk.count, { source: chunk.entities, target: 7, damage });
}

/** The same volley, a message at a time (commands.publish). */
export function volleyEach(chunk, dt, commands) {
  const unit = chunk.columns.unit;
  for (let i = 0; i < chunk.count; i++) commands.publish('hit', { source: chunk.entities[i], target: 7, damage: unit[2 * i + 1] });
}

/**
 * The volley among other messages of the same batch: single ones before and after, and a
 * publishMany of some fields only (threaded, a publishMany of every field as typed arrays or
 * numbers is written field by field into the engine, the others go through the batch's outbox at
 * its end): the messages must keep the order of the calls. The first source is an entity the
 * batch spawned.
 */
export function volleyMixed(chunk, dt, commands) {
  const unit = chunk.columns.unit;
  const decoy = commands.spawn({});
  commands.publish('hit', { source: decoy, target: 7, damage: -1 });
  const sources = new Uint32Array(chunk.entities);
  sources[0] = decoy;
  const damage = new Float32Array(chunk.count);
  for (let i = 0; i < chunk.count; i++) damage[i] = unit[2 * i + 1];
  commands.publishMany('hit', chunk.count, { source: sources, target: 7, damage });
  commands.publishMany('hit', 2, { damage: [-2, -3] });
  commands.publishMany('hit', 1, { source: decoy, target: 7, damage: -4 });
  commands.publish('hit', { source: decoy, target: 7, damage: -5 });
}

/** The same messages as volleyMixed, a message at a time. */
export function volleyMixedEach(chunk, dt, commands) {
  const unit = chunk.columns.unit;
  const decoy = commands.spawn({});
  commands.publish('hit', { source: decoy, target: 7, damage: -1 });
  for (let i = 0; i < chunk.count; i++) commands.publish('hit', { source: i === 0 ? decoy : chunk.entities[i], target: 7, damage: unit[2 * i + 1] });
  commands.publish('hit', { damage: -2 });
  commands.publish('hit', { damage: -3 });
  commands.publish('hit', { source: decoy, target: 7, damage: -4 });
  commands.publish('hit', { source: decoy, target: 7, damage: -5 });
}

/** A volley of 2^30 messages of one value each: more than a batch can publish, refused whole. */
export function volleyHuge(chunk, dt, commands) {
  commands.publishMany('hit', 2 ** 30, { source: 1, target: 7, damage: 1 });
}

/** A volley of typed arrays (the in-place path) with one NaN damage: refused whole (NaN is never a value). */
export function volleyNaN(chunk, dt, commands) {
  const damage = new Float32Array(chunk.count).fill(1);
  damage[chunk.count >> 1] = NaN;
  commands.publishMany('hit', chunk.count, { source: chunk.entities, target: new Uint32Array(chunk.count).fill(7), damage });
}

/** One message whose damage is NaN, after a good one: the batch fails, nothing is published. */
export function publishNaN(chunk, dt, commands) {
  commands.publish('hit', { source: chunk.entities[0], target: 7, damage: 1 });
  commands.publish('hit', { source: chunk.entities[0], target: 7, damage: NaN });
}

/** A volley with one value too few and one that is no number: refused whole, nothing published. */
export function volleyBad(chunk, dt, commands) {
  commands.publishMany('hit', 2, { damage: [1, 'two'] });
}

/** A typed array where publish and publishMany take an object of field values: both refused. */
export function publishTypedArray(chunk, dt, commands) {
  const said = [];
  for (const attempt of [() => commands.publish('hit', new Float32Array(0)), () => commands.publishMany('hit', 1, new Float32Array(1))]) {
    try { attempt(); said.push('no error'); } catch (error) { said.push(error.message); }
  }
  throw new Error(said.join(' | '));
}
