// Query and Chunk of the JS API: world.query({ with, without, optional, changed, added, pairs,
// withoutPairs }) returns a cached Query; query.chunks() gives zero-copy views over the matching rows, table by table.
// The raw QueryBinding (wasm/query_binding.hpp) keeps the matched tables and the query's own
// change cursor. Small worlds call chunks() many times a frame, so its fixed cost is kept small:
// while nothing structural changed (and the query has no changed/added terms) a call is one
// direct wasm call and a copy of the last array of the same Chunk objects; after a change, a
// re-fetch reads O(tables) numbers from the heap and keeps every chunk (or at least its views)
// whose record is unchanged (no per-call copy proportional to the entity count).
// Thread rule: the page's main thread.

import { describe, isPlainObject, knownKeys } from './internal/checks.js';

const TERMS = ['with', 'without', 'optional', 'changed', 'added'];
const PAIR_TERMS = ['pairs', 'withoutPairs'];

// A Query the page dropped frees its raw binding (its cached tables and records); the world frees
// the rest when it is disposed. The held value must not reference the Query itself.
const collected = new FinalizationRegistry(({ core, raw }) => core.freeQuery(raw));

/**
 * One run of rows of one table: `count` rows, their `entities` (a view) and a zero-copy view per
 * component in `columns` (row i's field f is columns[name][i * strides[name] + offsets[name][f]];
 * a DataView with byte strides and offsets for components of mixed field types). Every view is
 * valid while `stale` is false: a structural change (spawn, despawn, add, remove, a frame's
 * commands), a column move or heap growth makes the chunk stale; fetch chunks again then. A pair
 * change moves no row (pairs live outside the tables): a chunk a pair term selected stays current
 * and keeps the rows that had the pair when it was fetched.
 * Writes through the views are not change-tracked unless made by a main-thread system that
 * declares the component in `writes` through views it fetched while it ran (its own query's or
 * any other query's chunks), or marked with world.markChanged(chunk, name).
 */
export class Chunk {
  #world;
  #version;  // the world's structure version when made
  /** @internal the table index and first row, for markChanged */
  #table;
  #begin;

  constructor(world, generation, version, table, begin, count, entities, columns, strides, offsets, depth = 0, parent = undefined) {
    this.#world = world;
    this.#version = version;
    this.#table = table;
    this.#begin = begin;
    this.generation = generation;
    this.count = count;
    this.entities = entities;
    this.columns = columns;
    this.strides = strides;
    this.offsets = offsets;
    /** A cascade system's level (0: rows without a parent); 0 for other chunks. */
    this.depth = depth;
    /** A cascade system's chunk below depth 0: each row's parent's values of its parentReads. */
    this.parent = parent;
    Object.freeze(this);
  }

