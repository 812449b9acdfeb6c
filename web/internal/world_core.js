// Internal to the JS layer: the state behind a public World (web/world.js), reached by other web/
// modules with internalsOf(world). It owns the raw Embind world (wasm/world_binding.hpp) and the
// component layouts JS caches, and makes every call into the raw world through the engine's
// stack-restoring call.
// Thread rule: the page's main thread.

import { describe, isPlainObject } from './checks.js';

// Typed arrays for homogeneous components (every field the same type).
export const VIEW_TYPES = {
  f32: Float32Array, f64: Float64Array, i8: Int8Array, i16: Int16Array, i32: Int32Array,
  u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, bool: Uint8Array, entity: Uint32Array,
};

// How a component's column is viewed from JS: a typed array with `stride` elements per entity
// (homogeneous components), or a DataView with `stride` bytes per entity (mixed field types).
function columnLayout(info) {
  if (info.tag) return null;
  const type = info.fields[0].type;
  const View = VIEW_TYPES[type];
  const homogeneous = info.fields.every((f) => f.type === type) &&
    info.size === info.fields.length * View.BYTES_PER_ELEMENT;
  const offsets = {};
  const types = {};
  for (const f of info.fields) {
    offsets[f.name] = homogeneous ? f.offset / View.BYTES_PER_ELEMENT : f.offset;
    types[f.name] = f.type;
  }
  return homogeneous
    ? { View, stride: info.size / View.BYTES_PER_ELEMENT, offsets, types }
    : { View: DataView, stride: info.size, offsets, types };
}

export class WorldCore {
  #raw;
  #components = new Map();  // name -> { info, layout }

  constructor(engine, raw) {
    this.engine = engine;
    this.#raw = raw;
  }

  get disposed() { return this.#raw === null; }

  /** The raw Embind world; throws naming `op` once the world was disposed. */
  raw(op) {
    if (this.#raw === null) throw new Error(`world.${op}: the world was disposed`);
    return this.#raw;
  }

  /** fn(rawWorld) through the stack-restoring call; engine errors get `world.<op>: ` in front. */
  call(op, fn) {
    const raw = this.raw(op);
    return this.engine.call(`world.${op}`, () => fn(raw));
  }

  /** { info, layout } of a component by name; throws naming `op` for an unknown name. */
  component(op, name) {
    if (typeof name !== 'string') throw new Error(`world.${op}: a component name must be a string, got ${describe(name)}`);
    let entry = this.#components.get(name);
    if (entry === undefined) {
      const known = this.call(op, (r) => r.componentNames());
      if (!known.includes(name)) {
        throw new Error(`world.${op}: unknown component '${name}' (defined: ${known.join(', ') || 'none'})`);
      }
      const info = this.call(op, (r) => r.componentInfo(name));
      entry = { info, layout: columnLayout(info) };
      this.#components.set(name, entry);
    }
    return entry;
  }

  /** A list of known component names (a single name is a list of one). */
  names(op, names, what = 'component names') {
    const list = typeof names === 'string' ? [names] : names;
    if (!Array.isArray(list)) throw new Error(`world.${op}: takes an array of ${what}, got ${describe(names)}`);
    for (const name of list) this.component(op, name);
    return list;
  }

  // Component values: an object of fields; with `wholeAllowed`, also true/undefined/null for
  // "default values" (spawn, add).
  checkValues(op, name, values, wholeAllowed) {
    const { info } = this.component(op, name);
    if (wholeAllowed && (values === undefined || values === null || values === true)) return;
    if (!isPlainObject(values)) {
      throw new Error(`world.${op}: '${name}' takes an object of field values${wholeAllowed ? ' (or true)' : ''}, got ${describe(values)}`);
    }
    for (const [field, value] of Object.entries(values)) {
      const desc = info.fields.find((f) => f.name === field);
      if (desc === undefined) {
        throw new Error(info.tag
          ? `world.${op}: '${name}' is a tag and has no field '${field}'`
          : `world.${op}: '${name}' has no field '${field}' (fields: ${info.fields.map((f) => f.name).join(', ')})`);
      }
      if (value === undefined) continue;
      const ok = desc.type === 'bool' ? typeof value === 'boolean' || value === 0 || value === 1
        : desc.type === 'entity' ? value === null || typeof value === 'number'
          : typeof value === 'number';
      if (!ok) {
        const wanted = desc.type === 'bool' ? 'true or false'
          : desc.type === 'entity' ? 'an entity handle (a number) or null' : 'a number';
        throw new Error(`world.${op}: field '${name}.${field}' is ${desc.type} and takes ${wanted}, got ${describe(value)}`);
      }
    }
  }

  /** Frees the raw world; later calls throw. Idempotent. */
  dispose() {
    if (this.#raw === null) return;
    this.#raw.setDiagnosticHandler(null);
    this.#raw.delete();
    this.#raw = null;
  }
}
