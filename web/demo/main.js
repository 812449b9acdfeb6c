// The demo: a particle galaxy whose systems (Attract and Bounce: built-in C++ kernels; Move: a JS
// kernel of web/demo/kernels.js) run on the worker pool, a JS system (Input) on the main thread, WebGL2 drawing from
// the scheduler's extract (position and velocity copied in wasm at each frame's end), and a state
// hash that does not change with the worker count. The page draws frame N while the waves of
// frame N+1 run: update() and drawing overlap instead of adding up.
// window.demo is the handle the Playwright tests drive.

import { builtinsOf } from '../builtins.js';
import { attachDevtools } from '../devtools.js';
import { loadEcsia } from '../ecsia.js';
import { createRenderer } from './render.js';

const DT = 1 / 60;
const HASH_EVERY = 60;           // frames between state hashes (a hash reads every entity)
const BURST = 2000;              // particles a click spawns
const $ = (id) => document.getElementById(id);

const diagnostics = [];
// ?threads=N loads a pool of N workers (the worker menu then offers 0..N); default 'auto': one
// worker per core but the page's own.
const params = new URLSearchParams(location.search);
const threadsParam = params.get('threads');
// ?overlap=0: draw after update() instead of while it runs (the way before the extract step; to compare).
const overlap = params.get('overlap') !== '0';
const ecsia = await loadEcsia({
  // The test module (web/test/dist/ecsia_test): the engine plus the built-in C++ systems the
  // demo runs (Attract, Bounce) and its movers; the package's module has no systems of its own.
  module: new URL('../test/dist/ecsia_test', import.meta.url),
  threads: threadsParam === null ? 'auto' : Number(threadsParam),
  kernels: new URL('./kernels.js', import.meta.url),  // Move, a JS kernel run on the workers
  onDiagnostic: (message) => { diagnostics.push(message); console.warn(message); },
});
const renderer = createRenderer($('view'));

const state = {
  world: null, scheduler: null, devtools: null, seed: 1, entities: 100000, workers: ecsia.workers,
  frame: 0, paused: false, running: false, clicks: [], tainted: false,
  lastUpdateMs: 0, fps: 0, drawn: null,  // drawn: the scheduler's extract of what the renderer needs
  history: new Map(),  // `${seed}|${entities}|${frame}` -> { hash, workers }, for the replay check
  lastHash: null, busyBefore: [],
  frameDone: Promise.resolve(),  // settles when the frames in flight end (runFrames)
  pendingReset: null,            // a reset waiting for those frames (resetWhenIdle)
  duringFrame: null,             // tests: called from inside the next frame's Input system
};

function describeVariant() {
  const el = $('variant');
  if (ecsia.variant === 'threaded') {
    el.textContent = `threaded: ${ecsia.maxWorkers} Web Workers available over one shared heap`;
  } else {
    el.classList.add('single');
    el.textContent = `single-threaded: ${diagnostics[0] ?? 'threads are off'}`;
  }
}

function fillWorkerChoices() {
  const select = $('c-workers');
  // 0 (the serial executor) up to the workers the engine was loaded with (more would be clamped).
  for (let n = 0; n <= ecsia.workers; n++) {
    const option = document.createElement('option');
    option.value = String(n);
    option.textContent = n === 0 ? '0 (serial)' : String(n);
    select.append(option);
  }
  select.value = String(state.workers);
}

