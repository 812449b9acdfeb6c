// Internal to the JS layer: the state behind a public World (web/world.js), reached by other web/
// modules with internalsOf(world). It owns the raw Embind world (wasm/world_binding.hpp), the
// component layouts JS caches, and the value encoding: values are checked here once (G5) and
// written, encoded as the columns store them, into the world's scratch area in the wasm heap;
// the fast C exports (wasm/world_fast.cpp) then take only numbers. When a fast export says
// "could not", the same operation goes through the Embind method, which throws the worded error.
// Thread rule: the page's main thread.

import { describe, isPlainObject } from './checks.js';

// Typed arrays for homogeneous components (every field the same type).
export const VIEW_TYPES = {
  f32: Float32Array, f64: Float64Array, i8: Int8Array, i16: Int16Array, i32: Int32Array,
  u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, bool: Uint8Array, entity: Uint32Array,
};

const F32_MAX = 3.4028234663852886e38;
const NULL_BITS = 0xffffffff;
// Whole-number field types: [lowest, highest].
const INTEGER_RANGE = {
  i8: [-128, 127], i16: [-32768, 32767], i32: [-2147483648, 2147483647],
  u8: [0, 255], u16: [0, 65535], u32: [0, 4294967295],
};

const align8 = (n) => (n + 7) & ~7;

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

/**
 * Checks one field value and returns the number to store. NaN is an error in every field;
 * Infinity is a value of f32 and f64; integers must be whole and in range; bool takes
 * true/false/0/1; entity takes a handle or null.
 */
export function checkField(op, component, field, value) {
  const type = field.type;
  if (type === 'f32' || type === 'f64') {
    if (typeof value === 'number' && value === value) {  // not NaN
      if (type === 'f32' && (value > F32_MAX || value < -F32_MAX) && value !== Infinity && value !== -Infinity) {
        throw new Error(`${op}: field '${component}.${field.name}' is f32 and cannot hold ${value} (beyond the f32 range; Infinity is allowed)`);
      }
      return value;
    }
    throw new Error(`${op}: field '${component}.${field.name}' is ${type} and takes a number (not NaN), got ${describe(value)}`);
  }
  if (type === 'bool') {
    if (value === true || value === 1) return 1;
    if (value === false || value === 0) return 0;
    throw new Error(`${op}: field '${component}.${field.name}' is bool and takes true or false, got ${describe(value)}`);
  }
  if (type === 'entity') {
    if (value === null) return NULL_BITS;
    if (Number.isInteger(value) && value >= 0 && value <= NULL_BITS) return value;
    throw new Error(`${op}: field '${component}.${field.name}' is entity and takes an entity handle (a number) or null, got ${describe(value)}`);
  }
  const [lo, hi] = INTEGER_RANGE[type];
  if (Number.isInteger(value) && value >= lo && value <= hi) return value;
  throw new Error(`${op}: field '${component}.${field.name}' is ${type} and takes a whole number from ${lo} to ${hi}, got ${describe(value)}`);
}

// Stores a checked value (little-endian, as wasm lays it out).
export function storeField(dv, address, type, value) {
  switch (type) {
    case 'f32': dv.setFloat32(address, value, true); return;
    case 'f64': dv.setFloat64(address, value, true); return;
    case 'i8': dv.setInt8(address, value); return;
    case 'u8': case 'bool': dv.setUint8(address, value); return;
    case 'i16': dv.setInt16(address, value, true); return;
    case 'u16': dv.setUint16(address, value, true); return;
    case 'i32': dv.setInt32(address, value, true); return;
    default: dv.setUint32(address, value, true);  // u32, entity
  }
}

function loadField(dv, address, type) {
  switch (type) {
    case 'f32': return dv.getFloat32(address, true);
    case 'f64': return dv.getFloat64(address, true);
    case 'i8': return dv.getInt8(address);
    case 'u8': return dv.getUint8(address);
    case 'bool': return dv.getUint8(address) !== 0;
    case 'i16': return dv.getInt16(address, true);
    case 'u16': return dv.getUint16(address, true);
    case 'i32': return dv.getInt32(address, true);
    case 'entity': { const bits = dv.getUint32(address, true); return bits === NULL_BITS ? null : bits; }
    default: return dv.getUint32(address, true);
  }
}

