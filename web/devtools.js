// ecsia-wasm/devtools: a panel over a running world, in the page.
//
//   import { attachDevtools } from 'ecsia-wasm/devtools'
//   const devtools = attachDevtools({ world, scheduler, container: document.body })
//   devtools.pause(); devtools.step(); devtools.resume()
//   devtools.detach()
//
// Sections: World (entities, memory, archetypes), Entities (find by handle or query; the selected
// entity's live values, edited in place; despawn), Plan (waves, systems, where each wave ran),
// Timeline (the last frames, a lane per worker and one for the page's thread), Diagnostics. While
// attached, each frame and wave is a performance.measure too (scheduler.userTiming, made a few
// frames at a time, outside the frames), so the browser's Performance panel shows them; the header's "measures"
// button (or the option userTiming: false) turns that off.
// Nothing of this runs without a panel attached: a scheduler then checks one field per frame.
// Thread rule: the page's main thread.

import { describe, isHandle, isPlainObject, knownKeys } from './internal/checks.js';
import { el, errorText, fill } from './internal/devtools_dom.js';
import { EntitiesSection } from './internal/devtools_entities.js';
import { renderPlan } from './internal/devtools_plan.js';
import { PANEL_STYLE } from './internal/devtools_style.js';
import { renderTimeline, TimelineRecord } from './internal/devtools_timeline.js';
import { recordsTimeline } from './internal/frame_record.js';
import { renderWorld } from './internal/devtools_world.js';
import { internalsOf } from './internal/engine.js';

const OPTIONS = ['world', 'scheduler', 'container', 'frames', 'open', 'tab', 'userTiming'];
const TABS = ['world', 'entities', 'plan', 'timeline', 'diagnostics'];
const SCHEDULER_TABS = ['plan', 'timeline'];  // only with a scheduler
const REFRESH_MS = 250;   // the World and Plan sections redraw at most this often
// The Timeline's bars move with every window drawn: once a second they can be read (pause holds
// them), and a redraw (a few ms of layout and paint) costs a quarter of what 4 a second would.
const TIMELINE_REFRESH_MS = 1000;
const refreshMs = (tab) => (tab === 'timeline' ? TIMELINE_REFRESH_MS : REFRESH_MS);
// While frames run, an interval draws the shown section every TICK_MS when a frame ended since:
// the selected entity's values at about the display's rate (on a canvas a worker owns), the rest
// when its refresh is due, and once more when frames stop (their last state drawn whole). A frame
// only counts itself. Nothing is scheduled from inside a running frame but the interval's start
// after an idle spell (a frame stepped while paused asks for its draw): a frame that runs once
// per display frame finds the browser's timer code cold, and a setTimeout there cost it 11% to
// 17% (35 to 50 µs of a 0.3 ms frame, measured in the page); an animation frame requested makes
// the browser run its rendering steps (about 3% of a busy page here). IDLE_TICKS without a frame
// stop the interval.
const TICK_MS = 16;
const IDLE_TICKS = 4;
const DIAGNOSTICS_KEPT = 500;

/**
 * Attaches a devtools panel to `world` (and `scheduler`, for the Plan and Timeline sections and
 * pause/step) inside `container` (default document.body). Options: frames (the timeline's frames,
 * default 8), open (start expanded, default true), tab (the section shown first, default 'world'),
 * userTiming (default true: each frame and wave a performance.measure while attached, for the
 * browser's Performance panel, made a few frames at a time, outside the frames; false leaves
 * scheduler.userTiming as it is; the panel's "measures" button turns them on and off).
 * One panel per scheduler at a time. Without a scheduler (null or left out) the panel has World,
 * Entities and Diagnostics, drawn again a few times a second, and goes when the world is disposed.
 */
