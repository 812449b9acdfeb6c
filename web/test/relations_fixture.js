// The world of tests/snapshot/relations_fixture_test.cpp, built through the JS API step for step
// (same definitions, spawns, pairs, despawn and prefabs in the same order), so that its snapshot
// is tests/fixtures/snapshot_relations.bin byte for byte (e2e/snapshot.spec.js).

/** Defines what the fixture's world defines (also for a world that restores the fixture). */
export function defineRelationsFixture(world) {
  world.defineComponent('rpos', { x: 'f32', y: 'f32' });
  world.defineComponent('rhp', { hp: 'i32' });
  world.defineRelation('Targets', { since: 'u32' });
  world.defineRelation('Likes');
}

export function buildRelationsFixture(world) {
  defineRelationsFixture(world);
  const e = [];
  for (let i = 0; i < 12; i++) e.push(world.spawn({ rpos: { x: i, y: 2 * i } }));
  for (let i = 1; i < 12; i++) world.addPair(e[i], 'ChildOf', e[(i - 1) >> 1]);
  for (let i = 0; i < 12; i += 3) world.addPair(e[i], 'Targets', e[11 - i], { since: i * 10 });
  world.addPair(e[4], 'Likes', e[7]);
  world.addPair(e[4], 'Likes', e[2]);
  world.despawn(e[5]);
  const orc = world.definePrefab('orc', { rhp: { hp: 30 } });
  const boss = world.definePrefab('orcBoss', { rhp: { hp: 300 } }, { extends: orc });
  world.instantiate(orc);
  const grunt = world.instantiate(boss, { rhp: { hp: 7 } });
  world.addPair(grunt, 'ChildOf', e[0]);
}
