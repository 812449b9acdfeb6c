// The targets of the benchmark issue and the checked ratios, derived from one run's results.
// A target: { id, label, measured, limit, atMost, unit, met }. `checked` maps ratio ids to costs
// (lower is better) that bench/ceilings.json bounds.

const sizeLabel = (n) => n.toLocaleString('en-US');

function target(targets, id, label, measured, limit, atMost, extra = {}) {
  const met = typeof measured === 'boolean' ? measured === true
    : Number.isFinite(measured) && (atMost ? measured <= limit : measured >= limit);
  targets.push({ id, label, measured, limit, atMost, met, ...extra });
}

function byWorkers(runs, workers, key) {
  const run = runs.find((r) => r.workers === workers);
  return run ? run[key] : NaN;
}

export function derive(results) {
  const targets = [];
  const checked = {};
  const { native, browserResults: browser } = results;

  for (const size of browser.move?.sizes ?? []) {
    const n = size.entities;
    target(targets, `move_${n}_ecsia_over_simd_loop`, `move ${sizeLabel(n)}: ecsia / SIMD wasm loop`,
      size.ecsiaOverSimdLoop, 1.3, true, { unit: 'x' });
    target(targets, `move_${n}_bitecs_over_ecsia`, `move ${sizeLabel(n)}: bitECS / ecsia (times faster)`,
      size.bitecsOverEcsia, 5, false, { unit: 'x' });
    checked[`move_${n}_ecsia_over_simd_loop`] = size.ecsiaOverSimdLoop;
    checked[`move_${n}_ecsia_over_bitecs`] = 1 / size.bitecsOverEcsia;
  }
  // Threads never make a frame slower, natively: serial wall time / threaded wall time
  // of the same frames (bench_executor), with the executor deciding where each wave runs.
  const executorRuns = [
    ...(native.executor?.move ?? []).map((size) => [`move_${size.entities}`, `move ${sizeLabel(size.entities)}`, size.result]),
    ...(native.executor?.scenario ? [['scenario', 'scenario frame', native.executor.scenario]] : []),
  ];
  for (const [slug, label, result] of executorRuns) {
    for (const run of result.runs.filter((r) => r.mode === 'decide')) {
      const id = `executor_${slug}_w${run.workers}`;
      target(targets, `${id}_over_serial`, `native ${label}, ${run.workers} workers: speed / serial`,
        run.ratio, 0.95, false, { unit: 'x' });
      checked[`${id}_serial_over_threaded`] = 1 / run.ratio;
    }
  }
  // The same in the browser, through the JS API (the executor workload): threads: 'auto' against
  // the serial executor in the same page, per move size and for a frame of the scenario.
  const executor = browser.executor;
  for (const size of executor?.move ?? []) {
    const n = size.entities;
    target(targets, `browser_executor_move_${n}_auto_over_serial`,
      `move ${sizeLabel(n)} (JS API), threads: 'auto' (${executor.autoWorkers} worker${executor.autoWorkers === 1 ? '' : 's'}): speed / serial`,
      size.autoOverSerial, 0.95, false, { unit: 'x' });
    checked[`browser_executor_move_${n}_serial_over_auto`] = 1 / size.autoOverSerial;
  }
  if (executor?.scenario) {
    target(targets, 'browser_executor_scenario_auto_over_serial', `scenario frame (JS API), threads: 'auto': speed / serial`,
      executor.scenario.autoOverSerial, 0.95, false, { unit: 'x' });
    checked.browser_executor_scenario_serial_over_auto = 1 / executor.scenario.autoOverSerial;
    target(targets, 'browser_executor_scenario_hash_equals_serial', 'scenario (JS API), threads: \'auto\': hash = serial\'s',
      executor.scenario.hashesEqual, true, false);
  }
  for (const size of browser.tracked?.sizes ?? []) {
    const n = size.entities;
    target(targets, `tracked_${n}_over_move`, `tracked ${sizeLabel(n)}: tracked / move`,
      size.trackedOverMove, 2, true, { unit: 'x' });
    checked[`tracked_${n}_over_move`] = size.trackedOverMove;
  }
  const nativeHeavy = Object.fromEntries((native.heavy?.variants ?? []).map((v) => [v.name, v]));
  for (const variant of browser.heavy?.variants ?? []) {
    const slug = variant.name.startsWith('8') ? '8_systems' : '1_system';
    const speedup = byWorkers(variant.runs, 2, 'speedup');
    target(targets, `heavy_${slug}_speedup_2_workers`, `heavy ${variant.name}: speedup, 2 workers`,
      speedup, 1.8, false, { unit: 'x' });
    checked[`heavy_${slug}_serial_over_2_workers`] = 1 / speedup;
    target(targets, `heavy_${slug}_hash_equals_serial`, `heavy ${variant.name}: every hash = serial's`,
      variant.runs.every((r) => r.hashEqualsSerial), true, false);
    // A browser-only run (scripts/bench --only) has no native hash to compare with.
    const nativeRuns = nativeHeavy[variant.name]?.runs ?? [];
    if (native.heavy !== undefined) {
      target(targets, `heavy_${slug}_hash_equals_native`, `heavy ${variant.name}: browser hash = native hash`,
        nativeRuns.length > 0 && variant.runs.every((r) => r.hash === nativeRuns[0].hash), true, false);
    }
  }
  for (const workers of [1, 2]) {
    const inBrowser = byWorkers(browser.fence?.runs ?? [], workers, 'medianUs');
    const natively = byWorkers(native.fence?.runs ?? [], workers, 'median_us');
    target(targets, `fence_${workers}_workers_browser_over_native`,
      `fence, ${workers} worker${workers > 1 ? 's' : ''}: browser median / native median`,
      inBrowser / natively, 3, true, { unit: 'x' });
    checked[`fence_${workers}_workers_browser_over_native`] = inBrowser / natively;
  }
  const nativeChurn = Object.fromEntries((native.churn?.populations ?? []).map((p) => [p.population, p]));
  for (const population of browser.churn?.populations ?? []) {
    const n = population.population;
    const ratio = population.applyMRecordsPerSecond / (nativeChurn[n]?.apply_mrps ?? NaN);
    target(targets, `churn_${n}_browser_over_native`, `churn ${sizeLabel(n)}: browser / native records/s`,
      ratio, 0.5, false, { unit: 'x' });
    checked[`churn_${n}_native_over_browser`] = 1 / ratio;
  }

  // JS kernels (the `kernels` workload): move against the plain JS loop, heavy's speedup, the call.
  const kernels = browser.kernels;
  for (const size of kernels?.move ?? []) {
    const n = size.entities;
    target(targets, `kernels_move_${n}_over_js_loop`, `JS kernel move ${sizeLabel(n)}: kernel / plain JS loop`,
      size.kernelOverJsLoop, 1.3, true, { unit: 'x' });
    checked[`kernels_move_${n}_over_js_loop`] = size.kernelOverJsLoop;
  }
  if (kernels?.heavy) {
    const speedup = byWorkers(kernels.heavy.runs, 2, 'speedup');
    target(targets, 'kernels_heavy_speedup_2_workers', 'JS kernel heavy 8 systems x 1024: speedup, 2 workers',
      speedup, 1.8, false, { unit: 'x' });
    checked.kernels_heavy_serial_over_2_workers = 1 / speedup;
    target(targets, 'kernels_heavy_hash_equals_serial', 'JS kernel heavy: every hash = serial\'s',
      kernels.heavy.runs.every((r) => r.hashEqualsSerial), true, false);
  }
  if (kernels?.batchCost) {
    target(targets, 'kernels_us_per_batch', 'JS kernel: µs per batch (views + dispatch, empty kernel)',
      kernels.batchCost.usPerBatch, 1, true, { unit: ' µs', digits: 3 });
    checked.kernels_us_per_batch = kernels.batchCost.usPerBatch;
  }
  const snap = browser.snapshot;
  if (snap) {
    const n = snap.entities;
    target(targets, `snapshot_${n}_snapshot_over_set`, `snapshot ${sizeLabel(n)} movers: world.snapshot(into) / TypedArray.set of the column bytes`,
      snap.snapshotOverSet, 3, true, { unit: 'x' });
    target(targets, `snapshot_${n}_restore_over_set`, `snapshot ${sizeLabel(n)} movers: world.restore() / TypedArray.set of the column bytes`,
      snap.restoreOverSet, 3, true, { unit: 'x' });
    checked[`snapshot_${n}_snapshot_over_set`] = snap.snapshotOverSet;
    checked[`snapshot_${n}_restore_over_set`] = snap.restoreOverSet;
  }
  const nativeSnap = native.snapshot;
  if (nativeSnap) {
    const n = nativeSnap.entities;
    target(targets, `native_snapshot_${n}_snapshot_over_memcpy`, `(native) snapshot ${sizeLabel(n)} movers: snapshot / memcpy of the column bytes`,
      nativeSnap.snapshot_us / nativeSnap.memcpy_us, 3, true, { unit: 'x' });
    target(targets, `native_snapshot_${n}_restore_over_memcpy`, `(native) snapshot ${sizeLabel(n)} movers: restore / memcpy of the column bytes`,
      nativeSnap.restore_us / nativeSnap.memcpy_us, 3, true, { unit: 'x' });
    checked[`native_snapshot_${n}_snapshot_over_memcpy`] = nativeSnap.snapshot_us / nativeSnap.memcpy_us;
    checked[`native_snapshot_${n}_restore_over_memcpy`] = nativeSnap.restore_us / nativeSnap.memcpy_us;
  }

  // The JS API's own costs: bulk spawn against bitECS, per-entity calls, a JS system.
  const jsapi = browser.jsapi;
  if (jsapi) {
    const n = sizeLabel(jsapi.entities);
    target(targets, 'jsapi_spawnmany_over_bitecs', `JS API: spawnMany ${n} / bitECS addEntity + 2 addComponent + writes`,
      jsapi.spawnManyOverBitecs, 1, true, { unit: 'x' });
    target(targets, 'jsapi_spawn_us', 'JS API: world.spawn (position + velocity), µs per entity',
      jsapi.spawnUsPerEntity, 2, true, { unit: ' µs' });
    target(targets, 'jsapi_get_set_us', 'JS API: world.get + world.set, µs per pair',
      jsapi.getSetUsPerPair, 1, true, { unit: ' µs' });
    target(targets, 'jsapi_system_over_js_loop', `JS API: JS query system moving ${n} / plain JS loop`,
      jsapi.systemOverJsLoop, 1.3, true, { unit: 'x' });
    checked.jsapi_spawnmany_over_bitecs = jsapi.spawnManyOverBitecs;
    checked.jsapi_system_over_js_loop = jsapi.systemOverJsLoop;
  }

  // Per-entity calls and small-world iteration against the fastest JS ECS library measured in
  // the same page (smallworld.js). Reported, not bounded by a ceiling: see docs/PERFORMANCE.md.
  const calls = browser.calls;
  if (calls) {
    for (const [op, o] of Object.entries(calls.ops)) {
      target(targets, `calls_${op}_ns`, `calls at 1,000 entities: ${op}, ns per call`, o.ecsiaNs, 40, true, { unit: ' ns', digits: 1 });
      target(targets, `calls_${op}_over_fastest`, `calls at 1,000 entities: ${op}, ecsia / ${o.fastest ?? 'n/a'} (fastest)`,
        o.ecsiaOverFastest ?? NaN, 1, true, { unit: 'x' });
    }
    // The bulk forms are measured when the world has them (otherwise the table says "not available").
    for (const [op, b] of Object.entries(calls.bulk)) {
      if (b === null) continue;
      target(targets, `calls_${op}_speedup`, `calls at 1,000 entities: ${op}, per call / bulk per entity`,
        b.perCallOverBulk, 3, false, { unit: 'x' });
    }
  }
  for (const shape of browser.iteration?.shapes ?? []) {
    target(targets, `iteration_${shape.shape}_speed_over_fastest`, `iteration, ${shape.label}: ecsia speed / ${shape.fastest} (fastest)`,
      shape.ecsiaSpeedOverFastest, 1, false, { unit: 'x' });
  }

  // Rollback netcode (web/bench/rollback.js): an advance() that rolls back 8 frames.
  const rollback = browser.rollback;
  if (rollback) {
    for (const [mode, m] of Object.entries(rollback.modes)) {
      target(targets, `rollback_${mode}_over_frames_and_restore`,
        `rollback of ${rollback.depth} frames at ${sizeLabel(m.entitiesAtStart)}, ${mode}: advance() / (restore + ${rollback.depth} frames)`,
        m.advanceOver8FramesPlusRestore, 1.2, true, { unit: 'x' });
    }
    target(targets, 'rollback_auto_speed_over_serial', `rollback of ${rollback.depth} frames: threads 'auto' speed / serial`,
      rollback.autoOverSerial, 0.95, false, { unit: 'x' });
  }

  // Topics (web/bench/topics.js): 100,000 messages a frame from a JS kernel on the workers to a
  // main-thread system, against pushing the same values into typed arrays and reading them back.
  const topics = browser.topics;
  if (topics) {
    target(targets, 'topics_js_frame_over_loop', `topics ${sizeLabel(topics.entities)} messages, JS kernel on ${topics.workers} workers, commands.publish: frame / JS loop`,
      topics.frameOverLoop, 2, true, { unit: 'x' });
    target(targets, 'topics_js_publishmany_frame_over_loop',
      `topics ${sizeLabel(topics.entities)} messages, JS kernel on ${topics.workers} workers, commands.publishMany: frame / JS loop`,
      topics.manyOverLoop, 2, true, { unit: 'x' });
    checked.topics_js_publishmany_frame_over_loop = topics.manyOverLoop;
  }

  // The devtools panel (web/bench/devtools.js): a frame with the panel attached against one without,
  // at 100,000 entities; and detached, against never attached (the frame must not move).
  for (const w of browser.devtools?.worlds ?? []) {
    const name = w.systems.join('+');
    for (const [key, how] of [['backToBack', 'frames back to back'], ['perDisplayFrame', 'one frame per display frame']]) {
      const over = w[key].overNone;
      const worst = (timing) => Math.max(...['world', 'timeline', 'entities'].map((tab) => over[`panel: ${tab}${timing}`]));
      target(targets, `devtools_${name}_${key}`, `devtools attached, ${sizeLabel(w.entities)} entities (${name}), ${how}: worst section / none`,
        worst(''), 1.05, true, { unit: 'x' });
      // The panel's default is User Timing on (since 2026-12-07); without it, timed back to back only.
      if (over['panel: world, User Timing off'] !== undefined) {
        target(targets, `devtools_untimed_${name}_${key}`,
          `devtools attached with userTiming: false, ${sizeLabel(w.entities)} entities (${name}), ${how}: worst section / none`,
          worst(', User Timing off'), 1.05, true, { unit: 'x' });
      }
    }
    target(targets, `devtools_${name}_detached`, `devtools detached, ${sizeLabel(w.entities)} entities (${name}): / never attached`,
      w.backToBack.overNone.detached, 1.05, true, { unit: 'x' });
  }

  // Hierarchy (web/bench/hierarchy.js and bench_hierarchy): the cascade against a hand-written loop
  // over the nodes sorted by depth, threads 'auto' against serial, and what a lookup costs against
  // the same random read straight from the heap view.
  const hierarchy = browser.hierarchy;
  if (hierarchy) {
    target(targets, 'hierarchy_js_kernel_over_loop', `hierarchy ${sizeLabel(hierarchy.nodes)} nodes: JS kernel cascade / JS loop`,
      hierarchy.kernelOverLoop, 2, true, { unit: 'x' });
    target(targets, 'hierarchy_auto_speed_over_serial', `hierarchy ${sizeLabel(hierarchy.nodes)} nodes: threads 'auto' speed / serial`,
      hierarchy.threadedOverSerial, 0.95, false, { unit: 'x' });
    target(targets, 'hierarchy_lookup_all_over_random_read', 'lookups: chunk.lookupAll / a random read of the heap view',
      hierarchy.lookup.lookupAllOverRandom, 3, true, { unit: 'x' });
    target(targets, 'hierarchy_lookup_over_random_read', 'lookups: chunk.lookup / a random read of the heap view',
      hierarchy.lookup.lookupOverRandom, 3, true, { unit: 'x' });
    target(targets, 'hierarchy_instantiate_many_over_spawn_many', 'prefabs: instantiateMany / spawnMany',
      hierarchy.prefab.instantiateOverSpawn, 1, true, { unit: 'x' });
  }
  const nativeLookup = native.hierarchy?.lookup;
  if (nativeLookup?.ns_per_row_lookup_of !== undefined) {
    target(targets, 'native_lookup_over_random_read', '(native) lookups: ctx.lookup / a read at a precomputed row',
      nativeLookup.ns_per_row_lookup / nativeLookup.ns_per_row_direct_random, 3, true, { unit: 'x' });
    target(targets, 'native_lookup_of_over_random_read', '(native) lookups: Lookup<T>::get / a read at a precomputed row',
      nativeLookup.ns_per_row_lookup_of / nativeLookup.ns_per_row_direct_random, 3, true, { unit: 'x' });
  }
  for (const run of native.hierarchy?.runs ?? []) {
    target(targets, `native_hierarchy_${run.workers}_workers_over_hand_loop`,
      `(native) hierarchy ${sizeLabel(native.hierarchy.nodes)} nodes, ${run.workers === 0 ? 'serial' : `${run.workers} worker(s)`}: cascade / C++ hand loop`,
      run.over_hand_loop, 1.5, true, { unit: 'x' });
  }

  // Snapshots of a churned world (web/bench/snapshot_churn.js).
  const churned = browser.snapshotChurn;
  if (churned) {
    target(targets, 'snapshot_churn_over_copy', `snapshot(into) of a churned world (${sizeLabel(churned.entities)} entities): / copy of its bytes`,
      churned.snapshotOverCopy, 3, true, { unit: 'x' });
    target(targets, 'snapshot_churn_size_over_components', 'snapshot of a churned world: size / its component bytes',
      churned.sizeOverComponentBytes, 2, true, { unit: 'x' });
  }

  // The native targets of the earlier issues, measured in the same run.
  for (const size of native.move?.sizes ?? []) {
    target(targets, `native_move_${size.entities}_chunk_over_plain`,
      `(native) move ${sizeLabel(size.entities)}: chunk path / plain loop`, size.chunk_over_plain, 1.2, true, { unit: 'x' });
    checked[`native_move_${size.entities}_chunk_over_plain`] = size.chunk_over_plain;
  }
  for (const size of native.tracked?.sizes ?? []) {
    target(targets, `native_tracked_${size.entities}_over_move`,
      `(native) tracked ${sizeLabel(size.entities)}: tracked / move`, size.tracked_over_move, 2, true, { unit: 'x' });
    checked[`native_tracked_${size.entities}_over_move`] = size.tracked_over_move;
  }
  for (const variant of native.heavy?.variants ?? []) {
    const slug = variant.name.startsWith('8') ? '8_systems' : '1_system';
    const speedup = byWorkers(variant.runs, 2, 'speedup');
    target(targets, `native_heavy_${slug}_speedup_2_workers`, `(native) heavy ${variant.name}: speedup, 2 workers`,
      speedup, 1.8, false, { unit: 'x' });
    checked[`native_heavy_${slug}_serial_over_2_workers`] = 1 / speedup;
  }
  for (const population of native.churn?.populations ?? []) {
    target(targets, `native_churn_${population.population}_mrps`,
      `(native) churn ${sizeLabel(population.population)}: M records/s`, population.apply_mrps, 10, false, { unit: ' M/s', digits: 1 });
  }
  // Topics (bench_topics): a frame that publishes a message per row from a kernel and reads them
  // all in a main-thread system, against pushing the same values into a std::vector and reading them.
  // The kernel publishes through ctx.publish (one call per message) and, in the second pair of
  // runs, through a TopicWriter (the way to publish in a loop).
  const nativeTopics = native.topics;
  if (nativeTopics) {
    const n = nativeTopics.messages;
    const perCall = byWorkers(nativeTopics.runs.filter((r) => !r.writer), 2, 'over_vector');
    const writer = byWorkers(nativeTopics.runs.filter((r) => r.writer), 2, 'over_vector');
    target(targets, `native_topics_${n}_w2_over_vector`,
      `(native) topics ${sizeLabel(n)} messages, 2 workers, ctx.publish: frame / std::vector push + read`, perCall, 2, true, { unit: 'x' });
    checked[`native_topics_${n}_w2_over_vector`] = perCall;
    if (Number.isFinite(writer)) {
      target(targets, `native_topics_${n}_w2_writer_over_vector`,
        `(native) topics ${sizeLabel(n)} messages, 2 workers, TopicWriter: frame / std::vector push + read`, writer, 2, true, { unit: 'x' });
      checked[`native_topics_${n}_w2_writer_over_vector`] = writer;
    }
  }
  return { targets, checked };
}
