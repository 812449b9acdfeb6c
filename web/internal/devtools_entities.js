// The devtools panel's Entities section (web/devtools.js): find entities by handle or by a query
// typed in the panel, see the selected one's components with their values as each frame leaves
// them, edit a value in place (checked like world.set: a bad value shows the error and changes
// nothing), follow its pairs, despawn it. The values are drawn on a canvas behind their inputs
// (devtools_values.js), so that following the frames costs the page no rendering step; an input
// shows text while it is being edited, and says what the canvas shows in data-value.
// Thread rule: the page's main thread.

import { el, errorText, fill } from './devtools_dom.js';
import { ValueCanvas } from './devtools_values.js';
import { internalsOf } from './engine.js';

const LISTED = 200;  // entities the list shows of a query's match
const TERMS = ['with', 'without', 'optional', 'changed', 'added'];

/**
 * The panel's query text as a world.query spec: `with a b without c changed d added e optional
 * f`, `pair ChildOf 12`, `withoutPair Targets *`, `prefabs` (names split by spaces or commas; a
 * list before any keyword is `with`). Throws naming what it cannot read.
 */
export function parseQuery(text) {
  const tokens = text.split(/[\s,]+/).filter((t) => t !== '');
  const spec = {};
  let term = 'with';
  for (let i = 0; i < tokens.length; ++i) {
    const token = tokens[i];
    if (TERMS.includes(token)) {
      term = token;
    } else if (token === 'pair' || token === 'withoutPair') {
      const [relation, target] = [tokens[i + 1], tokens[i + 2]];
      if (relation === undefined || target === undefined) throw new Error(`'${token}' takes a relation and a target ('*' or a handle), e.g. ${token} ChildOf *`);
      const to = target === '*' ? '*' : Number(target.replace(/^#/, ''));
      if (to !== '*' && !Number.isInteger(to)) throw new Error(`'${token} ${relation} ${target}': the target is '*' or an entity handle`);
      const key = token === 'pair' ? 'pairs' : 'withoutPairs';
      (spec[key] ??= []).push([relation, to]);
      i += 2;
    } else if (token === 'prefabs') {
      spec.prefabs = true;
    } else {
      (spec[term] ??= []).push(token);
    }
  }
  return spec;
}

export class EntitiesSection {
  #world;
  #apply;          // (change) => Promise: runs a world change between frames (Devtools.#applyBetweenFrames)
  #root;
  #find;
  #status;
  #list;
  #detail;
  #queryText = null;
  #query = null;
  #matches = [];
  #listed = '';          // the matches the list shows, as a key
  #selected = null;
  #shownSignature = '';  // the selected entity's components and pairs, as last laid out
  #inputs = [];          // [{ input, component, field, f32, value, text }] of the selected entity's values (value, text: as last shown)
  #values = null;        // the ValueCanvas the texts are drawn on (made with the first layout)
  #box = null;           // the element the value inputs and the canvas share (position: relative)
  #cellsKnown = false;   // the canvas knows where the inputs are (false: measure them at the next draw)
  #resized = new ResizeObserver(() => {
    this.#cellsKnown = false;
    this.#drawShown();
  });

  constructor(root, world, applyBetweenFrames) {
    this.#world = world;
    this.#apply = applyBetweenFrames;
    this.#root = root;
    this.#find = el('input', {
      class: 'find', 'data-role': 'find', spellcheck: 'false',
      placeholder: '#handle, or a query: with position velocity without dead changed position pair ChildOf *',
      onkeydown: (event) => { if (event.key === 'Enter') this.#search(); },
    });
    this.#status = el('div', { class: 'muted', 'data-role': 'status' });
    this.#list = el('div', { class: 'list', 'data-role': 'list' });
    this.#detail = el('div', { 'data-role': 'detail' }, el('p', { class: 'muted' }, 'select an entity'));
    fill(root, el('div', {}, this.#find, ' ', el('button', { onclick: () => this.#search() }, 'find')), this.#status,
      el('div', { class: 'entities' }, this.#list, this.#detail));
  }

  /** The selected entity's handle, or null. */
  get selected() { return this.#selected; }

  /** Stops the canvas's worker (the panel is detached). */
  dispose() {
    this.#resized.disconnect();
    this.#values?.dispose();
  }

  select(handle) {
    this.#selected = handle;
    this.#shownSignature = '';
    this.render();
  }

  /** Runs the query again (the list changes only if its matches did), then renderSelected(). */
  render() {
    if (this.#query !== null) this.#matches = this.#run(this.#query);
    this.#renderList();
    this.renderSelected();
  }

  showError(error) {
    this.#status.classList.add('error');
    this.#status.textContent = errorText(error);
  }

  #search() {
    const text = this.#find.value.trim();
    this.#status.classList.remove('error');
    try {
      if (/^#?\d+$/.test(text)) {
        const handle = Number(text.replace('#', ''));
        this.#query = null;
        this.#matches = this.#world.isAlive(handle) ? [handle] : [];
        this.#status.textContent = this.#matches.length === 1 ? '' : `#${handle} is not alive`;
        if (this.#matches.length === 1) this.select(handle);
        else this.#renderList();
        return;
      }
      if (text !== this.#queryText) {
        this.#query = this.#world.query(parseQuery(text));
        this.#queryText = text;
      }
      this.render();
    } catch (error) {
      this.#query = null;
      this.#queryText = null;
      this.#matches = [];
      this.showError(error);
      this.#renderList();
    }
  }

  // The first LISTED entities the query matches (a changed or added query: since its last run).
  #run(query) {
    const found = [];
    let total = 0;
    for (const chunk of query.chunks()) {
      total += chunk.count;
      for (let i = 0; i < chunk.count && found.length < LISTED; ++i) found.push(chunk.entities[i]);
    }
    this.#status.textContent = `${total.toLocaleString('en')} match${total === 1 ? '' : 'es'}${total > LISTED ? `, the first ${LISTED} listed` : ''}`;
    return found;
  }

  #renderList() {
    const key = `${this.#selected}:${this.#matches.join(',')}`;
    if (key === this.#listed) return;
    this.#listed = key;
    fill(this.#list, this.#matches.map((handle) => el('button', {
      'data-entity': handle, 'aria-selected': String(handle === this.#selected), onclick: () => this.select(handle),
    }, `#${handle}`)));
  }

  /** The selected entity's values as the last frame left them (its layout, if its components changed). */
  renderSelected() {
    const handle = this.#selected;
    if (handle === null) return;
    const world = this.#world;
    if (!world.isAlive(handle)) {
      this.#inputs = [];
      this.#shownSignature = '';
      fill(this.#detail, el('p', { class: 'muted', 'data-role': 'gone' }, `#${handle} is not alive (despawned)`));
      return;
    }
    const components = world.componentsOf(handle);
    const pairs = world.pairsOf(handle);
    const signature = JSON.stringify([components, pairs]);
    if (signature !== this.#shownSignature) this.#layOut(handle, components, pairs, signature);
    // Values as this frame left them, drawn on the canvas. Only a checkbox is DOM that changes
    // with the values.
    const focused = this.#root.getRootNode().activeElement;
    let component = null;
    let values = null;
    for (const shown of this.#inputs) {
      const { input } = shown;
      if (shown.component !== component) {
        component = shown.component;
        values = world.get(handle, component);
      }
      const value = values[shown.field];
      if (input.type === 'checkbox') {
        if (input !== focused && input.checked !== value) input.checked = value;
        continue;
      }
      if (value === shown.value && shown.text !== null) continue;
      shown.value = value;
      const text = value === null ? 'null' : shown.f32 ? f32Text(value) : String(value);
      if (text !== shown.text) {
        input.dataset.value = text;
        shown.text = text;
      }
    }
    this.#drawShown();
  }

  // The values last read, drawn (again, after a resize or an edit, without reading the world);
  // the cell of the input being edited is left empty: the input shows what the user types.
  #drawShown() {
    if (this.#values === null || (!this.#cellsKnown && !this.#measureCells())) return;
    const focused = this.#root.getRootNode().activeElement;
    const texts = [];
    for (const { input, text } of this.#inputs) if (input.type !== 'checkbox') texts.push(input === focused ? null : text);
    this.#values.draw(texts);
  }

  // Where each value input is inside the box, for the canvas (a layout of the page, once per
  // layout of the section, or after the box changed size). False while the box is hidden.
  #measureCells() {
    const box = this.#box;
    const outer = box?.getBoundingClientRect();
    if (outer === undefined || outer.width === 0) return false;
    this.#cellsKnown = true;
    const fields = this.#inputs.filter(({ input }) => input.type !== 'checkbox');
    const style = fields.length > 0 ? getComputedStyle(fields[0].input) : null;
    const inset = style === null ? 0 : parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth);
    const cells = fields.map(({ input }) => {
      const r = input.getBoundingClientRect();
      return [r.left - outer.left + inset, r.top - outer.top, r.width - 2 * inset, r.height];
    });
    const font = style === null ? '12px monospace' : `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    this.#values.layOut(outer.width, outer.height, font, getComputedStyle(box).color, cells);
    return true;
  }

  #layOut(handle, components, pairs, signature) {
    const world = this.#world;
    this.#shownSignature = signature;
    this.#inputs = [];
    const error = el('div', { class: 'error', 'data-role': 'error' });
    const blocks = components.map((component) => {
      const fields = Object.keys(world.get(handle, component));
      return el('div', { class: 'component', 'data-component': component },
        el('span', { class: 'name' }, component), fields.length === 0 ? el('span', { class: 'muted' }, ' (tag)') : null,
        el('table', {}, fields.map((field) => el('tr', {}, el('th', {}, field), el('td', {}, this.#valueInput(handle, component, field, error))))));
    });
    const pairList = pairs.map(([relation, target]) => el('div', { class: 'pair', 'data-pair': relation },
      el('span', { class: 'pill t' }, relation), ' → ',
      el('button', { 'data-entity': target, onclick: () => this.select(target) }, `#${target}`)));
    const despawn = el('button', {
      'data-role': 'despawn',
      onclick: () => this.#apply(() => world.despawn(handle)).then(() => this.render(), (e) => { error.textContent = errorText(e); }),
    }, 'despawn');
    // One canvas for the section's life (its worker draws it), moved into each new layout.
    this.#values ??= new ValueCanvas(el('canvas', { class: 'values', 'aria-hidden': 'true' }));
    this.#resized.disconnect();
    this.#box = el('div', { class: 'value-box' }, this.#values.element, blocks);
    this.#resized.observe(this.#box);
    this.#cellsKnown = false;
    fill(this.#detail, el('h3', { 'data-role': 'selected' }, `entity #${handle}`), error, this.#box,
      pairs.length > 0 ? [el('h3', {}, 'pairs'), pairList] : null, el('p', {}, despawn));
  }

  // An input for one field; a change is written with world.set between frames, and refused
  // values (world.set's own checks) show its error with the world unchanged.
  #valueInput(handle, component, field, error) {
    const value = this.#world.get(handle, component)[field];
    const input = typeof value === 'boolean'
      ? el('input', { type: 'checkbox', 'data-field': `${component}.${field}` })
      : el('input', { class: 'value', 'data-field': `${component}.${field}`, spellcheck: 'false' });
    const f32 = internalsOf(this.#world, 'world').component('devtools', component).byName[field]?.type === 'f32';
    // value and text: the value last shown, and how (an f32 field's as f32Text writes it)
    const shown = { input, component, field, f32, value: undefined, text: null };
    // Being edited, the input holds the value as text (the canvas leaves its cell empty meanwhile);
    // left, it is empty again and the canvas shows the world's value.
    if (input.type !== 'checkbox') {
      input.addEventListener('focus', () => {
        input.value = shown.text ?? '';
        input.select();  // what is typed replaces the value
      });
      input.addEventListener('blur', () => {
        input.value = '';
        this.#drawShown();
      });
    }
    input.addEventListener('change', () => {
      const typed = input.type === 'checkbox' ? input.checked : parseValue(input.value);
      this.#apply(() => this.#world.set(handle, component, { [field]: typed })).then(
        () => { error.textContent = ''; },
        (e) => { error.textContent = errorText(e); });
      input.blur();
    });
    this.#inputs.push(shown);
    return input;
  }
}

/**
 * An f32 field's value as the shortest decimal that reads back as the same f32: what a user would
 * have typed, where String() of the value (a double) writes every binary digit of the f32
 * (0.1 stored as f32 is 0.10000000149011612). A finite value typed back sets the same value.
 */
export function f32Text(value) {
  if (Object.is(value, -0)) return '-0';
  if (!Number.isFinite(value) || (Number.isInteger(value) && Math.abs(value) < 2 ** 24)) return String(value);
  for (let digits = 1; digits < 9; digits += 1) {
    // The nearest decimal of this many digits, then its neighbours: above a power of two the
    // values that read back as it reach twice as far as below, so the nearest may miss where
    // the one above it does not (2 ** 87: 1.5474251e+26).
    const [mantissa, exponent] = value.toExponential(digits - 1).split('e');
    const nearest = Number(mantissa.replace('.', ''));
    for (const candidate of [nearest, nearest + 1, nearest - 1]) {
      const text = String(Number(`${candidate}e${Number(exponent) - (digits - 1)}`));
      if (Math.fround(Number(text)) === value) return text;
    }
  }
  return String(Number(value.toPrecision(9)));  // 9 significant digits tell any two f32 apart
}

// What the user typed as the value world.set gets: 'null' (an entity field's no-entity), a
// number, or the text itself (world.set then says what it expected).
function parseValue(text) {
  const trimmed = text.trim();
  if (trimmed === 'null') return null;
  const number = Number(trimmed);
  return trimmed !== '' && !Number.isNaN(number) ? number : trimmed;
}
