// The executor's curve (threads never slower), as a small SVG for docs/PERFORMANCE.md: the threaded/serial
// speed ratio of *move* against the entity count (log scale), in the browser through the JS API
// (threads: 'auto', the executor deciding; and 2 workers with every wave on the pool, what the
// executor did before it decided) and natively (bench_executor, 2 workers, deciding), with the
// 0.95x target as a dashed line. Generated from one run's results, never drawn by hand.

const W = 520;
const H = 330;
const PAD = { left: 52, right: 34, top: 28, bottom: 96 };
const COLORS = ['#1f6feb', '#d1242f', '#2da44e', '#8250df'];

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The series [{ name, points: [[entities, ratio], ...] }] of one run's results. `earlier`: the
 * results file a browser-only run (scripts/bench --only) keeps its native figures from, whose
 * native curve is then drawn with its commit named.
 */
export function curveSeries(results, earlier = null) {
  const series = [];
  const exec = results.browserResults?.executor;
  if (exec) {
    series.push({ name: `browser, threads: 'auto' (${exec.autoWorkers} worker${exec.autoWorkers === 1 ? '' : 's'}, deciding)`,
      points: exec.move.map((m) => [m.entities, m.autoOverSerial]) });
    series.push({ name: 'browser, 2 workers, every wave on the pool (before)', points: exec.move.map((m) => [m.entities, m.poolOverSerial]) });
  }
  const own = results.native?.executor !== undefined;
  const source = own ? results : earlier;
  const native = (source?.native?.executor?.move ?? []).map((size) => {
    const run = size.result.runs.find((r) => r.mode === 'decide' && r.workers === 2);
    return run ? [size.entities, run.ratio] : null;
  }).filter(Boolean);
  if (native.length > 0) {
    const from = own ? '' : `, run of ${source.commit?.shortSha ?? 'an earlier commit'}`;
    series.push({ name: `native, 2 workers, deciding (bench_executor${from})`, points: native });
  }
  return series;
}

export function executorCurveSvg(results, earlier = null) {
  const series = curveSeries(results, earlier);
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return null;
  const xs = all.map(([n]) => Math.log10(n));
  const x0 = Math.min(3, ...xs);
  const x1 = Math.max(6, ...xs);
  const yMax = Math.max(1.2, Math.ceil(Math.max(...all.map(([, r]) => r)) * 5) / 5);
  const px = (n) => PAD.left + ((Math.log10(n) - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const py = (r) => H - PAD.bottom - (Math.min(r, yMax) / yMax) * (H - PAD.top - PAD.bottom);
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="${PAD.left}" y="16" font-size="12" font-weight="bold">move: threaded speed / serial speed</text>`);
  // Axes, grid, ticks.
  for (let e = Math.ceil(x0); e <= x1; e += 1) {
    const x = px(10 ** e);
    out.push(`<line x1="${x}" y1="${PAD.top}" x2="${x}" y2="${H - PAD.bottom}" stroke="#eee"/>`);
    out.push(`<text x="${x}" y="${H - PAD.bottom + 14}" text-anchor="middle">${(10 ** e).toLocaleString('en-US')}</text>`);
  }
  for (let r = 0; r <= yMax + 1e-9; r += 0.2) {
    const y = py(r);
    out.push(`<line x1="${PAD.left}" y1="${y}" x2="${W - PAD.right}" y2="${y}" stroke="#eee"/>`);
    out.push(`<text x="${PAD.left - 6}" y="${y + 4}" text-anchor="end">${r.toFixed(1)}x</text>`);
  }
  out.push(`<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - PAD.bottom + 30}" text-anchor="middle">entities (log scale)</text>`);
  out.push(`<line x1="${PAD.left}" y1="${py(0.95)}" x2="${W - PAD.right}" y2="${py(0.95)}" stroke="#666" stroke-dasharray="4 3"/>`);
  out.push(`<text x="${W - PAD.right - 2}" y="${py(0.95) - 4}" text-anchor="end" fill="#666">target 0.95x</text>`);
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const points = s.points.map(([n, r]) => `${px(n).toFixed(1)},${py(r).toFixed(1)}`).join(' ');
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points}"/>`);
    for (const [n, r] of s.points) out.push(`<circle cx="${px(n).toFixed(1)}" cy="${py(r).toFixed(1)}" r="3" fill="${color}"><title>${esc(s.name)}: ${n.toLocaleString('en-US')} entities, ${r.toFixed(2)}x</title></circle>`);
    const ly = H - PAD.bottom + 46 + i * 15;
    out.push(`<line x1="${PAD.left + 8}" y1="${ly}" x2="${PAD.left + 26}" y2="${ly}" stroke="${color}" stroke-width="2"/>`);
    out.push(`<text x="${PAD.left + 30}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
