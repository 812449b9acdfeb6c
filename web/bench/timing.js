// Timing for the browser benchmarks: interleaved repetitions, medians, percentiles.
// performance.now() is coarsened to 5 µs on a cross-origin isolated page (100 µs otherwise), so
// every sample runs enough frames to last sampleMs.

export function median(values) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))];
}

/**
 * Times variants back to back within each repetition, rotating which goes first, so drift on a
 * shared machine hits them all alike. A variant is { name, run(frames) } where run may be async.
 * Each variant's sample runs enough frames to last about sampleMs.
 * Returns { samples: { [name]: [ms per frame, per repetition] }, frames: { [name]: per sample } }.
 */
export async function interleave(variants, { repetitions = 15, sampleMs = 30, warmupMs = 300 } = {}) {
  const frames = {};
  for (const v of variants) {
    // Run each variant for a while first: V8 starts wasm and JS in baseline tiers and swaps in
    // optimised code only after a function has run enough (a few frames are not enough).
    const warmupStart = performance.now();
    do await v.run(5); while (performance.now() - warmupStart < warmupMs);
    const start = performance.now();
    await v.run(10);
    const perFrame = (performance.now() - start) / 10;
    frames[v.name] = Math.max(3, Math.ceil(sampleMs / Math.max(perFrame, 1e-4)));
  }
  const samples = Object.fromEntries(variants.map((v) => [v.name, []]));
  for (let rep = 0; rep < repetitions; rep += 1) {
    for (let j = 0; j < variants.length; j += 1) {
      const v = variants[(j + rep) % variants.length];
      const start = performance.now();
      await v.run(frames[v.name]);
      samples[v.name].push((performance.now() - start) / frames[v.name]);
    }
  }
  return { samples, frames };
}

/** Median over repetitions of samples[a][i] / samples[b][i]. */
export function ratio(samples, a, b) {
  return median(samples[a].map((value, i) => value / samples[b][i]));
}