export function attachDevtools(options) {
  if (!isPlainObject(options)) throw new Error(`attachDevtools: takes { world, scheduler, container }, got ${describe(options)}`);
  knownKeys('attachDevtools', options, OPTIONS);
  const { world, scheduler = null } = options;
  internalsOf(world, 'world');
  if (scheduler !== null) internalsOf(scheduler, 'scheduler');
  if (world.disposed) throw new Error('attachDevtools: options.world was disposed');
  if (scheduler !== null && scheduler.disposed) throw new Error('attachDevtools: options.scheduler was disposed');
  const container = options.container ?? globalThis.document?.body;
  // An element (or a shadow root): a text or comment node is a Node that holds no children.
  if (!(typeof Element === 'function' && (container instanceof Element || container instanceof DocumentFragment))) {
    throw new Error(`attachDevtools: options.container must be a DOM element (default document.body), got ${describe(container)}`);
  }
  const frames = options.frames ?? 8;
  if (!Number.isInteger(frames) || frames < 1 || frames > 120) throw new Error(`attachDevtools: options.frames must be a whole number from 1 to 120, got ${describe(frames)}`);
  if (scheduler !== null && internalsOf(scheduler, 'scheduler').world !== internalsOf(world, 'world')) {
    throw new Error('attachDevtools: options.scheduler runs another world than options.world');
  }
  const tab = options.tab ?? 'world';
  if (!TABS.includes(tab)) throw new Error(`attachDevtools: options.tab must be one of ${TABS.join(', ')}, got ${describe(tab)}`);
  if (scheduler === null && SCHEDULER_TABS.includes(tab)) {
    throw new Error(`attachDevtools: options.tab '${tab}' needs options.scheduler (the Plan and Timeline sections show a scheduler's frames)`);
  }
  const open = options.open ?? true;
  if (typeof open !== 'boolean') throw new Error(`attachDevtools: options.open must be true or false, got ${describe(open)}`);
  const userTiming = options.userTiming ?? true;
  if (typeof userTiming !== 'boolean') throw new Error(`attachDevtools: options.userTiming must be true or false, got ${describe(userTiming)}`);
  return new Devtools(world, scheduler, container, { frames, tab, open, userTiming });
}

class Devtools {
  #world;
  #scheduler;
  #host;
  #panel;
  #sections = {};
  #tabs = {};
  #tab;
  #entities;
  #timeline;
  #tooltip;
  #measures = null;       // the header's User Timing toggle (with a scheduler)
  #measuresShown = false; // what it shows: scheduler.userTiming as last seen
  #restore = [];          // what detach() puts back
  #redraw = 0;            // the requestAnimationFrame of a redraw asked for between frames, or 0
  #redrawTask = 0;        // then the task it runs in (setTimeout), or 0
  #drawnAt = -Infinity;   // when the shown section was last drawn whole
  #ticker = 0;            // the interval that draws while frames run, or 0
  #framesSinceTick = 0;   // frames ended since its last tick
  #idleTicks = 0;         // its ticks in a row that found no new frame
  #stale = false;         // the shown section's last draw was of the values only, not whole
  #collapsed = false;
  #paused = false;
  #steps = 0;             // frames step() let through while paused
  #gate = null;           // { promise, open }: what a paused update() awaits
  #inFrame = false;
  #pending = [];          // world changes asked for during a frame: [change, resolve, reject]
  #diagnostics;
  #unseen = 0;
  #detached = false;
  #recordedBefore = false;  // scheduler.recordTimeline as the panel found it
  // The Timeline shows consecutive frames recorded in windows: a window records the next
  // `frames` frames, then they are drawn and recording stops until the next redraw is due (or
  // while paused, when every stepped frame is recorded). Recording costs a clock reading per
  // batch, so frames outside the windows run without it.
  #window = 'closed';     // 'recording': frames are being kept; 'full': kept, not drawn yet; 'closed'
  #windowFrames = 0;      // frames kept in the recording window

