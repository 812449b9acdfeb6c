#!/usr/bin/env node
// Puts one benchmark run together: the native programs' --json files and the browser page's
// results (bench/browser.mjs) become bench/results/latest.json (with the machine, browser and
// compiler versions, the date and the commit), a table on stdout, and the generated tables of
// docs/PERFORMANCE.md, so the document cannot disagree with the data.
//
//   node bench/report.mjs --native DIR --browser FILE [--out FILE] [--doc FILE] [--check]
//   node bench/report.mjs --check-only [--out FILE]     check an existing results file
//   node bench/report.mjs --browser FILE --tables kernels,jsapi [--native DIR] --out FILE
//        a run of some browser workloads only (scripts/bench --only): the named tables are
//        replaced, every other table keeps the run it came from; --native is then optional and
//        may hold only some programs' results (--only snapshot: bench_snapshot's)
//
// --check: exit 1 when a checked ratio is worse than its ceiling in bench/ceilings.json. Every
// checked ratio is a cost (lower is better), so a ceiling is lowered when the code improves.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { derive } from './report/derive.mjs';
import { executorCurveSvg } from './report/curve.mjs';
import { renderTables, replaceTables } from './report/tables.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function parseArgs(argv) {
  const options = {
    native: null,
    browser: null,
    out: path.join(root, 'bench/results/latest.json'),
    doc: path.join(root, 'docs/PERFORMANCE.md'),
    ceilings: path.join(root, 'bench/ceilings.json'),
    check: false,
    checkOnly: false,
    tables: null,
    meta: {},
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`report.mjs: ${arg} needs a value`);
      return argv[(i += 1)];
    };
    if (arg === '--native') options.native = value();
    else if (arg === '--browser') options.browser = value();
    else if (arg === '--out') options.out = value();
    else if (arg === '--doc') options.doc = value();
    else if (arg === '--no-doc') options.doc = null;
    else if (arg === '--ceilings') options.ceilings = value();
    else if (arg === '--check') options.check = true;
    else if (arg === '--check-only') options.checkOnly = true;
    else if (arg === '--tables') options.tables = value().split(',');
    else if (arg === '--started') options.meta.started = value();
    else if (arg === '--load-before') options.meta.loadBefore = value();
    else throw new Error(`report.mjs: unknown argument '${arg}'`);
  }
  if (!options.checkOnly && (!options.browser || (!options.native && options.tables === null))) {
    throw new Error('report.mjs: --native DIR and --browser FILE are required (or --check-only; --native is optional with --tables)');
  }
  if (options.tables !== null && options.check) throw new Error('report.mjs: --check needs a full run, not --tables');
  return options;
}

function firstLine(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0].trim();
  } catch {
    return 'unavailable';
  }
}

function machine() {
  const cpu = os.cpus();
  const model = firstLine('sh', ['-c', "lscpu | sed -n 's/^Model name: *//p'"]);
  return {
    hostname: os.hostname(),
    cpus: cpu.length,
    cpuModel: model !== 'unavailable' && model !== '' ? model : cpu[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    kernel: `${os.type()} ${os.release()}`,
    os: firstLine('sh', ['-c', '. /etc/os-release && echo "$PRETTY_NAME"']),
    loadAverageAtEnd: os.loadavg().map((v) => Math.round(v * 100) / 100),
  };
}

function commit() {
  const sha = firstLine('git', ['-C', root, 'rev-parse', 'HEAD']);
  const dirty = firstLine('sh', ['-c', `git -C '${root}' status --porcelain --untracked-files=no | head -1`]);
  return { sha, shortSha: sha.slice(0, 7), dirty: dirty !== '' && dirty !== 'unavailable' };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`report.mjs: cannot read ${file}: ${error.message}`);
  }
}

