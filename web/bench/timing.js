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
 * shared machine hits them all alike. A variant is { name, run(frames), settle? } where run may
 * be async, and may return the milliseconds to count (when each frame has set-up that is not
 * timed), else its whole run is; with `sizedByCounted: true`, its samples are sized by those
 * milliseconds too (a run with set-up before its frames); with `sampleFrames: n`, each sample
 * is n frames. Each variant's sample runs enough frames to last about sampleMs.
 * Warm-up: every variant runs for warmupMs first (V8 starts wasm and JS in baseline tiers and
 * swaps in optimised code only after a function has run enough). A variant with `settle: true`
 * then keeps running until its frame time has not improved by more than 3 % for settleMs (at most
 * maxWarmupMs, from its first frame): a function V8 optimises in the background (a kernel called once per batch is
 * compiled by TurboFan on a helper thread, which here arrived seconds after its first call) is
 * timed in the code it runs in from then on, not in the tier before it.
 * Returns { samples: { [name]: [ms per frame, per repetition] }, frames: { [name]: per sample },
 * warmupMs: { [name]: how long its warm-up ran } }.
 */
export async function interleave(variants, { repetitions = 15, sampleMs = 30, warmupMs = 300, settleMs = 2500, maxWarmupMs = 15_000 } = {}) {
  const frames = {};
  const warmedMs = {};
  for (const v of variants) {
    const warmupStart = performance.now();
    do await v.run(5); while (performance.now() - warmupStart < warmupMs);
    if (v.settle) {
      let best = Infinity;
      let bestAt = performance.now();
      while (performance.now() - bestAt < settleMs && performance.now() - warmupStart < maxWarmupMs) {
        const start = performance.now();
        await v.run(5);
        const perFrame = (performance.now() - start) / 5;
        if (perFrame < best * 0.97) bestAt = performance.now();
        best = Math.min(best, perFrame);
      }
    }
    warmedMs[v.name] = performance.now() - warmupStart;
    if (v.sampleFrames !== undefined) {
      frames[v.name] = v.sampleFrames;
      continue;
    }
    const start = performance.now();
    const counted = await v.run(10);
    // A variant whose run has untimed set-up of its own (sizedByCounted) is sized by what it
    // counts: else the set-up's time would shrink its samples to a few frames.
    const perFrame = (v.sizedByCounted && typeof counted === 'number' ? counted : performance.now() - start) / 10;
    frames[v.name] = Math.max(3, Math.ceil(sampleMs / Math.max(perFrame, 1e-4)));
  }
  const samples = Object.fromEntries(variants.map((v) => [v.name, []]));
  for (let rep = 0; rep < repetitions; rep += 1) {
    for (let j = 0; j < variants.length; j += 1) {
      const v = variants[(j + rep) % variants.length];
      const start = performance.now();
      const counted = await v.run(frames[v.name]);
      samples[v.name].push((typeof counted === 'number' ? counted : performance.now() - start) / frames[v.name]);
    }
  }
  return { samples, frames, warmupMs: warmedMs };
}

/** Median over repetitions of samples[a][i] / samples[b][i]. */
export function ratio(samples, a, b) {
  return median(perRepetition(samples, a, b));
}

// samples[a][i] / samples[b][i] for every repetition i.
function perRepetition(samples, a, b) {
  return samples[a].map((value, i) => value / samples[b][i]);
}

/**
 * sum(samples[a]) / sum(samples[b]) (samples of equal frame counts: the ratio of the pooled frame
 * times), with a 90% bootstrap interval over the repetitions.
 */
export function pooledRatio(samples, a, b, options) {
  const sum = (values, picks) => picks.reduce((total, i) => total + values[i], 0);
  return bootstrapped(samples[a].length, (picks) => sum(samples[a], picks) / sum(samples[b], picks), options);
}

/**
 * The median of the per-repetition ratios samples[a][i] / samples[b][i] (as ratio(): a repetition
 * the machine stalled moves it at most to the neighbouring ratio), with a 90% bootstrap interval.
 */
export function medianRatio(samples, a, b, options) {
  const ratios = perRepetition(samples, a, b);
  return bootstrapped(ratios.length, (picks) => median(picks.map((i) => ratios[i])), options);
}

// statistic(every repetition's index) and its 90% percentile-bootstrap interval: the statistic of
// repetitions drawn with replacement (a and b's samples of one repetition drawn together), from
// a fixed seed, so a run's figures can be derived again.
function bootstrapped(count, statistic, { resamples = 2000 } = {}) {
  const all = Array.from({ length: count }, (_, i) => i);
  let seed = 0x9e3779b9;
  const next = () => {  // xorshift32
    seed ^= seed << 13; seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5; seed >>>= 0;
    return seed / 2 ** 32;
  };
  const values = [];
  for (let r = 0; r < resamples; r += 1) values.push(statistic(all.map(() => Math.floor(next() * count))));
  return { ratio: statistic(all), interval: [percentile(values, 0.05), percentile(values, 0.95)] };
}
