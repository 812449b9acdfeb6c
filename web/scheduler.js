// The Scheduler of the JS API: C++ systems by their registered name (the module's, e.g. 'Move'),
// JS systems on the main thread, and update(dt), whose waves run on the worker pool while the
// page's main thread awaits the fence with Atomics.waitAsync and never blocks (G2). Created by
// world.createScheduler(options).
//
//   const scheduler = world.createScheduler({ systems: ['Move', 'Bounce'], workers: 2 })
//   scheduler.addSystem('Attract')                       // a registered C++ system
//   scheduler.addSystem({ name, reads, writes, before, after, run(world, dt) {} })  // a JS system
//   scheduler.addSystem({ name, reads, writes, kernel: 'integrate' })  // a JS kernel, in batches
//   await scheduler.update(dt)
//   const drawn = scheduler.extract({ components: ['position'] })   // copied at every frame's end
//   drawn.latest()        // the last frame's copy, the page's while the next frame runs
//   scheduler.plan()      // [['Move', ...], ['Bounce'], ...]: the waves
//   scheduler.dispose()
//
// Thread rule: the page's main thread.

import { describe, isPlainObject, knownKeys, stringList as stringListOf } from './internal/checks.js';
import { Extract } from './extract.js';
import { attachInternals } from './internal/engine.js';
import { FRAME_RECORD_HEADER } from './internal/constants.js';
import { decodeFrame, framesOf, recordLength, systemCountOf } from './internal/frame_record.js';
import { kernelSystemParts } from './internal/kernel_module.js';
import { messagesOf } from './internal/kernel_runtime.js';
import { UserTiming } from './internal/user_timing.js';
import { Chunk, pairTerms, Query } from './query.js';

// What a system spec may hold; anything else is a mistake to report, not ignore.
const SYSTEM_KEYS = ['name', 'reads', 'writes', 'before', 'after', 'query', 'run', 'kernel', 'spawnsPerBatch', 'cascade', 'parentReads', 'lookups',
  'publishes', 'consumes'];

const WAITING = 1;

// The page's clock, held: the global \`performance\` is a getter of the page's global object that
// costs more than now() itself (in Chromium about 100 ns of a read's 160), and update() reads the
// clock twice per step of every frame.
const clock = globalThis.performance;

// createScheduler's options; any other key is an error (a misspelt option must not pass silently).
const OPTIONS = ['systems', 'workers', 'batchRows', 'waveDeadlineMs', 'fencePollUs', 'userTiming'];
// Options that moved to the built-in module's own API (web/builtins.js).
const MOVED = {
  scenarioSeed: 'builtinsOf(ecsia).setupScenario(scheduler, seed)',
  config: 'builtinsOf(ecsia).addSystem(scheduler, name, config)',
};
const stringList = (op, what, value) => stringListOf(`scheduler.${op}`, what, value);

// [table, first row, rows, component id] for each fetched chunk and each of `writes`
// ([name, id] pairs) it has a view of.
function runsWritten(chunks, writes) {
  const runs = [];
  for (const chunk of chunks) {
    const [table, begin, rows] = Chunk.rowsOf(chunk);
    for (const [name, id] of writes) {
      if (chunk.columns[name] !== undefined) runs.push(table, begin, rows, id);
    }
  }
  return runs;
}

// What the frame observer (the devtools panel) is handed after each frame: { startMs, endMs,
// failed, pageUs, record, frame, names }, valid during the call only (the same object comes back
// next frame). The record (a view of wasm memory, web/internal/frame_record.js) is asked of the
// engine when first read, once per frame; a failed frame leaves the engine's record of the frame
// before it, so `record` is then null.
class FrameLook {
  startMs = 0;
  endMs = 0;
  failed = false;
  pageUs = 0;
  #fetchRecord;
  #fetchNames;
  #record = null;

  constructor(fetchRecord, fetchNames) {
    this.#fetchRecord = fetchRecord;
    this.#fetchNames = fetchNames;
  }

  reset(startMs, endMs, failed, pageUs) {
    this.startMs = startMs;
    this.endMs = endMs;
    this.failed = failed;
    this.pageUs = pageUs;
    this.#record = null;
  }