// Builds a fresh world from the seed. Same seed + entity count = same frames, whatever the workers.
function reset({ seed = state.seed, entities = state.entities, workers = state.workers } = {}) {
  // The devtools panel closes with its scheduler; it opens again over the new one.
  const devtoolsOpen = state.devtools !== null && !state.devtools.detached;
  state.scheduler?.dispose();
  state.world?.dispose();
  Object.assign(state, { seed, entities, workers, frame: 0, tainted: false, clicks: [], lastHash: null });
  const world = ecsia.createWorld({ maxEntities: Math.max(1 << 18, entities * 2) });
  const scheduler = world.createScheduler({ systems: ['Attract'], workers });
  // Events through topics: Move (a JS kernel on the workers) publishes a crossing of the middle,
  // Input (on the page) a burst of particles; Events counts both, after both, once each.
  world.defineTopic('crossed', { entity: 'entity', rightward: 'bool' });
  world.defineTopic('burst', { x: 'f32', y: 'f32', count: 'u32' });
  scheduler.addSystem({ name: 'Move', kernel: 'move', reads: ['velocity'], writes: ['position'], after: ['Attract'], publishes: ['crossed'] });
  scheduler.addSystem('Bounce');
  builtinsOf(ecsia).spawnMovers(world, entities, seed);
  // Orbiting bodies: suns, planets, moons as a ChildOf hierarchy. They have no velocity, so the
  // particle systems pass them by; Place propagates their positions parent before child.
  world.defineComponent('orbit', { radius: 'f32', angle: 'f32', speed: 'f32' });
  state.bodies = spawnBodies(world, seed);
  scheduler.addSystem({ name: 'Orbit', kernel: 'orbit', reads: [], writes: ['orbit'] });
  scheduler.addSystem({
    name: 'Place', kernel: 'place', reads: ['orbit'], writes: ['position'], cascade: 'ChildOf', parentReads: ['position'],
    query: { without: ['velocity'] }, after: ['Orbit'],
  });
  scheduler.addSystem({
    name: 'Input',
    writes: ['position', 'velocity'],
    publishes: ['burst'],
    run(w) {
      if (state.duringFrame) {  // tests: act from inside a frame (window.demo.duringNextFrame)
        const fn = state.duringFrame;
        state.duringFrame = null;
        fn();
      }
      for (const { x, y } of state.clicks.splice(0)) {
        w.publish('burst', { x, y, count: BURST });
        for (let i = 0; i < BURST; i++) {
          const angle = (i / BURST) * Math.PI * 2;
          const speed = 40 + (i % 7) * 20;
          w.spawn({ position: { x, y }, velocity: { dx: Math.cos(angle) * speed, dy: Math.sin(angle) * speed } });
        }
      }
    },
  });
  scheduler.addSystem({
    name: 'Events',
    consumes: ['crossed', 'burst'],
    run(w, dt, chunks, { crossed, burst }) {
      const rightward = crossed.fields.rightward;
      let right = 0;
      for (let i = 0; i < crossed.count; i++) right += rightward[i];
      state.events.crossed = crossed.count;
      state.events.right = right;
      state.events.total += crossed.count;
      for (const b of burst) state.events.spawned += b.count;
    },
  });
  state.events = { crossed: 0, right: 0, total: 0, spawned: 0 };
  state.world = world;
  state.scheduler = scheduler;
  // Copied at the end of every frame into buffers the page owns; the renderer reads only these.
  state.drawn = scheduler.extract({ components: ['position', 'velocity'] });
  state.drawnBodies = scheduler.extract({ components: ['position'], with: ['orbit'] });
  state.busyBefore = [];
  state.devtools = devtoolsOpen ? attachDevtools({ world, scheduler }) : null;
  showPlan();
  recordHash();
  showStats();
}

// Two suns, each with planets, some with moons, some moons with moons of their own: a ChildOf
// forest of depth 3. Returns { count, depth }.
function spawnBodies(world, seed) {
  let state = (seed * 2654435761) >>> 0 || 1;
  const random = () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
  let count = 0;
  let depth = 0;
  const body = (parent, radius, level) => {
    const e = world.spawn({ position: {}, orbit: { radius, angle: random() * 6.283, speed: (0.4 + random()) / (1 + level) * (random() < 0.5 ? -1 : 1) } });
    if (parent !== null) world.addPair(e, 'ChildOf', parent);
    count += 1;
    depth = Math.max(depth, level);
    return e;
  };
  for (const [radius, speed] of [[60, 1], [260, -1]]) {
    const sun = body(null, radius, 0);
    world.set(sun, 'orbit', { speed: speed * 0.15 });
    for (let p = 0; p < 4; p++) {
      const planet = body(sun, 70 + p * 45, 1);
      for (let m = 0; m < Math.floor(random() * 3); m++) {
        const moon = body(planet, 14 + m * 9, 2);
        if (random() < 0.4) body(moon, 5, 3);
      }
    }
  }
  return { count, depth };
}

// Runs frames one after another; a reset asked for meanwhile waits for them (resetWhenIdle).
async function runFrames(frames) {
  state.running = true;
  let done;
  state.frameDone = new Promise((resolve) => { done = resolve; });
  try {
    for (let i = 0; i < frames; i++) await stepFrame();
  } finally {
    state.running = false;
    done();
  }
}

// A reset (new worker count, seed, entity count) while a frame is in flight must not dispose the
// scheduler under it (update() would reject: "the scheduler was disposed", and the render loop
// would die): it waits for that frame, then resets. Requests made meanwhile merge; the last wins.
async function resetWhenIdle(options = {}) {
  state.pendingReset = { ...state.pendingReset, ...options };
  while (state.running) await state.frameDone;
  const pending = state.pendingReset;
  if (pending === null) return;  // an earlier waiter already applied it
  state.pendingReset = null;
  reset(pending);
}

async function stepFrame() {
  const t0 = performance.now();
  await state.scheduler.update(DT);
  state.lastUpdateMs = performance.now() - t0;
  state.frame += 1;
  if (state.frame % HASH_EVERY === 0) recordHash();
}