  constructor(world, scheduler, container, { frames, tab, open, userTiming: timed }) {
    this.#world = world;
    this.#scheduler = scheduler;
    this.#timeline = new TimelineRecord(frames);
    this.#host = el('div', { class: 'ecsia-devtools' });
    const shadow = this.#host.attachShadow({ mode: 'open' });
    const style = el('style', {}, PANEL_STYLE);
    this.#tooltip = el('div', { class: 'tooltip', hidden: true });
    const tabs = TABS.filter((name) => scheduler !== null || !SCHEDULER_TABS.includes(name));
    for (const name of tabs) {
      this.#tabs[name] = el('button', { role: 'tab', 'data-tab': name, onclick: () => this.show(name) }, name);
      this.#sections[name] = el('section', { 'data-section': name, hidden: true });
    }
    const controls = scheduler === null ? [] : [
      el('button', { 'data-action': 'pause', onclick: () => this.pause() }, 'pause'),
      el('button', { 'data-action': 'step', onclick: () => this.step() }, 'step'),
      el('button', { 'data-action': 'resume', onclick: () => this.resume() }, 'resume'),
      this.#measures = el('button', {
        'data-action': 'measures', title: 'each frame and wave a performance.measure, for the browser\'s Performance panel (made a few frames at a time, outside the frames)',
        onclick: () => this.#toggleMeasures(),
      }, 'measures'),
    ];
    this.#collapsed = !open;
    this.#panel = el('div', { class: `panel${open ? '' : ' collapsed'}`, 'data-role': 'devtools' },
      el('header', {}, el('span', { class: 'title' }, 'ecsia devtools'), Object.values(this.#tabs), el('span', { class: 'spacer' }), controls,
        el('button', { 'data-action': 'collapse', title: 'collapse or expand', onclick: () => this.#toggle() }, '▾'),
        el('button', { 'data-action': 'detach', title: 'close the devtools', onclick: () => this.detach() }, '✕')),
      el('div', { class: 'body' }, Object.values(this.#sections)));
    shadow.append(style, this.#panel, this.#tooltip);
    this.#entities = new EntitiesSection(this.#sections.entities, world, (change) => this.#applyBetweenFrames(change));
    this.#restore.push(() => this.#entities.dispose());
    this.#diagnostics = el('div', { 'data-role': 'diagnostics' });
    fill(this.#sections.diagnostics, el('p', { class: 'muted' }, 'the engine\'s diagnostics, as they arrive'), this.#diagnostics);

    // The scheduler's hooks first: a second panel on it is refused before anything is watched.
    if (scheduler !== null) {
      const internals = internalsOf(scheduler, 'scheduler');
      internals.observeFrames({
        beforeFrame: () => this.#beforeFrame(),
        afterFrame: (frame) => this.#afterFrame(frame),
        // A paused update() must end when its scheduler goes.
        disposed: () => this.detach(),
      });
      const { recordTimeline, userTiming } = scheduler;
      this.#recordedBefore = recordTimeline;
      if (timed) scheduler.userTiming = true;
      this.#showMeasures();
      this.#restore.push(() => {
        internals.observeFrames(null);
        if (scheduler.disposed) return;
        scheduler.recordTimeline = recordTimeline;
        scheduler.userTiming = userTiming;
      });
    }
    const engine = internalsOf(world, 'world').engine;
    this.#restore.push(engine.watchDiagnostics((message) => this.#diagnostic(message)));
    if (scheduler === null) {
      // No frames to follow: the shown section is drawn again every REFRESH_MS (reads are allowed
      // while another scheduler's wave runs), and the panel goes with its world.
      const refresh = setInterval(() => {
        if (world.disposed) this.detach();
        else this.#draw();
      }, REFRESH_MS);
      this.#restore.push(() => clearInterval(refresh));
    }
    container.append(this.#host);
    this.show(tab);
  }

  /** The panel's host element (its content is in an open shadow root). */
  get element() { return this.#host; }
  /** Whether frames are held: a scheduler.update() called meanwhile waits until step() or resume(). */
  get paused() { return this.#paused; }
  /** The entity the Entities section shows, or null. */
  get selected() { return this.#entities.selected; }
  get detached() { return this.#detached; }

  /** Holds the frames after the one running now: update() waits (the page keeps running). */
  pause() {
    if (this.#detached) return;
    this.#paused = true;
    this.#steps = 0;
    this.#recordWhenShown();
    this.#drawSoon();
  }

  /** While paused, lets one frame run (and waits again after it). */
  step() {
    if (!this.#paused) this.pause();
    this.#steps += 1;
    this.#openGate();
  }

  resume() {
    if (this.#detached) return;
    this.#paused = false;
    this.#openGate();
    this.#recordWhenShown();
    this.#drawSoon();
  }

  /** Shows a section: 'world', 'entities', 'plan', 'timeline' or 'diagnostics'. */
  show(tab) {
    if (this.#detached) throw new Error('devtools.show: the devtools were detached');
    if (this.#tabs[tab] === undefined) throw new Error(`devtools.show: no section '${tab}' (sections: ${Object.keys(this.#tabs).join(', ')})`);
    // Frames recorded before the Timeline was last shown would leave a gap: it starts afresh
    // (unless paused, when what it holds is what is being looked at).
    if (tab === 'timeline' && this.#tab !== 'timeline' && !this.#paused) {
      this.#timeline.clear();
      this.#openWindow();
    }
    this.#tab = tab;
    for (const [name, button] of Object.entries(this.#tabs)) {
      button.setAttribute('aria-selected', String(name === tab));
      this.#sections[name].hidden = name !== tab;
    }
    if (tab === 'diagnostics') this.#setUnseen(0);
    this.#tooltip.hidden = true;  // its bar is gone with the section; a hover shows it again
    this.#recordWhenShown();
    this.#drawSoon();
  }

  /** Shows `entity` in the Entities section (a handle; a dead one shows as not alive). */
  select(entity) {
    if (!isHandle(entity)) throw new Error(`devtools.select: ${describe(entity)} is not an entity handle; the selection is unchanged`);
    this.show('entities');
    this.#entities.select(entity);
  }

  /** Removes the panel and every hook; frames run as before it was attached. A second call does nothing. */
  detach() {
    if (this.#detached) return;
    this.#detached = true;
    this.#paused = false;
    this.#openGate();
    cancelAnimationFrame(this.#redraw);
    clearTimeout(this.#redrawTask);
    this.#stopTicker();
    for (const undo of this.#restore) {
      try {
        undo();
      } catch {
        // A scheduler or world disposed meanwhile: nothing of it is left to put back.
      }
    }
    for (const [, , reject] of this.#pending.splice(0)) reject(new Error('devtools: detached before the change was made'));
    this.#host.remove();
  }

  // ---- the scheduler's hooks (Scheduler.update)

  #beforeFrame() {
    if (this.#paused && this.#steps === 0) {
      this.#gate ??= (() => { let open; const promise = new Promise((resolve) => { open = resolve; }); return { promise, open }; })();
      return this.#gate.promise.then(() => this.#beforeFrame());
    }
    if (this.#paused) this.#steps -= 1;
    if (this.#pending.length > 0) this.#flushPending();
    this.#inFrame = true;
    return undefined;
  }

  // Every frame: the Timeline keeps a copy of its record (decoded only when drawn) while shown;
  // the ticker draws after it (a stepped frame at the next animation frame).
  #afterFrame(frame) {
    if (this.#detached) return;
    this.#inFrame = false;
    // The page may set scheduler.userTiming itself (also while the panel is collapsed or paused).
    if (this.#scheduler.userTiming !== this.#measuresShown) this.#showMeasures();
    if (this.#pending.length > 0) this.#flushPending();
    if (this.#tab === 'timeline') this.#keep(frame);
    if (this.#collapsed || this.#tab === 'diagnostics') return;  // its messages are appended as they arrive
    if (this.#paused) {
      this.#drawSoon();
      return;
    }
    this.#framesSinceTick += 1;
    if (this.#ticker === 0) this.#ticker = setInterval(this.#onTick, TICK_MS);
  }

  // ---- the Timeline's recording windows

  // Recording batch timings costs every frame a clock reading per batch: only for the frames the
  // Timeline will show (or always, if the page had asked for it before the panel came).
  #recordWhenShown() {
    if (this.#scheduler === null || this.#scheduler.disposed) return;
    const shown = this.#tab === 'timeline' && (this.#paused || this.#window === 'recording');
    this.#scheduler.recordTimeline = this.#recordedBefore || shown;
  }

  #openWindow() {
    this.#window = 'recording';
    this.#windowFrames = 0;
    this.#recordWhenShown();
  }

  // A frame over while the Timeline is shown. Recording applies from a frame's start, so a frame
  // without batch timings (recording was just turned on) is not kept; a failed frame is (its
  // time, marked failed).
  #keep(frame) {
    if (!(this.#paused || this.#recordedBefore || this.#window === 'recording')) return;  // before the record is asked for
    const record = frame.record;
    if (record !== null && !recordsTimeline(record)) return;
    this.#timeline.record(frame);
    if (this.#window === 'recording' && (this.#windowFrames += 1) >= this.#timeline.capacity) {
      this.#window = 'full';  // drawn at the next tick
      this.#recordWhenShown();
    }
  }

  #openGate() {
    const gate = this.#gate;
    this.#gate = null;
    gate?.open();
  }

  // World changes the panel makes (an edited value, a despawn) happen between frames: now, or
  // once the running frame is over.
  #applyBetweenFrames(change) {
    if (this.#detached) return Promise.reject(new Error('devtools: detached'));
    return new Promise((resolve, reject) => {
      this.#pending.push([change, resolve, reject]);
      if (!this.#inFrame) this.#flushPending();
    }).finally(() => this.#drawSoon());
  }

  #flushPending() {
    for (const [change, resolve, reject] of this.#pending.splice(0)) {
      try {
        resolve(change());
      } catch (error) {
        reject(error);
      }
    }
  }

  // ---- drawing

  // A whole draw at the next animation frame, for what happens between frames (a tab shown, a
  // pause, an edit), in a task of its own after the animation frame: not in the rendering turn
  // where the page's own frame (a game's update() in its requestAnimationFrame) runs.
  #drawSoon() {
    this.#drawnAt = -Infinity;
    if (this.#detached || this.#redraw !== 0 || this.#redrawTask !== 0) return;
    this.#redraw = requestAnimationFrame(this.#onAnimationFrame);
  }

  // Made once: every change between frames asks for them.
  #onAnimationFrame = () => {
    this.#redraw = 0;
    this.#redrawTask = setTimeout(this.#onRedrawTask, 0);
  };

  #onRedrawTask = () => {
    this.#redrawTask = 0;
    this.#draw();
  };

  // Draws when a frame ended since the last tick and none is running; stops after IDLE_TICKS
  // without one (the next frame starts it again), drawing the section whole first if the frames'
  // last state is not (World, Plan and the entity list redraw only when their refresh is due).
  #onTick = () => {
    if (this.#inFrame) return;
    if (this.#framesSinceTick === 0) {
      if ((this.#idleTicks += 1) < IDLE_TICKS) return;
      this.#stopTicker();
      if (this.#stale) {
        this.#drawnAt = -Infinity;
        this.#draw();
      }
      return;
    }
    this.#framesSinceTick = 0;
    this.#idleTicks = 0;
    this.#draw();
  };

  #stopTicker() {
    clearInterval(this.#ticker);
    this.#ticker = 0;
    this.#framesSinceTick = 0;
    this.#idleTicks = 0;
  }

  // Between frames only: what the panel reads (values, archetypes, the allocator's count) is the
  // serial phase's; the ticker (or a change between frames) asks for it.
  #draw() {
    if (this.#collapsed || this.#inFrame) return;
    const section = this.#sections[this.#tab];
    // The selected entity's values follow every frame; the rest is redrawn a few times a second.
    if (this.#tab === 'diagnostics') return;  // its messages are appended as they arrive
    // A full Timeline window is drawn at once; the next opens when its refresh is due.
    const due = performance.now() - this.#drawnAt >= refreshMs(this.#tab) || (this.#tab === 'timeline' && this.#window === 'full');
    if (due) this.#drawnAt = performance.now();
    this.#stale = !due;
    try {
      if (this.#tab === 'entities' && !due) this.#entities.renderSelected();
      else if (!due) return;
      else if (this.#tab === 'world') renderWorld(section, this.#world);
      else if (this.#tab === 'entities') this.#entities.render();
      else if (this.#tab === 'plan') renderPlan(section, this.#scheduler, this.#scheduler.lastFrame());
      else if (this.#tab === 'timeline') this.#drawTimeline(section);
    } catch (error) {
      // The world or scheduler was disposed, most likely: say so where the section was.
      if (this.#tab === 'entities') this.#entities.showError(error);
      else fill(section, el('p', { class: 'error' }, errorText(error)));
    }
  }

  // A full window is drawn (not under the pointer: the bar being read stays where it is); once
  // drawn, the next redraw opens a new window instead. Paused, what is kept is drawn; with nothing
  // kept yet (the Timeline just shown), that it is recording.
  #drawTimeline(section) {
    if (!this.#tooltip.hidden) return;
    const full = this.#window === 'full';
    if (this.#paused || full || this.#timeline.empty) {
      renderTimeline(section, this.#timeline, this.#tooltip, { latest: this.#scheduler.frames, paused: this.#paused });
    }
    if (full) this.#window = 'closed';
    else if (this.#window === 'closed' && !this.#paused) this.#openWindow();
  }

  #toggle() {
    this.#collapsed = this.#panel.classList.toggle('collapsed');
    this.#drawSoon();
  }

  #toggleMeasures() {
    if (this.#detached || this.#scheduler.disposed) return;
    this.#scheduler.userTiming = !this.#scheduler.userTiming;
    this.#showMeasures();
  }

  // The button says what the scheduler does.
  #showMeasures() {
    this.#measuresShown = this.#scheduler.userTiming;
    this.#measures.setAttribute('aria-pressed', String(this.#measuresShown));
  }

  #diagnostic(message) {
    if (this.#detached) return;
    const frame = this.#scheduler !== null && !this.#scheduler.disposed ? ` frame ${this.#scheduler.frames}` : '';
    this.#diagnostics.append(el('div', { class: 'diagnostic' }, el('span', { class: 'muted' }, `${new Date().toLocaleTimeString()}${frame} `), message));
    while (this.#diagnostics.childElementCount > DIAGNOSTICS_KEPT) this.#diagnostics.firstElementChild.remove();
    if (this.#tab !== 'diagnostics') this.#setUnseen(this.#unseen + 1);
  }

  #setUnseen(count) {
    this.#unseen = count;
    const button = this.#tabs.diagnostics;
    button.querySelector('.badge')?.remove();
    if (count > 0) button.append(el('span', { class: 'badge', 'data-role': 'unseen' }, count));
  }
}
