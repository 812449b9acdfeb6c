// Internal to the JS layer: the state behind a public World (web/world.js), reached by other web/
// modules with internalsOf(world). It owns the raw Embind world (wasm/world_binding.hpp), the
// component layouts JS caches, and the value encoding: the JS types and ranges of values are
// checked here once (G5) and the values written, encoded as the columns store them, into the
// world's scratch area in the wasm heap; the C exports (wasm/world_fast.cpp) then take only
// numbers, one call per operation. World state (handles, phase, components, capacity) is the
// engine's to check: when an export says "could not", fail() throws the engine's own error,
// which the export left in its error slot (wasm/js_error.hpp).
// Thread rule: the page's main thread.

import { describe, isHandle, isOpaqueObject, isPlainObject } from './checks.js';
import { ANY_TARGET, FIELD_TYPES, MAX_SCRATCH_BYTES, NULL_ENTITY, VALUE_ALIGNMENT, WHOLE_ELEMENT } from './constants.js';
import { FLOAT32_MAX, INTEGER_RANGES, NULL_ENTITY as KERNEL_NULL_ENTITY, VIEW_TYPES as KERNEL_VIEW_TYPES, topicOf } from './kernel_runtime.js';

// Typed arrays for homogeneous components (every field the same type), by the engine's field
// types: the kernel runtime's table (it imports nothing), checked against the engine's list.
export const VIEW_TYPES = Object.freeze(Object.fromEntries(FIELD_TYPES.map((type) => {
  if (KERNEL_VIEW_TYPES[type] === undefined) throw new Error(`ecsia: no typed array for the engine's field type '${type}'`);
  return [type, KERNEL_VIEW_TYPES[type]];
})));
if (KERNEL_NULL_ENTITY !== NULL_ENTITY) throw new Error('ecsia: the kernel runtime\'s null entity is not the engine\'s');

/**
 * The encoders' inline test of an f32 field's value: a number within the f32 range, or an
 * infinity. NaN fails every comparison here, so it takes checkField's error.
 */
export const fitsF32 = (value) => typeof value === 'number' &&
  ((value <= FLOAT32_MAX && value >= -FLOAT32_MAX) || value === Infinity || value === -Infinity);
const NULL_BITS = NULL_ENTITY;

export const align8 = (n) => (n + VALUE_ALIGNMENT - 1) & -VALUE_ALIGNMENT;
/**
 * align8 for sizes past 2^31 (a bulk call's column of many rows), where align8's 32-bit `&`
 * wraps: the scratch call then sees the true total and refuses it before anything is written.
 */
export const alignWide8 = (n) => Math.ceil(n / VALUE_ALIGNMENT) * VALUE_ALIGNMENT;

// The call an error names: a world method's name ('spawn': world.spawn), or a caller's own
// qualified name ('scheduler.addSystem', when a scheduler resolves names through the world).
const callName = (op) => (/[. ]/.test(op) ? op : `world.${op}`);  // 'query.count', 'new RollbackSession': as they are

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
      if (type === 'f32' && !fitsF32(value)) {
        throw new Error(`${op}: field '${component}.${field.name}' is f32 and cannot hold ${value} (beyond the f32 range; Infinity is allowed)`);
      }
      return value;
    }
    throw new Error(`${op}: field '${component}.${field.name}' is ${type} and takes a number (not NaN), got ${describe(value)}`);
  }
  if (type === 'bool') {
    if (value === true || value === 1) return 1;
    if (value === false || value === 0) return 0;
    throw new Error(`${op}: field '${component}.${field.name}' is bool and takes true or false (or 1 or 0), got ${describe(value)}`);
  }
  if (type === 'entity') {
    if (value === null) return NULL_BITS;
    if (Number.isInteger(value) && value >= 0 && value <= NULL_BITS) return value;
    throw new Error(`${op}: field '${component}.${field.name}' is entity and takes an entity handle (a number) or null, got ${describe(value)}`);
  }
  const [lo, hi] = INTEGER_RANGES[type];
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

