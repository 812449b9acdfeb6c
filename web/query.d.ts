// Types of web/query.js: Query and Chunk. See web/ecsia.d.ts.
// Thread rule: the page's main thread.

import type { World } from './world.js';

/** A view of one column: a typed array (every field the same type) or a DataView (mixed types). */
export type ColumnView =
  | Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array
  | DataView;

/**
 * A pair term: [relation, target]; the target an entity or '*' (any target). A term with '*'
 * selects whole tables; one with an entity selects rows (subjects with exactly that pair).
 */
export type PairTerm = readonly [relation: string, target: number | '*'];

/** Terms of a query, each a component name or a list of names (all optional). */
export interface QuerySpec {
  /** Components every selected entity has (their columns are in each chunk). */
  with?: readonly string[] | string;
  /** Components no selected entity has. */
  without?: readonly string[] | string;
  /** Components whose columns a chunk carries when its table has them (never required). */
  optional?: readonly string[] | string;
  /** Required, and only rows changed since this query's previous chunks() (a system's: its previous run). */
  changed?: readonly string[] | string;
  /** Required, and only rows added since this query's previous chunks(). */
  added?: readonly string[] | string;
  /** Pairs every selected entity has: `[['ChildOf', parent]]`, `[['Targets', '*']]`. */
  pairs?: readonly PairTerm[];
  /** Pairs no selected entity has: `[['Targets', '*']]` (no Targets pair at all). */
  withoutPairs?: readonly PairTerm[];
  /** Match prefab entities too (definePrefab); by default queries skip them. */
  prefabs?: boolean;
}

/**
 * One run of rows of one table. `columns[name]` is a zero-copy view over the component's column;
 * row i's field f is `columns[name][i * strides[name] + offsets[name][f]]` (for a DataView,
 * strides and offsets are in bytes). Every view, `entities` included, is valid while `stale` is
 * false: a structural change (spawn, despawn, add, remove, a frame's commands), a column move or
 * heap growth makes it stale. Pairs live outside the tables, so adding or removing a pair moves no
 * row and leaves a chunk current: a chunk that a pair term selected keeps the rows that had the
 * pair when it was fetched (their data still live); fetch again to select by the pairs as they are.
 * Writes through views are change-tracked only in a main-thread system that declares the
 * component in `writes` and fetched the chunk while it ran, or with world.markChanged(chunk, name).
 */
export interface Chunk {
  /** The world's storageGeneration when the chunk was made. */
  readonly generation: number;
  /** Rows in the chunk. */
  readonly count: number;
  /** The rows' entities, in row order (a view). */
  readonly entities: Uint32Array;
  /** Views of the query's with, changed, added and (where present) optional components; tags have none. */
  readonly columns: { readonly [component: string]: ColumnView };
  /** Elements (typed array) or bytes (DataView) per row. */
  readonly strides: { readonly [component: string]: number };
  /** Where each field sits inside a row, in the same unit as strides. */
  readonly offsets: { readonly [component: string]: { readonly [field: string]: number } };
  readonly world: World;
  /** True once the views may no longer show the world's data: fetch chunks again. */
  readonly stale: boolean;
  /** A cascade system's level (0: rows without a parent); 0 for every other chunk. */
  readonly depth: number;
  /**
   * A cascade system's chunk below depth 0: per component of its `parentReads`, a view shaped
   * like `columns[name]` of each row's parent's values, as this frame's earlier levels left them.
   * Undefined at depth 0 and for other chunks.
   */
  readonly parent?: { readonly [component: string]: ColumnView };
}

/**
 * A cached query: its matched tables are kept. While nothing structural changed since its previous
 * chunks() (no spawn, despawn, add, remove, applied commands, column move or heap growth) and it
 * has no changed/added terms, chunks() costs one call into the engine and returns the same Chunk
 * objects in a new array; after a change, chunks whose rows did not change keep their views. Its
 * wasm side is freed when the Query is garbage-collected, or with its world.
 */
export interface Query extends Iterable<Chunk> {
  /** The terms as given. */
  readonly terms: Readonly<Required<{ [K in Exclude<keyof QuerySpec, 'pairs' | 'withoutPairs' | 'prefabs'>]: readonly string[] }>> & {
    readonly pairs: readonly PairTerm[];
    readonly withoutPairs: readonly PairTerm[];
    /** Whether prefab entities match too (QuerySpec.prefabs; false when not given). */
    readonly prefabs: boolean;
  };
  /**
   * The chunks of the rows selected now. With changed/added terms: the rows changed or added
   * since this query's previous chunks() (its own cursor; a new query's first call sees every
   * matching row).
   */
  chunks(): Chunk[];
  /** Rows chunks() would select now; the cursor does not move. */
  count(): number;
  /** Iterates chunks() (so it moves the cursor like chunks()). */
  [Symbol.iterator](): Iterator<Chunk>;
}
