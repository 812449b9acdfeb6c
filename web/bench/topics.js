// The topics workload (issue: events that kernels publish and systems consume): 100,000 'hit'
// messages ({ target: entity, damage: f32 }) published by a JS kernel on the workers (one per
// row, commands.publish) and consumed by a main-thread JS system that sums their damage through
// the typed-array views (messages.hit.fields), one frame each:
//   topic frame        the whole frame: the kernel's wave on 2 workers (threads 'auto' in the
//                      single build: the serial executor), the merge that appends the
//                      messages, the consumer, the trim
//   topic frame, serial  the same with the serial executor
//   consume by object  the same frame consumed by iterating messages (an object per message)
//   publishMany frame  the same frame with the kernel publishing its batch's messages in one
//                      commands.publishMany call (its entities and power column as they are)
//   kernel without publish  the same kernel writing the values into its own column instead: the
//                      frame's cost without topics (a wave and a JS kernel over 100,000 rows)
//   JS loop            the baseline: the same values pushed into typed arrays and read back
// Ratios against the JS loop measured in the same run.
import { interleave, median, ratio } from './timing.js';

const DT = 1 / 60;

function topicWorld(ecsia, entities, workers, consume) {
  const world = ecsia.createWorld({ maxEntities: 2 * entities });
  world.defineComponent('power', { damage: 'f32' });
  world.defineComponent('echo', { target: 'u32', damage: 'f32' });
  world.defineTopic('hit', { target: 'entity', damage: 'f32' });
  const powers = new Float32Array(entities);
  for (let i = 0; i < entities; i++) powers[i] = i % 10;
  world.spawnMany(entities, { power: { damage: powers }, echo: {} });
  const scheduler = world.createScheduler({ workers, batchRows: Math.ceil(entities / 16) });
  const seen = { count: 0, damage: 0 };
  if (consume === 'many') {
    scheduler.addSystem({ name: 'Shoot', kernel: 'shootMany', reads: ['power'], publishes: ['hit'] });
    scheduler.addSystem({
      name: 'Consume', consumes: ['hit'],
      run: (w, dt, chunks, { hit }) => {
        const damage = hit.fields.damage;
        let sum = 0;
        for (let i = 0; i < hit.count; i++) sum += damage[i];
        seen.count = hit.count;
        seen.damage = sum;
      },
    });
  } else if (consume === 'none') {
    scheduler.addSystem({ name: 'Echo', kernel: 'echo', reads: ['power'], writes: ['echo'] });
  } else {
    scheduler.addSystem({ name: 'Shoot', kernel: 'shoot', reads: ['power'], publishes: ['hit'] });
    scheduler.addSystem({
      name: 'Consume', consumes: ['hit'],
      run: consume === 'fields'
        ? (w, dt, chunks, { hit }) => {
          const damage = hit.fields.damage;
          const target = hit.fields.target;
          let sum = 0;
          let last = 0;
          for (let i = 0; i < hit.count; i++) { sum += damage[i]; last = target[i]; }
          seen.count = hit.count;
          seen.damage = sum + (last & 0);
        }
        : (w, dt, chunks, { hit }) => {
          let sum = 0;
          let n = 0;
          for (const m of hit) { sum += m.damage; n += 1; }
          seen.count = n;
          seen.damage = sum;
        },
    });
  }
  return { world, scheduler, seen, run: async (frames) => { for (let f = 0; f < frames; f++) await scheduler.update(DT); } };
}

export async function topics(env, { entities = 100_000, repetitions = 15, sampleMs = 40, warmupMs = 300, settleMs = 2500 } = {}) {
  const { ecsia } = env;
  const workers = Math.min(2, ecsia.workers);
  const rigs = {
    'topic frame': topicWorld(ecsia, entities, workers, 'fields'),
    'topic frame, serial': topicWorld(ecsia, entities, 0, 'fields'),
    'consume by object': topicWorld(ecsia, entities, workers, 'objects'),
    'publishMany frame': topicWorld(ecsia, entities, workers, 'many'),
    'kernel without publish': topicWorld(ecsia, entities, workers, 'none'),
  };
  // The baseline: the values pushed into preallocated typed arrays, then read back and summed.
  const targets = new Uint32Array(entities);
  const damages = new Float32Array(entities);
  const powers = new Float32Array(entities);
  for (let i = 0; i < entities; i++) powers[i] = i % 10;
  let sink = 0;
  const jsLoop = (frames) => {
    for (let f = 0; f < frames; f++) {
      let n = 0;
      for (let i = 0; i < entities; i++) { targets[n] = i; damages[n] = powers[i]; n += 1; }
      let sum = 0;
      for (let i = 0; i < n; i++) sum += damages[i] + (targets[i] & 0);
      sink += sum;
    }
  };
  const variants = [
    ...Object.entries(rigs).map(([name, rig]) => ({ name, run: rig.run, settle: true })),
    { name: 'JS loop', run: jsLoop, settle: true },
  ];
  const { samples } = await interleave(variants, { repetitions, sampleMs, warmupMs, settleMs });
  const expected = { count: entities, damage: 0 };
  for (let i = 0; i < entities; i++) expected.damage += i % 10;
  const wrong = ['topic frame', 'topic frame, serial', 'consume by object', 'publishMany frame']
    .filter((name) => rigs[name].seen.count !== expected.count || rigs[name].seen.damage !== expected.damage);
  const frameBreakdown = rigs['topic frame'].scheduler.lastFrame().waves.map((w) => ({ wave: w.wave, batches: w.batches, us: w.endUs - w.beginUs, placement: w.placement }));
  for (const rig of Object.values(rigs)) { rig.scheduler.dispose(); rig.world.dispose(); }
  const ms = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  return {
    entities, workers, ms, sink: sink > 0,
    wrong, seen: Object.fromEntries(Object.entries(rigs).map(([name, rig]) => [name, rig.seen])), expected,
    frameOverLoop: ratio(samples, 'topic frame', 'JS loop'),
    serialOverLoop: ratio(samples, 'topic frame, serial', 'JS loop'),
    objectsOverLoop: ratio(samples, 'consume by object', 'JS loop'),
    manyOverLoop: ratio(samples, 'publishMany frame', 'JS loop'),
    withoutPublishOverLoop: ratio(samples, 'kernel without publish', 'JS loop'),
    frameBreakdown,
  };
}
