// ecsia for the browser. loadEcsia() picks a wasm build and returns the engine; createWorld()
// wraps the raw Embind world (wasm/world_binding.hpp) in the JS API whose names are fixed by
// issue 5: defineComponent, spawn, despawn, isAlive, add, remove, has, get, set, count, chunks,
// storageGeneration, stateHash, dispose.
//
//   threaded  web/dist/ecsia_threaded.mjs: shared memory, a pool of Web Workers. Needs a
//             cross-origin isolated page (SharedArrayBuffer).
//   single    web/dist/ecsia_single.mjs: no threads; same results. Loaded, with exactly one
//             warning, where threads are off.
//
// Errors: bad input throws an Error whose message names the operation and the problem, and the
// world is unchanged (G5). Errors from the engine also carry `.code` (e.g. 'StaleEntity').
// Entities are plain numbers (32-bit handles: index and generation).
// Thread rule: everything here runs on the page's main thread and never blocks it.

import { Scheduler } from './scheduler.js';

const MODULES = {
  threaded: () => import('./dist/ecsia_threaded.mjs'),
  single: () => import('./dist/ecsia_single.mjs'),
};

const COI_HEADERS = '"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp"';

// Typed arrays for homogeneous components (every field the same type).
const VIEW_TYPES = {
  f32: Float32Array, f64: Float64Array, i8: Int8Array, i16: Int16Array, i32: Int32Array,
  u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, bool: Uint8Array, entity: Uint32Array,
};

export const NULL_ENTITY = 0xffffffff;

function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string ("${value.length > 40 ? `${value.slice(0, 40)}...` : value}")`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${value}`;
  return `a ${typeof value}`;
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why threads are off, as one sentence, or null when they are on. */
function fallbackWarning(threads, isolated, shared) {
  const reasons = [];
  if (threads === 0) reasons.push('options.threads is 0');
  if (!isolated) reasons.push('the page is not cross-origin isolated (crossOriginIsolated is false)');
  if (!shared) reasons.push('SharedArrayBuffer is not available');
  if (reasons.length === 0) return null;
  let message = `ecsia: worker threads are off, the single-threaded build is loaded: ${reasons.join('; ')}.`;
  if (!isolated || !shared) {
    message += ` To turn threads on, serve the page with the response headers ${COI_HEADERS}.`;
  }
  return message;
}

/**
 * Loads the engine.
 * @param {{threads?: 'auto'|number, onDiagnostic?: (message: string) => void}} [options]
 *   threads: 'auto' (default) uses navigator.hardwareConcurrency workers (at least 2), a number
 *   asks for that many, 0 loads the single-threaded build. onDiagnostic receives every warning
 *   (default: console.warn).
 */
export async function loadEcsia(options = {}) {
  if (!isPlainObject(options)) throw new Error(`loadEcsia: options must be an object, got ${describe(options)}`);
  const threads = options.threads ?? 'auto';
  if (threads !== 'auto' && !(Number.isInteger(threads) && threads >= 0)) {
    throw new Error(`loadEcsia: options.threads must be 'auto' or a whole number >= 0, got ${describe(threads)}`);
  }
  const { onDiagnostic } = options;
  if (onDiagnostic !== undefined && typeof onDiagnostic !== 'function') {
    throw new Error(`loadEcsia: options.onDiagnostic must be a function, got ${describe(onDiagnostic)}`);
  }
  const diagnose = onDiagnostic ?? ((message) => console.warn(message));

  const isolated = globalThis.crossOriginIsolated === true;
  const shared = typeof SharedArrayBuffer === 'function';
  const warning = fallbackWarning(threads, isolated, shared);
  const variant = warning === null ? 'threaded' : 'single';
  if (warning !== null) diagnose(warning);

  const factory = (await MODULES[variant]()).default;
  const module = await factory({
    print: (text) => console.log(text),
    printErr: (text) => diagnose(`ecsia (wasm): ${text}`),
  });

  let workers = 0;
  const poolSize = module.poolSize;
  if (variant === 'threaded') {
    if (threads === 'auto') {
      workers = Math.min(Math.max(2, globalThis.navigator?.hardwareConcurrency ?? 2), poolSize);
    } else if (threads > poolSize) {
      diagnose(`ecsia: ${threads} worker threads were asked for, but the threaded build has a pool of ${poolSize}; using ${poolSize}.`);
      workers = poolSize;
    } else {
      workers = threads;
    }
  }
  return new Ecsia(module, variant, workers, diagnose);
}