// Hashes the world and compares with what an earlier run from the same seed saw at this frame.
function recordHash() {
  const hash = state.world.stateHash();
  state.lastHash = hash;
  state.lastHashFrame = state.frame;
  const el = $('determinism');
  if (state.tainted) {
    el.className = 'determinism';
    el.textContent = 'input changed this run: no replay comparison';
    return hash;
  }
  const key = `${state.seed}|${state.entities}|${state.frame}`;
  const seen = state.history.get(key);
  if (seen === undefined) {
    state.history.set(key, { hash, workers: state.workers });
  } else if (seen.workers !== state.workers) {
    const same = seen.hash === hash;
    el.className = `determinism ${same ? 'same' : 'differs'}`;
    el.textContent = same
      ? `frame ${state.frame}: same hash as with ${seen.workers} worker(s) ✓`
      : `frame ${state.frame}: hash DIFFERS from the run with ${seen.workers} worker(s)`;
  }
  return hash;
}

// The newest whole frame's positions and velocities (one chunk-shaped ExtractedFrame).
function drawnFrame() {
  return [state.drawn.latest()];
}

function drawnBodies() {
  return [state.drawnBodies.latest()];
}

function showStats() {
  $('s-workers').textContent = state.scheduler.workers === 0 ? '0 (serial executor)' : String(state.scheduler.workers);
  $('s-entities').textContent = state.world.count(['position']).toLocaleString('en');
  $('s-hierarchy').textContent = `${state.bodies.count} bodies, depth ${state.bodies.depth}`;
  showEvents();
  $('s-frame').textContent = String(state.frame);
  // update() = the engine's own time (the page's thread inside the engine, plus the workers' busiest
  // share) + the time its continuation waited behind the page (drawing frame N meanwhile).
  const { pageUs, busyNs } = state.scheduler.lastFrame();
  const workersMs = Math.max(0, ...busyNs.map((ns, i) => (ns - (state.busyBefore[i] ?? ns)) / 1e6));
  const engineMs = pageUs / 1000 + workersMs;
  $('s-engine').textContent = `${engineMs.toFixed(2)} ms (page ${(pageUs / 1000).toFixed(2)} + workers ${workersMs.toFixed(2)})`;
  $('s-update').textContent = `${state.lastUpdateMs.toFixed(2)} ms (waited ${Math.max(0, state.lastUpdateMs - engineMs).toFixed(2)})`;
  state.lastEngineMs = engineMs;
  $('s-fps').textContent = state.fps.toFixed(0);
  $('s-hash').textContent = state.lastHash === null ? '–' : `${state.lastHash} @ frame ${state.lastHashFrame}`;
  showTimeline();
}

// What the Events system counted from the topics.
function showEvents() {
  const { crossed, right, total, spawned } = state.events;
  $('s-events').textContent = `${crossed} crossed the middle (${right} rightward), ${total.toLocaleString('en')} in all; ${spawned} spawned by clicks`;
}

function showPlan() {
  const plan = state.scheduler.plan();
  const list = $('plan');
  list.replaceChildren(...plan.map((wave) => {
    const item = document.createElement('li');
    item.innerHTML = wave.map((name) => (name === 'Input' ? `<span class="main">${name} (main thread)</span>`
      : name === 'Move' || name === 'Orbit' ? `<span class="js">${name} (JS kernel)</span>`
        : name === 'Place' ? `<span class="js">${name} (JS kernel, cascade)</span>`
          : name === 'Events' ? `<span class="main">${name} (main thread, consumes topics)</span>` : name)).join(', ');
    return item;
  }));
}

function showTimeline() {
  const { waves, busyNs } = state.scheduler.lastFrame();
  const plan = state.scheduler.plan();
  const total = Math.max(1, ...waves.map((w) => w.endUs));
  const timeline = $('timeline');
  timeline.replaceChildren(...waves.map((w, i) => {
    const bar = document.createElement('div');
    bar.className = 'bar';
    bar.style.left = `${(w.beginUs / total) * 100}%`;
    bar.style.width = `${Math.max(0.5, ((w.endUs - w.beginUs) / total) * 100)}%`;
    bar.style.top = `${(i % 4) * 14 + 2}px`;
    bar.title = `wave ${w.wave}: ${plan[w.wave]?.join(', ')} — ${w.batches} batches, ${(w.endUs - w.beginUs).toFixed(0)} µs`;
    bar.textContent = plan[w.wave]?.join(',') ?? '';
    return bar;
  }));
  const frameNs = Math.max(1, state.lastUpdateMs * 1e6);
  $('busy').replaceChildren(...busyNs.map((ns, i) => {
    const share = Math.min(1, Math.max(0, (ns - (state.busyBefore[i] ?? ns)) / frameNs));
    const row = document.createElement('div');
    row.className = 'row';
    row.innerHTML = `<span>worker ${i}</span><span class="meter"><span class="fill" style="display:block;width:${(share * 100).toFixed(0)}%"></span></span><span>${(share * 100).toFixed(0)}%</span>`;
    return row;
  }));
  state.busyBefore = busyNs;
}