  /** The engine's record of the last frame that ran (also when this one failed). */
  engineRecord() { return (this.#record ??= this.#fetchRecord()); }

  get record() { return this.failed ? null : this.engineRecord(); }
  get frame() { return framesOf(this.engineRecord()); }
  get names() { return this.#fetchNames(this.engineRecord()); }
}

export class Scheduler {
  #engine;
  #world;      // the WorldCore (web/internal/world_core.js) of the world this runs
  #publicWorld;
  #raw;
  #diagnose;
  #running = false;
  #pageUs = 0;     // lastFrame().pageUs
  #worldDisposed = false;  // the world went first (it disposed this scheduler on the way)
  #disposeRequested = false;  // dispose() was called while update() ran: finish it when update() ends
  #warnedNoWaitAsync = false;
  #kinds = new Map();  // system name -> { kind, kernel } for describePlan()
  #systemNames = null; // by system index, for lastFrame()'s batches; null once systems change
  #userTiming = false;
  #timing = new UserTiming(() => this.#takeTimingQueue(), (error) => this.#userTimingFailed(error));  // the measures while userTiming is on
  #frameLook = null;   // what #frameDone hands the frame observer (made once, reused)
  #observer = null;    // the devtools panel's frame hooks (web/devtools.js), or null

  /**
   * @param {object} options
   *   systems: registered C++ system names to add, in order (e.g. ['Move', 'Bounce']); see addSystem
   *   workers: worker threads (default: the engine's; 0 = serial executor; capped at the engine's)
   *   batchRows: most rows per batch (default 16384; a system's rows are cut into about 16 batches of
   *     at least 256 rows, so lower it for kernels that are slow per row); waveDeadlineMs: a wave's
   *     deadline (30000)
   *   fencePollUs: after starting a wave, how long update() polls for it to finish before it
   *     awaits Atomics.waitAsync (default 20; 0: await at once). A short wave then costs the
   *     workers' round trip instead of an event-loop turn; the page never waits longer than this.
   *   userTiming: each frame and wave a performance.measure (see the userTiming property); default false.
   *   Any other key is an error. (The built-in workloads' settings and the determinism scenario
   *   are the built-in module's: web/builtins.js.)
   */
  constructor(worldCore, publicWorld, options = {}) {
    if (!isPlainObject(options)) throw new Error(`createScheduler: options must be an object, got ${describe(options)}`);
    for (const key of Object.keys(options)) {
      if (key in MOVED) throw new Error(`createScheduler: options.${key} is not a scheduler option; use ${MOVED[key]} (web/builtins.js)`);
      if (!OPTIONS.includes(key)) throw new Error(`createScheduler: unknown option '${key}' (known: ${OPTIONS.join(', ')})`);
    }
    const ecsia = worldCore.engine;
    const diagnose = ecsia.diagnose;
    this.#engine = ecsia;
    this.#world = worldCore;
    this.#publicWorld = publicWorld;
    this.#diagnose = diagnose;
    const systems = stringList('createScheduler', 'options.systems', options.systems);
    let workers = options.workers ?? ecsia.workers;
    if (!Number.isInteger(workers) || workers < 0) {
      throw new Error(`createScheduler: options.workers must be a whole number >= 0, got ${describe(workers)}`);
    }
    if (workers > ecsia.workers) {
      if (ecsia.workers === 0) {
        diagnose(`ecsia: ${workers} workers were asked for, but the ${ecsia.variant} build runs without threads; using the serial executor.`);
      } else {
        diagnose(`ecsia: ${workers} workers were asked for, but the engine was loaded with ${ecsia.workers}; using ${ecsia.workers}.`);
      }
      workers = ecsia.workers;
    }
    // With a kernel module, a thread must start on a Web Worker that imported it. The Web Workers
    // of a scheduler disposed just before go back to Emscripten's pool only when the page next
    // reads their messages (an await of a timer or an event); a thread started before then gets
    // a new Web Worker, without the module, where every JS kernel batch would fail.
    if (workers > 0 && ecsia.workerKernels) {
      const ready = ecsia.module.ecsiaKernelReadyWorkers();
      if (ready < workers) {
        diagnose(`ecsia: createScheduler: ${workers} workers were asked for, but only ${ready} of the engine's Web Workers ` +
          'are free with the kernel module (a disposed scheduler\'s workers return to the pool once the page yields to the ' +
          `event loop, e.g. after awaiting a timer); using ${ready}${ready === 0 ? ' (the serial executor)' : ''}.`);
        workers = ready;
      }
    }
    const batchRows = options.batchRows ?? 16384;
    const deadline = options.waveDeadlineMs ?? 30000;
    const fencePollUs = options.fencePollUs ?? 20;
    if (!Number.isInteger(batchRows) || batchRows < 1 || batchRows > 0xffffffff) {
      throw new Error(`createScheduler: options.batchRows must be a whole number from 1 to 4294967295, got ${describe(batchRows)}`);
    }
    if (typeof deadline !== 'number' || !(deadline > 0)) {
      throw new Error(`createScheduler: options.waveDeadlineMs must be a positive number, got ${describe(deadline)}`);
    }
    if (typeof fencePollUs !== 'number' || !(fencePollUs >= 0 && fencePollUs <= 1000)) {
      throw new Error(`createScheduler: options.fencePollUs must be a number from 0 to 1000, got ${describe(fencePollUs)}`);
    }
    const userTiming = options.userTiming ?? false;
    if (typeof userTiming !== 'boolean') throw new Error(`createScheduler: options.userTiming must be true or false, got ${describe(userTiming)}`);
    this.#userTiming = userTiming;
    const module = ecsia.module;
    const rawWorld = worldCore.raw('createScheduler');
    this.#raw = this.#guard('createScheduler', () => new module.Scheduler(rawWorld, workers, batchRows, deadline, fencePollUs));
    this.#raw.setTimingQueue(userTiming);
    attachInternals(this, {
      engine: ecsia,
      world: worldCore,
      raw: (op) => this.#rawFor(op),
      // One observer of the frames at a time (the devtools panel): beforeFrame() may return a
      // promise that update() awaits first (pause and step), afterFrame({ frame, startMs, endMs,
      // failed, pageUs, record, names }) runs once the frame is over, failed or not, with its
      // record (web/internal/frame_record.js: a view of wasm memory, valid during the call, which
      // the observer copies to keep; frame, record and names are fetched from the engine only when
      // read; the object is the same every frame, its fields valid during the call only);
      // disposed() when this scheduler is; null detaches it.
      observeFrames: (observer) => {
        if (observer !== null && this.#observer !== null) throw new Error('ecsia: this scheduler already has devtools attached; detach them first');
        this.#observer = observer;
      },
    });
    // A scheduler never outlives its world: the world's dispose stops it first.
    worldCore.onDispose(() => {
      this.#worldDisposed = true;
      this.dispose();
    });
    try {
      for (const name of systems) {
        this.#call('createScheduler', (r) => r.addSystem(name));
        this.#recordSystem(name, { kind: 'c++', kernel: null });
      }
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  /** Worker threads this scheduler runs waves on (0: serial executor). */
  get workers() { return this.#call('workers', (r) => r.workers()); }
  /** Frames completed over the world (every scheduler's; restored by world.restore()). */
  get frames() { return this.#call('frames', (r) => r.frames()); }
  get disposed() { return this.#raw === null || this.#disposeRequested; }
  /**
   * Whether frames record their timeline (off by default, when it costs nothing): each batch's
   * system, rows, thread and times, and each wave's serial slot and merge, in lastFrame(). Set
   * between frames or during one; it applies from the next frame's start.
   */
  get recordTimeline() { return this.#call('recordTimeline', (r) => r.recordsTimeline()); }
  set recordTimeline(on) {
    if (typeof on !== 'boolean') throw new Error(`scheduler.recordTimeline: takes true or false, got ${describe(on)}`);
    this.#call('recordTimeline', (r) => r.setRecordTimeline(on));
  }

  /**
   * Whether each frame, and each of its waves, is a User Timing measure (performance.measure
   * "ecsia frame N" and "ecsia frame N wave W (placement)"), which the browser's Performance
   * panel shows on the page's thread. Off by default: a frame then does no extra work. A wave's
   * start and end are the engine's own times, relative to the frame's start. The measures are
   * made outside update(), a few frames at a time (at most 250 ms after the frame, or once 64
   * frames are queued), with the frames' own times: the engine queues each frame's wave times and
   * the page notes its start and end. Turning userTiming off, or disposing the scheduler, makes what
   * is queued. Only the newest frames' measures stay in the performance timeline
   * (performance.getEntriesByType: at most 256); a PerformanceObserver sees every one.
   */
  get userTiming() { this.#rawFor('userTiming'); return this.#userTiming; }
  set userTiming(on) {
    if (typeof on !== 'boolean') throw new Error(`scheduler.userTiming: takes true or false, got ${describe(on)}`);
    this.#rawFor('userTiming');
    if (on === this.#userTiming) return;
    if (!on) this.#flushTiming();  // the frames measured while it was on get their measures now
    this.#call('userTiming', (r) => r.setTimingQueue(on));
    this.#userTiming = on;
  }

  /**
   * addSystem('Name') adds the C++ system registered under that name (ECSIA_REGISTER_SYSTEM in the
   * loaded module: the engine's own has Move, Bounce, Attract, Heavy0..Heavy7, ...); an unknown
   * name throws, naming the registered ones.
   *
   * addSystem({ name, reads, writes, before, after, query?, run }) adds a JS system. It runs on
   * the main thread in the serial slot of its wave, with the world's full API; `reads` and
   * `writes` (component names) place it in the plan. With a `query` ({ with, without, optional,
   * changed, added }) it gets run(world, dt, chunks): its query's chunks, changed/added relative
   * to its previous run. Rows of components in `writes` it can write through views are
   * change-tracked (changed queries and change observers see them): its query's chunks and every
   * chunk it fetches from another query while it runs (views kept from before it ran are not
   * seen; use world.markChanged for those). An exception it throws becomes a diagnostic naming
   * the system, and the frame goes on. With a query it may take `cascade` and `parentReads` as a
   * kernel system does: run() is then called once per depth level, in depth order, with that
   * level's chunks (chunk.depth, chunk.parent[name] below depth 0).
   *
   * addSystem({ name, reads, writes, before, after, kernel: 'name', query, spawnsPerBatch,
   * cascade, parentReads, lookups }) adds a JS kernel system: `kernel` is an export of the kernel module
   * (loadEcsia({ kernels })), run
   * in row batches like a C++ system: on the workers in the threaded build, inline with the
   * serial executor and in the single build. The kernel gets (chunk, dt, commands): chunk =
   * { count, entities, columns, strides, offsets, depth, parent } with views of the batch's rows
   * of the declared `reads` and `writes` only (made per batch; writes are change-tracked like a
   * C++ kernel's), and `commands` = { spawn, despawn, add, remove, set, addPair, removePair },
   * applied after the wave in batch order. `cascade` (an exclusive relation's name, e.g.
   * 'ChildOf'): the rows run in depth order, level after level (depth 0: no target), each level's
   * batches in parallel; a chunk holds one level (chunk.depth), and with `parentReads`
   * (component names) chunk.parent[name] is a view shaped like chunk.columns[name] of each row's
   * parent's values, as this frame's earlier levels left them (undefined at depth 0). `lookups`
   * (component names, planned like reads, not written by the system): chunk.lookup(name, entity)
   * gives the index of any live entity's element in chunk.lookups[name] (a view of the whole
   * heap), or -1 for a dead, stale or pending handle; chunk.targetOf(entity, relation) gives an
   * exclusive relation's target (null for none). A
   * kernel that throws fails its batch (a diagnostic names system, kernel and message; the
   * batch's commands are dropped). `query` ({ with, without, optional, changed, added }) adds
   * terms: rows need reads + writes + with, except those listed in optional (their views are
   * `undefined` where a table lacks them). `spawnsPerBatch` (default 0): handles reserved per
   * batch for commands.spawn; spawns beyond it get handles at the merge, with a diagnostic.
   * A kernel's results must depend on its arguments only: each thread has its own instance of
   * the kernel module, so state kept between calls at module level would make them depend on
   * where the executor ran each batch (loadEcsia({ debug: true }) checks for it).
   */
  addSystem(spec) {
    const op = 'addSystem';
    if (typeof spec === 'string') {
      this.#notRunning(op);
      this.#call(op, (r) => r.addSystem(spec));
      this.#recordSystem(spec, { kind: 'c++', kernel: null });
      return;
    }
    if (!isPlainObject(spec)) throw new Error(`scheduler.${op}: takes a registered system's name or { name, reads, writes, run | kernel }, got ${describe(spec)}`);
    const { name, run, kernel } = spec;
    if (typeof name !== 'string' || name === '') throw new Error(`scheduler.${op}: name must be a non-empty string, got ${describe(name)}`);
    knownKeys(`scheduler.${op}('${name}')`, spec, SYSTEM_KEYS, 'the system spec');
    if (run !== undefined && kernel !== undefined) {
      throw new Error(`scheduler.${op}('${name}'): give either run (a main-thread system) or kernel (a JS kernel run in batches), not both`);
    }
    if (run === undefined && kernel === undefined) {
      throw new Error(`scheduler.${op}('${name}'): give run(world, dt) (a main-thread system) or kernel: 'name' (a JS kernel of the kernel module)`);
    }
    const common = {
      name,
      reads: stringList(op, 'reads', spec.reads),
      writes: stringList(op, 'writes', spec.writes),
      before: stringList(op, 'before', spec.before),
      after: stringList(op, 'after', spec.after),
      publishes: stringList(op, 'publishes', spec.publishes),
      consumes: stringList(op, 'consumes', spec.consumes),
    };
    // Topic names resolve here, so that an unknown one is the engine's UnknownTopic error (listing
    // the defined topics) before anything changes.
    for (const topic of [...common.publishes, ...common.consumes]) this.#world.topic(`scheduler.${op}`, topic);
    this.#notRunning(op);
    this.#rawFor(op);
    // One body per kind of system.
    if (kernel !== undefined) {
      this.#addKernelSystem(common, spec);
      return;
    }
    if (typeof run !== 'function') {
      throw new Error(`scheduler.${op}('${name}'): run must be a function (world, dt, chunks) => {}, got ${describe(run)}`);
    }
    for (const key of ['spawnsPerBatch', 'lookups']) {
      if (spec[key] !== undefined) throw new Error(`scheduler.${op}('${name}'): ${key} is for kernel systems`);
    }
    this.#addMainThreadSystem(common, run, spec);
  }

  // A JS kernel system: run in row batches like a C++ system (web/internal/kernel_module.js).
  #addKernelSystem({ name, reads, writes, before, after, publishes, consumes }, spec) {
    const op = 'addSystem';
    const { kernel } = spec;
    const { kernelId, query, spawnsPerBatch } = kernelSystemParts(op, name, spec, this.#engine.kernels);
    // Pair terms go to the engine as [relation id, target bits, ...], as a Query's do.
    const { pairIds, withoutPairIds } = pairTerms(this.#world, `scheduler.${op}('${name}').query`, query);
    query.pairs = pairIds;
    query.withoutPairs = withoutPairIds;
    // cascade: the relation's id (the engine checks that it is exclusive), -1 for none.
    const cascade = spec.cascade === undefined ? -1 : this.#world.relation(`scheduler.${op}`, spec.cascade).id;
    const parentReads = stringList(op, 'parentReads', spec.parentReads);
    const lookups = stringList(op, 'lookups', spec.lookups);
    const module = this.#engine.module;
    this.#call(op, (r) => module.addKernelSystem(r, { name, kernel, kernelId, reads, writes, before, after, query, spawnsPerBatch, cascade, parentReads, lookups, publishes, consumes }));
    this.#recordSystem(name, { kind: 'js-kernel', kernel });
  }

  // A JS system on the main thread, optionally with a query whose chunks it gets, and with a
  // cascade over its query's rows: then run once per level.
  #addMainThreadSystem({ name, reads, writes, before, after, publishes, consumes }, run, spec) {
    const op = 'addSystem';
    const world = this.#publicWorld;
    const core = this.#world;
    const querySpec = spec.query;
    if (querySpec === undefined && (spec.cascade !== undefined || spec.parentReads !== undefined)) {
      throw new Error(`scheduler.${op}('${name}'): ${spec.cascade !== undefined ? 'cascade' : 'parentReads'} orders a query's rows: give the system a query`);
    }
    // Names resolved through the world are this call's errors.
    const caller = `scheduler.${op}`;
    // cascade: the relation's id (the engine checks that it is exclusive), -1 for none.
    const cascade = spec.cascade === undefined ? -1 : core.relation(caller, spec.cascade).id;
    const parentReadNames = stringList(op, 'parentReads', spec.parentReads);
    const parentReads = parentReadNames.map((n) => ({ name: n, layout: core.component(caller, n).layout }));
    let query = null;
    let planReads = reads;
    if (querySpec !== undefined) {
      query = new Query(world, core, querySpec, `scheduler.${op}('${name}').query`);
      for (const w of writes) core.component(caller, w);
      // Everything the query touches is read, unless the system declares it a write.
      const touched = [...query.terms.with, ...query.terms.optional, ...query.terms.changed, ...query.terms.added];
      planReads = [...new Set([...reads, ...touched.filter((n) => !writes.includes(n))])];
    }
    // Declared writes that have views (tags have none), as [name, id]: what a fetched chunk can
    // be written through. Set once the engine has accepted the system (and its names).
    let viewedWrites = [];
    // Its consumed topics' entries: run()'s 4th argument holds their messages, fetched per run.
    const topics = consumes.map((topic) => core.topic(caller, topic));
    const noMessages = Object.freeze({});
    const messagesOfRun = () => {
      if (topics.length === 0) return noMessages;
      const messages = {};
      for (const topic of topics) {
        const record = core.fast.messages(core.address, topic.id) >>> 0;
        if (record === 0) core.fail('messages');
        const { buffer, u32 } = core.engine.views();
        const at = record >>> 2;
        messages[topic.name] = messagesOf(topic.topic, buffer, u32[at], u32.subarray(at + 1, at + 1 + topic.fields.length));
      }
      return Object.freeze(messages);
    };
    // n: how many chunks the engine selected for this run (changed/added since the system's
    // previous run, whose tick the world keeps, so a restore rewinds it); their records are in the
    // raw query, and the engine has already counted the declared writes over them as written.
    // With a cascade, once per level: `depth` and the address of its chunks' parents' values.
    const body = (dt, n, depth, parents) => {
      core.callbackDepth += 1;
      const outer = core.systemViews;
      const fetched = [];
      core.systemViews = viewedWrites.length > 0 ? fetched : null;
      let chunks;
      try {
        chunks = query === null ? [] : query.chunksForSystem(n, depth, parents, parentReads);
        run(world, dt, chunks, messagesOfRun());
      } catch (error) {
        core.report(`JS system '${name}' threw: ${error instanceof Error ? error.message : String(error)}`, name);
      } finally {
        core.callbackDepth -= 1;
        core.systemViews = outer;
      }
      if (core.disposed) return;
      // Views from any other query it fetched while it ran: the declared writes each chunk has a
      // view of count as writes, even when run threw part way.
      try {
        if (fetched.length > 0) core.call(op, (r) => r.markRunsWritten(runsWritten(fetched, viewedWrites)));
      } catch (error) {
        core.report(`JS system '${name}': its writes could not be tracked: ${error instanceof Error ? error.message : String(error)}`, name);
      }
    };
    const rawQuery = query === null ? null : query.rawForSystem();
    this.#call(op, (r) => r.addMainThreadSystem(name, planReads, writes, before, after, body, rawQuery, cascade, parentReadNames, publishes, consumes));
    viewedWrites = writes.filter((w) => core.component(op, w).layout !== null).map((w) => [w, core.component(op, w).id]);
    this.#recordSystem(name, { kind: 'js', kernel: null });
  }

  /**
   * Runs one frame. The waves run on the workers; between them this awaits the fence with
   * Atomics.waitAsync, so the page keeps rendering and handling input. A second update() while
   * one runs is rejected. A frame whose every wave finishes within fencePollUs of its dispatch
   * completes without yielding to the event loop. dt must be a finite number >= 0. A futex wait
   * of the page's thread during the frame (never the engine's doing: G2) becomes a diagnostic.
   */
  async update(dt) {
    this.#rawFor('update');
    if (this.#running) {
      throw new Error('scheduler.update: the previous update() is still running; await it before calling update() again');
    }
    if (typeof dt !== 'number' || !Number.isFinite(dt) || dt < 0) {
      throw new Error(`scheduler.update: dt must be a finite number >= 0 (seconds since the last frame), got ${describe(dt)}`);
    }
    this.#running = true;
    const crashes = this.#engine.workerCrashes;
    const crashesBefore = crashes.length;
    const pageWaitsBefore = this.#engine.pageWaits();
    this.#engine.pageWaitSites();  // forget waits from outside a frame: only this frame's are named
    // Time the page's thread spends inside the engine's calls of this frame (lastFrame().pageUs):
    // the rest of update()'s time the page was free, and a page that draws meanwhile sees it here.
    let pageMs = 0;
    let startMs = 0;
    let began = false;  // the engine's frame began (not read from startMs: a clock may read 0)
    let failed = true;
    // Until the frame ends, the raw world and scheduler stay: a dispose() of either meanwhile
    // takes effect in the engine once the wave out on the workers is back (its batches write
    // into the world until then), and step() says Done then.
    const releaseWorld = this.#world.holdRaw();
    const raw = this.#raw;
    try {
      // A paused devtools panel holds the frame here (a promise); otherwise nothing to await.
      const gate = this.#observer?.beforeFrame();
      if (gate !== undefined) await gate;
      if (this.#disposeRequested) return;  // disposed while paused
      let t = clock.now();
      startMs = t;
      began = true;
      let status = this.#call('update', (r) => r.beginAndStep(dt));
      pageMs += clock.now() - t;
      while (status === WAITING) {
        await this.#fence(raw);
        t = clock.now();
        status = this.#guard('update', () => raw.step());
        pageMs += clock.now() - t;
      }
      this.#pageUs = pageMs * 1000;
      failed = false;
    } catch (error) {
      // A wave that missed its deadline because its worker crashed: say so (the engine only sees
      // a worker that never arrived).
      if (error instanceof Error && error.code === 'WorkerFailure' && crashes.length > crashesBefore) {
        error.message += `; a worker thread crashed during this frame: ${crashes[crashes.length - 1]}`;
      }
      if (!(error instanceof Error && typeof error.code === 'string')) throw this.#afterTrap(error);
      throw error;
    } finally {
      this.#running = false;
      // G2 is never silent when broken: a frame during which the page's thread waited says so.
      const pageWaits = (this.#engine.pageWaits() - pageWaitsBefore) >>> 0;
      const sites = this.#engine.pageWaitSites();
      if (pageWaits > 0) {
        this.#diagnose(`ecsia: the page's thread waited ${pageWaits} time(s) for a lock or condition during scheduler.update() ` +
          '(in a browser, a busy spin); the engine should never make it wait: please report this' +
          (sites.length > 0 ? `, with where it waited: ${sites[0]}` : '') + '.');
      }
      if (this.#disposeRequested) {
        this.#release();
      } else if (began && (this.#userTiming || this.#observer !== null)) {
        this.#frameDone(startMs, clock.now(), failed);
      }
      releaseWorld();
    }
  }

  // The User Timing measures of a frame just over, and the observer's look at it (the frame's
  // record, a view it copies if it keeps it, asked of the engine only if it looks); neither may
  // fail the frame (a throw becomes a diagnostic). This runs every frame while a panel is
  // attached: what it does not need, it does not fetch, and it allocates nothing (one look,
  // reused: code that runs once per display frame runs cold, and every allocation shows).
  #frameDone(startMs, endMs, failed) {
    const look = (this.#frameLook ??= new FrameLook(() => this.#frameRecord('update'), (record) => this.#names('update', record)));
    look.reset(startMs, endMs, failed, this.#pageUs);
    try {
      if (this.#userTiming) this.#timing.add(startMs, endMs, failed, failed ? this.#call('update', (r) => r.frames()) : 0);
      this.#observer?.afterFrame(look);
    } catch (error) {
      this.#diagnose(`ecsia: after a frame, ${this.#userTiming ? 'its User Timing measures or ' : ''}the devtools failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // The engine's queue of the frames' wave times (User Timing), taken: a view of wasm memory,
  // valid until the next call.
  #takeTimingQueue() {
    const address = this.#call('userTiming', (r) => r.takeTimingQueue()) >>> 0;
    const at = address / Float64Array.BYTES_PER_ELEMENT;
    const length = this.#engine.viewsCovering(address + Float64Array.BYTES_PER_ELEMENT).f64[at];
    const end = at + 1 + length;
    return this.#engine.viewsCovering(end * Float64Array.BYTES_PER_ELEMENT).f64.subarray(at + 1, end);
  }

  #flushTiming() {
    try {
      this.#timing.flush();
    } catch (error) {
      this.#userTimingFailed(error);
    }
  }

  #userTimingFailed(error) {
    this.#diagnose(`ecsia: a frame's User Timing measures failed: ${error instanceof Error ? error.message : String(error)}`);
  }


  /**
   * extract({ components, with, without }): at the end of every frame, the engine copies the
   * `components` of the rows that have them all, every `with` and no `without` component into a
   * buffer the page owns (in wasm: one memcpy per component per table), so the page can draw
   * frame N from `extract.latest()` while the waves of frame N+1 run (web/extract.js). The first
   * copy is taken now. Names are component names; a tag cannot be copied (use it in `with`).
   * Not while update() runs. Disposing the scheduler disposes its extracts.
   */
  extract(spec) {
    this.#notRunning('extract');
    if (arguments.length > 1) throw new Error(`scheduler.extract: takes at most 1 argument, got ${arguments.length}`);
    return new Extract(this.#engine, this.#world, (op) => this.#rawFor(op), spec);
  }

  /**
   * Removes the system named `name` (a JS, kernel or registered C++ system) between frames; an
   * unknown name throws UnknownSystem. The plan is made again at the next update(). A consumer's
   * cursors go with it: messages only it had left to read are dropped.
   */
  removeSystem(name) {
    const op = 'removeSystem';
    if (arguments.length > 1) throw new Error(`scheduler.${op}: takes 1 argument, got ${arguments.length}`);
    if (typeof name !== 'string') throw new Error(`scheduler.${op}: takes a system name, got ${describe(name)}`);
    this.#notRunning(op);
    this.#call(op, (r) => r.removeSystem(name));
    this.#systemNames = null;
    this.#kinds.delete(name);
  }

  /** The waves, as arrays of system names. */
  plan() { return this.#call('plan', (r) => r.plan()); }
  /**
   * The plan as data: per wave, its systems as { name, kind: 'c++' | 'js' | 'js-kernel', kernel
   * (the kernel module's export, or null), thread: 'main' | 'workers', reads, writes, parentReads,
   * lookups, publishes, consumes, cascade, after (the system that fixed its wave, or null), why }.
   */
  describePlan() {
    const waves = this.#call('describePlan', (r) => r.describePlan());
    for (const wave of waves) {
      for (const system of wave) Object.assign(system, this.#kinds.get(system.name) ?? { kind: 'c++', kernel: null });
    }
    return waves;
  }
  /** Why each system is in its wave, and which run on the main thread, as text. */
  explainPlan() { return this.#call('explainPlan', (r) => r.explain()); }
  /**
   * The last frame: { waves: [{ wave, batches, beginUs, endUs, placement }], busyNs: [...], jobs:
   * [...], pageUs }. pageUs: µs the page's thread spent inside the engine during that update()
   * (serial slots, batches it ran, merges); busyNs: per worker, busy time since start. With
   * recordTimeline on, also batches: [{ wave, system, firstRow, rows, lane, beginUs, endUs }]
   * (lane -1: the page's thread) and each wave's serialEndUs and mergedUs.
   */
  lastFrame() {
    const record = this.#frameRecord('lastFrame');
    return decodeFrame(record, this.#names('lastFrame', record), this.#pageUs);
  }

  // The engine's record of the last frame (web/internal/frame_record.js): a view of wasm memory,
  // valid until the next call. Over the heap's views as last made unless the record lies past
  // them: a devtools panel asks for it inside frames that run once per display frame, where
  // asking the memory for its buffer and making a view of it cost 15 µs (measured in the page).
  #frameRecord(op) {
    const address = this.#call(op, (r) => r.lastFrameRecord()) >>> 0;
    const at = address / Float64Array.BYTES_PER_ELEMENT;
    const end = at + recordLength(this.#engine.viewsCovering(address + FRAME_RECORD_HEADER * Float64Array.BYTES_PER_ELEMENT).f64, at);
    return this.#engine.viewsCovering(end * Float64Array.BYTES_PER_ELEMENT).f64.subarray(at, end);
  }

  // System names by index (what a batch's record holds), cached until the systems change (a
  // system added past this API, as the test module's helpers do, changes the record's count).
  #names(op, record) {
    if (this.#systemNames?.length !== systemCountOf(record)) this.#systemNames = this.#call(op, (r) => r.systemNames());
    return this.#systemNames;
  }
  /**
   * Stops the workers (also mid-frame, without blocking the page). A second call does nothing.
   * Called while update() runs (from a JS system, or while update() awaits a wave), the frame ends
   * there and that update() resolves; every later call throws "the scheduler was disposed".
   */
  dispose() {
    if (this.#raw === null || this.#disposeRequested) return;
    const observer = this.#observer;
    this.#flushTiming();  // the frames it ran get their measures (their records are the engine's)
    if (this.#running) {
      // The engine may be inside this very frame (a JS system runs inside step()): it finishes
      // the disposal when that call returns; the object is freed when update() ends.
      this.#disposeRequested = true;
      this.#guard('dispose', () => this.#raw.dispose());
    } else {
      this.#raw.dispose();
      this.#release();
    }
    // Told once this scheduler is disposed: a devtools panel detaches (and a paused update() ends).
    try {
      observer?.disposed();
    } catch (error) {
      this.#diagnose(`ecsia: the devtools failed to detach from a disposed scheduler: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #release() {
    if (this.#raw === null) return;
    this.#raw.delete();
    this.#raw = null;
  }

  // Waits until the fence word holds the awaited epoch, or a while has passed (step() then
  // checks the wave's deadline). Atomics.waitAsync never blocks the page.
  async #fence(raw) {
    const index = this.#guard('update', () => raw.fenceAddress()) >> 2;
    const epoch = this.#guard('update', () => raw.waitingEpoch()) | 0;
    const heap = new Int32Array(this.#engine.heapState().buffer);
    const value = Atomics.load(heap, index);
    if (value === epoch) return;
    if (typeof Atomics.waitAsync === 'function') {
      const result = Atomics.waitAsync(heap, index, value, 1000);
      if (result.async) await result.value;
      return;
    }
    if (!this.#warnedNoWaitAsync) {
      this.#warnedNoWaitAsync = true;
      this.#diagnose('ecsia: Atomics.waitAsync is missing in this browser; waves are awaited with a timer poll, which adds latency.');
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }

  // Not an engine error: wasm code on this thread trapped (a C++ kernel's `unreachable`, a stack
  // overflow) and unwound the frame without the engine's cleanup. The engine ends that frame as a
  // failed one (its unmerged work dropped) so the next update() runs; without a frame cut short
  // it was not a trap of the frame's, and passes through unchanged.
  #afterTrap(error) {
    let where = '';
    try { where = this.#raw?.recoverFromTrap() ?? ''; } catch { /* the engine is past repair: report the trap */ }
    if (where === '') return error;
    const trap = new Error(`scheduler.update: wasm code trapped on the page's thread in ${where}: ${error?.message ?? error}; ` +
      'the frame ended there (what it had not merged is dropped) and the next update() runs');
    trap.code = 'KernelTrap';
    trap.cause = error;
    return trap;
  }

  // A system added: its kind for describePlan(); system indices changed for lastFrame().
  #recordSystem(name, kind) {
    this.#systemNames = null;
    this.#kinds.set(name, kind);
  }

  #notRunning(op) {
    if (this.#running) throw new Error(`scheduler.${op}: not allowed while update() is running`);
  }

  #guard(op, fn) {
    return this.#engine.call(`scheduler.${op}`, fn);
  }

  #rawFor(op) {
    if (this.#worldDisposed) throw new Error(`scheduler.${op}: the scheduler's world was disposed (which disposed the scheduler)`);
    if (this.#raw === null || (this.#disposeRequested && op !== 'update')) {
      throw new Error(`scheduler.${op}: the scheduler was disposed`);
    }
    // The engine's scheduler stopped when its world went (it throws Disposed); say why here.
    if (this.#world.disposed) throw new Error(`scheduler.${op}: the scheduler's world was disposed`);
    return this.#raw;
  }

  #call(op, fn) {
    const raw = this.#rawFor(op);
    return this.#guard(op, () => fn(raw));
  }
}