function compose(options) {
  const native = {};
  for (const name of ['move', 'tracked', 'heavy', 'fence', 'churn', 'snapshot', 'executor', 'hierarchy', 'topics', 'calls']) {
    // --tables without --native: a browser-only run; the derived native targets are then absent.
    // With --tables, --native DIR holds only the native programs those tables also show
    // (scripts/bench --only snapshot runs bench_snapshot): the others are absent.
    if (options.native === null) continue;
    const file = path.join(options.native, `${name}.json`);
    if (options.tables !== null && !existsSync(file)) continue;
    native[name] = readJson(file);
  }
  const browserRun = readJson(options.browser);
  const results = {
    date: new Date().toISOString(),
    started: options.meta.started ?? null,
    commit: commit(),
    machine: { ...machine(), loadAverageAtStart: options.meta.loadBefore ?? null },
    compilers: {
      native: firstLine('g++', ['--version']),
      wasm: firstLine('emcc', ['--version']),
      node: process.version,
    },
    browser: browserRun.browser,
    native,
    browserResults: browserRun.workloads,
    pageDiagnostics: browserRun.pageDiagnostics ?? [],
    pageErrors: browserRun.pageErrors ?? [],
  };
  const derived = derive(results);
  const { checked } = derived;
  // A browser-only run (--tables) has no native figures (or only some): the targets that need the
  // missing ones are left out.
  const targets = options.tables !== null ? derived.targets.filter((t) => typeof t.measured !== 'number' || Number.isFinite(t.measured)) : derived.targets;
  results.targets = targets;
  results.checked = checked;
  return results;
}

function fmt(value, digits = 2) {
  if (typeof value === 'boolean') return value ? 'yes' : 'NO';
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  return value.toFixed(digits);
}

function printTargets(results) {
  const rows = results.targets.map((t) => [
    t.label,
    `${fmt(t.measured, t.digits ?? 2)}${t.unit ?? ''}`,
    typeof t.measured === 'boolean' ? 'yes' : `${t.atMost ? '<=' : '>='} ${fmt(t.limit, t.digits ?? 2)}${t.unit ?? ''}`,
    t.met ? 'met' : 'MISSED',
  ]);
  const header = ['target (Chromium unless noted)', 'measured', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

function check(results, ceilingsFile) {
  const ceilings = readJson(ceilingsFile).ceilings;
  let failed = 0;
  console.log(`\nregression check against ${path.relative(root, ceilingsFile)}:`);
  for (const [id, ceiling] of Object.entries(ceilings)) {
    const measured = results.checked[id];
    if (measured === undefined) {
      console.log(`  ${id}: not measured in this run -> FAIL`);
      failed += 1;
      continue;
    }
    const ok = measured <= ceiling.max;
    if (!ok) failed += 1;
    console.log(`  ${id}: ${fmt(measured, 3)} vs ceiling ${fmt(ceiling.max, 3)} -> ${ok ? 'ok' : 'WORSE THAN CEILING'}`);
  }
  return failed;
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  let results;
  if (options.checkOnly) {
    results = readJson(options.out);
  } else {
    results = compose(options);
    mkdirSync(path.dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
    if (options.doc) {
      const doc = readFileSync(options.doc, 'utf8');
      // A workload's tables: the executor workload fills two (executor, extract), topics two (native, browser).
      const names = options.tables?.flatMap((name) => ({ executor: ['executor', 'extract'], topics: ['topicsNative', 'topics'] }[name] ?? [name]));
      const tables = names === undefined ? renderTables(results) : renderTables(results, names);
      writeFileSync(options.doc, replaceTables(doc, tables));
      // The executor's curve beside the document (docs/executor_curve.svg), when this run has it.
      // A browser-only run draws the native curve from the full run in bench/results/latest.json.
      let earlier = null;
      if (results.native.executor === undefined) {  // (--only snapshot brings bench_snapshot's alone)
        try { earlier = JSON.parse(readFileSync(path.join(root, 'bench/results/latest.json'), 'utf8')); } catch { earlier = null; }
      }
      const svg = options.tables === null || options.tables.includes('executor') ? executorCurveSvg(results, earlier) : null;
      if (svg !== null) writeFileSync(path.join(path.dirname(options.doc), 'executor_curve.svg'), svg);
    }
  }
  console.log(`\nbenchmarks of ${results.commit.shortSha}${results.commit.dirty ? ' (with uncommitted changes)' : ''}, ` +
    `${results.date}, ${results.browser.name} ${results.browser.version}, ${results.machine.cpus} CPUs\n`);
  printTargets(results);
  const missed = results.targets.filter((t) => !t.met).length;
  console.log(`\n${results.targets.length - missed} of ${results.targets.length} targets met` +
    (options.checkOnly ? '' : `; results in ${path.relative(root, options.out)}` +
      (options.doc ? `, tables in ${path.relative(root, options.doc)}` : '')));
  if (options.check || options.checkOnly) {
    const failed = check(results, options.ceilings);
    if (failed > 0) {
      console.log(`${failed} ratio(s) worse than the ceiling`);
      process.exit(1);
    }
  }
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
}