// The simulation runs one frame per animation frame while it keeps up; the page never blocks.
async function loop() {
  let last = performance.now();
  for (;;) {
    const now = await new Promise(requestAnimationFrame);
    state.fps = 0.9 * state.fps + 0.1 * (1000 / Math.max(1, now - last));
    last = now;
    if (!state.paused && !state.running && state.pendingReset === null && overlap) {
      const frame = runFrames(1);     // frame N+1 starts: its waves run on the workers ...
      renderer.draw(drawnFrame(), drawnBodies());    // ... while the page draws frame N from the extract
      await frame;
    } else if (!state.paused && !state.running && state.pendingReset === null) {
      await runFrames(1);
      renderer.draw(drawnFrame(), drawnBodies());
    } else {
      renderer.draw(drawnFrame(), drawnBodies());
    }
    showStats();
  }
}

$('c-reset').onclick = () => resetWhenIdle({ seed: Number($('c-seed').value), entities: Number($('c-entities').value), workers: Number($('c-workers').value) });
$('c-workers').onchange = () => resetWhenIdle({ workers: Number($('c-workers').value) });
$('c-pause').onclick = () => {
  state.paused = !state.paused;
  $('c-pause').textContent = state.paused ? 'resume' : 'pause';
  if (state.paused) recordHash();
};
// The devtools panel (web/devtools.js) over the running world; its own ✕ closes it too.
$('c-devtools').onclick = () => {
  if (state.devtools !== null && !state.devtools.detached) {
    state.devtools.detach();
    state.devtools = null;
  } else {
    state.devtools = attachDevtools({ world: state.world, scheduler: state.scheduler });
  }
};
$('c-step').onclick = async () => {
  if (!state.paused || state.running) return;
  await runFrames(1);
  recordHash();
};
$('view').addEventListener('click', (event) => {
  const [x, y] = renderer.toWorld(event.clientX, event.clientY);
  state.clicks.push({ x, y });
  state.tainted = true;
});

describeVariant();
fillWorkerChoices();
reset();

// For the tests: run frames deterministically with the loop paused.
window.demo = {
  variant: ecsia.variant,
  diagnostics,
  get frame() { return state.frame; },
  get workers() { return state.scheduler.workers; },
  get running() { return state.running; },
  duringNextFrame(fn) { state.duringFrame = fn; },
  pause() { state.paused = true; $('c-pause').textContent = 'resume'; },
  reset: (options) => resetWhenIdle(options),
  async step(frames = 1) {
    this.pause();
    while (state.running) await state.frameDone;
    await runFrames(frames);
    return recordHash();
  },
  hash: () => state.world.stateHash(),
  // What the Events system counted from the topics (this frame's crossings, all of them, spawns).
  events: () => { showEvents(); return { ...state.events, panel: $('s-events').textContent }; },
  litPixels: () => renderer.litPixels(drawnFrame(), drawnBodies()),
  // The engine's own time of the last frame and update()'s wall time (ms), as the panel shows them.
  timing: () => ({ engineMs: state.lastEngineMs, updateMs: state.lastUpdateMs, fps: state.fps, overlap }),
  overlay: () => ({ variant: $('variant').textContent, workers: $('s-workers').textContent, determinism: $('determinism').textContent }),
  // The orbiting bodies: how many sit where their parent's position plus their orbit puts them
  // (as Place computed them in the last frame, in f32), out of how many.
  bodiesPlaced() {
    const world = state.world;
    let placed = 0;
    let total = 0;
    for (const chunk of world.query({ with: ['orbit', 'position'] }).chunks()) {
      for (let i = 0; i < chunk.count; i++) {
        const e = chunk.entities[i];
        const { radius, angle } = world.get(e, 'orbit');
        const parent = world.targetOf(e, 'ChildOf');
        const base = parent === null ? { x: 500, y: 500 } : world.get(parent, 'position');
        const p = world.get(e, 'position');
        total += 1;
        if (p.x === Math.fround(base.x + radius * Math.cos(angle)) && p.y === Math.fround(base.y + radius * Math.sin(angle))) placed += 1;
      }
    }
    return { placed, total, panel: $('s-hierarchy').textContent };
  },
};
loop();