// One component as JS sees it: layout, field lookup, default element bytes.
function componentEntry(info) {
  const fields = info.fields.map((f, index) => ({ ...f, index }));
  const byName = Object.create(null);
  for (const f of fields) byName[f.name] = f;
  // The per-entity encoder looks fields up here: a Map lookup costs less than one in the
  // dictionary-mode object above (measured: about 0.7x for spawn's encoding).
  const fieldMap = new Map(fields.map((f) => [f.name, f]));
  const defaults = new Uint8Array(info.size);
  for (const f of fields) if (f.type === 'entity') defaults.fill(0xff, f.offset, f.offset + 4);
  // The defaults as 32-bit words when the element is a whole number of them (every element of
  // 4-byte fields): written word by word, cheaper than TypedArray.set for a few bytes.
  const defaultWords = info.size % 4 === 0 ? new Uint32Array(defaults.buffer) : null;
  return { id: info.id, name: info.name, info, layout: columnLayout(info), size: info.size, tag: info.tag, fields, byName, fieldMap, defaults, defaultWords };
}

export class WorldCore {
  #raw;
  #components = new Map();  // name -> component entry
  #scratch = 0;             // address of the raw world's scratch area
  #scratchBytes = 0;
  #fast;                    // the raw module's C exports (world_fast.cpp)
  #address;                 // the raw world's address, their first argument
  #onDispose = [];          // what dispose() runs first (schedulers stop)
  #rawQueries = new Set();  // the raw QueryBindings of live queries (freed on dispose or GC)