class Ecsia {
  #module;
  #diagnose;
  #heap;           // the heap's ArrayBuffer (or SharedArrayBuffer) views were last made over
  #heapEpoch = 0;  // how often the heap buffer was replaced (memory growth)

  constructor(module, variant, workers, diagnose) {
    this.#module = module;
    this.#diagnose = diagnose;
    this.#heap = this.#currentHeap();
    /** 'threaded' | 'single' */
    this.variant = variant;
    /** Worker threads in use; 0 in the single build. */
    this.workers = workers;
    /** The most workers this build can run. */
    this.maxWorkers = module.poolSize;
  }

  /** The raw Embind module, for other binding areas (the scheduler). */
  get module() { return this.#module; }

  /** @param {{maxEntities?: number}} [options] */
  createWorld(options = {}) {
    if (!isPlainObject(options)) throw new Error(`createWorld: options must be an object, got ${describe(options)}`);
    const maxEntities = options.maxEntities ?? 1 << 20;
    if (!Number.isInteger(maxEntities) || maxEntities < 1 || maxEntities > 0x3fffff) {
      throw new Error(`createWorld: maxEntities must be a whole number from 1 to 4194303, got ${describe(maxEntities)}`);
    }
    const sp = this.#module.stackSave();
    let raw;
    try {
      raw = new this.#module.World(maxEntities);
    } catch (error) {
      this.#module.stackRestore(sp);
      throw error;
    }
    return new World(this, raw, this.#diagnose);
  }

  // The heap buffer now, and a count that changes whenever it was replaced. Shared memory gets a
  // new (larger) SharedArrayBuffer object on growth; plain memory detaches the old buffer.
  heapState() {
    const buffer = this.#currentHeap();
    if (buffer !== this.#heap) {
      this.#heap = buffer;
      this.#heapEpoch += 1;
    }
    return { buffer, epoch: this.#heapEpoch };
  }

  #currentHeap() {
    return this.#module.wasmMemory ? this.#module.wasmMemory.buffer : this.#module.HEAPU8.buffer;
  }
}

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
 * One table's rows matching a chunks() query. `columns[name]` is a zero-copy view over the
 * component's column (see columnLayout); row i's field f is columns[name][i * strides[name] +
 * offsets[name][f]]. The views are valid while the world's storageGeneration equals
 * `generation`; after that they may point at freed or moved memory: check `stale` (or
 * world.isCurrent(chunk)) and call chunks() again. `count` and `entities` (a copy) describe the
 * table when chunks() ran. Writes through the views change values without change tracking.
 */
class Chunk {
  #world;
  constructor(world, generation, count, entities, columns, strides, offsets) {
    this.#world = world;
    this.generation = generation;
    this.count = count;
    this.entities = entities;
    this.columns = columns;
    this.strides = strides;
    this.offsets = offsets;
  }

  get world() { return this.#world; }
  /** True once the views may no longer show the world's data. */
  get stale() { return !this.#world.isCurrent(this); }
}

class World {
  #ecsia;
  #raw;
  #components = new Map();  // name -> { info, layout }

  #diagnoseFn;

  constructor(ecsia, raw, diagnose) {
    this.#ecsia = ecsia;
    this.#raw = raw;
    this.#diagnoseFn = diagnose;
    this.#call('createWorld', (r) => r.setDiagnosticHandler((message) => diagnose(`ecsia: ${message}`)));
  }

  /** The raw Embind world, for other binding areas (the scheduler). */
  get raw() {
    this.#alive('raw');
    return this.#raw;
  }

  get disposed() { return this.#raw === null; }

  // ---- schema

  /**
   * Defines a component from { field: 'f32' | 'f64' | 'i8' | 'i16' | 'i32' | 'u8' | 'u16' | 'u32'
   * | 'bool' | 'entity' }. {} defines a tag (no values, no storage). Returns its description.
   */
  defineComponent(name, fields) {
    const op = 'defineComponent';
    if (typeof name !== 'string' || name === '') {
      throw new Error(`world.${op}: a component name must be a non-empty string, got ${describe(name)}`);
    }
    if (!isPlainObject(fields)) {
      throw new Error(`world.${op}('${name}'): fields must be an object of field types, got ${describe(fields)}`);
    }
    for (const [field, type] of Object.entries(fields)) {
      if (typeof type !== 'string' || !(type in VIEW_TYPES)) {
        throw new Error(`world.${op}('${name}'): field '${field}' has type ${describe(type)}; the types are ${Object.keys(VIEW_TYPES).join(', ')}`);
      }
    }
    this.#call(op, (r) => r.defineComponent(name, fields));
    return this.#component(op, name).info;
  }

  // ---- entities

  /** Spawns an entity with components by name: { position: { x: 0, y: 0 }, frozen: true }. */
  spawn(components = {}) {
    const op = 'spawn';
    if (!isPlainObject(components)) {
      throw new Error(`world.${op}: takes an object of components by name, got ${describe(components)}`);
    }
    for (const [name, values] of Object.entries(components)) this.#checkValues(op, name, values, true);
    return this.#call(op, (r) => r.spawn(components));
  }

  despawn(entity) {
    this.#checkEntity('despawn', entity);
    this.#call('despawn', (r) => r.despawn(entity));
  }

  isAlive(entity) {
    this.#checkEntity('isAlive', entity);
    return this.#call('isAlive', (r) => r.isAlive(entity));
  }

  /** Adds a component (or overwrites it whole): fields not given get default values. */
  add(entity, name, values) {
    const op = 'add';
    this.#checkEntity(op, entity);
    this.#checkValues(op, name, values, true);
    this.#call(op, (r) => r.add(entity, name, values));
  }

  remove(entity, name) {
    this.#checkEntity('remove', entity);
    this.#component('remove', name);
    this.#call('remove', (r) => r.remove(entity, name));
  }

  has(entity, name) {
    this.#checkEntity('has', entity);
    this.#component('has', name);
    return this.#call('has', (r) => r.has(entity, name));
  }

  /** A plain object copy of the component's values ({} for a tag). */
  get(entity, name) {
    this.#checkEntity('get', entity);
    this.#component('get', name);
    return this.#call('get', (r) => r.get(entity, name));
  }

  /** Writes some or all fields; the others keep their values. */
  set(entity, name, values) {
    const op = 'set';
    this.#checkEntity(op, entity);
    this.#checkValues(op, name, values, false);
    this.#call(op, (r) => r.set(entity, name, values));
  }

  // ---- queries and storage

  /** Entities that have every component in `withNames` and none in `withoutNames`. */
  count(withNames = [], withoutNames = []) {
    const withList = this.#names('count', withNames);
    const withoutList = this.#names('count', withoutNames);
    return this.#call('count', (r) => r.count(withList, withoutList));
  }

  /** Zero-copy views over the columns of every table with `withNames` (see Chunk). */
  chunks(withNames = []) {
    const op = 'chunks';
    const names = this.#names(op, withNames);
    const layouts = names.map((name) => this.#component(op, name).layout);
    const rawChunks = this.#call(op, (r) => r.chunks(names));
    const generation = this.storageGeneration;
    const { buffer } = this.#ecsia.heapState();
    return rawChunks.map((c) => {
      const columns = {};
      const strides = {};
      const offsets = {};
      names.forEach((name, i) => {
        const layout = layouts[i];
        if (layout === null) return;  // a tag has no column
        columns[name] = layout.View === DataView
          ? new DataView(buffer, c.columns[i], c.count * layout.stride)
          : new layout.View(buffer, c.columns[i], c.count * layout.stride);
        strides[name] = layout.stride;
        offsets[name] = layout.offsets;
      });
      const entities = new Uint32Array(buffer, c.entities, c.count).slice();
      return new Chunk(this, generation, c.count, entities, columns, strides, offsets);
    });
  }

  /**
   * Changes whenever views from chunks() must be re-fetched: a column moved, a table appeared,
   * or the wasm heap grew.
   */
  get storageGeneration() {
    const generation = this.#call('storageGeneration', (r) => r.storageGeneration());
    return generation + this.#ecsia.heapState().epoch;
  }

  /** Whether a chunk from this world's chunks() still shows the world's data. */
  isCurrent(chunk) {
    return chunk instanceof Chunk && chunk.world === this && this.#raw !== null &&
      chunk.generation === this.storageGeneration;
  }

  /** The 64-bit state hash as 16 hex digits: equal state, equal hash, in every build. */
  stateHash() {
    return this.#call('stateHash', (r) => r.stateHash());
  }

  /**
   * A scheduler over this world: { systems: ['Move', 'Bounce'], workers, config } (see
   * web/scheduler.js). Dispose it before the world.
   */
  createScheduler(options = {}) {
    this.#alive('createScheduler');
    return new Scheduler(this.#ecsia, this, this.#diagnoseFn, options);
  }

  /** Frees the world. Any later call throws; a second dispose does nothing. */
  dispose() {
    if (this.#raw === null) return;
    this.#raw.setDiagnosticHandler(null);
    this.#raw.delete();
    this.#raw = null;
  }

  // ---- validation and the call boundary

  #alive(op) {
    if (this.#raw === null) throw new Error(`world.${op}: the world was disposed`);
  }

  // Calls the raw world. A binding that throws leaves the wasm stack pointer where the throw
  // found it (a JS exception skips the wasm epilogues), so restore it; engine errors get the
  // operation's name in front.
  #call(op, fn) {
    this.#alive(op);
    const module = this.#ecsia.module;
    const sp = module.stackSave();
    try {
      return fn(this.#raw);
    } catch (error) {
      module.stackRestore(sp);
      if (error instanceof Error && typeof error.code === 'string') error.message = `world.${op}: ${error.message}`;
      throw error;
    }
  }

  #checkEntity(op, entity) {
    if (!Number.isInteger(entity) || entity < 0 || entity > NULL_ENTITY) {
      throw new Error(`world.${op}: ${describe(entity)} is not an entity handle (handles are the numbers spawn() returns)`);
    }
  }

  #component(op, name) {
    if (typeof name !== 'string') throw new Error(`world.${op}: a component name must be a string, got ${describe(name)}`);
    let entry = this.#components.get(name);
    if (entry === undefined) {
      const known = this.#call(op, (r) => r.componentNames());
      if (!known.includes(name)) {
        throw new Error(`world.${op}: unknown component '${name}' (defined: ${known.join(', ') || 'none'})`);
      }
      const info = this.#call(op, (r) => r.componentInfo(name));
      entry = { info, layout: columnLayout(info) };
      this.#components.set(name, entry);
    }
    return entry;
  }

  #names(op, names) {
    const list = typeof names === 'string' ? [names] : names;
    if (!Array.isArray(list)) throw new Error(`world.${op}: takes an array of component names, got ${describe(names)}`);
    for (const name of list) this.#component(op, name);
    return list;
  }

  // Component values: an object of fields; with `wholeAllowed`, also true/undefined/null for
  // "default values" (spawn, add).
  #checkValues(op, name, values, wholeAllowed) {
    const { info } = this.#component(op, name);
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
}
