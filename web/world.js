// The World of the JS API: components, entities, values, queries, observers and bulk calls.
// Made by ecsia.createWorld(); its raw Embind world stays private (web/internal/). Types and the
// reference: web/world.d.ts.
//
// Errors: bad input throws an Error whose message names the operation and the problem, and the
// world is unchanged (G5). Errors from the engine also carry `.code` (e.g. 'StaleEntity').
// Entities are plain numbers (32-bit handles: index and generation).
// Thread rule: the page's main thread.

import { checkEntity, checkFunction, describe, isHandle, isOpaqueObject, isPlainObject, knownKeys } from './internal/checks.js';
import { MAX_BULK_COUNT, NULL_ENTITY, ON_DELETE_TARGETS, WHOLE_ELEMENT } from './internal/constants.js';
import { attachInternals } from './internal/engine.js';
import { restoreSnapshot, takeSnapshot } from './internal/snapshot.js';
import { align8, alignWide8, checkField, fitsF32, storeField, VIEW_TYPES, WorldCore } from './internal/world_core.js';
import { Chunk, Query } from './query.js';
import { Scheduler } from './scheduler.js';

export { Chunk, Query };

const OBSERVER_EVENTS = ['add', 'remove', 'change'];
const RELATION_OPTIONS = ['exclusive', 'onDeleteTarget', 'acyclic'];

// Extra arguments are an error, never ignored (a misplaced option must not pass silently).
// Callers test `arguments.length` themselves: handing `arguments` to a function makes V8
// allocate it on every call.
function arity(op, given, most) {
  throw new Error(`world.${op}: takes at most ${most} argument${most === 1 ? '' : 's'}, got ${given}`);
}

// A bulk call's entity count: the exports take it in 32 bits.
function checkBulkCount(op, count) {
  if (!Number.isInteger(count) || count < 0 || count > MAX_BULK_COUNT) throw new Error(`world.${op}: count must be a whole number from 0 to ${MAX_BULK_COUNT}, got ${describe(count)}`);
}

// Checks a { field: type } object of defineComponent or defineRelation (`what`: "component 'x'").
function checkFieldTypes(op, name, fields) {
  if (!isPlainObject(fields)) {
    throw new Error(`world.${op}('${name}'): fields must be an object of field types, got ${describe(fields)}`);
  }
  for (const [field, type] of Object.entries(fields)) {
    if (typeof type !== 'string' || !(type in VIEW_TYPES)) {
      throw new Error(`world.${op}('${name}'): field '${field}' has type ${describe(type)}; the types are ${Object.keys(VIEW_TYPES).join(', ')}`);
    }
  }
}

export class World {
  #core;
  #chunkQueries = new Map();  // chunks(with, without) key -> Query

  /** Made by ecsia.createWorld(); `raw` is the Embind world it takes over. */
  constructor(engine, raw) {
    this.#core = new WorldCore(engine, raw);
    attachInternals(this, this.#core);
    // The handler runs inside the engine's call that reports (a counted callback, as observers are).
    const core = this.#core;
    core.call('createWorld', (r) => r.setDiagnosticHandler((message) => {
      core.callbackDepth += 1;
      try {
        engine.diagnose(`ecsia: ${message}`);
      } finally {
        core.callbackDepth -= 1;
      }
    }));
  }

  get disposed() { return this.#core.disposed; }

  // ---- schema

  /**
   * Defines a component from { field: 'f32' | 'f64' | 'i8' | 'i16' | 'i32' | 'u8' | 'u16' | 'u32'
   * | 'bool' | 'entity' }. {} defines a tag (no values, no storage). Returns its description.
   * Defining a name again with identical fields (same names, types and order) returns the
   * existing description; different fields are an error.
   */
  defineComponent(name, fields) {
    const op = 'defineComponent';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    const core = this.#core;
    return this.#defineLayout(op, 'component', name, fields, () => core.component(op, name),
      () => core.call(op, (r) => r.defineComponent(name, fields)));
  }

  // defineComponent's and defineTopic's checks of the JS values (a non-empty name, field types);
  // the engine's rule then: a name defined again with identical fields (names, types, order) gives
  // its description, with others a DuplicateName.
  #defineLayout(op, what, name, fields, entry, define) {
    if (typeof name !== 'string' || name === '') {
      throw new Error(`world.${op}: a ${what} name must be a non-empty string, got ${describe(name)}`);
    }
    checkFieldTypes(op, name, fields);
    define();
    return entry().info;
  }

  // ---- topics: messages that systems publish and consume, each consumer once (docs/API.md)

