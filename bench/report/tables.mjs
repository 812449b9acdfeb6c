// The generated tables of docs/PERFORMANCE.md. Each sits between `<!-- bench:NAME -->` and
// `<!-- /bench:NAME -->`; everything outside the markers is hand-written and left alone.

const n2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');
const n3 = (v) => (Number.isFinite(v) ? v.toFixed(3) : 'n/a');
const count = (v) => v.toLocaleString('en-US');

function table(header, rows, align) {
  const lines = [`| ${header.join(' | ')} |`, `|${align.map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

function summary(results) {
  const rows = results.targets.map((t) => {
    const digits = t.digits ?? 2;
    const value = typeof t.measured === 'boolean' ? (t.measured ? 'yes' : 'no') : `${t.measured.toFixed(digits)}${t.unit ?? ''}`;
    const limit = typeof t.measured === 'boolean' ? 'yes' : `${t.atMost ? '≤' : '≥'} ${t.limit}${t.unit ?? ''}`;
    let verdict = t.met ? 'met' : '**missed**';
    if (!t.met && typeof t.measured === 'number') {
      const off = t.atMost ? t.measured / t.limit - 1 : t.limit / t.measured - 1;
      verdict += ` (${Math.round(off * 100)} % off)`;
    }
    return [t.label, value, limit, verdict];
  });
  return table(['target', 'measured', 'target', ''], rows, ['l', 'r', 'r', 'l']);
}

function machine(results) {
  const m = results.machine;
  const rows = [
    ['date', results.date.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
    ['commit', `\`${results.commit.shortSha}\`${results.commit.dirty ? ' (plus uncommitted changes)' : ''}`],
    ['CPU', `${m.cpuModel}, ${m.cpus} CPUs, ${m.memoryGiB} GiB`],
    ['system', `${m.os}, ${m.kernel}`],
    ['load average (1 min) at start / end', `${m.loadAverageAtStart ?? 'n/a'} / ${m.loadAverageAtEnd[0]}`],
    ['browser', `${results.browser.name} ${results.browser.version} (headless, default flags; \`${results.browser.variant}\` build, ${results.browser.hardwareConcurrency} hardware threads)`],
    ['native compiler', results.compilers.native],
    ['wasm compiler', results.compilers.wasm],
    ['node', results.compilers.node],
  ];
  return table(['', ''], rows, ['l', 'l']);
}

function move(results) {
  const nativeBySize = Object.fromEntries((results.native.move.sizes ?? []).map((s) => [s.entities, s]));
  const rows = (results.browserResults.move?.sizes ?? []).map((s) => {
    const ns = s.nsPerEntity;
    const nat = nativeBySize[s.entities]?.ns_per_entity ?? {};
    return [count(s.entities), n3(ns['wasm loop, SIMD']), n3(ns['wasm loop, scalar']), n3(ns['JS loop']),
      n3(ns['bitECS 0.4.0']), n3(ns.ecsia), `**${n2(s.ecsiaOverSimdLoop)}x**`, `**${n2(s.bitecsOverEcsia)}x**`,
      n3(nat['plain loop (baseline)']), n3(nat['ecsia for_each_chunk'])];
  });
  return table(['entities', 'wasm loop SIMD', 'wasm loop scalar', 'JS loop', 'bitECS 0.4.0', 'ecsia', 'ecsia / SIMD loop',
    'bitECS / ecsia', 'native plain loop', 'native ecsia chunk'], rows, Array(10).fill('r'));
}

function tracked(results) {
  const nativeBySize = Object.fromEntries((results.native.tracked.sizes ?? []).map((s) => [s.entities, s]));
  const rows = (results.browserResults.tracked?.sizes ?? []).map((s) => {
    const ns = s.nsPerEntity;
    const nat = nativeBySize[s.entities] ?? { ns_per_entity: {} };
    return [count(s.entities), n3(ns['ecsia move']), n3(ns['ecsia tracked']), `**${n2(s.trackedOverMove)}x**`,
      n3(ns['bitECS move']), n3(ns['bitECS tracked (dirty list)']), `${n2(s.bitecsTrackedOverEcsiaTracked)}x`,
      n3(nat.ns_per_entity['untracked move (baseline)']), n3(nat.ns_per_entity['tracked: move + changed drain']),
      `${n2(nat.tracked_over_move)}x`];
  });
  return table(['entities', 'ecsia move', 'ecsia tracked', 'tracked / move', 'bitECS move', 'bitECS tracked',
    'bitECS / ecsia tracked', 'native move', 'native tracked', 'native tracked / move'], rows, Array(10).fill('r'));
}