  constructor(engine, raw) {
    this.engine = engine;
    this.#raw = raw;
    const m = engine.module;
    // The instance's own functions, not Emscripten's forwarding stand-ins (Engine.direct).
    const d = (name) => engine.direct(`_ecsia_world_${name}`);
    this.#fast = {
      element: d('element'), set: d('set'), spawn: d('spawn'), add: d('add'), remove: d('remove'),
      despawn: d('despawn'), isAlive: d('is_alive'), has: d('has'), markChanged: d('mark_changed'),
      storageGeneration: d('storage_generation'), structureVersion: d('structure_version'),
    };
    this.#address = raw.address();
    /**
     * > 0 while a system's run() or an observer callback is on the stack: queries then keep the
     * world's tick (a system's writes stay at its own tick), and dispose() is refused.
     */
    this.callbackDepth = 0;
    /**
     * While a main-thread JS system that declares writes runs: the Chunks it fetched from any
     * query, so its declared writes through their views are change-tracked after it returns
     * (web/scheduler.js). null otherwise.
     */
    this.systemViews = null;
  }

  /**
   * Reports a diagnostic through the engine's channel, so it is named by the system whose work
   * caused it and a repeat is counted like the engine's own (src/ecsia/base/diagnostics.hpp);
   * `system`: the system the message already names. Straight to onDiagnostic once the world is gone.
   */
  report(message, system = '') {
    if (this.#raw !== null) {
      try {
        this.engine.call('world.report', () => this.#raw.reportDiagnostic(message, system));
        return;
      } catch { /* the engine cannot take it: say it directly below */ }
    }
    this.engine.diagnose(`ecsia: ${message}`);
  }

  get disposed() { return this.#raw === null; }
  get fast() { return this.#fast; }
  get address() { return this.#address; }

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

  /** The component entry of a name: { id, info, layout, size, tag, fields, byName, fieldMap, defaults, defaultWords }. */
  component(op, name) {
    const entry = this.#components.get(name);
    if (entry !== undefined) return entry;
    if (typeof name !== 'string') throw new Error(`world.${op}: a component name must be a string, got ${describe(name)}`);
    const known = this.call(op, (r) => r.componentNames());
    if (!known.includes(name)) {
      throw new Error(`world.${op}: unknown component '${name}' (defined: ${known.join(', ') || 'none'})`);
    }
    const created = componentEntry(this.call(op, (r) => r.componentInfo(name)));
    this.#components.set(name, created);
    return created;
  }

  /** Whether a component of that name is defined (no error for unknown names). */
  isDefined(name) {
    return this.#components.has(name) || this.call('defineComponent', (r) => r.componentNames()).includes(name);
  }

  /** A list of known component names (a single name is a list of one; undefined is []). */
  names(op, names, what = 'component names') {
    if (names === undefined) return [];
    const list = typeof names === 'string' ? [names] : names;
    if (!Array.isArray(list)) throw new Error(`world.${op}: takes an array of ${what}, got ${describe(names)}`);
    for (const name of list) this.component(op, name);
    return list;
  }

  /** An 8-aligned scratch area of at least `bytes` bytes in the heap (valid until the next call). */
  scratch(bytes) {
    if (bytes > this.#scratchBytes) {
      this.#scratch = this.call('scratch', (r) => r.scratch(bytes)) >>> 0;
      this.#scratchBytes = bytes;
    }
    return this.#scratch;
  }

  /**
   * Checks `values` of one component and writes them at `address` (a whole element: defaults for
   * the fields not given when `whole`; only the given fields otherwise). Returns the mask of the
   * fields written (bit i = field i). Throws naming `op` for any bad value; writes only scratch.
   * `views` covers the element (Engine.viewsCovering). Numbers into f32/f64 fields, by far the
   * most common, are checked inline; anything else goes through checkField.
   */
  encodeElement(op, entry, values, views, address, whole) {
    if (whole) {
      const words = entry.defaultWords;
      if (words === null) views.u8.set(entry.defaults, address);
      else for (let i = 0, at = address >>> 2; i < words.length; i += 1) views.u32[at + i] = words[i];
      if (values === undefined || values === null || values === true) return 0;
    }
    if (!isPlainObject(values)) {
      throw new Error(`world.${op}: '${entry.name}' takes an object of field values${whole ? ' (or true)' : ''}, got ${describe(values)}`);
    }
    const dv = views.dv;
    let mask = 0;
    for (const key in values) {
      const field = entry.fieldMap.get(key);
      if (field === undefined) {
        if (!Object.prototype.hasOwnProperty.call(values, key)) continue;
        throw new Error(entry.tag
          ? `world.${op}: '${entry.name}' is a tag and has no field '${key}'`
          : `world.${op}: '${entry.name}' has no field '${key}' (fields: ${entry.fields.map((f) => f.name).join(', ')})`);
      }
      const value = values[key];
      if (value === undefined) continue;
      const type = field.type;
      const where = address + field.offset;
      // NaN fails every comparison here and so takes checkField's error.
      if (type === 'f32' && typeof value === 'number' &&
          ((value <= F32_MAX && value >= -F32_MAX) || value === Infinity || value === -Infinity)) {
        dv.setFloat32(where, value, true);
      } else if (type === 'f64' && typeof value === 'number' && value === value) {
        dv.setFloat64(where, value, true);
      } else {
        storeField(dv, where, type, checkField(`world.${op}`, entry.name, field, value));
      }
      mask |= 1 << field.index;
    }
    return mask;
  }

  /**
   * Encodes { name: values } for one row in the encoded_values.hpp layout into scratch; returns
   * its address. Throws (naming `op`) before anything changes.
   */
  encodeComponents(op, components) {
    if (!isPlainObject(components)) {
      throw new Error(`world.${op}: takes an object of components by name, got ${describe(components)}`);
    }
    const entries = [];
    for (const name in components) entries.push(this.component(op, name));
    let bytes = align8(4 * (1 + entries.length));
    for (const entry of entries) bytes += align8(entry.size);
    const address = this.scratch(bytes);
    const views = this.engine.viewsCovering(address + bytes);
    const u32 = views.u32;
    u32[address >>> 2] = entries.length;
    let at = address + align8(4 * (1 + entries.length));
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[i];
      u32[(address >>> 2) + 1 + i] = entry.id;
      this.encodeElement(op, entry, components[entry.name], views, at, true);
      at += align8(entry.size);
    }
    return address;
  }

  /** Decodes the element at `address` into a plain object. */
  decodeElement(entry, address) {
    const { dv } = this.engine.viewsCovering(address + entry.size);
    const out = {};
    for (const field of entry.fields) out[field.name] = loadField(dv, address + field.offset, field.type);
    return out;
  }

  /** The number behind world.storageGeneration: the raw generation plus the heap's epoch. */
  viewGeneration() {
    this.raw('storageGeneration');
    return this.#fast.storageGeneration(this.#address) + this.engine.heapState().epoch;
  }

  structureVersion() {
    this.raw('structureVersion');
    return this.#fast.structureVersion(this.#address);
  }

  /** Registers fn to run first when the world is disposed (a scheduler stopping). */
  onDispose(fn) { this.#onDispose.push(fn); }

  /** A raw QueryBinding this world must free at the latest when it is disposed. */
  trackQuery(raw) { this.#rawQueries.add(raw); }

  /** Frees a raw QueryBinding now (its Query was collected); nothing once the world is gone. */
  freeQuery(raw) {
    if (this.#raw === null || !this.#rawQueries.delete(raw)) return;
    raw.delete();
  }

  /** Frees the raw world (and what registered with onDispose first); later calls throw. Idempotent. */
  dispose() {
    if (this.#raw === null) return;
    if (this.callbackDepth > 0) {
      throw new Error('world.dispose: not allowed inside a system or an observer (the engine is running it); dispose after update() resolves');
    }
    for (const fn of this.#onDispose.splice(0)) fn();
    for (const raw of this.#rawQueries) raw.delete();
    this.#rawQueries.clear();
    this.#raw.setDiagnosticHandler(null);
    this.#raw.delete();
    this.#raw = null;
  }
}
