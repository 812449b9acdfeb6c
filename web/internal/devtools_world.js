// The devtools panel's World section (web/devtools.js): entity count, memory, and each archetype
// with its components, relations and rows, from world.inspect().
// Thread rule: the page's main thread.

import { bytes, el, fillUnlessSame } from './devtools_dom.js';

export function renderWorld(section, world) {
  const inspected = world.inspect();
  const { entities, maxEntities, archetypes, memory } = inspected;
  archetypes.sort((a, b) => b.rows - a.rows);
  fillUnlessSame(section, JSON.stringify(inspected), () => [
    el('table', { class: 'summary' },
      el('tr', {}, el('th', {}, 'entities'), el('td', { class: 'n', 'data-stat': 'entities' }, entities.toLocaleString('en')),
        el('td', { class: 'muted' }, `of ${maxEntities.toLocaleString('en')}`)),
      el('tr', {}, el('th', {}, 'archetypes'), el('td', { class: 'n', 'data-stat': 'archetypes' }, archetypes.length)),
      el('tr', { title: 'what the rows of every archetype hold: their values and handles' },
        el('th', {}, 'tables'), el('td', { class: 'n' }, bytes(memory.tableBytes))),
      el('tr', { title: 'every byte the engine has allocated (tables, queues, buffers the page reads)' },
        el('th', {}, 'allocated'), el('td', { class: 'n', 'data-stat': 'allocated' }, bytes(memory.allocatedBytes))),
      el('tr', { title: 'the wasm memory, shared by the page and the workers' },
        el('th', {}, 'heap'), el('td', { class: 'n' }, bytes(memory.heapBytes)))),
    el('h3', {}, 'archetypes'),
    el('table', { class: 'archetypes' },
      el('tr', {}, el('th', {}, 'components'), el('th', { class: 'n' }, 'rows'), el('th', { class: 'n' }, 'bytes')),
      archetypes.map(({ components, relations, prefab, rows, bytes: size }) => el('tr', { class: 'archetype' },
        el('td', {},
          components.length === 0 && relations.length === 0 ? el('span', { class: 'muted' }, '(no components)') : null,
          components.map((name) => el('span', { class: 'pill' }, name)),
          relations.map((name) => el('span', { class: 'pill t', title: `rows with pairs of the relation ${name}` }, `(${name}, *)`)),
          prefab ? el('span', { class: 'pill muted' }, 'prefab') : null),
        el('td', { class: 'n' }, rows.toLocaleString('en')),
        el('td', { class: 'n' }, bytes(size)))))]);
}