  get world() { return this.#world; }
  /** True once the views may no longer show the world's data. */
  get stale() { return !this.#world.isCurrent(this); }

  /** @internal */
  static versionOf(chunk) { return chunk.#version; }
  /** @internal [table, first row, rows] */
  static rowsOf(chunk) { return [chunk.#table, chunk.#begin, chunk.count]; }
}

/**
 * Checks a query spec; returns { with, without, optional, changed, added } as name lists and
 * { pairs, withoutPairs } as lists of [relation, target or '*'], plus, not enumerable,
 * `pairIds` and `withoutPairIds`: the pair terms as [relation id, target bits, ...] ('*' is
 * ANY_TARGET), which the engine takes.
 */
export function querySpec(core, op, spec) {
  if (!isPlainObject(spec)) throw new Error(`${op}: takes { with, without, optional, changed, added, pairs, withoutPairs }, got ${describe(spec)}`);
  knownKeys(op, spec, [...TERMS, ...PAIR_TERMS, 'prefabs'], 'the query');
  if (spec.prefabs !== undefined && typeof spec.prefabs !== 'boolean') {
    throw new Error(`${op}: prefabs must be true or false (match prefab entities too), got ${describe(spec.prefabs)}`);
  }
  const out = {};
  for (const term of TERMS) {
    const value = spec[term] === undefined ? [] : spec[term];  // null is refused, as for prefabs
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list)) throw new Error(`${op}: ${term} must be an array of component names, got ${describe(value)}`);
    for (const name of list) {
      if (typeof name !== 'string') throw new Error(`${op}: ${term} must hold component names, got ${describe(name)}`);
      core.component(op, name);
    }
    out[term] = [...list];
  }
  for (const name of out.without) {
    for (const term of ['with', 'optional', 'changed', 'added']) {
      if (out[term].includes(name)) throw new Error(`${op}: '${name}' is in both without and ${term}`);
    }
  }
  const { pairs, withoutPairs, pairIds, withoutPairIds } = pairTerms(core, op, spec);
  out.pairs = pairs;
  out.withoutPairs = withoutPairs;
  out.prefabs = spec.prefabs === true;
  Object.defineProperty(out, 'pairIds', { value: pairIds });
  Object.defineProperty(out, 'withoutPairIds', { value: withoutPairIds });
  return out;
}

/**
 * A spec's pair terms, `pairs` and `withoutPairs` (each a list of [relation, target or '*']),
 * checked: { pairs, withoutPairs } as given (frozen copies) and { pairIds, withoutPairIds } as
 * [relation id, target bits, ...] ('*' is ANY_TARGET), which the engine takes. Throws naming
 * `op` for a bad shape, an unknown relation (the engine's error), a bad target, or a pair in both.
 */
export function pairTerms(core, op, spec) {
  const out = {};
  const ids = {};
  for (const term of PAIR_TERMS) {
    const value = spec[term] === undefined ? [] : spec[term];
    if (!Array.isArray(value)) throw new Error(`${op}: ${term} must be an array of [relation, target] pairs, got ${describe(value)}`);
    const flat = [];
    out[term] = value.map((pair, i) => {
      if (!Array.isArray(pair) || pair.length !== 2) {
        throw new Error(`${op}: ${term}[${i}] must be [relation, target] (the target an entity or '*'), got ${describe(pair)}`);
      }
      const [relation, target] = pair;
      flat.push(core.relation(op, relation).id, core.pairTarget(`${op}: ${term}[${i}]`, target, true));
      return Object.freeze([relation, target]);
    });
    ids[term] = flat;
  }
  for (let i = 0; i < ids.pairs.length; i += 2) {
    for (let j = 0; j < ids.withoutPairs.length; j += 2) {
      if (ids.pairs[i] === ids.withoutPairs[j] && ids.pairs[i + 1] === ids.withoutPairs[j + 1]) {
        throw new Error(`${op}: the pair ['${out.pairs[i / 2][0]}', ${describe(out.pairs[i / 2][1])}] is in both pairs and withoutPairs`);
      }
    }
  }
  return { pairs: out.pairs, withoutPairs: out.withoutPairs, pairIds: ids.pairs, withoutPairIds: ids.withoutPairs };
}

export class Query {
  #world;
  #core;
  #raw;
  #columns;       // [{ name, layout }] of the components whose views chunks carry
  #words;         // uint32 words per record
  #chunks = [];   // the last chunks() result, reused while records repeat
  #records = new Uint32Array(0);  // a copy of the records #chunks were made from
  #filters;       // whether changed/added terms exist (the cursor moves)
  #address;       // the raw binding's address, for the C export below
  #unchanged;     // ecsia_query_unchanged (wasm/bind_query.cpp): 1 while the last records hold
  #fresh = false; // #chunks show the raw binding's current records

  /** Made by world.query(spec). */
  constructor(world, core, spec, op = 'world.query') {
    const terms = querySpec(core, op, spec);
    this.#world = world;
    this.#core = core;
    const names = [];
    for (const term of ['with', 'changed', 'added', 'optional']) {
      for (const name of terms[term]) {
        if (!names.includes(name) && core.component('query', name).layout !== null) names.push(name);
      }
    }
    this.#columns = names.map((name) => ({ name, layout: core.component('query', name).layout }));
    this.#filters = terms.changed.length > 0 || terms.added.length > 0;
    const module = core.engine.module;
    const rawWorld = core.raw('query');
    this.#raw = core.engine.call(op, () => new module.Query(rawWorld, terms.with, terms.without, terms.optional,
      terms.changed, terms.added, terms.pairIds, terms.withoutPairIds, terms.prefabs, names));
    this.#words = this.#raw.recordWords();
    this.#address = this.#raw.address();
    this.#unchanged = core.engine.direct('_ecsia_query_unchanged');
    /** The terms, as given (names). */
    this.terms = Object.freeze(terms);
    core.trackQuery(this.#raw);
    collected.register(this, { core, raw: this.#raw });
  }

  /**
   * The chunks of the rows the query selects now. With changed/added terms: the rows changed or
   * added since this query's previous chunks() (the first call sees every matching row).
   */
  chunks() {
    if (arguments.length > 0) throw new Error(`query.chunks: takes no arguments, got ${arguments.length}`);
    const core = this.#core;
    const raw = this.#liveRaw('chunks');
    let chunks;
    if (this.#current()) {
      chunks = this.#chunks.slice();
    } else {
      const advance = core.callbackDepth === 0;
      this.#fresh = false;
      const n = core.engine.call('query.chunks', () => raw.fetch(advance));
      chunks = this.#read(n);
    }
    // A main-thread system's declared writes through these views are change-tracked too.
    const views = core.systemViews;
    if (views !== null) {
      for (let i = 0; i < chunks.length; i += 1) views.push(chunks[i]);
    }
    return chunks;
  }

  /** Rows chunks() would select now (the change cursor does not move). */
  count() {
    if (arguments.length > 0) throw new Error(`query.count: takes no arguments, got ${arguments.length}`);
    const raw = this.#liveRaw('count');
    return this.#core.engine.call('query.count', () => raw.count());
  }

  [Symbol.iterator]() { return this.chunks()[Symbol.iterator](); }

  /** @internal the raw query a main-thread system's chunks are selected with (by the scheduler) */
  rawForSystem() {
    return this.#liveRaw('chunks');
  }

  /**
   * @internal the `n` chunks the scheduler selected for a main-thread system's run; for a cascade
   * system's level, with their `depth` and, below depth 0, `parent` views of the `parentReads`
   * (layouts by name) over the values the engine gathered, whose addresses are at `parents`
   * (uint32 words, parentReads.length per chunk)
   */
  chunksForSystem(n, depth = 0, parents = 0, parentReads = []) {
    this.#liveRaw('chunks');
    const chunks = this.#read(n);
    if (depth === 0) return chunks;
    const { buffer, u32 } = this.#core.engine.views();
    const base = (parents >>> 0) >>> 2;
    return chunks.map((chunk, i) => {
      const parent = {};
      parentReads.forEach(({ name, layout }, k) => {
        const address = u32[base + i * parentReads.length + k];
        parent[name] = layout.View === DataView
          ? new DataView(buffer, address, chunk.count * layout.stride)
          : new layout.View(buffer, address, chunk.count * layout.stride);
      });
      const [table, begin] = Chunk.rowsOf(chunk);
      return new Chunk(this.#world, chunk.generation, Chunk.versionOf(chunk), table, begin, chunk.count, chunk.entities,
        chunk.columns, chunk.strides, chunk.offsets, depth, Object.freeze(parent));
    });
  }

  get filters() { return this.#filters; }

  /**
   * Whether the last chunks are still what a fetch would return, views and generation included:
   * the query has no changed/added terms, and since the binding wrote their records no row was
   * added, removed or moved, no column moved and the heap did not grow (one direct wasm call).
   * The views' buffer is then the one #read saw: it read the heap's buffer after that fetch, and
   * only growth replaces it.
   */
  #current() {
    return this.#fresh && !this.#filters && this.#unchanged(this.#address) === 1;
  }

  // Chunks of the raw binding's n current records. A record equal to the previous call's record
  // at the same index keeps that chunk (same world structure) or at least its views (same
  // storage generation and heap: the same addresses and row counts over the same buffer).
  #read(n) {
    const core = this.#core;
    const generation = core.viewGeneration();
    const version = core.structureVersion();
    const { buffer, u32 } = core.engine.views();
    const base = (this.#raw.records() >>> 0) >>> 2;
    const words = this.#words;
    const previous = this.#chunks;
    const before = this.#records;
    const columns = this.#columns;
    const out = new Array(n);
    for (let i = 0; i < n; i += 1) {
      const r = base + i * words;
      const old = previous[i];
      let same = old !== undefined && old.generation === generation;
      for (let w = 0; same && w < words; w += 1) same = u32[r + w] === before[i * words + w];
      if (same && Chunk.versionOf(old) === version) {
        out[i] = old;
        continue;
      }
      const table = u32[r];
      const begin = u32[r + 1];
      const count = u32[r + 2];
      if (same) {
        out[i] = new Chunk(this.#world, generation, version, table, begin, count, old.entities, old.columns, old.strides, old.offsets);
        continue;
      }
      const views = {};
      const strides = {};
      const offsets = {};
      for (let c = 0; c < columns.length; c += 1) {
        const address = u32[r + 4 + c];
        if (address === 0) continue;  // an optional component this table lacks
        const { name, layout } = columns[c];
        views[name] = layout.View === DataView
          ? new DataView(buffer, address, count * layout.stride)
          : new layout.View(buffer, address, count * layout.stride);
        strides[name] = layout.stride;
        offsets[name] = layout.offsets;
      }
      out[i] = new Chunk(this.#world, generation, version, table, begin, count,
        new Uint32Array(buffer, u32[r + 3], count), views, strides, offsets);
    }
    this.#records = u32.slice(base, base + n * words);
    this.#chunks = out;
    this.#fresh = true;
    return out;
  }

  #liveRaw(op) {
    this.#core.raw(`query.${op}`);  // throws once the world was disposed
    return this.#raw;
  }
}
