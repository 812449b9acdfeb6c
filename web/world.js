// The World of the JS API (names fixed by issue 5): defineComponent, spawn, despawn, isAlive, add,
// remove, has, get, set, count, chunks, storageGeneration, isCurrent, stateHash, createScheduler,
// dispose. Made by ecsia.createWorld(); its raw Embind world stays private (web/internal/).
//
// Errors: bad input throws an Error whose message names the operation and the problem, and the
// world is unchanged (G5). Errors from the engine also carry `.code` (e.g. 'StaleEntity').
// Entities are plain numbers (32-bit handles: index and generation).
// Thread rule: the page's main thread.

import { checkEntity, describe, isPlainObject } from './internal/checks.js';
import { attachInternals } from './internal/engine.js';
import { VIEW_TYPES, WorldCore } from './internal/world_core.js';
import { Scheduler } from './scheduler.js';

/**
 * One table's rows matching a chunks() query. `columns[name]` is a zero-copy view over the
 * component's column; row i's field f is columns[name][i * strides[name] + offsets[name][f]]
 * (a DataView with byte strides and offsets for components of mixed field types). The views are
 * valid while the world's storageGeneration equals `generation`; after that they may point at
 * freed or moved memory: check `stale` (or world.isCurrent(chunk)) and call chunks() again.
 * `count` and `entities` (a copy) describe the table when chunks() ran. Writes through the views
 * change values without change tracking.
 */
export class Chunk {
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

export class World {
  #core;

  /** Made by ecsia.createWorld(); `raw` is the Embind world it takes over. */
  constructor(engine, raw) {
    this.#core = new WorldCore(engine, raw);
    attachInternals(this, this.#core);
    this.#core.call('createWorld', (r) => r.setDiagnosticHandler((message) => engine.diagnose(`ecsia: ${message}`)));
  }

  get disposed() { return this.#core.disposed; }

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
    this.#core.call(op, (r) => r.defineComponent(name, fields));
    return this.#core.component(op, name).info;
  }

  // ---- entities

  /** Spawns an entity with components by name: { position: { x: 0, y: 0 }, frozen: true }. */
  spawn(components = {}) {
    const op = 'spawn';
    if (!isPlainObject(components)) {
      throw new Error(`world.${op}: takes an object of components by name, got ${describe(components)}`);
    }
    for (const [name, values] of Object.entries(components)) this.#core.checkValues(op, name, values, true);
    return this.#core.call(op, (r) => r.spawn(components));
  }

  despawn(entity) {
    checkEntity('world.despawn', entity);
    this.#core.call('despawn', (r) => r.despawn(entity));
  }

  isAlive(entity) {
    checkEntity('world.isAlive', entity);
    return this.#core.call('isAlive', (r) => r.isAlive(entity));
  }

  /** Adds a component (or overwrites it whole): fields not given get default values. */
  add(entity, name, values) {
    const op = 'add';
    checkEntity(`world.${op}`, entity);
    this.#core.checkValues(op, name, values, true);
    this.#core.call(op, (r) => r.add(entity, name, values));
  }

  remove(entity, name) {
    checkEntity('world.remove', entity);
    this.#core.component('remove', name);
    this.#core.call('remove', (r) => r.remove(entity, name));
  }

  has(entity, name) {
    checkEntity('world.has', entity);
    this.#core.component('has', name);
    return this.#core.call('has', (r) => r.has(entity, name));
  }

  /** A plain object copy of the component's values ({} for a tag). */
  get(entity, name) {
    checkEntity('world.get', entity);
    this.#core.component('get', name);
    return this.#core.call('get', (r) => r.get(entity, name));
  }

  /** Writes some or all fields; the others keep their values. */
  set(entity, name, values) {
    const op = 'set';
    checkEntity(`world.${op}`, entity);
    this.#core.checkValues(op, name, values, false);
    this.#core.call(op, (r) => r.set(entity, name, values));
  }

  // ---- queries and storage

  /** Entities that have every component in `withNames` and none in `withoutNames`. */
  count(withNames = [], withoutNames = []) {
    const withList = this.#core.names('count', withNames);
    const withoutList = this.#core.names('count', withoutNames);
    return this.#core.call('count', (r) => r.count(withList, withoutList));
  }

  /** Zero-copy views over the columns of every table with `withNames` (see Chunk). */
  chunks(withNames = []) {
    const op = 'chunks';
    const core = this.#core;
    const names = core.names(op, withNames);
    const layouts = names.map((name) => core.component(op, name).layout);
    const rawChunks = core.call(op, (r) => r.chunks(names));
    const generation = this.storageGeneration;
    const { buffer } = core.engine.heapState();
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
    const generation = this.#core.call('storageGeneration', (r) => r.storageGeneration());
    return generation + this.#core.engine.heapState().epoch;
  }

  /** Whether a chunk from this world's chunks() still shows the world's data. */
  isCurrent(chunk) {
    return chunk instanceof Chunk && chunk.world === this && !this.#core.disposed &&
      chunk.generation === this.storageGeneration;
  }

  /** The 64-bit state hash as 16 hex digits: equal state, equal hash, in every build. */
  stateHash() {
    return this.#core.call('stateHash', (r) => r.stateHash());
  }

  /**
   * A scheduler over this world: { systems: ['Move', 'Bounce'], workers, config } (see
   * web/scheduler.js). Dispose it before the world.
   */
  createScheduler(options = {}) {
    this.#core.raw('createScheduler');
    return new Scheduler(this.#core, this, options);
  }

  /** Frees the world. Any later call throws; a second dispose does nothing. */
  dispose() {
    this.#core.dispose();
  }
}