  /**
   * Defines a topic: messages with `fields` as defineComponent takes them (at least one field).
   * Returns its description { id, name, size, fields }. Defining a name again with identical
   * fields returns the existing description; other fields are an error.
   */
  defineTopic(name, fields) {
    const op = 'defineTopic';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    const core = this.#core;
    return this.#defineLayout(op, 'topic', name, fields, () => core.topic(op, name),
      () => core.call(op, (r) => r.defineTopic(name, fields)));
  }

  /**
   * Publishes a message of `topic`: { field: value }, fields not given get default values (0,
   * false, null). It follows every message published before it; each system that consumes the
   * topic sees it once, in its next run. From the page between frames, or from a main-thread
   * system that declares the topic in `publishes` (a kernel publishes through commands.publish);
   * during a frame's wave it is refused (WrongPhase). Dropped at once when no system consumes it.
   */
  publish(topic, values) {
    const op = 'publish';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    const core = this.#core;
    const entry = core.topic(op, topic);
    if (!isPlainObject(values) || isOpaqueObject(values)) {
      throw new Error(`world.${op}: '${entry.name}' takes an object of field values, got ${describe(values)}`);
    }
    if (core.fast.publish(core.address, entry.id, core.encodeOne(op, entry, values)) === 0) core.fail(op);
  }

  // ---- entities
  //
  // Each call below crosses into wasm once: a C export (wasm/world_fast.cpp) that does the work
  // and returns a status; on failure core.fail() throws the engine's own error. Hot paths hold
  // no try block and allocate nothing but what they return. (set crosses a second time only when
  // a change observer must run after its write: see set.)

  /** Spawns an entity with components by name: { position: { x: 0, y: 0 }, frozen: true }. */
  spawn(components = {}) {
    if (arguments.length > 1) arity('spawn', arguments.length, 1);
    const core = this.#core;
    const entity = core.fast.spawn(core.address, core.encodeComponents('spawn', components)) >>> 0;
    if (entity === NULL_ENTITY) core.fail('spawn');
    return entity;
  }

  /**
   * Spawns `count` entities in one call: values per component and field are a number (every
   * entity gets it) or an array-like of `count` numbers (entity i gets element i); a component
   * given as true (or {}) gets default values. All or nothing: every value and the capacity are
   * checked before the first entity is made. Returns the new handles in order.
   */
  spawnMany(count, components = {}) {
    const op = 'spawnMany';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    const core = this.#core;
    checkBulkCount(op, count);
    if (!isPlainObject(components)) throw new Error(`world.${op}: takes an object of components by name, got ${describe(components)}`);
    const address = this.#encodeColumns(op, components, count);
    const handles = core.fast.spawnMany(core.address, count, address) >>> 0;
    if (handles === 0) core.fail(op);
    return new Uint32Array(core.engine.views().buffer, handles, count).slice();
  }

  /**
   * Defines a prefab: an entity holding the hidden Prefab tag, the components of `options.extends`
   * (a prefab) with its values, then `components` over them (a component the base has keeps the
   * base's values in the fields not given, as set() does), and the pair (IsA, base). Queries skip
   * prefabs unless asked ({ prefabs: true }). Returns its handle. Names are unique; a snapshot
   * carries them. Instances copy values: changing a prefab later changes no instance.
   */
  definePrefab(name, components = {}, options = {}) {
    const op = 'definePrefab';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    if (typeof name !== 'string' || name === '') throw new Error(`world.${op}: name must be a non-empty string, got ${describe(name)}`);
    if (!isPlainObject(options)) throw new Error(`world.${op}('${name}'): options must be an object { extends }, got ${describe(options)}`);
    knownKeys(`world.${op}('${name}')`, options, ['extends']);
    const base = options.extends ?? NULL_ENTITY;
    if (!isHandle(base)) checkEntity(`world.${op}('${name}'): extends`, base);
    const core = this.#core;
    const merged = base === NULL_ENTITY ? components : this.#overPrefab(op, base, components);
    const address = core.encodeComponents(op, merged);
    return core.call(op, (r) => r.definePrefab(name, base, address)) >>> 0;
  }

  /** The prefab named `name` (an error listing the defined prefabs when there is none). */
  prefab(name) {
    if (arguments.length > 1) arity('prefab', arguments.length, 1);
    if (typeof name !== 'string') throw new Error(`world.prefab: name must be a string, got ${describe(name)}`);
    return this.#core.call('prefab', (r) => r.prefab(name)) >>> 0;
  }

  /**
   * A new entity from `prefab`: the prefab's components with its values, `overrides` over them
   * (fields not given keep the prefab's values, as set() does; components the prefab lacks are
   * added, fields not given getting defaults), and the pair (IsA, prefab). Returns its handle.
   */
  instantiate(prefab, overrides = {}) {
    const op = 'instantiate';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    if (!isHandle(prefab)) checkEntity(`world.${op}`, prefab);
    const core = this.#core;
    const address = core.encodeComponents(op, this.#overPrefab(op, prefab, overrides));
    const entity = core.fast.instantiate(core.address, prefab, address) >>> 0;
    if (entity === NULL_ENTITY) core.fail(op);
    return entity;
  }

  /**
   * `count` instances of `prefab` in one call, values given as spawnMany takes them (per field a
   * number for every instance, or an array-like of `count`); as in instantiate(), fields not
   * given keep the prefab's values. All or nothing. Returns the new handles in order.
   */
  instantiateMany(prefab, count, overrides = {}) {
    const op = 'instantiateMany';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    if (!isHandle(prefab)) checkEntity(`world.${op}`, prefab);
    checkBulkCount(op, count);
    const core = this.#core;
    const components = this.#overPrefab(op, prefab, overrides);
    const address = this.#encodeColumns(op, components, count);
    const handles = core.fast.instantiateMany(core.address, prefab, count, address) >>> 0;
    if (handles === 0) core.fail(op);
    return new Uint32Array(core.engine.views().buffer, handles, count).slice();
  }

  // `components` with, for each one `prefab` has, the prefab's values in the fields not given
  // (one number per field, which spawnMany's value forms broadcast to every row). The prefab's
  // own checks (alive, a prefab) are the engine's when the call reaches it.
  #overPrefab(op, prefab, components) {
    if (!isPlainObject(components)) throw new Error(`world.${op}: takes an object of components by name, got ${describe(components)}`);
    const core = this.#core;
    let merged = null;
    for (const name of Object.keys(components)) {
      const entry = core.component(op, name);
      const given = components[name];
      if (entry.tag || !(given === true || given === null || given === undefined || isPlainObject(given))) continue;
      const holds = core.fast.has(core.address, prefab, entry.id);
      if (holds < 0) core.fail(op);  // a dead or stale prefab handle: the engine's error
      if (holds === 0) continue;
      const values = core.decodeElement(entry, core.fast.element(core.address, prefab, entry.id) >>> 0);
      if (isPlainObject(given)) {
        for (const key of Object.keys(given)) if (given[key] !== undefined) values[key] = given[key];
      }
      merged ??= { ...components };
      merged[name] = values;
    }
    return merged ?? components;
  }

  // `count` rows of `components` (spawnMany's value forms) encoded in scratch (encoded_values.hpp).
  #encodeColumns(op, components, count) {
    const core = this.#core;
    const entries = Object.keys(components).map((name) => core.component(op, name));
    const header = align8(4 * (1 + entries.length));
    let bytes = header;
    for (const entry of entries) bytes += alignWide8(entry.size * count);
    const address = core.scratch(bytes, op);
    const views = core.engine.views();
    const u32 = views.u32;
    u32[address >>> 2] = entries.length;
    core.reading(op, () => {
      let at = address + header;
      for (let c = 0; c < entries.length; c += 1) {
        const entry = entries[c];
        u32[(address >>> 2) + 1 + c] = entry.id;
        this.#encodeColumn(op, entry, components[entry.name], count, views, at);
        at += alignWide8(entry.size * count);
      }
    });
    return address;
  }

  despawn(entity) {
    if (arguments.length > 1) arity('despawn', arguments.length, 1);
    if (!isHandle(entity)) checkEntity('world.despawn', entity);
    const core = this.#core;
    if (core.fast.despawn(core.address, entity) === 0) core.fail('despawn');
  }

  /** Despawns every handle in `handles` (an array or Uint32Array); all or nothing. */
  despawnMany(handles) {
    const op = 'despawnMany';
    if (arguments.length > 1) arity(op, arguments.length, 1);
    const core = this.#core;
    const address = core.scratch(4 * this.#listLength(op, handles), op);
    const n = this.#handleList(op, handles, address);
    if (core.fast.despawnMany(core.address, address, n) === 0) core.fail(op);
  }

  isAlive(entity) {
    if (arguments.length > 1) arity('isAlive', arguments.length, 1);
    if (!isHandle(entity)) checkEntity('world.isAlive', entity);
    const core = this.#core;
    const alive = core.fast.isAlive(core.address, entity);
    if (alive < 0) core.fail('isAlive');
    return alive === 1;
  }

  /** Adds a component (or overwrites it whole): fields not given get default values. */
  add(entity, name, values) {
    const op = 'add';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    if (!isHandle(entity)) checkEntity(`world.${op}`, entity);
    const core = this.#core;
    const entry = core.component(op, name);
    if (core.fast.add(core.address, entity, entry.id, core.encodeOne(op, entry, values)) === 0) core.fail(op);
  }

  /**
   * Adds (or overwrites) one component on every entity of `handles` (an array or Uint32Array of
   * handles, none twice): `values` as spawnMany takes them, a number or an array-like of
   * handles.length numbers per field; none (or true) gives default values. All or nothing: the
   * handles, the values and the phase are checked before the first entity changes. Observers
   * fire as for add(), entity by entity in list order.
   */
  addMany(handles, name, values) {
    const op = 'addMany';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    const core = this.#core;
    const entry = core.component(op, name);
    const count = this.#listLength(op, handles);
    const listBytes = align8(4 * count);
    // The whole element for every entity, defaults where no value is given (add's rule: an
    // entity that has the component already gets it overwritten whole).
    const address = core.scratch(listBytes + entry.size * count, op);
    const views = core.engine.views();
    this.#handleList(op, handles, address);
    if (entry.tag) core.encodeOne(op, entry, values);  // throws for a field given
    else core.reading(op, () => this.#encodeColumn(op, entry, values, count, views, address + listBytes));
    const elements = entry.tag ? 0 : address + listBytes;
    if (core.fast.addMany(core.address, address, count, entry.id, elements) === 0) core.fail(op);
  }

  remove(entity, name) {
    if (arguments.length > 2) arity('remove', arguments.length, 2);
    if (!isHandle(entity)) checkEntity('world.remove', entity);
    const core = this.#core;
    if (core.fast.remove(core.address, entity, core.component('remove', name).id) === 0) core.fail('remove');
  }

  /**
   * Removes one component from every entity of `handles` that has it (an array or Uint32Array
   * of handles, none twice). All or nothing, like addMany.
   */
  removeMany(handles, name) {
    const op = 'removeMany';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    const core = this.#core;
    const { id } = core.component(op, name);
    const count = this.#listLength(op, handles);
    const address = core.scratch(4 * count, op);
    this.#handleList(op, handles, address);
    if (core.fast.removeMany(core.address, address, count, id) === 0) core.fail(op);
  }

  has(entity, name) {
    if (arguments.length > 2) arity('has', arguments.length, 2);
    if (!isHandle(entity)) checkEntity('world.has', entity);
    const core = this.#core;
    const result = core.fast.has(core.address, entity, core.component('has', name).id);
    if (result < 0) core.fail('has');
    return result === 1;
  }

  /** A plain object copy of the component's values ({} for a tag). */
  get(entity, name) {
    if (arguments.length > 2) arity('get', arguments.length, 2);
    if (!isHandle(entity)) checkEntity('world.get', entity);
    const core = this.#core;
    const entry = core.component('get', name);
    const address = core.fast.element(core.address, entity, entry.id) >>> 0;
    if (address === 0) core.fail('get');
    return entry.tag ? {} : core.decodeElement(entry, address);
  }

  /** Writes some or all fields; the others keep their values. The change is tracked. */
  set(entity, name, values) {
    const op = 'set';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    if (!isHandle(entity)) checkEntity(`world.${op}`, entity);
    const core = this.#core;
    const entry = core.component(op, name);
    if (entry.fields.length >= 32) return this.#setWide(entity, entry, values);
    // Values first (a bad one throws before anything changes), then one crossing that checks the
    // world's side, marks the change and says where the element is: written in place.
    const mask = core.stageValues(op, entry, values);
    const address = core.fast.setInPlace(core.address, entity, entry.id) >>> 0;
    if (address > 1) {
      core.writeStaged(entry, address, mask);
      return;
    }
    if (address === 0) core.fail(op);
    // A change observer of it, or something queued to flush: the set export writes the element
    // from scratch and then runs them.
    const scratch = core.scratch(entry.size, op);
    core.writeStaged(entry, scratch, mask);
    if (core.fast.set(core.address, entity, entry.id, scratch, mask) === 0) core.fail(op);
  }

  /**
   * Marks a component changed for `changed` queries and change observers, after writes through
   * views made outside a system that declares it: an entity's component, or every row of a chunk.
   */
  markChanged(entityOrChunk, name) {
    const op = 'markChanged';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    const core = this.#core;
    const entry = core.component(op, name);
    if (entityOrChunk instanceof Chunk) {
      if (entityOrChunk.world !== this) throw new Error(`world.${op}: the chunk belongs to another world`);
      if (entityOrChunk.stale) throw new Error(`world.${op}: the chunk is stale (the world's structure changed since it was fetched): fetch chunks again`);
      const [table, begin, rows] = Chunk.rowsOf(entityOrChunk);
      core.call(op, (r) => r.markRowsChanged(table, entry.id, begin, begin + rows));
      return;
    }
    checkEntity(`world.${op}`, entityOrChunk);
    if (core.fast.markChanged(core.address, entityOrChunk, entry.id) === 0) core.fail(op);
  }

  // ---- relations: pairs (relation, target entity) on a subject entity
  //
  // A relation is defined like a component (a tag, or fields: each pair's own data) and shares
  // the components' names. Each pair call crosses into wasm once (wasm/world_pairs.cpp) and the
  // engine's own error comes back on failure (a dead or stale handle, a component named where a
  // relation belongs, a ChildOf cycle, a missing pair), the world unchanged. Orders: targetsOf
  // ascending target index, subjectsOf ascending subject index (src/ecsia/relation/relation.hpp),
  // so they depend on the pairs only, never on the order they were added.

  /**
   * Defines a relation: `fields` as defineComponent takes them ({} or none: a tag relation, pairs
   * without data); options { exclusive (false), onDeleteTarget ('remove' | 'delete'; 'remove'),
   * acyclic (false) }. Returns its description. Defining a name again with the same fields and
   * options returns the existing description (ChildOf and IsA are built in); anything else is
   * an error.
   */
  defineRelation(name, fields = {}, options = {}) {
    const op = 'defineRelation';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    if (typeof name !== 'string' || name === '') {
      throw new Error(`world.${op}: a relation name must be a non-empty string, got ${describe(name)}`);
    }
    checkFieldTypes(op, name, fields);
    if (!isPlainObject(options)) throw new Error(`world.${op}('${name}'): options must be an object, got ${describe(options)}`);
    knownKeys(`world.${op}('${name}')`, options, RELATION_OPTIONS);
    for (const key of ['exclusive', 'acyclic']) {
      if (options[key] !== undefined && typeof options[key] !== 'boolean') {
        throw new Error(`world.${op}('${name}'): ${key} must be true or false, got ${describe(options[key])}`);
      }
    }
    // Left out means 'remove'; null is refused, as it is for exclusive and acyclic.
    const onDeleteTarget = options.onDeleteTarget === undefined ? 'remove' : options.onDeleteTarget;
    if (!ON_DELETE_TARGETS.includes(onDeleteTarget)) {
      throw new Error(`world.${op}('${name}'): onDeleteTarget must be ${ON_DELETE_TARGETS.map((v) => `'${v}'`).join(' or ')}, got ${describe(options.onDeleteTarget)}`);
    }
    const wanted = { exclusive: options.exclusive ?? false, onDeleteTarget, acyclic: options.acyclic ?? false };
    const core = this.#core;
    // The engine's rule: the same definition again gives the relation; another is DuplicateName.
    core.call(op, (r) => r.defineRelation(name, fields, wanted));
    return core.relation(op, name).info;
  }

  /**
   * Adds the pair (relation, target) to `subject` with data `values` (fields not given get
   * default values; none for a tag relation), or overwrites an existing pair's data whole, like
   * add(). An exclusive relation's other target is replaced (its remove observers, then add).
   */
  addPair(subject, relation, target, values) {
    const op = 'addPair';
    if (arguments.length > 4) arity(op, arguments.length, 4);
    if (!isHandle(subject)) checkEntity(`world.${op}`, subject);
    const core = this.#core;
    const to = core.pairTarget(op, target, false);
    const entry = core.relation(op, relation);
    if (core.fast.addPair(core.address, subject, entry.id, to, core.encodeOne(op, entry, values)) === 0) core.fail(op);
  }

  /** Writes some or all fields of an existing pair's data; the others keep their values. */
  setPair(subject, relation, target, values) {
    const op = 'setPair';
    if (arguments.length > 4) arity(op, arguments.length, 4);
    if (!isHandle(subject)) checkEntity(`world.${op}`, subject);
    const core = this.#core;
    const to = core.pairTarget(op, target, false);
    const entry = core.relation(op, relation);
    let mask;
    let address;
    if (entry.fields.length < 32) {
      mask = core.stageValues(op, entry, values);
      address = core.scratch(entry.size, op);
      core.writeStaged(entry, address, mask);
    } else {
      // Beyond what the export's field mask tells apart: the whole element, the rest copied from
      // the pair's current data.
      const current = core.fast.getPair(core.address, subject, entry.id, to) >>> 0;
      if (current === 0) core.fail(op);
      address = core.scratch(entry.size, op);
      const views = core.engine.viewsCovering(address + entry.size);
      views.u8.copyWithin(address, current, current + entry.size);
      core.reading(op, () => core.encodeElement(op, entry, values, views, address, false));
      mask = WHOLE_ELEMENT;
    }
    if (core.fast.setPair(core.address, subject, entry.id, to, address, mask) === 0) core.fail(op);
  }

  /**
   * A copy of the pair's data; {} for a pair of a tag relation (like get() of a tag). An error
   * when the subject has no such pair.
   */
  getPair(subject, relation, target) {
    const op = 'getPair';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    if (!isHandle(subject)) checkEntity(`world.${op}`, subject);
    const core = this.#core;
    const to = core.pairTarget(op, target, false);
    const entry = core.relation(op, relation);
    const address = core.fast.getPair(core.address, subject, entry.id, to) >>> 0;
    if (address === 0) core.fail(op);
    return entry.tag ? {} : core.decodeElement(entry, address);  // a tag relation's pair: address 1, no data
  }

  /** Whether `subject` has the pair; target '*': any pair of the relation. */
  hasPair(subject, relation, target) {
    const op = 'hasPair';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    if (!isHandle(subject)) checkEntity(`world.${op}`, subject);
    const core = this.#core;
    const to = core.pairTarget(op, target, true);
    const result = core.fast.hasPair(core.address, subject, core.relation(op, relation).id, to);
    if (result < 0) core.fail(op);
    return result === 1;
  }

  /** Removes the pair if `subject` has it (absent is fine, like remove()); target '*': every pair of the relation. */
  removePair(subject, relation, target) {
    const op = 'removePair';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    if (!isHandle(subject)) checkEntity(`world.${op}`, subject);
    const core = this.#core;
    const to = core.pairTarget(op, target, true);
    if (core.fast.removePair(core.address, subject, core.relation(op, relation).id, to) === 0) core.fail(op);
  }

  /** An exclusive relation's one target of `subject` (ChildOf: its parent), or null; an error for a non-exclusive relation. */
  targetOf(subject, relation) {
    const op = 'targetOf';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    if (!isHandle(subject)) checkEntity(`world.${op}`, subject);
    const core = this.#core;
    const target = core.fast.targetOf(core.address, subject, core.relation(op, relation).id);
    if (target < 0) core.fail(op);
    return target === NULL_ENTITY ? null : target;
  }

  /** Every target of `subject`'s pairs of the relation, in ascending entity index order. */
  targetsOf(subject, relation) {
    const op = 'targetsOf';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    if (!isHandle(subject)) checkEntity(`world.${op}`, subject);
    const core = this.#core;
    return this.#entityList(op, core.fast.targetsOf(core.address, subject, core.relation(op, relation).id));
  }

  /**
   * Every subject with the pair (relation, target), in ascending entity index order; target '*':
   * every subject with any pair of the relation, each once.
   */
  subjectsOf(relation, target) {
    const op = 'subjectsOf';
    if (arguments.length > 2) arity(op, arguments.length, 2);
    const core = this.#core;
    const to = core.pairTarget(op, target, true);
    return this.#entityList(op, core.fast.subjectsOf(core.address, core.relation(op, relation).id, to));
  }

  // The [count, handle...] list an export returned (0: it failed) as an array of handles.
  #entityList(op, address) {
    const core = this.#core;
    if ((address >>> 0) === 0) core.fail(op);
    const u32 = core.engine.views().u32;
    const at = (address >>> 0) >>> 2;
    return Array.from(u32.subarray(at + 1, at + 1 + u32[at]));
  }

  // ---- looking inside (what the devtools panel shows: web/devtools.js)

  /**
   * What the world holds now: { entities, maxEntities, archetypes: [{ components, relations,
   * prefab, rows, bytes }], memory: { heapBytes, allocatedBytes, tableBytes } }. An archetype is
   * a table of rows with the same components (tags too) and the same relations they have pairs
   * of; bytes counts its rows' values and handles. Archetypes with no rows are left out.
   */
  inspect() {
    if (arguments.length > 0) arity('inspect', arguments.length, 0);
    return this.#core.call('inspect', (r) => r.inspect());
  }

  /** The names of the entity's components (tags too), in definition order; StaleEntity when it is not alive. */
  componentsOf(entity) {
    return this.#signatureOf('componentsOf', entity, arguments.length).components;
  }

  /** The entity's pairs as [relation, target], by relation in definition order, then in ascending target index order (as targetsOf). */
  pairsOf(entity) {
    const op = 'pairsOf';
    const { relations } = this.#signatureOf(op, entity, arguments.length);
    const core = this.#core;
    return relations.flatMap((relation) =>
      this.#entityList(op, core.fast.targetsOf(core.address, entity, core.relation(op, relation).id)).map((target) => [relation, target]));
  }

  #signatureOf(op, entity, given) {
    if (given > 1) arity(op, given, 1);
    if (!isHandle(entity)) checkEntity(`world.${op}`, entity);
    return this.#core.call(op, (r) => r.componentsOf(entity));
  }

  // ---- queries and storage

  /** Entities that have every component in `withNames` and none in `withoutNames`. */
  count(withNames = [], withoutNames = []) {
    if (arguments.length > 2) arity('count', arguments.length, 2);
    const withList = this.#core.names('count', withNames);
    const withoutList = this.#core.names('count', withoutNames);
    return this.#core.call('count', (r) => r.count(withList, withoutList));
  }

  /**
   * A cached query: { with, without, optional, changed, added } (arrays of component names) and
   * { pairs, withoutPairs } (arrays of [relation, target or '*']).
   * See Query in web/query.js: chunks(), count(), iteration.
   */
  query(spec) {
    if (arguments.length > 1) arity('query', arguments.length, 1);
    this.#core.raw('query');
    return new Query(this, this.#core, spec);
  }

  /**
   * Zero-copy views over the columns of every table with all of `withNames` and none of
   * `withoutNames` (see Chunk). The same as world.query({ with, without }).chunks(), cached.
   */
  chunks(withNames = [], withoutNames = []) {
    if (arguments.length > 2) arity('chunks', arguments.length, 2);
    const core = this.#core;
    const withList = core.names('chunks', withNames);
    const withoutList = core.names('chunks', withoutNames);
    const key = `${withList.join('\u0000')}\u0001${withoutList.join('\u0000')}`;
    let query = this.#chunkQueries.get(key);
    if (query === undefined) {
      query = new Query(this, core, { with: withList, without: withoutList }, 'world.chunks');
      this.#chunkQueries.set(key, query);
    }
    return query.chunks();
  }

  /**
   * Changes whenever views from chunks() must be re-fetched because memory moved: a column
   * moved, a table appeared, or the wasm heap grew. (Chunk.stale also covers row changes.)
   */
  get storageGeneration() {
    return this.#core.viewGeneration();
  }

  /** Whether a chunk from this world still shows the world's data (not stale). */
  isCurrent(chunk) {
    const core = this.#core;
    return chunk instanceof Chunk && chunk.world === this && !core.disposed &&
      chunk.generation === core.viewGeneration() && Chunk.versionOf(chunk) === core.structureVersion();
  }

  // ---- observers

  /**
   * Calls fn(entity) when `name` is added to an entity ('add', also at spawn), removed from one
   * ('remove', also at despawn, while its values can still be read) or changed ('change': a
   * tracked write, at the next flush). `name` a relation: fn(subject, target) when one of its
   * pairs is added or removed (also when an exclusive pair is replaced, and when a despawn
   * removes pairs; no 'change'). Same points and order as the engine's C++ observers: by
   * the order of the changes, then of registration. fn must not make structural changes. A
   * throwing fn becomes a diagnostic naming it; the rest goes on. Returns unsubscribe().
   */
  observe(event, name, fn) {
    const op = 'observe';
    if (arguments.length > 3) arity(op, arguments.length, 3);
    if (!OBSERVER_EVENTS.includes(event)) {
      throw new Error(`world.${op}: the event must be 'add', 'remove' or 'change', got ${describe(event)}`);
    }
    const core = this.#core;
    // A relation's observers see its pairs: fn(subject, target); the engine refuses 'change'.
    const relation = core.isRelation(op, name);
    if (relation) core.relation(op, name);
    else core.component(op, name);
    checkFunction(`world.${op}`, 'the callback', fn);
    const label = `the '${event}' observer of ${relation ? 'relation ' : ''}'${name}'${fn.name ? ` (${fn.name})` : ''}`;
    const id = core.call(op, (r) => r.observe(event, name, (entity, target) => {
      core.callbackDepth += 1;
      try {
        if (relation) fn(entity >>> 0, target >>> 0);
        else fn(entity >>> 0);
      } catch (error) {
        core.report(`${label} threw for entity ${entity >>> 0}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        core.callbackDepth -= 1;
      }
    }));
    let subscribed = true;
    return () => {
      if (!subscribed || this.#core.disposed) return;
      subscribed = false;
      this.#core.call('unobserve', (r) => r.unobserve(id));
    };
  }

  /** The 64-bit state hash as 16 hex digits: equal state, equal hash, in every build. */
  stateHash() {
    if (arguments.length > 0) arity('stateHash', arguments.length, 0);
    return this.#core.call('stateHash', (r) => r.stateHash());
  }

  /**
   * The world's whole state as bytes (docs/SNAPSHOT.md): entities with their generations and the
   * free list, every component value, change ticks and the schedulers' cursors, so that restore()
   * and the same systems replay every later frame exactly. The same bytes natively and in both
   * builds. Between frames only (throws WrongPhase inside a frame or a JS system).
   * `into` (optional): a Uint8Array to reuse, as a ring of snapshots does; when it is large enough
   * the snapshot is written at its start and into.subarray(0, size) is returned, otherwise a new
   * Uint8Array (allocating a fresh one costs more than the copy itself).
   */
  snapshot(into) {
    if (arguments.length > 1) arity('snapshot', arguments.length, 1);
    return takeSnapshot(this.#core, into);
  }

  /**
   * Replaces the world's state with a snapshot's: one of this world's, or of any world (native or
   * browser) with the same components (matched by name and field layout) and maxEntities.
   * Throws BadSnapshot (truncated, corrupt, another version) or SnapshotMismatch (a component
   * missing or defined differently) and then leaves the world exactly as it was. Chunks taken
   * before are stale afterwards. Between frames only. The first restore of a table allocates
   * spare memory as large as its columns (docs/SNAPSHOT.md "Speed"), which later restores reuse.
   */
  restore(bytes) {
    if (arguments.length > 1) arity('restore', arguments.length, 1);
    restoreSnapshot(this.#core, bytes);
  }

  /**
   * A scheduler over this world: { systems: ['Move', 'Bounce'], workers, config } (see
   * web/scheduler.js). Disposing the world disposes its schedulers first.
   */
  createScheduler(options = {}) {
    if (arguments.length > 1) arity('createScheduler', arguments.length, 1);
    this.#core.raw('createScheduler');
    return new Scheduler(this.#core, this, options);
  }

  /** Frees the world (and its schedulers and queries). Any later call throws; a second dispose does nothing. */
  dispose() {
    if (arguments.length > 0) throw new Error(`world.dispose: takes no arguments, got ${arguments.length}`);
    this.#core.dispose();
  }

  // The length of a list of handles (an array or a typed array of integers).
  #listLength(op, handles) {
    if (!(Array.isArray(handles) || ArrayBuffer.isView(handles)) || handles instanceof DataView) {
      throw new Error(`world.${op}: takes an array or Uint32Array of entity handles, got ${describe(handles)}`);
    }
    return handles.length;
  }

  // Checks that `handles` holds handles (JS numbers that are 32-bit handles) and copies them to
  // `at` in scratch. Returns their count. Whether each is alive, and given once, is the engine's
  // to check.
  #handleList(op, handles, at) {
    const n = this.#listLength(op, handles);
    const core = this.#core;
    const u32 = core.engine.views().u32;
    if (handles instanceof Uint32Array) {
      u32.set(handles, at >>> 2);
      return n;
    }
    // An array's elements may be getters, or a Proxy's.
    core.reading(op, () => {
      for (let i = 0; i < n; i += 1) {
        const e = handles[i];
        if (!isHandle(e)) {
          throw new Error(`world.${op}: handles[${i}] is ${describe(e)}, not an entity handle; nothing was changed`);
        }
        u32[(at >>> 2) + i] = e;
      }
    });
    return n;
  }

  // set() of a component with 32 fields or more (beyond what the export's field mask tells
  // apart from "the whole element"): the whole element, the rest copied from the current values.
  #setWide(entity, entry, values) {
    const core = this.#core;
    const current = core.fast.element(core.address, entity, entry.id) >>> 0;
    if (current === 0) core.fail('set');
    const address = core.scratch(entry.size, 'set');
    const views = core.engine.viewsCovering(address + entry.size);
    views.u8.copyWithin(address, current, current + entry.size);
    core.reading('set', () => core.encodeElement('set', entry, values, views, address, false));
    if (core.fast.set(core.address, entity, entry.id, address, WHOLE_ELEMENT) === 0) core.fail('set');
  }

  // spawnMany's values of one component for `count` rows, written as the column lays them out.
  #encodeColumn(op, entry, values, count, views, at) {
    const { u8, dv } = views;
    const size = entry.size;
    if (size !== 0) {
      // Defaults first (zero bytes; entity fields null), then the fields given.
      u8.fill(0, at, at + size * count);
      for (const field of entry.fields) {
        if (field.type !== 'entity') continue;
        for (let i = 0; i < count; i += 1) dv.setUint32(at + i * size + field.offset, NULL_ENTITY, true);
      }
    }
    if (values === undefined || values === null || values === true) return;
    if (!isPlainObject(values)) {
      throw new Error(`world.${op}: '${entry.name}' takes an object of fields (a number or an array of ${count} numbers each) or true, got ${describe(values)}`);
    }
    for (const key of Object.keys(values)) {
      const field = entry.byName[key];
      if (field === undefined) {
        throw new Error(entry.tag
          ? `world.${op}: '${entry.name}' is a tag and has no field '${key}'`
          : `world.${op}: '${entry.name}' has no field '${key}' (fields: ${entry.fields.map((f) => f.name).join(', ')})`);
      }
      const value = values[key];
      if (value === undefined) continue;
      const where = `world.${op}`;
      if (typeof value !== 'object' || value === null) {
        const v = checkField(where, entry.name, field, value);
        for (let i = 0; i < count; i += 1) storeField(dv, at + i * size + field.offset, field.type, v);
        continue;
      }
      if (typeof value.length !== 'number' || value instanceof DataView) {
        throw new Error(`${where}: field '${entry.name}.${key}' takes a number or an array of ${count} numbers, got ${describe(value)}`);
      }
      if (value.length !== count) {
        throw new Error(`${where}: field '${entry.name}.${key}' has ${value.length} values for ${count} entities`);
      }
      this.#encodeFieldArray(where, entry, field, value, count, views, at);
    }
  }

  // One field for `count` rows from an array-like; a typed-array store loop where the column is
  // homogeneous f32 (the common case), checking every value (NaN is an error).
  #encodeFieldArray(where, entry, field, values, count, views, at) {
    const size = entry.size;
    const layout = entry.layout;
    if (field.type === 'f32' && layout.View === Float32Array && (at & 3) === 0) {
      const f32 = new Float32Array(views.buffer, at, count * layout.stride);
      const stride = layout.stride;
      const offset = layout.offsets[field.name];
      for (let i = 0; i < count; i += 1) {
        const v = values[i];
        if (!fitsF32(v)) {
          checkField(`${where} (entity ${i})`, entry.name, field, v);  // throws the worded error
        }
        f32[i * stride + offset] = v;
      }
      return;
    }
    const dv = views.dv;
    for (let i = 0; i < count; i += 1) {
      storeField(dv, at + i * size + field.offset, field.type, checkField(`${where} (entity ${i})`, entry.name, field, values[i]));
    }
  }
}
