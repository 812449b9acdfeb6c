// The devtools panel's Plan section (web/devtools.js): each wave with its systems (what each
// reads, writes, publishes and consumes, which kernel runs it and on which thread, why it is in
// that wave), and where each wave ran in the last frame.
// Thread rule: the page's main thread.

import { el, fill, micros } from './devtools_dom.js';

const KINDS = { 'c++': 'C++ kernel', js: 'JS system', 'js-kernel': 'JS kernel' };

/** `frame`: scheduler.lastFrame(), or null before the first frame. */
export function renderPlan(section, scheduler, frame) {
  const waves = scheduler.describePlan();
  const ran = new Map((frame?.waves ?? []).map((w) => [w.wave, w]));
  fill(section, waves.length === 0 ? el('p', { class: 'muted' }, 'no systems') : null,
    waves.map((systems, index) => {
      const timing = ran.get(index);
      return el('div', { class: 'wave', 'data-wave': index },
        el('h3', {}, `wave ${index}`, el('span', { class: 'muted', 'data-role': 'placement' },
          timing === undefined ? ' (not run yet)'
            : ` ran ${timing.placement}, ${timing.batches} batch${timing.batches === 1 ? '' : 'es'}, ${micros(timing.endUs - timing.beginUs)}`)),
        el('table', {}, systems.map((system) => el('tr', { 'data-system': system.name, title: system.why },
          el('td', {}, el('b', {}, system.name), el('br'),
            el('span', { class: 'muted' }, system.kind === 'js-kernel' ? `JS kernel '${system.kernel}'` : KINDS[system.kind]),
            el('br'), el('span', { class: 'muted' }, system.thread === 'main' ? 'main thread' : 'workers')),
          el('td', {},
            terms('w', 'writes', system.writes), terms('r', 'reads', system.reads), terms('r', 'parent reads', system.parentReads),
            terms('r', 'looks up', system.lookups), terms('t', 'publishes', system.publishes), terms('t', 'consumes', system.consumes),
            system.cascade === null ? null : el('div', {}, el('span', { class: 'muted' }, 'cascade '), el('span', { class: 'pill t' }, system.cascade)),
            system.why === '' ? null : el('div', { class: 'muted' }, system.why))))));
    }));
}

function terms(kind, label, names) {
  if (names.length === 0) return null;
  return el('div', {}, el('span', { class: 'muted' }, `${label} `), names.map((name) => el('span', { class: `pill ${kind}` }, name)));
}
