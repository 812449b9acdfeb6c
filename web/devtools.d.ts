// Types of the devtools module, web/devtools.js ('ecsia-wasm/devtools'): a panel over a running
// world in the page. Thread rule for everything: the page's main thread.

import type { Entity, World } from './world.js';
import type { Scheduler } from './scheduler.js';

export interface DevtoolsOptions {
  world: World;
  /**
   * The scheduler running the world: the Plan and Timeline sections, pause and step need it, and
   * the shown values follow its frames. Without one (null or left out): World, Entities and
   * Diagnostics, drawn again a few times a second; the panel goes when the world is disposed.
   */
  scheduler?: Scheduler | null;
  /** Where the panel goes: an element or a shadow root (default document.body); it floats over the page's bottom right corner. */
  container?: Element | DocumentFragment;
  /** Frames the timeline shows, the newest last (1 to 120, default 8). */
  frames?: number;
  /** Start expanded (default true). */
  open?: boolean;
  /** The section shown first (default 'world'; 'plan' and 'timeline' need a scheduler). */
  tab?: DevtoolsSection;
  /**
   * true (the default): each frame and wave a performance.measure while attached, for the
   * browser's Performance panel (made a few frames at a time, outside the frames; see
   * Scheduler.userTiming). false leaves scheduler.userTiming as it was. The panel's "measures"
   * button toggles it too.
   */
  userTiming?: boolean;
}

export type DevtoolsSection = 'world' | 'entities' | 'plan' | 'timeline' | 'diagnostics';

/**
 * An attached panel. While attached, the scheduler records its timeline while the Timeline is
 * shown, and each frame and wave is a performance.measure unless options.userTiming is false or
 * the panel's "measures" button turned it off; detach() puts both back as they were. The panel detaches itself when
 * its scheduler is disposed (without a scheduler: its world).
 */
export interface Devtools {
  /** The panel's host element; its content is in an open shadow root. */
  readonly element: HTMLElement;
  /** Whether frames are held: an update() called meanwhile waits until step() or resume(). */
  readonly paused: boolean;
  /** The entity the Entities section shows, or null. */
  readonly selected: Entity | null;
  readonly detached: boolean;
  /** Holds the frames after the one running now (the page keeps running; update() waits). */
  pause(): void;
  /** While paused, lets one frame run (pauses first if it was not). */
  step(): void;
  resume(): void;
  /** Shows a section; throws once detached. */
  show(section: DevtoolsSection): void;
  /** Shows the entity in the Entities section. */
  select(entity: Entity): void;
  /** Removes the panel and its hooks; frames run as before. A second call does nothing. */
  detach(): void;
}

/**
 * Attaches a devtools panel: World (entities, archetypes, memory), Entities (find by handle or a
 * query typed in the panel; the selected entity's live values, edited in place with world.set's
 * checks; despawn), Plan (waves, systems, where each wave ran), Timeline (the last frames: a lane
 * per worker and one for the page's thread) and Diagnostics. One panel per scheduler at a time.
 */
export function attachDevtools(options: DevtoolsOptions): Devtools;