function heavy(results) {
  const rows = [];
  const sides = [['browser', results.browserResults.heavy?.variants ?? [], 'msPerFrame', 'hashEqualsSerial'],
    ['native', results.native.heavy?.variants ?? [], 'ms_per_frame', 'hash_equals_serial']];
  for (const [where, variants, msKey, hashKey] of sides) {
    for (const v of variants) {
      const cells = [v.name, where];
      for (const workers of [0, 1, 2, 4, 8]) {
        const run = v.runs.find((r) => r.workers === workers);
        const bold = workers === 2 ? '**' : '';
        cells.push(!run ? 'n/a' : workers === 0 ? `${run[msKey].toFixed(1)} ms` : `${run[msKey].toFixed(1)} ms (${bold}${run.speedup.toFixed(2)}x${bold})`);
      }
      cells.push(v.runs.every((r) => r[hashKey]) ? `yes (\`${v.runs[0].hash}\`)` : '**no**');
      rows.push(cells);
    }
  }
  return table(['variant', 'where', 'serial', '1 worker', '2 workers', '4 workers', '8 workers', 'hash equal to serial'],
    rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l']);
}

function fence(results) {
  const nativeRuns = results.native.fence?.runs ?? [];
  const browser = results.browserResults.fence ?? {};
  const rows = (browser.runs ?? []).map((b) => {
    const nat = nativeRuns.find((r) => r.workers === b.workers) ?? {};
    const awaited = (browser.waitAsyncRuns ?? []).find((r) => r.workers === b.workers);
    return [b.workers === 0 ? 'serial' : String(b.workers), `${n2(b.medianUs)} µs`, `${n2(b.p99Us)} µs`,
      awaited ? `${n2(awaited.medianUs)} µs` : '', `${n2(nat.median_us)} µs`, `${n2(nat.p99_us)} µs`,
      b.workers === 0 ? '' : `**${n2(b.medianUs / nat.median_us)}x**`];
  });
  return table(['workers', 'browser median', 'browser p99', 'browser median, waitAsync only', 'native median',
    'native p99', 'browser / native median'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']);
}

function churn(results) {
  const nativeByPop = Object.fromEntries((results.native.churn?.populations ?? []).map((p) => [p.population, p]));
  const rows = (results.browserResults.churn?.populations ?? []).map((b) => {
    const nat = nativeByPop[b.population] ?? {};
    return [count(b.population), count(b.recordsPerFrame), n2(b.applyMRecordsPerSecond), n2(b.cycleMRecordsPerSecond),
      n2(nat.apply_mrps), n2(nat.apply_wall_mrps), `**${n2(b.applyMRecordsPerSecond / nat.apply_mrps)}x**`,
      b.clean && nat.clean ? 'yes' : '**no**'];
  });
  return table(['population', 'records per frame', 'browser apply M/s', 'browser whole cycle M/s', 'native apply M/s (CPU)',
    'native apply M/s (wall)', 'browser / native', 'every record applied'], rows, Array(8).fill('r'));
}

export function kernels(results) {
  const k = results.browserResults.kernels;
  if (!k) return 'n/a (the kernels workload did not run)';
  const rows = [];
  for (const size of k.move) {
    const ns = size.nsPerEntity;
    rows.push([`move ${count(size.entities)} (serial, ${size.batches} batches)`, `${n3(ns['ecsia JS kernel'])} ns/entity`,
      `JS loop ${n3(ns['JS loop'])}, the same loop over the heap's column views ${n3(ns['JS loop over heap views'])}, ` +
        (ns['JS loop over fresh views'] === undefined ? '' : `over fresh views per batch ${n3(ns['JS loop over fresh views'])}, `) +
        `C++ kernel ${n3(ns['ecsia C++ kernel'])} ns/entity` +
        (size.warmupMs === undefined ? '' : `; timed once settled, the kernel after ${(size.warmupMs['ecsia JS kernel'] / 1e3).toFixed(1)} s of frames`),
      `**${n2(size.kernelOverJsLoop)}x** the JS loop` +
        (size.kernelOverFreshViewsLoop === undefined ? '' : `; ${n2(size.kernelOverFreshViewsLoop)}x the loop over fresh views`)]);
  }
  const serial = k.heavy.runs.find((r) => r.workers === 0);
  for (const run of k.heavy.runs.filter((r) => r.workers > 0)) {
    rows.push([`heavy 8 systems x 1024, ${run.workers} workers`, `${run.msPerFrame.toFixed(1)} ms/frame`,
      `serial ${serial.msPerFrame.toFixed(1)} ms/frame; first ${k.heavy.tierFrames} frames: ${run.firstFramesMs.map((v) => v.toFixed(0)).join(', ')} ms (serial: ${serial.firstFramesMs.map((v) => v.toFixed(0)).join(', ')})`,
      `**${n2(run.speedup)}x**, hash ${run.hashEqualsSerial ? 'equal' : '**differs**'}`]);
  }
  for (const run of (k.heavy.cppRuns ?? []).filter((r) => r.workers > 0)) {
    const cppSerial = k.heavy.cppRuns.find((r) => r.workers === 0);
    rows.push([`(reference) C++ Heavy0..7 in the same run, ${run.workers} workers`, `${run.msPerFrame.toFixed(1)} ms/frame`,
      `serial ${cppSerial.msPerFrame.toFixed(1)} ms/frame`, `${n2(run.speedup)}x`]);
  }
  const b = k.batchCost;
  rows.push([`per batch (${count(b.batches)} batches of ${b.batchRows} rows, empty kernel)`, `${n3(b.usPerBatch)} µs`,
    `C++ empty kernel ${n3(b.cppUsPerBatch)} µs; the JS call adds ${n3(b.jsCallUsPerBatch)} µs`, b.usPerBatch < 1 ? 'under 1 µs' : '**over 1 µs**']);
  return table(['JS kernel workload', 'measured', 'context', 'ratio'], rows, ['l', 'r', 'l', 'l']);
}

function jsapi(results) {
  const j = results.browserResults.jsapi;
  if (!j) return '(not run)';
  const ns = j.systemNsPerEntity;
  const rows = [[count(j.entities), n2(j.spawnManyNsPerEntity), n2(j.bitecsSpawnNsPerEntity), `**${n2(j.spawnManyOverBitecs)}x**`,
    n3(j.spawnUsPerEntity), n3(j.getSetUsPerPair), n3(ns['ecsia JS system']), n3(ns['JS loop']), `**${n2(j.systemOverJsLoop)}x**`,
    ns['JS loop over the chunk views'] === undefined ? '' : n3(ns['JS loop over the chunk views']),
    j.systemOverChunkViewLoop === undefined ? '' : `${n2(j.systemOverChunkViewLoop)}x`]];
  return table(['entities', 'spawnMany ns/entity', 'bitECS spawn ns/entity', 'spawnMany / bitECS', 'world.spawn µs',
    'get + set µs', 'JS system ns/entity', 'JS loop ns/entity', 'system / loop', 'loop over chunk views ns/entity',
    'system / that loop'], rows, Array(11).fill('r'));
}

function snapshot(results) {
  const b = results.browserResults.snapshot;
  const nat = results.native.snapshot;
  if (!b || !nat) return 'n/a';
  const us = (ms) => n2(ms * 1000);
  const fresh = (value, ratio) => (value === undefined ? '' : `${value} (${n2(ratio)}x)`);
  const rows = [
    ['browser', count(b.entities), count(b.columnBytes), count(b.snapshotBytes), `${us(b.msPer['TypedArray.set'])} (TypedArray.set)`,
      us(b.msPer.snapshot), fresh(b.msPer['snapshot (new array)'] === undefined ? undefined : us(b.msPer['snapshot (new array)']), b.snapshotNewOverSet),
      us(b.msPer.restore), '', `**${n2(b.snapshotOverSet)}x**`, `**${n2(b.restoreOverSet)}x**`],
    ['native', count(nat.entities), count(nat.column_bytes), count(nat.snapshot_bytes), `${n2(nat.memcpy_us)} (memcpy)`,
      n2(nat.snapshot_us), fresh(nat.snapshot_new_us === undefined ? undefined : n2(nat.snapshot_new_us), nat.snapshot_new_us / nat.memcpy_us),
      n2(nat.restore_us), fresh(nat.restore_rebuild_us === undefined ? undefined : n2(nat.restore_rebuild_us), nat.restore_rebuild_us / nat.memcpy_us),
      `**${n2(nat.snapshot_us / nat.memcpy_us)}x**`, `**${n2(nat.restore_us / nat.memcpy_us)}x**`],
  ];
  return table(['where', 'movers', 'column bytes', 'snapshot bytes', 'copy µs', 'snapshot µs (reused buffer)',
    'snapshot µs (new buffer)', 'restore µs (rollback)', 'restore µs (rebuild)', 'snapshot / copy', 'restore / copy'], rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
}

// The executor workload (threads never slower): move through the JS API at threads: 'auto' and at 2 workers
// with every wave on the pool, against the serial executor in the same page; a scenario frame.
function executor(results) {
  const e = results.browserResults.executor;
  if (!e) return '(not run)';
  const us = (v) => (Number.isFinite(v) ? v.toFixed(1) : 'n/a');
  const where = (list) => [...new Set(list)].join(', ') || 'n/a';
  const rows = e.move.map((m) => [count(m.entities), us(m.usPerFrame.serial), us(m.usPerFrame.auto), `**${n2(m.autoOverSerial)}x**`,
    where(m.autoPlacements), us(m.usPerFrame['pool, 2 workers']), `${n2(m.poolOverSerial)}x`]);
  const s = e.scenario;
  rows.push([`scenario frame (${s.frames} frames, hash ${s.hashesEqual ? 'equal' : '**differs**'})`, us(s.usPerFrame.serial), us(s.usPerFrame.auto),
    `**${n2(s.autoOverSerial)}x**`, where(s.autoPlacements), '', '']);
  return table(['move entities', 'serial µs/frame', `auto (${e.autoWorkers} worker${e.autoWorkers === 1 ? '' : 's'}) µs/frame`,
    'auto speed / serial', 'auto: where the waves ran', 'pool, 2 workers µs/frame', 'pool speed / serial'], rows,
  ['l', 'r', 'r', 'r', 'l', 'r', 'r']);
}

// The extract step (scheduler.extract): a frame without systems with and without an extract of
// position and velocity over the same movers (the executor workload, serial executor).
function extract(results) {
  const list = results.browserResults.executor?.extract;
  if (!list) return '(not run)';
  const us = (v) => (Number.isFinite(v) ? v.toFixed(1) : 'n/a');
  const rows = list.map((x) => [count(x.entities), `${(x.bytes / 1e6).toFixed(1)} MB`, us(x.usWithout), us(x.usWith),
    `**${us(x.usPerCopy)}**`, n2(x.gbPerSecond)]);
  return table(['movers', 'copied (position, velocity, entities)', 'frame µs', 'frame + extract µs', 'extract µs', 'GB/s'], rows,
    Array(6).fill('r'));
}

// Per-entity calls at 1,000 entities (smallworld.js `calls`): ns per call for ecsia and each
// JS ECS library, the fastest library per operation and ecsia's ratio to it; then the bulk forms.
const CALL_LABELS = {
  spawn: 'spawn (one one-field component)', despawn: 'despawn', addTag: 'add a tag', removeTag: 'remove a tag',
  addValue: 'add a one-field component', removeValue: 'remove a one-field component', has: 'has', getSet: 'get + set',
};
function calls(results) {
  const c = results.browserResults.calls;
  if (!c) return '(not run)';
  const names = Object.keys(c.nsPerOp);
  // bench_calls: the same calls on the C++ World natively (absent from a run without it).
  const native = results.native.calls?.ns_per_call;
  const nativeColumns = (op) => (native === undefined ? [] : [n2(native[op]), `${n2(c.nsPerOp.ecsia[op] / native[op])}x`]);
  const rows = Object.entries(CALL_LABELS).map(([op, label]) => {
    const o = c.ops[op];
    return [label, ...names.map((n) => (c.nsPerOp[n][op] === null ? 'n/a' : n2(c.nsPerOp[n][op]))),
      o.fastest ?? 'n/a', `**${n2(o.ecsiaOverFastest)}x**`, ...nativeColumns(op)];
  });
  const nativeHeads = native === undefined ? [] : ['C++ World, native', 'ecsia / native'];
  const main = table(['ns per call', ...names.map((n) => (n === 'ecsia' ? n : `${n} ${c.versions[n]}`)), 'fastest library',
    'ecsia / fastest', ...nativeHeads], rows, ['l', ...names.map(() => 'r'), 'l', 'r', ...nativeHeads.map(() => 'r')]);
  const bulkOf = { addManyTag: 'addMany of a tag', removeManyTag: 'removeMany of a tag',
    addManyValue: 'addMany of a one-field component (values)', removeManyValue: 'removeMany of a one-field component' };
  const bulkRows = Object.entries(bulkOf).map(([op, label]) => {
    const b = c.bulk[op];
    return b === null ? [label, 'not available', '', ''] : [label, n2(b.ns), n2(b.perCallNs), `**${n2(b.perCallOverBulk)}x**`];
  });
  return `${main}

${table(['bulk, ns per entity', 'bulk', 'per call', 'per call / bulk'], bulkRows, ['l', 'r', 'r', 'r'])}`;
}

// Small-world iteration (smallworld.js `iteration`): µs per frame of each shape for ecsia
// (query().chunks() on the page's thread), each library and a plain JS loop.
function iteration(results) {
  const it = results.browserResults.iteration;
  if (!it) return '(not run)';
  const names = Object.keys(it.shapes[0].nsPerFrame);
  const label = (n) => (it.versions[n] === undefined ? n : `${n} ${it.versions[n]}`);
  const rows = it.shapes.map((s) => [s.label, ...names.map((n) => n3(s.nsPerFrame[n] / 1000)), s.fastest,
    `**${n2(s.ecsiaSpeedOverFastest)}x**`, `${n2(s.jsLoopSpeedOverEcsia)}x`]);
  return table(['µs per frame', ...names.map(label), 'fastest library', 'ecsia speed / fastest', 'JS loop speed / ecsia'], rows,
    ['l', ...names.map(() => 'r'), 'l', 'r', 'r']);
}

// The hierarchy workload (web/bench/hierarchy.js): ms per frame of each way to propagate world
// positions through the forest, their ratio to the JS loop, and the re-parenting figures.
function hierarchy(results) {
  const h = results.browserResults.hierarchy;
  if (!h) return '(not run)';
  const native = results.native.hierarchy;
  const nativeTable = native === undefined ? '' : `

Natively (\`bench_hierarchy\`, the same shape of forest, a C++ cascade system):

${table([`${count(native.nodes)} nodes: ms per frame`, 'steady', '/ C++ hand loop', 'after re-parenting ' + count(native.reparented),
    'after re-parenting 10', 'after 100 spawns elsewhere', 'after 100 new roots', 'nodes differing'],
    [['C++ hand loop (sorted by depth, parent indices)', n3(native.hand_loop_ms), '**1.00x**', '', '', '', '', '(reference)'],
    ...native.runs.map((r) => [r.workers === 0 ? 'cascade system, serial' : `cascade system, ${r.workers} worker(s)`, n3(r.steady_ms),
      `**${n2(r.over_hand_loop)}x**`, n2(r.frame_after_reparent_ms), n2(r.frame_after_few_reparents_ms), n3(r.frame_after_spawn_ms),
      n3(r.frame_after_roots_ms), String(r.nodes_differing)])], ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'])}${native.lookup === undefined ? '' : `

A C++ kernel reading a random target's position (${count(native.nodes)} rows, serial): \`ctx.lookup\` per row
**${n2(native.lookup.ns_per_row_lookup)} ns per row**; the same reads at a precomputed row of the column
${n2(native.lookup.ns_per_row_direct_random)} ns (**${n2(native.lookup.ns_per_row_lookup / native.lookup.ns_per_row_direct_random)}x**); the row's own
position ${n2(native.lookup.ns_per_row_own)} ns; rows whose sums differ from the direct read's: ${native.lookup.rows_differing}.${
  native.lookup.ns_per_row_lookup_of === undefined ? '' : ` Through a \`Lookup<T>\` reader
(\`ctx.lookup_of\`, its memo a local of the kernel): **${n2(native.lookup.ns_per_row_lookup_of)} ns per row**
(**${n2(native.lookup.ns_per_row_lookup_of / native.lookup.ns_per_row_direct_random)}x**).`}${
  native.lookup.ns_per_row_lookup_four_tables === undefined ? '' : ` With the targets in four tables at random (most lookups
in another table than the last one's): ${n2(native.lookup.ns_per_row_lookup_four_tables)} ns per row.`}${
  native.lookup.in_cache === undefined ? '' : ` At ${count(native.lookup.in_cache.rows)} rows (the entity table and the column
within a core's L2 cache): \`ctx.lookup\` ${n2(native.lookup.in_cache.ns_per_row_lookup)} ns
(**${n2(native.lookup.in_cache.ns_per_row_lookup / native.lookup.in_cache.ns_per_row_direct_random)}x** the precomputed read's
${n2(native.lookup.in_cache.ns_per_row_direct_random)} ns), \`Lookup<T>\` ${n2(native.lookup.in_cache.ns_per_row_lookup_of)} ns
(**${n2(native.lookup.in_cache.ns_per_row_lookup_of / native.lookup.in_cache.ns_per_row_direct_random)}x**).`}`}`;
  const loop = h.msPerFrame['JS loop'];
  const rows = Object.entries(h.msPerFrame).map(([name, ms]) => [name, n3(ms), `**${n2(ms / loop)}x**`,
    name === 'JS loop' ? '(reference)' : String(h.differ[name])]);
  const r = h.reparent;
  return `${table([`${count(h.nodes)} nodes, ${count(h.roots)} roots, depth ${h.maxDepth}: ms per frame`, 'median', '/ JS loop',
    'nodes differing from the JS loop'], rows, ['l', 'r', 'r', 'r'])}

Serial and ${h.autoWorkers} worker(s) give the same state hash: ${h.hashesEqual ? 'yes' : '**NO**'}. Re-parenting
${count(r.nodes)} nodes a frame (serial): the \`addPair\` calls ${n2(r.addPairMs)} ms, the frame after them ${n2(r.frameAfterMs)} ms
(a steady frame: ${n3(r.steadyMs)} ms).

Reading a random target's position (${count(h.lookup.entities)} rows, serial): one \`chunk.lookup\` per row
**${n2(h.lookup.nsPerRowLookup)} ns per row**, one \`chunk.lookupAll\` of the batch's target column
**${n2(h.lookup.nsPerRowLookupAll)} ns per row**. Against the same read straight from the heap view at a
precomputed index (the same random memory traffic, no handle check): ${n2(h.lookup.nsPerRowRandom)} ns, so
**${n2(h.lookup.lookupOverRandom)}x** and **${n2(h.lookup.lookupAllOverRandom)}x**; against the row's own
position read in order from its column (${n2(h.lookup.nsPerRowDirect)} ns): ${n2(h.lookup.lookupOverDirect)}x and
${n2(h.lookup.lookupAllOverDirect)}x.${h.lookupInCache === undefined ? '' : ` At ${count(h.lookupInCache.entities)} rows (the entity table and
the column within a core's L2 cache): \`chunk.lookup\` ${n2(h.lookupInCache.nsPerRowLookup)} ns and \`chunk.lookupAll\`
${n2(h.lookupInCache.nsPerRowLookupAll)} ns per row against ${n2(h.lookupInCache.nsPerRowRandom)} ns,
**${n2(h.lookupInCache.lookupOverRandom)}x** and **${n2(h.lookupInCache.lookupAllOverRandom)}x**.`}${h.lookupSpread === undefined ? '' : ` With the
${count(h.lookupSpread.entities)} rows and their targets in four tables at random (most lookups find another table than the
last one's): \`chunk.lookup\` ${n2(h.lookupSpread.nsPerRowLookup)} ns and \`chunk.lookupAll\` ${n2(h.lookupSpread.nsPerRowLookupAll)} ns
per row against ${n2(h.lookupSpread.nsPerRowRandom)} ns, **${n2(h.lookupSpread.lookupOverRandom)}x** and
**${n2(h.lookupSpread.lookupAllOverRandom)}x**.`}

Prefabs: \`instantiateMany\` of ${count(h.prefab.entities)} instances (a position per row, health from the prefab, the IsA
pair) took **${n2(h.prefab.instantiateManyMs)} ms**, against ${n2(h.prefab.spawnManyMs)} ms for \`spawnMany\` of the same two components:
**${n2(h.prefab.instantiateOverSpawn)}x**.${nativeTable}`;
}

// The rollback workload (web/bench/rollback.js): one advance() that rolls back 8 frames, against
// a restore and 8 (or 9) plain frames, serial and threads: 'auto'.
function rollback(results) {
  const r = results.browserResults.rollback;
  if (!r) return '(not run)';
  const rows = Object.entries(r.modes).map(([mode, m]) => [
    `${mode} (${m.workers} worker${m.workers === 1 ? '' : 's'})`, `${count(m.entitiesAtStart)}-${count(m.entitiesAtEnd)}`, count(m.snapshotBytes),
    n2(m.usAdvanceWithRollback / 1000), n2(m.us8FramesPlusRestore / 1000), n2(m.us9FramesPlusRestore / 1000),
    `**${n2(m.advanceOver8FramesPlusRestore)}x**`, `${n2(m.advanceOver9FramesPlusRestore)}x`]);
  return `${table(['mode', 'entities', 'snapshot bytes', 'advance() with a rollback of ' + r.depth + ', ms', 'restore + ' + r.depth + ' frames, ms',
    'restore + ' + (r.depth + 1) + ' frames, ms', 'advance / restore + ' + r.depth + ' frames', 'advance / restore + ' + (r.depth + 1) + ' frames'],
  rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'])}

The rollback's \`advance()\` with \`threads: 'auto'\` against the serial executor: **${n2(r.autoOverSerial)}x** the speed
(per repetition, then the median); both modes end in the same state: ${r.sameState ? 'yes' : '**NO**'}.`;
}

// The snapshot churn workload (web/bench/snapshot_churn.js): a snapshot of a world a game churned
// for a minute, its cost against a copy of as many bytes, its size against its component bytes.
function snapshotChurn(results) {
  const c = results.browserResults.snapshotChurn;
  if (!c) return '(not run)';
  const t = c.tabl;
  const other = c.snapshotBytes - t.values - t.handles - t.handleRuns - t.ticks - t.uniformTicks - t.tickRuns - t.sameTicks - t.padding;
  return `${table(['entities', 'tables', 'snapshot bytes', 'bytes per entity', 'snapshot(into) µs', 'copy µs (TypedArray.set)', 'snapshot / copy',
    'size / component bytes'], [[count(c.entities), String(c.tables), count(c.snapshotBytes), n2(c.bytesPerEntity), n2(c.usSnapshot), n2(c.usCopy),
    `**${n2(c.snapshotOverCopy)}x**`, `**${n2(c.sizeOverComponentBytes)}x**`]], ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'])}

Where the bytes are: component values ${count(t.values)}; row handles ${count(t.handles)} listed and ${count(t.handleRuns)} as runs;
change ticks ${count(t.ticks)} per row, ${count(t.tickRuns)} as runs (${count(t.tickRunCount)} runs), ${count(t.uniformTicks)} uniform,
${count(t.sameTicks)} the same as another column's;
alignment padding ${count(t.padding)}; everything else (header, sections, counts, free list, names) ${count(other)}.
Where the time goes (medians of separate runs of each part): the engine's writer ${n2(c.usParts.writer)} µs, the checksum over the
ranges in place ${n2(c.usParts.checksum)} µs, the JS copies of the ranges ${n2(c.usParts.copies)} µs.`;
}

// The topics workload in the browser (web/bench/topics.js): a JS kernel publishes a message per
// row on the workers, a main-thread JS system reads them back, against a plain JS loop.
function topics(results) {
  const t = results.browserResults.topics;
  if (!t) return '(not run)';
  const perMessage = (ms) => n2((ms * 1e6) / t.entities);
  const ratios = { 'topic frame': t.frameOverLoop, 'topic frame, serial': t.serialOverLoop, 'consume by object': t.objectsOverLoop,
    'publishMany frame': t.manyOverLoop, 'kernel without publish': t.withoutPublishOverLoop, 'JS loop': 1 };
  const labels = { 'topic frame': `topic frame, ${t.workers} workers (fields)`, 'topic frame, serial': 'topic frame, serial executor (fields)',
    'consume by object': `topic frame, ${t.workers} workers (iterated as objects)`,
    'publishMany frame': `topic frame, ${t.workers} workers, published with commands.publishMany (fields)`, 'kernel without publish': 'the kernel writing its own column instead (no topic)',
    'JS loop': 'plain JS loop: typed arrays written and read back (baseline)' };
  const rows = Object.keys(labels).filter((name) => name in t.ms).map((name) => [labels[name], n2(t.ms[name]), perMessage(t.ms[name]),
    name === 'topic frame' || name === 'publishMany frame' ? `**${n2(ratios[name])}x**` : `${n2(ratios[name])}x`]);
  return `${table([`${count(t.entities)} messages a frame`, 'ms', 'ns per message', '/ JS loop'], rows, ['l', 'r', 'r', 'r'])}

The last frame of the 2-worker run, by wave: ${t.frameBreakdown.map((w) => `wave ${w.wave} (${w.batches} batches, ${w.placement}) ${n2(w.us / 1000)} ms`).join('; ')}
(a wave's time runs to the end of its batches; the merge that appends the messages is in the next wave's).
Every consumer saw every message: ${t.wrong.length === 0 ? 'yes' : `**NO** (${t.wrong.join(', ')})`}.`;
}

// The topics workload (bench/topics.cpp, native only): frames in which a kernel publishes a message
// per row and a main-thread system reads them back, against a std::vector loop of the same values,
// and where each frame's time went (the scheduler's timeline).
function topicsNative(results) {
  const t = results.native.topics;
  if (!t) return '(not run)';
  const us = (v) => (Number.isFinite(v) ? v.toFixed(1) : 'n/a');
  const perMessage = (v) => n2((v * 1000) / t.messages);
  const rows = [['`std::vector<Hit>` push + read back (baseline)', us(t.vector_us), perMessage(t.vector_us), '1.00x', '', '', '', ''],
    ...t.runs.map((r) => [`${r.writer ? 'TopicWriter' : '`ctx.publish`'} frame, ${r.workers === 0 ? 'serial executor' : `${r.workers} workers (pool)`}`, us(r.frame_us),
      perMessage(r.frame_us), r.workers === 2 ? `**${n2(r.over_vector)}x**` : `${n2(r.over_vector)}x`, us(r.publish_us), us(r.merge_us),
      us(r.consume_us), us(r.rest_us)])];
  return table([`${count(t.messages)} messages a frame`, 'µs', 'ns per message', '/ baseline', 'publisher\'s wave µs', 'its merge µs',
    'consumer µs', 'rest of the frame µs'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
}

// The devtools workload (web/bench/devtools.js): frames with the panel attached (each section
// shown), detached, and never attached, timed back to back and once per display frame.
function devtools(results) {
  const d = results.browserResults.devtools;
  if (!d) return '(not run)';
  // The panels' default is User Timing on since 2026-12-07 (the variants without it are "off";
  // earlier results have "on" variants, the default then being off): the rows a run has.
  const variants = ['no devtools', 'detached', 'panel: world', 'panel: timeline', 'panel: entities', 'User Timing only',
    ...['world', 'timeline', 'entities'].flatMap((tab) => [`panel: ${tab}, User Timing on`, `panel: ${tab}, User Timing off`])];
  const names = (w) => variants.filter((name) => w.backToBack.ms[name] !== undefined || w.perDisplayFrame.ms[name] !== undefined);
  // The estimate and its 90% interval over the repetitions (back to back: the median of the
  // per-repetition ratios, with an interval since 2026-12-06 14:46, the pooled ratio in the run of
  // 14:27 alone; per display frame: the pooled ratio); the panel with User Timing is timed back
  // to back only.
  const cells = (r, name) => {
    if (r.ms[name] === undefined) return ['', ''];
    if (name === 'no devtools') return [n2(r.ms[name]), '1.00x'];
    const interval = r.interval === undefined ? '' : ` (${r.interval[name].map(n2).join(' to ')})`;
    return [n2(r.ms[name]), `${n2(r.overNone[name])}x${interval}`];
  };
  return d.worlds.map((w) => {
    const rows = names(w).map((name) => [name, ...cells(w.backToBack, name), ...cells(w.perDisplayFrame, name)]);
    return `${count(w.entities)} entities, ${w.systems.join(', ')} (${w.workers} workers; the waves ran ${w.placements.join(', ')}):

${table(['', 'back to back: ms per frame', '/ none (90% interval)', 'per display frame: update() ms', '/ none (90% interval)'], rows, ['l', 'r', 'r', 'r', 'r'])}`;
  }).join('\n\n');
}

const RENDERERS = { summary, machine, move, tracked, heavy, fence, churn, kernels, jsapi, snapshot, executor, extract, calls, iteration, hierarchy, rollback, snapshotChurn, topicsNative, topics, devtools };

/** The generated tables by marker name: every one, or only `names` (a browser-only run). */
export function renderTables(results, names = Object.keys(RENDERERS)) {
  const unknown = names.filter((name) => !(name in RENDERERS));
  if (unknown.length) throw new Error(`no table ${unknown.join(', ')} (known: ${Object.keys(RENDERERS).join(', ')})`);
  return Object.fromEntries(names.map((name) => [name, RENDERERS[name](results)]));
}

/** Replaces each marked table; throws when the document lacks a marker (it would go stale). */
export function replaceTables(doc, tables) {
  let out = doc;
  for (const [name, body] of Object.entries(tables)) {
    const begin = `<!-- bench:${name} -->`;
    const end = `<!-- /bench:${name} -->`;
    const from = out.indexOf(begin);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/PERFORMANCE.md has no ${begin} ... ${end} block`);
    out = `${out.slice(0, from + begin.length)}\n${body}\n${out.slice(to)}`;
  }
  return out;
}
