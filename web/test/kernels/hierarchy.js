// The JS kernels of e2e/hierarchy.spec.js: a ChildOf forest whose world positions propagate
// parent before child (a cascade system), restructured by kernels as it runs. Values are small
// integers, exact in f32, so the page can check every node against its parent.

/** worldPos = the parent's worldPos + localPos (a root: localPos); level.d = the chunk's depth. */
export function propagate(chunk) {
  const worldPos = chunk.columns.worldPos;
  const localPos = chunk.columns.localPos;
  const level = chunk.columns.level;
  const parent = chunk.depth === 0 ? undefined : chunk.parent.worldPos;
  if (chunk.depth === 0 && chunk.parent !== undefined) throw new Error('a depth-0 chunk has parent views');
  for (let i = 0; i < chunk.count; i++) {
    worldPos[2 * i] = (parent === undefined ? 0 : parent[2 * i]) + localPos[2 * i];
    worldPos[2 * i + 1] = (parent === undefined ? 0 : parent[2 * i + 1]) + localPos[2 * i + 1];
    level[i] = chunk.depth;
  }
}

/**
 * localPos.x counts up by one a frame; by its value mod 31 a node moves under the batch's first
 * row (0; a cycle is refused at the merge), leaves its parent (7), gets a new child, spawned in
 * this batch (13: the pending handle is the pair's target), or, where localPos.y is 0, is despawned
 * with its subtree (29).
 */
export function restructure(chunk, dt, commands) {
  restructureForest(chunk, commands, (y) => y === 0);
}

/**
 * restructure, despawning at 29 every node but those whose localPos.y is 1 (the orcs and a ninth
 * of the forest): the mixed scenario's forest, which prefab instances also grow, stays at a few
 * thousand nodes over 150 frames instead of doubling every 15.
 */
export function restructureMixed(chunk, dt, commands) {
  restructureForest(chunk, commands, (y) => y !== 1);
}

// restructure's rules, with which nodes (by localPos.y) are despawned at 29.
function restructureForest(chunk, commands, despawns) {
  const localPos = chunk.columns.localPos;
  const first = chunk.entities[0];
  for (let i = 0; i < chunk.count; i++) {
    const x = localPos[2 * i] + 1;
    localPos[2 * i] = x;
    const e = chunk.entities[i];
    switch (x % 31) {
      case 0: if (e !== first) commands.addPair(e, 'ChildOf', first); break;
      case 7: commands.removePair(e, 'ChildOf', '*'); break;
      case 13: {
        const child = commands.spawn({ localPos: { x: 1, y: x % 5 }, worldPos: {}, level: {} });
        commands.addPair(child, 'ChildOf', e);
        break;
      }
      case 29: if (despawns(localPos[2 * i + 1])) commands.despawn(e); break;
      default:
    }
  }
}

/**
 * aim.v = the target's position - own position (lookups: ['position']; 0 without a live target;
 * through lookupAll, of the column and of a copy in an array, checked against lookup row by row),
 * and the parent's (chunk.targetOf(e, 'ChildOf')) position in aim.px/py (-1 without one).
 */
export function aim(chunk) {
  const p = chunk.columns.position;
  const t = chunk.columns.target;
  const a = chunk.columns.aim;
  const positions = chunk.lookups.position;
  // A plain array of the handles (copied into the batch's scratch) before the column itself (read
  // where it lies): both must agree with lookup.
  const copied = Array.from(chunk.lookupAll('position', Array.from(t)));
  const targets = chunk.lookupAll('position', t);  // every row's target at once
  for (let i = 0; i < chunk.count; i++) {
    const at = targets[i];
    if (at !== chunk.lookup('position', t[i])) throw new Error(`lookupAll and lookup disagree at row ${i}`);
    if (copied[i] !== at) throw new Error(`lookupAll of an array and of the column disagree at row ${i}`);
    a[4 * i] = at < 0 ? 0 : positions[at] - p[2 * i];
    a[4 * i + 1] = at < 0 ? 0 : positions[at + 1] - p[2 * i + 1];
    const parent = chunk.targetOf(chunk.entities[i], 'ChildOf');
    const up = parent === null ? -1 : chunk.lookup('position', parent);
    a[4 * i + 2] = up < 0 ? -1 : positions[up];
    a[4 * i + 3] = up < 0 ? -1 : positions[up + 1];
  }
}

/**
 * Before aim, in another wave: adds the tag 'hop' to every other row and spawns a unit with a
 * position per row, so that the merge between the two waves makes tables and moves columns.
 */
export function hop(chunk, dt, commands) {
  for (let i = 0; i < chunk.count; i++) {
    if ((chunk.entities[i] & 1) === 0) commands.add(chunk.entities[i], 'hop');
    commands.spawn({ position: { x: i, y: 1 } });
  }
}

/** position += (1, 1): a writer of what aim looks up (the plan puts it in another wave). */
export function drift(chunk) {
  const p = chunk.columns.position;
  for (let i = 0, n = 2 * chunk.count; i < n; i++) p[i] += 1;
}

/** Looks up a component the system did not declare: the batch fails. */
export function peekUndeclared(chunk) {
  chunk.lookup('target', chunk.entities[0]);
}

/**
 * Every row whose spawner.every divides spawner.n (counted up here) instantiates the prefab in
 * spawner.prefab, overriding one field of its health and adding a position; the instance becomes
 * the row's child (ChildOf, a pending or reserved handle as the pair's subject).
 */
export function spawnFromPrefab(chunk, dt, commands) {
  const s = chunk.columns.spawner;  // { prefab, every, n }: u32 x 3
  for (let i = 0; i < chunk.count; i++) {
    s[3 * i + 2] += 1;
    if (s[3 * i + 2] % s[3 * i + 1] !== 0) continue;
    const e = commands.instantiate(s[3 * i], { health: { hp: s[3 * i + 2] }, position: { x: i, y: 1 } });
    commands.addPair(e, 'ChildOf', chunk.entities[i]);
  }
}

/** mark.v += 1 on every row: which rows a system's query matched (prefabs or not). */
export function mark(chunk) {
  const v = chunk.columns.mark;
  for (let i = 0; i < chunk.count; i++) v[i] += 1;
}

/** lookupAll of values that are not handles (e2e/hierarchy.spec.js): its batch must fail. */
export function lookupNotHandles(chunk) {
  const e = chunk.entities[0];
  chunk.lookupAll('position', [e + 2 ** 32]);  // one element: at most the batch's rows
}

/** An async kernel: its batch fails at once (its work after an await would run outside it). */
export async function asyncKernel(chunk, dt, commands) {
  commands.spawn({ position: { x: 1, y: 1 } });
  await null;
  commands.spawn({ position: { x: 2, y: 2 } });
}
