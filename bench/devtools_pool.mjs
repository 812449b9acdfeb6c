#!/usr/bin/env node
// Pools the devtools workload's runs of the same code: every repetition's samples of the results
// files given (bench/results/only-devtools-*.json, those that kept them), per world and mode, and
// the estimate of each variant against no devtools over all of them, as one run gives it
// (web/bench/devtools.js): per display frame the ratio of the pooled frame times, back to back
// the median of the per-repetition ratios, each with a 90% bootstrap interval.
//   node bench/devtools_pool.mjs bench/results/only-devtools-2026-12-06T1504.json ...
import { readFileSync } from 'node:fs';
import { medianRatio, pooledRatio } from '../web/bench/timing.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node bench/devtools_pool.mjs RESULTS.json...');
  process.exit(2);
}
const pooled = new Map();  // world and mode -> { variants (their names, as a key), samples: { variant: samples } }
for (const file of files) {
  const worlds = JSON.parse(readFileSync(file, 'utf8')).browserResults?.devtools?.worlds;
  if (worlds === undefined) throw new Error(`${file}: no devtools results`);
  for (const world of worlds) {
    for (const mode of ['perDisplayFrame', 'backToBack']) {
      const { samples } = world[mode];
      if (samples === undefined) continue;  // a run from before samples were kept
      const key = `${world.systems.join(', ')}, ${world.entities} entities, ${world.workers} workers, ${mode === 'perDisplayFrame' ? 'per display frame' : 'back to back'}`;
      // A repetition's samples are compared with the same repetition's no devtools: every file
      // must time the same variants the same number of times.
      const variants = Object.keys(samples).sort().join(', ');
      const counts = new Set(Object.values(samples).map((values) => values.length));
      if (counts.size !== 1) throw new Error(`${file}: ${key}: the variants have different numbers of samples`);
      if (!pooled.has(key)) pooled.set(key, { variants, samples: {} });
      const into = pooled.get(key);
      if (into.variants !== variants) throw new Error(`${file}: ${key}: times ${variants}, the files before it ${into.variants}`);
      for (const [variant, values] of Object.entries(samples)) (into.samples[variant] ??= []).push(...values);
    }
  }
}
if (pooled.size === 0) console.log('none of these files kept its samples (runs since 2026-12-06 12:21 do)');
for (const [key, { samples }] of pooled) {
  const estimate = key.endsWith('per display frame') ? pooledRatio : medianRatio;
  console.log(`${key} (${samples['no devtools'].length} repetitions):`);
  for (const variant of Object.keys(samples)) {
    if (variant === 'no devtools') continue;
    const { ratio, interval } = estimate(samples, variant, 'no devtools');
    console.log(`  ${variant.padEnd(34)} ${ratio.toFixed(2)}x (${interval.map((x) => x.toFixed(2)).join(' to ')})`);
  }
}