export function loadField(dv, address, type) {
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
// The heap typed array a field of each type is read and written through (fields are naturally
// aligned, C struct rules, and so are columns and scratch), and its element size as a shift.
const FIELD_ARRAY = {
  f32: ['f32', 2], f64: ['f64', 3], i8: ['i8', 0], u8: ['u8', 0], bool: ['u8', 0],
  i16: ['i16', 1], u16: ['u16', 1], i32: ['i32', 2], u32: ['u32', 2], entity: ['u32', 2],
};

function componentEntry(info) {
  const fields = info.fields.map((f, index) => ({ ...f, index, array: FIELD_ARRAY[f.type][0], shift: FIELD_ARRAY[f.type][1] }));
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
  // The element at `address` as a plain object (world.get).
  const read = (views, address) => {
    const dv = views.dv;
    const out = {};
    for (let i = 0; i < fields.length; i += 1) {
      const f = fields[i];
      out[f.name] = loadField(dv, address + f.offset, f.type);
    }
    return out;
  };
  // The field names when every field is f32 and they lie packed in order (decodeElement's fast path).
  const f32Names = fields.length > 0 && fields.every((f, i) => f.type === 'f32' && f.offset === 4 * i) && info.size === 4 * fields.length
    ? fields.map((f) => f.name) : null;
  // set's checked values by field index, between stageValues and writeStaged.
  const staged = new Float64Array(fields.length);
  // lastKey/lastField: the encoders' memo of the field a values object last named (values that
  // name one field name the same key every call: one string compare; fieldNamed).
  const makeF32 = f32Names === null ? null : f32ObjectMaker(f32Names);
  return { makeF32, id: info.id, name: info.name, info, layout: columnLayout(info), size: info.size, tag: info.tag, fields, byName, fieldMap, defaults, defaultWords, read, f32Names, staged, lastKey: undefined, lastField: undefined };
}

// world.get's object for an element of one to four packed f32 fields (decodeElement): one object
// literal per field count, which V8 builds whole, where a loop of keyed stores (the fallback, for
// more fields) changed the object's shape field by field. In a probe page, a get of one field
// took 34.5 against 24.5 ns, of three fields 50.5 against 26. null for more than four fields.
function f32ObjectMaker(names) {
  const [a, b, c, d] = names;
  switch (names.length) {
    case 1: return (f32, at) => ({ [a]: f32[at] });
    case 2: return (f32, at) => ({ [a]: f32[at], [b]: f32[at + 1] });
    case 3: return (f32, at) => ({ [a]: f32[at], [b]: f32[at + 1], [c]: f32[at + 2] });
    case 4: return (f32, at) => ({ [a]: f32[at], [b]: f32[at + 1], [c]: f32[at + 2], [d]: f32[at + 3] });
    default: return null;
  }
}

// The field `key` names when it is not the entry's memo: the field after `last` (the one named
// before it; undefined: none), since values name fields in declaration order as a rule (one
// compare), else fieldOf's lookup; either way it becomes the memo, so that values naming one
// field (a one-field component's, every call) find it at the first compare. Out of the
// encoders' loops so that they stay small enough for V8 to inline into the calls.
function fieldNamed(op, entry, values, key, last) {
  const expected = entry.fields[last === undefined ? 0 : last.index + 1];
  if (expected === undefined || expected.name !== key) return fieldOf(op, entry, values, key);
  entry.lastKey = key;
  entry.lastField = expected;
  return expected;
}

// The field `key` of a values object names, remembered as the entry's memo; an unknown key is
// unknownField's (an error, or undefined for a key to skip).
function fieldOf(op, entry, values, key) {
  const field = entry.fieldMap.get(key);
  if (field === undefined) return unknownField(op, entry, values, key);
  entry.lastKey = key;
  entry.lastField = field;
  return field;
}

/** The world's C exports of an engine, once per engine: { spawn, despawn, ..., errorCode, errorMessage }. */
const exportsOf = new WeakMap();
function worldExports(engine) {
  let table = exportsOf.get(engine);
  if (table === undefined) {
    const prefix = '_ecsia_world_';
    const found = Object.keys(engine.module).filter((key) => key.startsWith(prefix));
    const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
    table = Object.fromEntries(found.map((key) => [camel(key.slice(prefix.length)), engine.direct(key)]));
    table.errorCode = engine.direct('_ecsia_error_code');
    table.errorMessage = engine.direct('_ecsia_error_message');
    exportsOf.set(engine, table);
  }
  // A copy per world: plain fields, read on every call (and which a test may wrap).
  return { ...table };
}

/**
 * A key of `values` that `entry` has no field for: undefined when it is inherited (skipped, like
 * every inherited key); an own key throws naming `op`.
 */
function unknownField(op, entry, values, key) {
  if (!Object.prototype.hasOwnProperty.call(values, key)) return undefined;
  throw new Error(entry.tag
    ? `world.${op}: '${entry.name}' is a tag and has no field '${key}'`
    : `world.${op}: '${entry.name}' has no field '${key}' (fields: ${entry.fields.map((f) => f.name).join(', ')})`);
}
// A values object that gave no field: fine when it is {} (or a class instance without fields), an
// error when it is a Map, a Date or another object that keeps its contents elsewhere (it would
// otherwise pass for {}). Asked only then, so that the common call pays nothing for it.
function refuseOpaque(op, entry, values, whole) {
  if (isOpaqueObject(values)) notValues(op, entry, values, whole);
}

// The error of values that are no object of field values (`whole`: an add or spawn, where true
// stands for the defaults).
function notValues(op, entry, values, whole) {
  throw new Error(`world.${op}: '${entry.name}' takes an object of field values${whole ? ' (or true)' : ''}, got ${describe(values)}`);
}

// The error of a spawn row that is no object of components by name.
function notARow(op, components) {
  throw new Error(`world.${op}: takes an object of components by name, got ${describe(components)}`);
}

// component()'s memo before its first find: equal to nothing a caller can pass.
const NO_NAME = Symbol('no component found yet');

export class WorldCore {
  #raw;
  #components = new Map();  // name -> component entry
  #lastName = NO_NAME;  // component()'s memo: the name it last found, and its entry
  #lastEntry = undefined;
  #relations = new Map();   // name -> relation entry (a component entry of the pair data, and the options)
  #topics = new Map();      // name -> topic entry (a component entry of one message, and the topic)
  #scratch = 0;             // address of the raw world's scratch area for calls outside callbacks
  #scratchBytes = 0;
  #nestedScratch = [];      // by callback depth (from 1): { address, bytes } of that level's area
  #onDispose = [];          // what dispose() runs first (schedulers stop)
  #rawQueries = new Set();  // the raw QueryBindings of live queries (freed on dispose or GC)

  constructor(engine, raw) {
    this.engine = engine;
    this.#raw = raw;
    // The world's C exports (wasm/world_fast.cpp) by their names in camelCase
    // (_ecsia_world_add_many -> addMany), so a new export needs no line here; the instance's own
    // functions rather than Emscripten's forwarding stand-ins (Engine.direct).
    this.fast = worldExports(engine);
    /** The raw world's address, the exports' first argument; 0 once disposed (they then fail with Disposed). */
    this.address = raw.address() >>> 0;
    /**
     * > 0 while a system's run(), an observer or the diagnostic handler is on the stack (the
     * engine is inside a call): queries then keep the world's tick (a system's writes stay at its
     * own tick), dispose() is refused, and calls encode into a scratch area of this depth.
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

  /**
   * Throws the error a C export just failed with (its status said so): the engine's own code
   * and message from the error slot, as `world.<op>: <message>` (or `<op>: ` for an op named
   * with its object) with `.code`. Nothing changed.
   */
  fail(op) {
    const fast = this.fast;
    const code = this.#cString(fast.errorCode() >>> 0);
    const error = new Error(`${callName(op)}: ${this.#cString(fast.errorMessage() >>> 0)}`);
    error.code = code;
    throw error;
  }

  // A NUL-terminated UTF-8 string in the heap (copied first: TextDecoder refuses shared memory).
  #cString(address) {
    const { u8 } = this.engine.views();
    let end = address;
    while (u8[end] !== 0) end += 1;
    return new TextDecoder().decode(u8.slice(address, end));
  }

  /** The raw Embind world; throws naming `op` once the world was disposed. */
  raw(op) {
    if (this.#raw === null) {
      // The same code and words as the exports' failure after dispose (wasm/world_exports.hpp).
      const error = new Error(`${callName(op)}: Disposed: the world was disposed`);
      error.code = 'Disposed';
      throw error;
    }
    return this.#raw;
  }

  /** fn(rawWorld) through the stack-restoring call; engine errors get `world.<op>: ` in front. */
  call(op, fn) {
    const raw = this.raw(op);
    return this.engine.call(callName(op), () => fn(raw));
  }

  /**
   * The component entry of a name: { id, info, layout, size, tag, fields, byName, fieldMap,
   * defaults, defaultWords }, cached; an unknown name is the engine's UnknownComponent error.
   */
  component(op, name) {
    // A loop of calls names one component again and again: the same string is one compare, where
    // the Map's lookup hashes and probes (entries are never replaced, so the memo stays true).
    if (name === this.#lastName) return this.#lastEntry;
    const entry = this.#components.get(name);
    if (entry !== undefined) {
      this.#lastName = name;
      this.#lastEntry = entry;
      return entry;
    }
    if (typeof name !== 'string') throw new Error(`${callName(op)}: a component name must be a string, got ${describe(name)}`);
    const created = componentEntry(this.call(op, (r) => r.componentInfo(name)));
    this.#components.set(name, created);
    return created;
  }

  /**
   * The relation entry of a name: a component entry whose layout is one pair's data, plus
   * { relation: true, exclusive, onDeleteTarget, acyclic }; cached (a relation is never redefined).
   * An unknown name, or a component's, is the engine's own error (which lists the relations).
   */
  relation(op, name) {
    return this.#relations.get(name) ?? this.#cache(this.#relations, op, 'relation', name, (r) => r.relationInfo(name),
      (info) => ({ ...componentEntry(info), relation: true, exclusive: info.exclusive, onDeleteTarget: info.onDeleteTarget, acyclic: info.acyclic }));
  }

  /**
   * The topic entry of a name: a component entry whose element is one message, plus `topic` (the
   * layout Messages views use); cached (a topic is never redefined). An unknown name is the
   * engine's UnknownTopic error, which lists the defined topics.
   */
  topic(op, name) {
    return this.#topics.get(name) ?? this.#cache(this.#topics, op, 'topic', name, (r) => r.topicInfo(name),
      (info) => ({ ...componentEntry(info), topic: topicOf(info) }));
  }

  // The entry `make` builds from the engine's description of a relation or topic (`read`), kept in
  // `cache` for the next call; a name that is not a string is refused before the engine is asked.
  #cache(cache, op, kind, name, read, make) {
    if (typeof name !== 'string') throw new Error(`${callName(op)}: a ${kind} name must be a string, got ${describe(name)}`);
    const created = make(Object.freeze(this.call(op, read)));
    cache.set(name, created);
    return created;
  }

  /** Whether a relation of that name is defined (no error for unknown names). */
  isRelation(op, name) {
    return this.#relations.has(name) || (typeof name === 'string' && this.call(op, (r) => r.relationNames()).includes(name));
  }

  /**
   * A pair call's target as the handle bits the exports take: a handle, or '*' (any target:
   * ANY_TARGET) where `wildcard` allows it. The null handle as a number is refused there, since
   * its bits are the wildcard's: '*' says "any", a number names one entity.
   */
  pairTarget(op, target, wildcard) {
    if (target === '*') {
      if (wildcard) return ANY_TARGET;
      throw new Error(`${callName(op)}: the target must be one entity here, not '*'`);
    }
    if (!isHandle(target)) {
      throw new Error(`${callName(op)}: the target must be an entity handle${wildcard ? " or '*' (any target)" : ''}, got ${describe(target)}`);
    }
    if (wildcard && target === ANY_TARGET) {
      throw new Error(`${callName(op)}: the target ${target} is the null handle, not an entity; write '*' for any target`);
    }
    return target;
  }

  /** A list of known component names (a single name is a list of one; undefined is []). */
  names(op, names, what = 'component names') {
    if (names === undefined) return [];
    const list = typeof names === 'string' ? [names] : names;
    if (!Array.isArray(list)) throw new Error(`world.${op}: takes an array of ${what}, got ${describe(names)}`);
    for (const name of list) this.component(op, name);
    return list;
  }

  /**
   * Reading a call's arguments may run user code (a getter, a Proxy's trap) that calls the world,
   * and that call takes the same scratch area, staged values and row entries as the one still
   * reading. Each reader takes a ticket as it starts and hands it back (#readEnd) before the engine
   * reads what it wrote: a reader in between took another, and the call is refused.
   */
  #readStart() {
    this.#reads += 1;
    return this.#reads;
  }

  #readEnd(ticket, op) {
    if (this.#reads !== ticket) this.#calledWhileRead(op);
  }

  // What a reader that threw throws: a reader in between may have grown the heap, and the views
  // this one wrote through then threw (a DataView over a detached buffer); its error says so.
  #readFailed(ticket, op, error) {
    if (this.#reads !== ticket) this.#calledWhileRead(op, error);
    throw error;
  }

  /**
   * `read()` (which reads a call's arguments into the shared memory) as one reader: its result,
   * or the refusal when a getter called the world meanwhile. For the bulk and rare paths; the
   * per-entity encoders below take their ticket inline (no closure per call).
   */
  reading(op, read) {
    const ticket = this.#readStart();
    let result;
    try {
      result = read();
    } catch (error) {
      this.#readFailed(ticket, op, error);
    }
    this.#readEnd(ticket, op);
    return result;
  }

  #calledWhileRead(op, cause) {
    const error = new Error(`world.${op}: a getter or Proxy in its arguments called the world while they were read, ` +
      `which takes the memory they are read into; world.${op} changed nothing (read such values before the call)`,
    cause === undefined ? undefined : { cause });
    error.code = 'WrongPhase';
    throw error;
  }

  #reads = 0;  // #readStart()'s tickets

  /**
   * An 8-aligned scratch area of at least `bytes` bytes in the heap, valid until the next call at
   * this callback depth. A call made inside a callback (an observer, a system, a diagnostic
   * handler) gets an area of its depth: the engine may still be reading the area of the call that
   * runs the callback (despawnMany's handles while its remove observers run).
   */
  scratch(bytes, op = 'scratch') {
    if (this.callbackDepth === 0 && bytes <= this.#scratchBytes) return this.#scratch;
    // The engine takes the size in 32 bits: a larger one would wrap to a small area that the
    // caller then writes past. No wasm heap holds it anyway.
    if (bytes > MAX_SCRATCH_BYTES) {
      const error = new Error(`world.${op}: OutOfMemory: the call needs ${bytes} bytes of scratch memory, more than a wasm heap holds`);
      error.code = 'OutOfMemory';
      throw error;
    }
    const level = this.callbackDepth;
    if (level > 0) {
      const area = this.#nestedScratch[level];
      if (area !== undefined && bytes <= area.bytes) return area.address;
    }
    const address = this.fast.scratch(this.address, bytes, level) >>> 0;
    if (address === 0) this.fail(op);
    if (level === 0) {
      this.#scratch = address;
      this.#scratchBytes = bytes;
    } else {
      this.#nestedScratch[level] = { address, bytes };
    }
    return address;
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
    if (!isPlainObject(values)) notValues(op, entry, values, whole);
    const dv = views.dv;
    const f32 = this.#f32Of(views.buffer);
    let mask = 0;
    let last;  // the field named before (fieldNamed expects the one after it)
    for (const key in values) {
      const field = key === entry.lastKey ? entry.lastField : fieldNamed(op, entry, values, key, last);
      if (field === undefined) continue;
      last = field;
      const value = values[key];
      if (value === undefined) continue;
      const type = field.type;
      const where = address + field.offset;
      if (type === 'f32' && fitsF32(value)) {
        f32[where >>> 2] = value;  // f32 fields are 4-aligned: the typed array is cheaper than the DataView
      } else if (type === 'f64' && typeof value === 'number' && value === value) {
        dv.setFloat64(where, value, true);
      } else {
        storeField(dv, where, type, checkField(`world.${op}`, entry.name, field, value));
      }
      mask |= 1 << field.index;
    }
    if (last === undefined) refuseOpaque(op, entry, values, whole);
    return mask;
  }

  /**
   * Encodes { name: values } for one row in the encoded_values.hpp layout into scratch; returns
   * its address. Throws (naming `op`) before anything changes. Two passes over the names, so
   * that nothing is allocated per call.
   */
  encodeComponents(op, components) {
    const ticket = this.#readStart();
    if (!isPlainObject(components)) notARow(op, components);
    // One pass over the names; their entries go to a list kept for the next call.
    const entries = this.#rowEntries;
    const names = this.#rowNames;
    let count = 0;
    let bytes = 0;
    for (const name in components) {
      // A loop of spawns names the same components in the same order: the entry the last row had
      // at this place, for one compare (component()'s memo holds one name, a row has several).
      if (name !== names[count]) {
        entries[count] = this.component(op, name);
        names[count] = name;
      }
      bytes += align8(entries[count].size);
      count += 1;
    }
    if (count === 0 && isOpaqueObject(components)) notARow(op, components);
    const header = align8(4 * (1 + count));
    const address = this.scratch(header + bytes, op);
    const views = this.engine.viewsCovering(address + header + bytes);
    const u32 = views.u32;
    u32[address >>> 2] = count;
    let at = address + header;
    try {
      for (let i = 0; i < count; i += 1) {
        const entry = entries[i];
        u32[(address >>> 2) + 1 + i] = entry.id;
        this.#encodeWhole(op, entry, components[entry.name], views, at);
        at += align8(entry.size);
      }
    } catch (error) {
      this.#readFailed(ticket, op, error);
    }
    this.#readEnd(ticket, op);
    return address;
  }

  #rowEntries = [];  // encodeComponents' entries of one row (reused: nothing allocated per spawn)
  #rowNames = [];    // the names they are the entries of

  /**
   * One component's element for add, whole (fields not given get default values): its address
   * in scratch, or 0 for a tag (given true or {}). Throws naming `op` for a bad value.
   */
  encodeOne(op, entry, values) {
    if (entry.tag) {
      if (values === undefined || values === null || values === true) return 0;
      if (!isPlainObject(values)) notValues(op, entry, values, true);
      for (const key in values) {
        if (Object.prototype.hasOwnProperty.call(values, key)) throw new Error(`world.${op}: '${entry.name}' is a tag and has no field '${key}'`);
      }
      refuseOpaque(op, entry, values, true);
      return 0;
    }
    const ticket = this.#readStart();
    const address = this.scratch(entry.size, op);
    try {
      this.#encodeWhole(op, entry, values, this.engine.viewsCovering(address + entry.size), address);
    } catch (error) {
      this.#readFailed(ticket, op, error);
    }
    this.#readEnd(ticket, op);
    return address;
  }

  // encodeElement(..., whole), through #encodeF32 for a component of packed f32 fields.
  #encodeWhole(op, entry, values, views, address) {
    if (entry.f32Names !== null) this.#encodeF32(op, entry, values, this.#f32Of(views.buffer), address >>> 2);
    else this.encodeElement(op, entry, values, views, address, true);
  }

  /**
   * encodeElement(..., whole) of a component whose fields are all f32, packed in order
   * (entry.f32Names): the same checks, errors and bytes, in a function small enough for V8 to
   * inline where it is called (in a probe page, 9 of an add's 64 ns went to the general form).
   */
  #encodeF32(op, entry, values, f32, base) {
    const count = entry.fields.length;
    for (let i = 0; i < count; i += 1) f32[base + i] = 0;  // the defaults: an f32 field's is 0
    if (values === undefined || values === null || values === true) return;
    if (!isPlainObject(values)) notValues(op, entry, values, true);
    let last;  // the field named before (fieldNamed expects the one after it)
    for (const key in values) {
      const field = key === entry.lastKey ? entry.lastField : fieldNamed(op, entry, values, key, last);
      if (field === undefined) continue;
      last = field;
      const value = values[key];
      if (value === undefined) continue;
      f32[base + field.index] = fitsF32(value) ? value : checkField(`world.${op}`, entry.name, field, value);
    }
    if (last === undefined) refuseOpaque(op, entry, values, true);
  }

  /**
   * set's values checked, and not yet written anywhere: the numbers to store go to entry.staged
   * by field index; returns the mask of the fields given (bit i = field i). Throws naming `op`
   * for a bad value exactly as encodeElement does, before anything changes.
   */
  stageValues(op, entry, values) {
    const ticket = this.#readStart();
    if (!isPlainObject(values)) notValues(op, entry, values, false);
    const staged = entry.staged;
    let mask = 0;
    let last;  // the field named before (fieldNamed expects the one after it)
    for (const key in values) {
      const field = key === entry.lastKey ? entry.lastField : fieldNamed(op, entry, values, key, last);
      if (field === undefined) continue;
      last = field;
      const value = values[key];
      if (value === undefined) continue;
      const type = field.type;
      if (type === 'f32' && fitsF32(value)) {
        staged[field.index] = value;
      } else if (type === 'f64' && typeof value === 'number' && value === value) {
        staged[field.index] = value;
      } else {
        staged[field.index] = checkField(`world.${op}`, entry.name, field, value);
      }
      mask |= 1 << field.index;
    }
    if (last === undefined) refuseOpaque(op, entry, values, false);
    this.#readEnd(ticket, op);
    return mask;
  }

  /** Writes the staged fields of `mask` into the element at `address` (a row, or scratch). */
  writeStaged(entry, address, mask) {
    const arrays = this.#arraysOf(this.engine.viewsCovering(address + entry.size).buffer);
    const staged = entry.staged;
    if (entry.f32Names !== null) {
      // Every field f32, packed in order (the common case).
      const f32 = arrays.f32;
      const base = address >>> 2;
      for (let i = 0; i < staged.length; i += 1) if ((mask >>> i & 1) !== 0) f32[base + i] = staged[i];
      return;
    }
    const fields = entry.fields;
    for (let i = 0; i < fields.length; i += 1) {
      if ((mask >>> i & 1) === 0) continue;
      const f = fields[i];
      arrays[f.array][(address + f.offset) >>> f.shift] = staged[i];
    }
  }

  /**
   * Writes a whole element given as its `entry.size` bytes (the component's layout, values checked
   * when they were encoded) as world.set() would write the values they hold: in place with one
   * crossing, or through the set export when a change observer or a queued flush must run.
   */
  setElementBytes(op, entity, entry, bytes) {
    if (entry.fields.length < 32) {
      const address = this.fast.setInPlace(this.address, entity, entry.id) >>> 0;
      if (address > 1) {
        this.engine.viewsCovering(address + entry.size).u8.set(bytes, address);
        return;
      }
      if (address === 0) this.fail(op);
    }
    const scratch = this.scratch(entry.size, op);
    this.engine.viewsCovering(scratch + entry.size).u8.set(bytes, scratch);
    if (this.fast.set(this.address, entity, entry.id, scratch, WHOLE_ELEMENT) === 0) this.fail(op);
  }

  /** Decodes the element at `address` into a plain object. */
  decodeElement(entry, address) {
    const views = this.engine.viewsCovering(address + entry.size);
    const names = entry.f32Names;
    if (names === null) return entry.read(views, address);
    // Every field f32, packed in order (the common case): one typed-array read each.
    const f32 = this.#f32Of(views.buffer);
    const base = address >>> 2;
    if (entry.makeF32 !== null) return entry.makeF32(f32, base);
    const out = {};
    for (let i = 0; i < names.length; i += 1) out[names[i]] = f32[base + i];
    return out;
  }

  // A Float32Array over the heap `buffer` (the views' own), made again only when the heap was replaced.
  #f32Buffer = null;
  #f32 = null;
  #f32Of(buffer) {
    if (buffer !== this.#f32Buffer) {
      this.#f32 = new Float32Array(buffer);
      this.#f32Buffer = buffer;
    }
    return this.#f32;
  }

  // Every typed array over the heap `buffer` that fields are stored through, made again only
  // when the heap was replaced.
  #arraysBuffer = null;
  #arrays = null;
  #arraysOf(buffer) {
    if (buffer !== this.#arraysBuffer) {
      this.#arrays = {
        f32: this.#f32Of(buffer), f64: new Float64Array(buffer), i8: new Int8Array(buffer), u8: new Uint8Array(buffer),
        i16: new Int16Array(buffer), u16: new Uint16Array(buffer), i32: new Int32Array(buffer), u32: new Uint32Array(buffer),
      };
      this.#arraysBuffer = buffer;
    }
    return this.#arrays;
  }

  /** The number behind world.storageGeneration: the raw generation plus the heap's epoch. */
  viewGeneration() {
    this.raw('storageGeneration');
    return this.fast.storageGeneration(this.address) + this.engine.heapState().epoch;
  }

  structureVersion() {
    this.raw('structureVersion');
    return this.fast.structureVersion(this.address);
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

  /**
   * Frees the raw world (and what registered with onDispose first); later calls throw. Idempotent.
   * While a frame holds the raw world (holdRaw: a wave out on the workers writes into it), it is
   * freed when that frame lets go; the calls throw from now on all the same.
   */
  dispose() {
    if (this.#raw === null) return;
    if (this.callbackDepth > 0) {
      throw new Error('world.dispose: not allowed inside a system, an observer or a diagnostic handler (the engine is running it); dispose after update() resolves');
    }
    for (const fn of this.#onDispose.splice(0)) fn();
    const raw = this.#raw;
    this.#raw = null;
    this.address = 0;
    if (this.#holds > 0) this.#heldRaw = raw;
    else this.#free(raw);
  }

  /**
   * Keeps the raw world from being freed until the returned function is called (a scheduler's
   * update() while its frame runs: a world disposed meanwhile goes once the wave is back).
   */
  holdRaw() {
    this.#holds += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#holds -= 1;
      if (this.#holds > 0 || this.#heldRaw === null) return;
      const raw = this.#heldRaw;
      this.#heldRaw = null;
      this.#free(raw);
    };
  }

  #holds = 0;
  #heldRaw = null;  // the raw world dispose() left to the last holdRaw() to free

  #free(raw) {
    for (const query of this.#rawQueries) query.delete();
    this.#rawQueries.clear();
    raw.setDiagnosticHandler(null);
    raw.delete();
  }
}
