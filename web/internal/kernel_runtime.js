// The JS half of a JS kernel batch (the C++ half is wasm/js_kernel.cpp). One KernelRuntime per
// engine instance and thread: the page makes one for inline batches (serial executor, single
// build), and each pool worker makes its own (wasm/worker_kernels.post.js). The engine reaches it as
// `Module.ecsiaKernels.run(batch, dt, memory)` through EM_JS on the thread that runs the batch.
//
// Per batch: read the descriptor (layout in wasm/js_kernel.hpp), make the chunk's views over the
// heap as it is now (memory growth replaces the buffer: the buffer is fetched again whenever the
// heap's size, passed by the C++ side, differs from the last one seen), call the kernel, then copy the commands it recorded into the batch's CommandBuffer.
// While the kernel runs nothing here allocates in the wasm heap: growth would detach a
// non-shared heap's views (the single build) under the kernel's feet. Commands are therefore
// encoded in a JS buffer, in CommandBuffer's record layout (src/ecsia/command/command_buffer.hpp),
// and spawns take their handles from the batch's reservation through calls that never allocate.
//
// run() never throws: a failure becomes status 1 and a message the C++ side reads (the batch
// fails, its commands are dropped, the merge reports system, kernel and message).
//
// The debug check (loadEcsia({ debug: true }) hands every runtime a second instance of the kernel
// module, its "twin"): each thread has its own instance of the kernel module, so a kernel that
// keeps state between calls at module level (a counter, a cache, a Map of handles) gives results
// that depend on which thread ran which batch, and the executor chooses that per wave. About one
// batch in two (a fixed pseudo-random choice per thread) is run a second time, on the twin,
// which has seen only the batches checked on this thread: with the same inputs (the batch's
// columns are put back as they were) and the same spawn handles. Its column writes and commands
// must equal the first run's, byte for byte; when they differ, status 2 and a message say so (a
// diagnostic naming system and kernel). Either way the world gets the first run's results, so a
// checked batch changes nothing but the twin's own state. State kept in modules the kernel module
// imports is shared by both instances (one module graph): it is seen where each call changes it
// (a counter), not where it is only filled (a cache).
// Thread rule: the thread whose engine instance owns the runtime.

// This file imports nothing (a page's bundler may copy it alone, and every worker imports it by
// URL), so the JS layer's tables of field types live here and web/internal/world_core.js uses
// them; world_core.js checks them against the engine's own list (constants.js, generated).
// The typed array that views each field type.
export const VIEW_TYPES = Object.freeze({
  f32: Float32Array, f64: Float64Array, i8: Int8Array, i16: Int16Array, i32: Int32Array,
  u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, bool: Uint8Array, entity: Uint32Array,
});
// Whole-number field types: [lowest, highest].
export const INTEGER_RANGES = Object.freeze({
  i8: [-128, 127], i16: [-32768, 32767], i32: [-2147483648, 2147483647],
  u8: [0, 255], u16: [0, 65535], u32: [0, 4294967295], entity: [0, 4294967295],
});
// The largest finite f32 (the world's value checks use it too).
export const FLOAT32_MAX = 3.4028234663852886e38;
export const NULL_ENTITY = 0xffffffff;
// Undefined where the page is not cross-origin isolated (the single build's pages).
const SHARED_BUFFER = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : null;

// The batch descriptor's and lookup record's words, the command records' op codes and header
// packing, and the run's status codes: numbers the engine defines (wasm/js_kernel.hpp,
// ECSIA_JS_KERNEL_LAYOUT), read from the module by name before this thread's first batch
// (useLayout), so that they are written only there.
let TOKEN, KERNEL, COUNT, ENTITIES, CONTEXT, SCHEMA_SIZE, WORLD, COMPONENTS, DEPTH, PARENT_READS, LOOKUPS, SCRATCH, PUBLISHES, CONSUMES, HEADER;
let LR_LOCATIONS, LR_LOCATION_COUNT, LR_INDEX_BITS, LR_GENERATION_LO, LR_GENERATION_HI, LR_TABLES, LR_ESCAPE;
let LOCATION_WORDS, LOCATION_TABLE_ROW_WORD, LOCATION_HANDLE_WORD;
let SPAWN, DESPAWN, ADD, REMOVE, SET, ADD_PAIR, REMOVE_PAIR, INSTANTIATE, COUNT_SHIFT, MAX_MESSAGE_BYTES;
let RAN, THREW, DIFFERED, RUNTIME_BROKE;
let layoutRead = false;

function useLayout(module, memory) {
  const address = module._ecsia_kernel_layout() >>> 0;
  const heap = new Uint8Array(memory.buffer);
  const layout = JSON.parse(new TextDecoder().decode(heap.slice(address, heap.indexOf(0, address))));
  const value = (name) => {
    if (!Number.isInteger(layout[name])) throw new Error(`the engine module's kernel layout has no ${name}: it is not the one this kernel runtime belongs to`);
    return layout[name];
  };
  [TOKEN, KERNEL, COUNT, ENTITIES, CONTEXT, SCHEMA_SIZE, WORLD, COMPONENTS, DEPTH, PARENT_READS, LOOKUPS, SCRATCH, PUBLISHES, CONSUMES, HEADER] =
    ['TOKEN', 'KERNEL', 'COUNT', 'ENTITIES', 'CONTEXT', 'SCHEMA_SIZE', 'WORLD', 'COMPONENTS', 'DEPTH', 'PARENT_READS', 'LOOKUPS', 'SCRATCH', 'PUBLISHES', 'CONSUMES', 'HEADER'].map(value);
  [LR_LOCATIONS, LR_LOCATION_COUNT, LR_INDEX_BITS, LR_GENERATION_LO, LR_GENERATION_HI, LR_TABLES, LR_ESCAPE] =
    ['LR_LOCATIONS', 'LR_LOCATION_COUNT', 'LR_INDEX_BITS', 'LR_GENERATION_LO', 'LR_GENERATION_HI', 'LR_TABLES', 'LR_ESCAPE'].map(value);
  [LOCATION_WORDS, LOCATION_TABLE_ROW_WORD, LOCATION_HANDLE_WORD] =
    ['LOCATION_WORDS', 'LOCATION_TABLE_ROW_WORD', 'LOCATION_HANDLE_WORD'].map(value);
  [SPAWN, DESPAWN, ADD, REMOVE, SET, ADD_PAIR, REMOVE_PAIR, INSTANTIATE, COUNT_SHIFT, MAX_MESSAGE_BYTES] =
    ['SPAWN', 'DESPAWN', 'ADD', 'REMOVE', 'SET', 'ADD_PAIR', 'REMOVE_PAIR', 'INSTANTIATE', 'COUNT_SHIFT', 'MAX_MESSAGE_BYTES'].map(value);
  [RAN, THREW, DIFFERED, RUNTIME_BROKE] = ['RAN', 'THREW', 'DIFFERED', 'RUNTIME_BROKE'].map(value);
  layoutRead = true;
}

// What a twin's spawn returns beyond the first run's spawns (its records differ anyway).
const EXTRA_SPAWN = 0xfffffffe;

/** The kernels of a module namespace: its exported functions, by export name, sorted. */
export function kernelNames(namespace) {
  return Object.keys(namespace).filter((name) => typeof namespace[name] === 'function').sort();
}

/**
 * A short description of a value for error messages: 'a string ("abc")', 'null', 'number NaN'.
 * Here because this file imports nothing; web/internal/checks.js gives it to the rest of the JS
 * layer, so that kernels and world calls word bad input alike.
 */
export function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'string') return `a string ("${value.length > 40 ? `${value.slice(0, 40)}...` : value}")`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') {
    const kind = Object.prototype.toString.call(value).slice(8, -1);  // 'Object', 'Map', 'Date', ...
    return kind === 'Object' ? 'an object' : `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${value}`;
  return `a ${typeof value}`;
}

/**
 * Whether `value` has the shape of an entity handle: a number that is a whole u32. The fast check
 * before a call's own; `typeof` first, since a BigInt would throw in `>>>` before the call could
 * name itself.
 */
export function isHandle(value) {
  return typeof value === 'number' && (value >>> 0) === value;
}

/** An object of named values (not null, an array or a typed array; see isOpaqueObject). */
export function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

/**
 * Whether an object that isPlainObject accepts keeps its contents elsewhere (a Map, a Set, a Date:
 * Object.prototype.toString does not call it an 'Object'; a literal or a class instance it does).
 * Such values give no fields: the encoders ask only then, so the common call pays nothing.
 */
export function isOpaqueObject(value) {
  return Object.prototype.toString.call(value) !== '[object Object]';
}

// A kernel's result: nothing, or a value it is free to return, but never a promise. An async
// kernel's work after its first await would run outside its batch (its chunk and commands
// closed, its errors reported nowhere): its batch fails instead, and the promise is let go.
function synchronous(result) {
  if (typeof result?.then !== 'function') return;
  result.then(undefined, () => {});
  throw new Error('the kernel returned a promise (an async function?): a kernel runs synchronously, within its batch');
}

function messageOf(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return `${describe(error)}${typeof error === 'string' ? '' : `: ${String(error)}`}`;
  } catch {
    return 'a value that cannot be printed';
  }
}

// A component as kernels see it: its view type and layout (like ecsia.js's columnLayout) and
// how its values are encoded into command payloads. A relation's entry has the same shape, its
// layout being one pair's data, plus `relation: true` and its options.
function componentOf(desc) {
  const fields = desc.fields.map(([name, type, offset]) => ({ name, type, offset }));
  const component = { id: desc.id, name: desc.name, size: desc.size, tag: desc.size === 0, fields, byField: new Map(),
    relation: desc.relation === true, exclusive: desc.exclusive === true, acyclic: desc.acyclic === true };
  for (const f of fields) component.byField.set(f.name, f);
  if (component.tag) return component;
  const type = fields[0].type;
  const View = VIEW_TYPES[type];
  const homogeneous = fields.every((f) => f.type === type) && desc.size === fields.length * View.BYTES_PER_ELEMENT;
  component.View = homogeneous ? View : DataView;
  component.stride = homogeneous ? desc.size / View.BYTES_PER_ELEMENT : desc.size;
  component.offsets = Object.freeze(Object.fromEntries(fields.map((f) => [f.name, homogeneous ? f.offset / View.BYTES_PER_ELEMENT : f.offset])));
  return component;
}

// A view of `count` elements of `component` at `address` (undefined for 0: no column).
function viewOf(component, buffer, address, count) {
  if (address === 0) return undefined;
  return component.View === DataView ? new DataView(buffer, address, count * component.stride)
    : new component.View(buffer, address, count * component.stride);
}

// A topic as kernels see it: its fields (as a component's, never a tag) and where each lies in a
// packed message.
export function topicOf(desc) {
  const fields = desc.fields.map((f) => (Array.isArray(f) ? { name: f[0], type: f[1], offset: f[2] } : { name: f.name, type: f.type, offset: f.offset }));
  const topic = { id: desc.id, name: desc.name, size: desc.size, tag: false, fields, byField: new Map() };
  for (const f of fields) topic.byField.set(f.name, f);
  topic.writer = messageWriter(topic);
  return topic;
}

// A function that writes one message of `topic` into an outbox, made for its fields: reading
// `values.name` with the names written into the code is a constant-key load (a few ns), where
// `values[field.name]` in a loop over fields is a generic keyed load (about 25 ns each, measured
// in V8). It handles the common case only: every field f32, u32, i32 or entity at a 4-aligned
// offset and every value a plain number in range; it returns the number of fields given, or -1
// for anything else (a value to check or refuse, a key that is no field), and the caller then
// encodes the message with the general, checked path. Null where the page's Content Security
// Policy forbids making functions from text, or a field does not qualify: the general path alone.
function messageWriter(topic) {
  if (topic.size % 4 !== 0 || topic.fields.some((f) => f.offset % 4 !== 0 || !['f32', 'u32', 'i32', 'entity'].includes(f.type))) return null;
  const lines = ['let given = 0, v;'];
  for (const f of topic.fields) {
    const at = `b + ${f.offset / 4}`;
    const check = f.type === 'f32'
      ? `typeof v === 'number' && ((v <= ${FLOAT32_MAX} && v >= -${FLOAT32_MAX}) || v === Infinity || v === -Infinity)`
      : f.type === 'i32' ? "typeof v === 'number' && (v | 0) === v" : "typeof v === 'number' && (v >>> 0) === v";
    const store = f.type === 'f32' ? `f[${at}] = v;` : f.type === 'i32' ? `w[${at}] = v >>> 0;` : `w[${at}] = v;`;
    lines.push(`v = values[${JSON.stringify(f.name)}];`,
      `if (v === undefined) w[${at}] = ${f.type === 'entity' ? NULL_ENTITY : 0};`,
      `else if (${check}) { ${store} given += 1; } else return -1;`);
  }
  lines.push('let keys = 0;', 'for (const key in values) keys += 1;', 'return keys === given ? given : -1;');
  try {
    return new Function('values', 'w', 'f', 'b', lines.join('\n'));
  } catch {
    return null;
  }
}

function parseSchema(json) {
  const parsed = JSON.parse(json);
  const [byName, byId] = indexed(parsed.components.map(componentOf));
  const [topics, topicsById] = indexed(parsed.topics.map(topicOf));
  return { size: byId.length + topicsById.length, byName, byId, topics, topicsById };
}

// Entries ({ id, name }) as [a Map by name, an array by id].
function indexed(entries) {
  const byName = new Map();
  const byId = [];
  for (const entry of entries) {
    byName.set(entry.name, entry);
    byId[entry.id] = entry;
  }
  return [byName, byId];
}

/**
 * The messages of one topic that a consumer sees in one run (a system's or kernel's 4th argument
 * holds one per consumed topic, by name): those published since its previous run, in publication
 * order. `count`; `fields`: a typed array per field, `count` long, over the engine's memory
 * (bool: Uint8Array, entity: Uint32Array); iteration gives an object per message. Valid during
 * the call only.
 */
export class Messages {
  #topic;
  constructor(topic, count, fields) {
    this.#topic = topic;
    this.count = count;
    this.fields = fields;
    Object.freeze(this);
  }

  get topic() { return this.#topic.name; }

  *[Symbol.iterator]() {
    const fields = this.#topic.fields;
    const views = fields.map((f) => this.fields[f.name]);
    for (let i = 0; i < this.count; i++) {
      const message = {};
      for (let f = 0; f < fields.length; f++) {
        const { name, type } = fields[f];
        const value = views[f][i];
        message[name] = type === 'bool' ? value !== 0 : type === 'entity' && value === NULL_ENTITY ? null : value;
      }
      yield message;
    }
  }
}

/** The Messages of `topic` over `buffer`: `count` messages, field f's values at addresses[f]. */
export function messagesOf(topic, buffer, count, addresses) {
  const fields = {};
  for (let f = 0; f < topic.fields.length; f++) {
    const field = topic.fields[f];
    fields[field.name] = new VIEW_TYPES[field.type](buffer, count === 0 ? 0 : addresses[f], count);
  }
  return new Messages(topic, count, Object.freeze(fields));
}

const NO_MESSAGES = Object.freeze({});

export class KernelRuntime {
  #module;
  #url;
  #loadError;
  #kernels;          // by kernel id
  #names;
  #systems = [];     // by system token (small, unique numbers): { schema, kernel, declared, strides, offsets }
  #commands;
  #buffer = null;    // the heap buffer #words views
  // The storage chunk.lookup's column addresses are of: { buffer, world, lo, hi } of the world's
  // storage generation (#lookupsOf), a new object when it changes.
  #storage = null;
  // chunk.lookup by kernel function (lookupFunction): one for every system that runs the kernel,
  // remade only when the heap's buffer or the handle layout changes.
  #lookupByKernel = new Map();
  #words = null;
  #heapBytes = -1;   // the heap's size when #buffer was fetched
  #memory = null;    // the wasm memory of the running batch
  #twins = null;     // the debug check's kernels by kernel id, or null: no check
  #sample = 0x9e3779b9;  // xorshift32 state choosing the batches checked
  #differed = new Set();  // tokens of systems whose twin differed here: checked no more

  /**
   * @param namespace the kernel module's namespace, or null when it failed to load here
   * @param module the engine instance (its exports are called for spawns and commits)
   * @param url the kernel module's URL (for messages)
   * @param loadError why the module failed to load on this thread, or null
   * @param twin a second instance of the kernel module (the debug check), or null
   */
  constructor(namespace, module, url, loadError = null, twin = null) {
    this.#module = module;
    this.#url = url;
    this.#loadError = loadError;
    this.#names = namespace === null ? [] : kernelNames(namespace);
    this.#kernels = this.#names.map((name) => namespace[name]);
    if (namespace !== null && twin !== null && twin !== undefined && twin !== namespace) {
      this.#twins = this.#names.map((name) => twin[name]);
    }
    // The heap's buffer, fetched again when it no longer reaches `end` (the heap grew).
    this.#commands = new CommandEncoder(module, (end = 0) => {
      if (end > this.#buffer.byteLength) this.#refresh(this.#memory, -1);
      return this.#buffer;
    });
  }

  /** Kernel names in id order. */
  get names() { return this.#names; }

  /**
   * Called through EM_JS for one batch (`heapBytes`: the heap's size now); returns 0, 1 (the
   * kernel threw) or 2 (the debug check found its results differ), with the message handed over. The kernel itself calls no export that can throw, so the
   * wasm stack needs restoring only around the calls that allocate (schema, commit, report).
   */
  run(batch, dt, memory, heapBytes) {
    if (!layoutRead) {
      try {
        useLayout(this.#module, memory);
      } catch {
        return -2;  // kRuntimeBroke (wasm/js_kernel.hpp): the layout that names it could not be read
      }
    }
    this.#memory = memory;
    if (heapBytes !== this.#heapBytes) this.#refresh(memory, heapBytes);
    try {
      const difference = this.#run(batch, dt, memory);
      if (difference === null) return RAN;
      const stack = this.#module.stackSave();
      try {
        this.#report(difference, memory);
      } catch {
        this.#module.stackRestore(stack);
        return RUNTIME_BROKE;
      }
      return DIFFERED;
    } catch (error) {
      const module = this.#module;
      const stack = module.stackSave();
      try {
        // The records made before the throw go to the batch's buffer all the same: the merge
        // drops a failed batch's commands and says how many.
        this.#commands.commit(memory);
        this.#report(messageOf(error), memory);
      } catch {
        module.stackRestore(stack);
        this.#commands.close();
        return RUNTIME_BROKE;
      }
      return THREW;
    }
  }

  #run(batch, dt, memory) {
    let words = this.#words;
    const at = batch >>> 2;
    const token = words[at + TOKEN];
    let system = this.#systems[token];
    if (system === undefined || system.schema.size !== words[at + SCHEMA_SIZE]) {
      system = this.#prepare(token, words[at + KERNEL], words[at + WORLD], at, memory, system);
      this.#refresh(memory, -1);  // the schema's text may have grown the heap
      words = this.#words;
    }
    const encoder = this.#commands;
    let difference = null;
    if (this.#twins !== null && this.#sampled() && !this.#differed.has(token)) {
      difference = this.#runChecked(system, words, at, dt);
      if (difference !== null) this.#differed.add(token);
    } else {
      synchronous(system.kernel(this.#chunk(system, words, at), dt, encoder.open(words[at + CONTEXT], system.schema, system.publishes), this.#messages(system, words, at)));
    }
    if (encoder.pending) {
      const stack = this.#module.stackSave();
      try {
        encoder.commit(memory);
      } catch (error) {
        this.#module.stackRestore(stack);
        throw error;
      }
    } else {
      encoder.close();
    }
    return difference;
  }

  // The batch's messages by consumed topic name (the descriptor's tail, wasm/js_kernel.hpp).
  #messages(system, words, at) {
    const consumed = words[at + CONSUMES];
    if (consumed === 0) return NO_MESSAGES;
    const messages = {};
    let w = at + HEADER + 2 * (words[at + COMPONENTS] + words[at + PARENT_READS] + words[at + LOOKUPS]) + words[at + PUBLISHES];
    for (let k = 0; k < consumed; k++) {
      const topic = system.schema.topicsById[words[w]];
      const count = words[w + 1];
      messages[topic.name] = messagesOf(topic, this.#buffer, count, words.subarray(w + 2, w + 2 + topic.fields.length));
      w += 2 + topic.fields.length;
    }
    return Object.freeze(messages);
  }

  // The chunk of the batch whose descriptor starts at word `at`, with new views.
  #chunk(system, words, at) {
    const buffer = this.#buffer;
    const count = words[at + COUNT];
    const columns = {};
    const declared = system.declared;
    for (let i = 0; i < declared.length; i++) {
      const component = declared[i];
      if (component.tag) continue;  // a tag has no column
      columns[component.name] = viewOf(component, buffer, words[at + HEADER + 2 * i + 1], count);
    }
    const depth = words[at + DEPTH];
    let parent;
    const parentReads = system.parentReads;
    if (parentReads.length > 0 && depth > 0) {
      parent = {};
      const first = at + HEADER + 2 * declared.length;
      for (let k = 0; k < parentReads.length; k++) {
        parent[parentReads[k].name] = viewOf(parentReads[k], buffer, words[first + 2 * k + 1], count);
      }
    }
    const record = system.lookups.size === 0 ? 0 : words[at + HEADER + 2 * (declared.length + parentReads.length) + 1];
    return new KernelChunk(count, buffer, words[at + ENTITIES], columns, system.strides, system.offsets, depth, parent,
      this.#lookupsOf(system, words, words[at + CONTEXT], words[at + WORLD], record, words[at + SCRATCH], count));
  }

  // What chunk.lookup, lookupAll and targetOf need: the batch's context, the system's lookups,
  // views of the whole heap for them (made once per heap buffer), and where the entity table is:
  // the engine's record at `record` (wasm/js_kernel.hpp, LookupRecord), so that a lookup reads the
  // heap instead of calling into the engine. A component's column addresses by table (the
  // engine's array, its scheduler's) are asked again only when the batch's system or the world's
  // storage generation changes (a column moved, a table was made).
  #lookupsOf(system, words, context, world, record, scratch, count) {
    const buffer = this.#buffer;
    if (system.heapViews === null || system.heapViews.buffer !== buffer) {
      const views = {};
      for (const [name, component] of system.lookups) views[name] = component.View === DataView ? new DataView(buffer) : new component.View(buffer);
      system.heapViews = { buffer, views: Object.freeze(views) };
    }
    // The entity table: where its slots' locations are (a table-and-row word and the handle placed
    // there), where their tables are when a location says `escape`, how many, and the handle
    // layout (all 0 without lookups: every index is then out of range).
    const r = record >>> 2;
    const at = (word) => (record === 0 ? 0 : words[r + word]);
    const bits = at(LR_INDEX_BITS);
    const entities = {
      locations: at(LR_LOCATIONS) >>> 2, tables: at(LR_TABLES) >>> 2, locationCount: at(LR_LOCATION_COUNT),
      mask: bits === 32 ? -1 : (1 << bits) - 1, rowBits: bits, escape: at(LR_ESCAPE),
    };
    // The world's storage as the lookups last saw it: a new token when a column moved or a table
    // was made (the engine's column addresses by table then move too).
    let storage = NO_STORAGE;
    if (record !== 0) {
      const generationLo = words[r + LR_GENERATION_LO];
      const generationHi = words[r + LR_GENERATION_HI];
      storage = this.#storage;
      if (storage === null || storage.buffer !== buffer || storage.world !== world || storage.lo !== generationLo || storage.hi !== generationHi) {
        storage = { buffer, world, lo: generationLo, hi: generationHi };
        this.#storage = storage;
      }
    }
    // A system without lookups keeps whatever function its kernel has: its select() refuses every
    // name before any number is read (remaking it for that layout would swap functions).
    let lookup = this.#lookupByKernel.get(system.kernel);
    if (lookup === undefined || (record !== 0 && !lookup.fits(words, entities))) {
      lookup = lookupFunction(this.#module, words, entities);
      this.#lookupByKernel.set(system.kernel, lookup);
    }
    lookup.aim(system, entities, storage, context);
    return {
      module: this.#module, context, system, views: system.heapViews.views, lookup: lookup.lookup,
      scratch: scratch === 0 ? null : new Int32Array(buffer, scratch, Math.max(count, 1)),
    };
  }

  // About one batch in two, in a fixed sequence per thread: the twin then sees only some of the
  // batches its original saw, as another thread's instance would.
  #sampled() {
    let x = this.#sample;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#sample = x >>> 0;
    return (x & 1) === 0;
  }

  // The debug check of one batch (see the top of this file). Leaves the first run's records in
  // the encoder and its writes in the columns; returns null, or what differed.
  #runChecked(system, words, at, dt) {
    const buffer = this.#buffer;
    const count = words[at + COUNT];
    const context = words[at + CONTEXT];
    const encoder = this.#commands;
    // Every declared column (reads too: a kernel may write a view it only reads).
    const columns = [];
    system.declared.forEach((component, i) => {
      const address = words[at + HEADER + 2 * i + 1];
      if (!component.tag && address !== 0) columns.push({ component, bytes: new Uint8Array(buffer, address, count * component.size) });
    });
    const inputs = columns.map((c) => c.bytes.slice());
    synchronous(system.kernel(this.#chunk(system, words, at), dt, encoder.openChecked(context, system.schema, system.publishes, null), this.#messages(system, words, at)));
    const first = encoder.save();
    const outputs = columns.map((c) => c.bytes.slice());
    // Put back only what changed: a column the kernel only read may be read by other batches now.
    columns.forEach((c, i) => { if (!sameBytes(c.bytes, inputs[i])) c.bytes.set(inputs[i]); });
    let difference;
    try {
      const twin = system.twin;
      if (typeof twin !== 'function') throw new Error('the second instance of the kernel module has no such export');
      twin(this.#chunk(system, words, at), dt, encoder.openChecked(context, system.schema, system.publishes, first.spawns), this.#messages(system, words, at));
      const second = encoder.save();
      difference = columns.map((c, i) => columnDifference(c, outputs[i])).find((d) => d !== null)
        ?? commandDifference(first, second);
    } catch (error) {
      difference = `threw on the second run (${messageOf(error)}), not on the first`;
    }
    columns.forEach((c, i) => { if (!sameBytes(c.bytes, outputs[i])) c.bytes.set(outputs[i]); });
    encoder.restore(first, context);
    if (difference === null) return null;
    return `gave different results for the same batch when the debug check ran it a second time, on a ` +
      `second instance of the kernel module ${this.#url}, with the same inputs: ${difference}. A kernel whose ` +
      'results depend on state kept between calls (module-level variables: a counter, a cache, a Map of ' +
      'handles) gives results that depend on the thread each batch runs on, which the executor chooses per ' +
      'wave; keep such state in components. The world got the first run\'s results (reported once per system)';
  }

  // The heap buffer and a word view of it, fetched again when the heap's size changed (growth
  // replaces the buffer; a non-shared one is detached, a shared one keeps its old length).
  #refresh(memory, heapBytes) {
    const buffer = memory.buffer;
    this.#heapBytes = heapBytes < 0 ? buffer.byteLength : heapBytes;
    if (buffer !== this.#buffer) {
      this.#buffer = buffer;
      this.#words = new Uint32Array(buffer);
    }
  }

  // A system's first batch on this thread, or the world gained components since its last one.
  #prepare(token, kernelId, world, at, memory, previous) {
    if (this.#loadError !== null) {
      throw new Error(`the kernel module ${this.#url} failed to load on this thread: ${this.#loadError}`);
    }
    const kernel = this.#kernels[kernelId];
    if (kernel === undefined) throw new Error(`no kernel with id ${kernelId} (the module has ${this.#names.length})`);
    const schema = this.#schema(world, memory);
    let declared = previous?.declared;
    let parentReads = previous?.parentReads;
    let lookups = previous?.lookups;
    let publishes = previous?.publishes;
    if (declared === undefined) {
      this.#refresh(memory, -1);
      const words = this.#words;
      const [n, m, k] = [words[at + COMPONENTS], words[at + PARENT_READS], words[at + LOOKUPS]];
      const listed = [];
      for (let i = 0; i < n + m + k; i++) listed.push(schema.byId[words[at + HEADER + 2 * i]]);
      declared = listed.slice(0, n);
      parentReads = listed.slice(n, n + m);
      lookups = new Map(listed.slice(n + m).map((component) => [component.name, component]));
      const first = at + HEADER + 2 * (n + m + k);
      publishes = new Set(words.subarray(first, first + words[at + PUBLISHES]));
    }
    const strides = {};
    const offsets = {};
    for (const component of declared) {
      if (component.tag) continue;
      strides[component.name] = component.stride;
      offsets[component.name] = component.offsets;
    }
    const twin = this.#twins === null ? null : this.#twins[kernelId];
    for (const component of parentReads) {  // parents' views are shaped like the rows' own
      strides[component.name] ??= component.stride;
      offsets[component.name] ??= component.offsets;
    }
    for (const component of lookups.values()) {  // a looked-up element is shaped like a row's
      strides[component.name] ??= component.stride;
      offsets[component.name] ??= component.offsets;
    }
    const system = {
      schema, kernel, twin, declared, parentReads, lookups, publishes, heapViews: null,
      strides: Object.freeze(strides), offsets: Object.freeze(offsets),
    };
    this.#systems[token] = system;
    return system;
  }

  #schema(world, memory) {
    const stack = this.#module.stackSave();
    let address;
    try {
      address = this.#module._ecsia_kernel_schema(world) >>> 0;
    } catch (error) {
      this.#module.stackRestore(stack);
      throw error;
    }
    const heap = new Uint8Array(memory.buffer);
    const end = heap.indexOf(0, address);
    return parseSchema(new TextDecoder().decode(heap.slice(address, end)));
  }

  #report(message, memory) {
    const bytes = new TextEncoder().encode(message);
    const address = this.#module._ecsia_kernel_error_buffer(bytes.length) >>> 0;
    new Uint8Array(memory.buffer, address, bytes.length).set(bytes);
  }
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Where a column's bytes now differ from `expected`, or null.
function columnDifference({ component, bytes }, expected) {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== expected[i]) return `its writes to '${component.name}' differ (first at row ${Math.floor(i / component.size)} of the batch)`;
  }
  return null;
}

function commandDifference(first, second) {
  if (first.records !== second.records) return `it recorded ${first.records} command(s) the first time and ${second.records} the second`;
  if (first.length !== second.length || !first.words.every((w, i) => w === second.words[i])) return `its ${first.records} command(s) differ`;
  const published = (saved) => saved.messages.reduce((n, m) => n + m.count, 0);
  if (published(first) !== published(second)) return `it published ${published(first)} message(s) the first time and ${published(second)} the second`;
  for (let i = 0; i < first.messages.length; i++) {
    const [a, b] = [first.messages[i], second.messages[i]];
    if (a.topic !== b.topic || !sameBytes(a.bytes, b.bytes)) return `its messages of topic '${a.topic.name}' differ`;
  }
  return null;
}

// chunk.lookup of one kernel on this thread, made once per heap buffer and handle layout: a
// closure whose constants are the heap's word view and the handle layout, and whose variables are
// the running batch's system, entity table and looked-up columns, which each batch sets (aim).
// The kernel's call site thus sees one function for as long as the heap keeps its buffer,
// whichever system or world runs the kernel, and V8 inlines it with the constants folded in. With
// a function per system (as before), a kernel that two systems or two worlds run had a call site
// of many closures, which V8 inlines without the constants: in Chromium about 1.4x slower a lookup
// (docs/PERFORMANCE.md, hierarchy). One function per thread for every kernel was tried too: a
// kernel alone with its system then measured about a tenth slower, its function's variables set
// by the batches of every other system with lookups. After a heap growth the call site sees a
// second function and works as before, with the numbers loaded from the closure.
function lookupFunction(module, words, { mask, rowBits, escape }) {
  const locationWords = LOCATION_WORDS;  // constants of this closure, as `mask` is
  const tableRowWord = LOCATION_TABLE_ROW_WORD;
  const handleWord = LOCATION_HANDLE_WORD;
  let system = null;
  let locationCount = 0;
  let locations = 0;
  let tables = 0;
  let context = 0;
  let storage = null;
  // By component id: the word index of its column addresses by table. They are the scheduler's
  // (each scheduler refreshes those of its own systems' lookups) for the world's storage
  // generation: kept while the batches are of one system and one storage generation.
  let columnsById = [];
  // The last name looked up (a kernel looks up one or two names in a loop; comparing a string
  // literal with itself is a pointer compare, a Map get is not): its column addresses by table (a
  // word index), the shift that makes an address an index of its heap view, and its stride.
  let lastName = null;
  let columns = 0;
  let shift = 0;
  let stride = 0;
  const select = (name) => {
    const found = system.lookups.get(name);
    if (found === undefined) {
      const declared = [...system.lookups.keys()].join(', ') || 'none';
      throw new Error(`chunk.lookup: '${name}' is not one of the system's lookups (lookups: ${declared})`);
    }
    lastName = name;
    columns = columnsById[found.id] ??= module._ecsia_kernel_lookup_columns(context, found.id) >>> 2;
    // 0: the engine refreshed no columns of it for this wave; reading the heap from address 0
    // would take low memory for columns (never another entity's data, G4): refuse instead.
    if (columns === 0) throw new Error(`chunk.lookup: the engine has no columns of '${name}' for this wave`);
    shift = found.View === DataView ? 0 : 31 - Math.clz32(found.View.BYTES_PER_ELEMENT);
    stride = found.stride;
  };
  // Kept small enough to be inlined into the kernel's loop (V8 inlines functions of up to 460
  // bytes of bytecode).
  function lookup(name, entity) {
    if (name !== lastName) select(name);
    if (!isHandle(entity)) notAHandle('chunk.lookup', entity);
    // Alive: the handle placed in its slot (words: table-and-row, the handle, null once despawned;
    // a pending handle is never placed). Then its table and row are valid.
    const index = entity & mask;
    if (index >= locationCount) return -1;
    const location = locations + locationWords * index;
    if (words[location + handleWord] !== entity) return -1;
    const tableRow = words[location + tableRowWord];
    const code = tableRow >>> rowBits;
    // The column's first element in the entity's table (0: the table lacks the component). The
    // heap is under 2 GB (MAXIMUM_MEMORY, wasm/browser_module.cmake): a signed shift keeps the
    // index a small integer.
    const address = words[columns + (code === escape ? words[tables + index] : code)];
    return address === 0 ? -1 : (address >> shift) + (tableRow & mask) * stride;
  }
  return {
    lookup,
    // Whether it reads this heap view and handle layout.
    fits: (view, t) => view === words && t.mask === mask && t.rowBits === rowBits && t.escape === escape,
    // The batch's system, entity table, context and storage (the columns are asked again for
    // another system, whose scheduler may be another, or after a structural change).
    aim: (batchSystem, t, batchStorage, batchContext) => {
      locationCount = t.locationCount;
      locations = t.locations;
      tables = t.tables;
      context = batchContext;
      if (batchSystem !== system || batchStorage !== storage) {
        system = batchSystem;
        storage = batchStorage;
        columnsById = [];
        lastName = null;
      }
    },
  };
}

// Why chunk.targetOf refuses `name` (its schema entry, or undefined), naming the relations it takes.
function targetOfRefused(schema, name, entry) {
  const relations = [...schema.byName.values()].filter((c) => c.relation);
  const exclusive = relations.filter((r) => r.exclusive).map((r) => r.name).join(', ') || 'none';
  if (entry === undefined) {
    return new Error(`chunk.targetOf: unknown relation ${typeof name === 'string' ? `'${name}'` : describe(name)} (defined: ${relations.map((r) => r.name).join(', ') || 'none'})`);
  }
  if (!entry.relation) return new Error(`chunk.targetOf: '${name}' is a component, not a relation (exclusive relations: ${exclusive})`);
  return new Error(`chunk.targetOf: '${name}' is not exclusive: a subject may have several targets (exclusive relations: ${exclusive})`);
}

function notAHandle(caller, value) {
  throw new Error(`${caller}: ${describe(value)} is not an entity handle`);
}

const NO_STORAGE = Object.freeze({});  // a system without lookups (select() refuses every name first)

// Whether two views share a byte.
function overlaps(a, b) {
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

/** The chunk a kernel gets; `entities` is made on first use (a view costs ~0.1 µs). */
class KernelChunk {
  #buffer;
  #address;
  #entities = null;
  #lookups;  // KernelRuntime#lookupsOf: the engine calls, views and entity table a lookup reads
  constructor(count, buffer, address, columns, strides, offsets, depth, parent, lookups) {
    this.count = count;
    this.#buffer = buffer;
    this.#address = address;
    this.columns = columns;
    this.strides = strides;
    this.offsets = offsets;
    /** A cascade system's level (0: rows without a parent); 0 for other systems. */
    this.depth = depth;
    /** With cascade and parentReads, below depth 0: each row's parent's values, by component. */
    this.parent = parent;
    this.#lookups = lookups;
    /**
     * Where `entity`'s value of `name` (one of the system's lookups) is: its first field's index in
     * lookups[name] (a byte offset for a DataView), so field f is at index + offsets[name][f]; -1
     * when the entity is not alive (despawned, stale, a pending handle) or lacks the component.
     * The values are those the waves before this one left. Allocates nothing.
     */
    this.lookup = lookups.lookup;  // lookupFunction: one function per kernel, not a method
  }

  /**
   * Per component of the system's lookups: a view of the whole heap of its type (a DataView for
   * mixed field types), which lookup()'s indexes point into. Undefined without lookups.
   */
  get lookups() { return this.#lookups.system.lookups.size === 0 ? undefined : this.#lookups.views; }

  /**
   * lookup() of many entities at once (at most the batch's row count), e.g. the handles of an
   * entity field's column: an Int32Array of their indexes (-1 where lookup() gives -1), valid
   * until the next lookupAll() of this batch. One call into the engine for all of them.
   */
  lookupAll(name, entities) {
    const lookups = this.#lookups;
    const component = lookups.system.lookups.get(name);
    if (component === undefined) {
      throw new Error(`chunk.lookupAll: '${name}' is not one of the system's lookups (lookups: ${[...lookups.system.lookups.keys()].join(', ') || 'none'})`);
    }
    const n = entities?.length;
    if (!Number.isInteger(n)) throw new Error(`chunk.lookupAll: takes an array of entity handles, got ${describe(entities)}`);
    if (n > lookups.scratch.length) throw new Error(`chunk.lookupAll: ${n} handles, more than the batch's ${lookups.scratch.length} rows`);
    const scratch = lookups.scratch;
    const out = scratch.subarray(0, n);
    // A column of handles (a view of the heap, as chunk.columns gives) is read where it lies; any
    // other array is copied into the scratch first, which the engine then turns in place.
    let from = out.byteOffset;
    if ((entities instanceof Uint32Array || entities instanceof Int32Array) && entities.buffer === scratch.buffer && !overlaps(entities, scratch)) {
      from = entities.byteOffset;
    } else {
      // Only a typed array of 32-bit integers holds handles as they are: any other array's
      // elements must each be one, or the copy would turn 0.5, NaN or 2^32 + e into a handle.
      if (!(entities instanceof Uint32Array || entities instanceof Int32Array)) {
        for (let i = 0; i < n; i += 1) {
          const entity = entities[i];
          if (!isHandle(entity)) throw new Error(`chunk.lookupAll: element ${i}, ${describe(entity)}, is not an entity handle`);
        }
      }
      out.set(entities);
    }
    const unit = component.View === DataView ? 1 : component.View.BYTES_PER_ELEMENT;
    lookups.module._ecsia_kernel_lookup_many(lookups.context, component.id, from, out.byteOffset, n, unit);
    return out;
  }

  /**
   * `entity`'s target of an exclusive relation (e.g. 'ChildOf': the parent), or null when it has
   * none or is not alive. Pairs change only between waves: every batch sees the same.
   */
  targetOf(entity, relation) {
    const lookups = this.#lookups;
    const entry = lookups.system.schema.byName.get(relation);
    if (entry === undefined || !entry.relation || !entry.exclusive) throw targetOfRefused(lookups.system.schema, relation, entry);
    if (!isHandle(entity)) throw new Error(`chunk.targetOf: ${describe(entity)} is not an entity handle`);
    const target = lookups.module._ecsia_kernel_target_of(lookups.context, entity, entry.id) >>> 0;
    return target === NULL_ENTITY ? null : target;
  }

  /** The rows' entity handles (a view of the table: read it, never write it). */
  get entities() {
    if (this.#entities === null) this.#entities = new Uint32Array(this.#buffer, this.#address, this.count);
    return this.#entities;
  }
}

/**
 * What a kernel records structural changes with (its third argument): a new object per batch,
 * valid during its kernel call only. Records apply after the wave, in batch order, like a C++
 * kernel's; bad input throws (failing the batch) and records nothing.
 */
class Commands {
  #encoder;
  constructor(encoder) { this.#encoder = encoder; }
  /**
   * Spawns an entity with components by name ({ position: { x: 0, y: 0 }, frozen: true }) and
   * returns its handle, which later commands of the same batch may target (and entity fields of
   * the batch's own rows may hold: the merge puts the real handle there). Beyond the batch's
   * reserved handles it is a pending stand-in, refused anywhere else (G4); null (0xFFFFFFFF) once
   * the batch has used up its wave's pending handles (the entity is still spawned).
   */
  spawn(components = {}) { return this.#encoder.for(this, 'spawn').spawn(components); }
  despawn(entity) { this.#encoder.for(this, 'despawn').despawn(entity); }
  /** Adds a component (or overwrites it whole): fields not given get default values. */
  add(entity, name, values) { this.#encoder.for(this, 'add').add(entity, name, values); }
  remove(entity, name) { this.#encoder.for(this, 'remove').remove(entity, name); }
  /** Writes the fields given; the others keep their values. */
  set(entity, name, values) { this.#encoder.for(this, 'set').set(entity, name, values); }
  /**
   * Adds the pair (relation, target) to `entity`, like world.addPair: `values` are the pair's
   * data (fields not given get defaults; an existing pair keeps its data unless values are
   * given). Subject and target may be handles spawn() returned earlier in this batch. At the
   * merge, a pair whose subject or target is dead by then is dropped, and one the world refuses
   * (a cycle of an acyclic relation) is skipped with a diagnostic.
   */
  addPair(entity, relation, target, values) { this.#encoder.for(this, 'addPair').addPair(entity, relation, target, values); }
  /** Removes the pair if present; target '*' removes every pair of the relation. */
  removePair(entity, relation, target) { this.#encoder.for(this, 'removePair').removePair(entity, relation, target); }
  /**
   * Spawns an instance of `prefab` (a handle world.definePrefab returned) like spawn(): its
   * components with the prefab's values, `overrides` over them (fields not given keep the
   * prefab's values), and the pair (IsA, prefab). Returns its handle, as spawn() does. A prefab
   * that is dead by the merge skips the record with a diagnostic.
   */
  instantiate(prefab, overrides = {}) { return this.#encoder.for(this, 'instantiate').instantiate(prefab, overrides); }
  /**
   * Publishes a message of a topic the system declares in `publishes`: { field: value }, fields
   * not given get defaults (0, false, null). It joins the topic at the merge, after the messages
   * of the batches before this one; an entity field may hold a handle spawn() returned.
   */
  publish(topic, values) { this.#encoder.for(this, 'publish').publish(topic, values); }
  /**
   * Publishes `count` messages of `topic` at once, in order: per field a number (every message
   * gets it) or an array-like of `count` numbers (message i gets element i), as spawnMany takes
   * values; fields not given get defaults. All or nothing: every value is checked first. A
   * Float32Array for an f32 field (one pass for NaN) and a Uint32Array for an entity or u32 field
   * are copied whole; with every field so given (or a number), over shared memory, the
   * values go straight into the engine, an array per field (scheduler.d.ts).
   */
  publishMany(topic, count, values) { this.#encoder.for(this, 'publishMany').publishMany(topic, count, values); }
}

// Copies `words` into every `stride`-th word of `into` from `first` on: publishMany's copy of a
// field's values into packed messages.
function interleaveWords(into, first, stride, words) {
  for (let i = 0, at = first; i < words.length; i++, at += stride) into[at] = words[i];
}

// Encodes one batch's records at a time into a JS buffer, in CommandBuffer's layout.
class CommandEncoder {
  #module;
  #context = 0;        // the batch's KernelContext; 0 outside a kernel call
  #current = null;     // the batch's Commands object
  #schema = null;
  #publishes = null;   // the running system's published topic ids
  #words = new Uint32Array(1024);
  #view = new DataView(this.#words.buffer);
  #f32 = new Float32Array(this.#words.buffer);
  #checkedTopic = null;  // publish()'s last topic, checked for this batch: most publish one, over and over
  // The batch's messages by topic id: { topic, bytes (an ArrayBuffer), u32, f32, view, count },
  // each message packed as its topic lays it out; copied to the batch's outboxes at commit.
  #outboxes = [];
  #messages = 0;       // messages in them
  #length = 0;         // words recorded
  #records = 0;
  #spawns = null;      // the debug check: handles spawn() returned ({ handle, reserved }), or null
  #replay = null;      // the debug check's second run: the first run's #spawns, returned again

  #heap;               // (end) => the heap's buffer, one that reaches byte `end`

  constructor(module, heap) {
    this.#module = module;
    this.#heap = heap;
  }

  // A batch begins: returns its Commands object.
  open(context, schema, publishes) {
    this.#context = context;
    this.#schema = schema;
    this.#publishes = publishes;
    this.#checkedTopic = null;
    if (this.#messages !== 0) for (const outbox of this.#outboxes) if (outbox !== undefined) outbox.count = 0;
    this.#messages = 0;
    this.#length = 0;
    this.#records = 0;
    this.#current = new Commands(this);
    return this.#current;
  }

  // A run of the debug check begins: open(), and the handles spawns get are kept (save()).
  // `replay` (its second run): the first run's handles, which this run's spawns get again, in
  // order, instead of taking more from the batch's reservation.
  openChecked(context, schema, publishes, replay) {
    const commands = this.open(context, schema, publishes);
    this.#spawns = [];
    this.#replay = replay;
    return commands;
  }

  close() {
    this.#context = 0;
    this.#current = null;
    this.#length = 0;
    this.#records = 0;
    if (this.#messages !== 0) for (const outbox of this.#outboxes) if (outbox !== undefined) outbox.count = 0;
    this.#messages = 0;
    this.#spawns = null;
    this.#replay = null;
  }

  // The debug check: what the running batch recorded, kept aside; the batch's calls end here.
  save() {
    const messages = this.#outboxes.filter((o) => o !== undefined && o.count > 0)
      .map((o) => ({ topic: o.topic, count: o.count, bytes: new Uint8Array(o.bytes.slice(0, o.count * o.topic.size)) }));
    const saved = { words: this.#words.slice(0, this.#length), length: this.#length, records: this.#records, spawns: this.#spawns, messages };
    this.#current = null;
    return saved;
  }

  // The debug check: the records of `saved` become the batch's again, to commit.
  restore(saved, context) {
    this.close();
    this.#reserve(saved.length);
    this.#words.set(saved.words);
    this.#records = saved.records;
    for (const { topic, count, bytes } of saved.messages) {
      const outbox = this.#outboxFor(topic, count);
      new Uint8Array(outbox.bytes).set(bytes);
      outbox.count = count;
      this.#messages += count;
    }
    this.#context = context;
  }

  /** Whether the running batch recorded or published anything. */
  get pending() { return this.#records !== 0 || this.#messages !== 0; }

  // After the kernel returned: copy the records into the batch's CommandBuffer.
  commit(memory) {
    const context = this.#context;
    const length = this.#length;
    const records = this.#records;
    const messages = this.#messages;
    // The messages first leave the outboxes (close() empties them).
    if (messages !== 0 && context !== 0) {
      for (const outbox of this.#outboxes) if (outbox !== undefined && outbox.count !== 0) this.#send(outbox);
    }
    this.close();
    if (records === 0 || context === 0) return;
    const address = this.#module._ecsia_kernel_commit(context, length, records) >>> 0;
    new Uint32Array(memory.buffer, address, length).set(this.#words.subarray(0, length));
  }

  // Copies an outbox's messages (packed) to the batch's outbox in the engine.
  #send(outbox) {
    const bytes = outbox.count * outbox.topic.size;
    const address = this.#reserveMessages(outbox.topic, outbox.count);
    new Uint8Array(this.#heap(address + bytes), address, bytes).set(new Uint8Array(outbox.bytes, 0, bytes));
  }

  // Room for `count` messages of `topic` in the batch's outbox in the engine: its address.
  // `byField`: messages stored field by field (ecsia_kernel_messages_by_field).
  #reserveMessages(topic, count, byField = false) {
    const module = this.#module;
    const stack = module.stackSave();
    let address;
    try {
      address = (byField ? module._ecsia_kernel_messages_by_field : module._ecsia_kernel_messages)(this.#context, topic.id, count) >>> 0;
    } catch (error) {
      module.stackRestore(stack);  // it allocates: a failure unwound past the wasm frames
      throw error;
    }
    if (address === 0) throw new Error(`the engine refused ${count} message(s) of topic '${topic.name}'`);
    return address;
  }

  // publishMany's common case, written straight into the batch's outbox in the engine, field by
  // field (no copy at commit, and the merge copies each field's array whole): every field is
  // given, each f32, u32 or entity, as a number or a typed array of its bits (a Float32Array, a
  // Uint32Array). Only over shared memory, where the heap growing for the room detaches none of
  // the views the kernel holds. False: not the case.
  #publishInPlace(topic, count, given) {
    if (given.length !== topic.fields.length || topic.size % 4 !== 0 || SHARED_BUFFER === null || !(this.#heap() instanceof SHARED_BUFFER)) return false;
    for (const [field, value] of given) {
      if (field.offset % 4 !== 0 || !(field.type === 'f32' || field.type === 'u32' || field.type === 'entity')) return false;
      if (typeof value !== 'number' && !(value instanceof (field.type === 'f32' ? Float32Array : Uint32Array))) return false;
    }
    // The batch's earlier messages of the topic go first: messages keep the order of the calls.
    const earlier = this.#outboxes[topic.id];
    if (earlier !== undefined && earlier.topic === topic && earlier.count !== 0) {
      this.#send(earlier);
      this.#messages -= earlier.count;
      earlier.count = 0;
    }
    const address = this.#reserveMessages(topic, count, true);
    const heap = this.#heap(address + count * topic.size);
    for (const [field, value] of given) {
      const at = address + count * field.offset;
      if (typeof value !== 'number') {
        new Uint32Array(heap, at, count).set(new Uint32Array(value.buffer, value.byteOffset, count));  // the bits, as they are
      } else {
        new (field.type === 'f32' ? Float32Array : Uint32Array)(heap, at, count).fill(value);
      }
    }
    return true;
  }

  // The outbox of `topic`, with room for `more` messages beyond those it holds. Outboxes are by
  // topic id and outlive batches (their memory is reused); another world's topic of the same id
  // takes the outbox over between batches, when it holds nothing.
  #outboxFor(topic, more) {
    let outbox = this.#outboxes[topic.id];
    if (outbox !== undefined && outbox.topic !== topic && outbox.count === 0) outbox.topic = topic;
    const count = outbox === undefined ? 0 : outbox.count;
    const needed = (count + more) * topic.size;
    if (outbox === undefined || needed > outbox.bytes.byteLength) {
      let capacity = Math.max(1024, outbox === undefined ? 0 : 2 * outbox.bytes.byteLength);
      while (capacity < needed) capacity *= 2;
      const bytes = new ArrayBuffer(capacity);
      if (count > 0) new Uint8Array(bytes).set(new Uint8Array(outbox.bytes, 0, count * topic.size));
      outbox = { topic, bytes, u32: new Uint32Array(bytes), f32: new Float32Array(bytes), view: new DataView(bytes), count };
      this.#outboxes[topic.id] = outbox;
    }
    return outbox;
  }

  // The encoder, for a call through `commands`, which must be the running batch's.
  for(commands, op) {
    if (commands !== this.#current) {
      throw new Error(`commands.${op}: called outside its kernel call (a batch's commands object is valid only while its kernel runs)`);
    }
    return this;
  }

  spawn(components) {
    const op = 'spawn';
    if (!isPlainObject(components)) throw new Error(`commands.${op}: takes an object of components by name, got ${describe(components)}`);
    const names = Object.keys(components);
    const start = this.#length;
    try {
      this.#header(SPAWN, names.length, NULL_ENTITY);
      for (const name of names) this.#value(op, this.#component(op, name), components[name]);
    } catch (error) {
      this.#length = start;
      throw error;
    }
    this.#records += 1;
    return this.#handleFor(start);
  }

  instantiate(prefab, overrides) {
    const op = 'instantiate';
    this.#entity(op, prefab);
    if (!isPlainObject(overrides)) throw new Error(`commands.${op}: takes an object of components by name, got ${describe(overrides)}`);
    const names = Object.keys(overrides);
    const start = this.#length;
    try {
      this.#header(INSTANTIATE, names.length, NULL_ENTITY);
      this.#push(prefab);
      for (const name of names) this.#value(op, this.#component(op, name), overrides[name], prefab);
    } catch (error) {
      this.#length = start;
      throw error;
    }
    this.#records += 1;
    return this.#handleFor(start);
  }

  // The handle of the spawn or instance whose record starts at word `start`: reserved (written
  // into the record) or pending (the record keeps the null handle); the debug check's replay.
  #handleFor(start) {
    const replay = this.#replay;
    if (replay !== null) {
      const spawned = replay[this.#spawns.length];
      this.#spawns.push(spawned);
      if (spawned === undefined) return EXTRA_SPAWN;
      if (spawned.reserved) this.#words[start + 1] = spawned.handle;
      return spawned.handle;
    }
    const module = this.#module;
    let handle = module._ecsia_kernel_take(this.#context) >>> 0;
    const reserved = handle !== NULL_ENTITY;
    if (reserved) {
      this.#words[start + 1] = handle;
    } else {
      handle = module._ecsia_kernel_pending(this.#context) >>> 0;  // the record keeps the null target
    }
    this.#spawns?.push({ handle, reserved });
    return handle;
  }

  publish(name, values) {
    const op = 'publish';
    // The topic and the system's right to publish it are checked once per batch and topic.
    let topic = this.#checkedTopic;
    if (topic === null || topic.name !== name) topic = this.#checkPublish(op, name);
    if (!isPlainObject(values)) {
      throw new Error(`commands.${op}: '${name}' takes an object of field values, got ${describe(values)}`);
    }
    // Written straight into the topic's outbox (its writer, else the checked path); a bad value
    // throws before the count moves, so a refused message publishes nothing.
    let outbox = this.#outboxes[topic.id];
    if (outbox === undefined || outbox.topic !== topic || (outbox.count + 1) * topic.size > outbox.bytes.byteLength) outbox = this.#outboxFor(topic, 1);
    const at = outbox.count * topic.size;
    if (topic.writer === null || topic.writer(values, outbox.u32, outbox.f32, at >>> 2) < 0) this.#encodeMessage(op, topic, outbox, at, values);
    outbox.count += 1;
    this.#messages += 1;
  }

  // One message written with every value checked (what a topic's writer leaves to it): bad input
  // throws, naming the field.
  #encodeMessage(op, topic, outbox, at, values) {
    new Uint8Array(outbox.bytes, at, topic.size).fill(0);
    for (const field of topic.fields) if (field.type === 'entity') outbox.view.setUint32(at + field.offset, NULL_ENTITY, true);
    let given = 0;
    for (const field of topic.fields) {
      const value = values[field.name];
      if (value === undefined) continue;
      given += 1;
      this.#encode(op, topic, field, value, at + field.offset, outbox.view);
    }
    this.#checkKeys(op, topic, values, given);
  }

  publishMany(name, count, values) {
    const op = 'publishMany';
    let topic = this.#checkedTopic;
    if (topic === null || topic.name !== name) topic = this.#checkPublish(op, name);
    if (!Number.isInteger(count) || count < 0) throw new Error(`commands.${op}: count must be a whole number >= 0, got ${describe(count)}`);
    if (count * topic.size >= MAX_MESSAGE_BYTES) {
      throw new Error(`commands.${op}: ${count} messages of '${name}' (${topic.size} bytes each) are more than a batch can publish ` +
        `(${MAX_MESSAGE_BYTES / 2 ** 30} GiB)`);
    }
    if (!isPlainObject(values)) {
      throw new Error(`commands.${op}: '${name}' takes an object of field values, got ${describe(values)}`);
    }
    // Checked whole before anything is written: a field per key, a number or `count` of them.
    const given = [];
    for (const key of Object.keys(values)) {
      const field = topic.byField.get(key) ?? this.#field(op, topic, key);
      const value = values[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' && (typeof value !== 'object' || value === null || typeof value.length !== 'number')) {
        throw new Error(`commands.${op}: field '${name}.${key}' takes a number or an array-like of ${count} numbers, got ${describe(value)}`);
      }
      if (typeof value !== 'number' && value.length !== count) {
        throw new Error(`commands.${op}: field '${name}.${key}' has ${value.length} values for ${count} messages`);
      }
      given.push([field, value]);
    }
    if (count === 0) return;
    const probe = new DataView(new ArrayBuffer(8));  // #encode's checks, before anything is written
    for (const [field, value] of given) {
      if (typeof value === 'number') {
        this.#encode(op, topic, field, value, 0, probe);
      } else if (field.type === 'f32' && value instanceof Float32Array) {
        // Every f32 is a value but NaN: one pass finds the first.
        for (let i = 0; i < count; i++) if (value[i] !== value[i]) this.#encode(op, topic, field, value[i], 0, probe);
      } else if (!((field.type === 'entity' || field.type === 'u32') && value instanceof Uint32Array)) {
        for (let i = 0; i < count; i++) this.#encode(op, topic, field, value[i], 0, probe);
      }
    }
    // The debug check's runs keep their messages aside (save()): they take the outbox.
    if (this.#spawns === null && this.#publishInPlace(topic, count, given)) return;
    const outbox = this.#outboxFor(topic, count);
    const at = outbox.count * topic.size;
    // Written: defaults where no given field lies (fields never overlap, so when the given ones
    // cover the message every byte is written below), then each field given, message after message.
    let covered = 0;
    for (const [field] of given) covered += VIEW_TYPES[field.type].BYTES_PER_ELEMENT;
    if (covered !== topic.size) {
      new Uint8Array(outbox.bytes, at, count * topic.size).fill(0);
      for (const field of topic.fields) {
        if (field.type !== 'entity' || given.some(([g]) => g === field)) continue;
        for (let i = 0; i < count; i++) outbox.view.setUint32(at + i * topic.size + field.offset, NULL_ENTITY, true);
      }
    }
    const wordStride = topic.size / 4;
    for (const [field, value] of given) {
      if (topic.size % 4 === 0 && field.offset % 4 === 0 && (field.type === 'f32' || field.type === 'u32' || field.type === 'entity')) {
        const first = (at + field.offset) >>> 2;
        if (typeof value === 'number') {
          const view = field.type === 'f32' ? outbox.f32 : outbox.u32;
          for (let i = 0; i < count; i++) view[first + i * wordStride] = value;
        } else if (value instanceof (field.type === 'f32' ? Float32Array : Uint32Array)) {
          // The values' bits, through one kind of view: the copy's loop stays monomorphic.
          interleaveWords(outbox.u32, first, wordStride, new Uint32Array(value.buffer, value.byteOffset, count));
        } else {
          const view = field.type === 'f32' ? outbox.f32 : outbox.u32;
          for (let i = 0; i < count; i++) view[first + i * wordStride] = value[i];
        }
      } else {
        for (let i = 0; i < count; i++) this.#encode(op, topic, field, typeof value === 'number' ? value : value[i], at + i * topic.size + field.offset, outbox.view);
      }
    }
    outbox.count += count;
    this.#messages += count;
  }

  // A key of `values` that is no field of `topic` throws; looked for only when the `given` fields
  // do not account for every key.
  #checkKeys(op, topic, values, given) {
    let keys = 0;
    for (const key in values) keys += 1;
    if (keys === given) return;
    for (const key in values) {
      if (!topic.byField.has(key) && Object.prototype.hasOwnProperty.call(values, key)) this.#field(op, topic, key);
    }
  }

  // A topic by name that the running system publishes (an unknown one throws, listing the
  // defined topics; one the system does not declare throws too).
  #checkPublish(op, name) {
    const topic = typeof name === 'string' ? this.#schema.topics.get(name) : undefined;
    if (topic === undefined) {
      if (typeof name !== 'string') throw new Error(`commands.${op}: a topic name must be a string, got ${describe(name)}`);
      throw new Error(`commands.${op}: unknown topic '${name}' (defined: ${[...this.#schema.topics.keys()].join(', ') || 'none'})`);
    }
    if (!this.#publishes.has(topic.id)) {
      throw new Error(`commands.${op}: the system does not publish '${name}' (declare it in the system's publishes)`);
    }
    this.#checkedTopic = topic;
    return topic;
  }

  despawn(entity) {
    this.#entity('despawn', entity);
    this.#header(DESPAWN, 0, entity);
    this.#records += 1;
  }

  add(entity, name, values) {
    const op = 'add';
    this.#entity(op, entity);
    const component = this.#component(op, name);
    const start = this.#length;
    try {
      this.#header(ADD, 1, entity);
      this.#value(op, component, values);
    } catch (error) {
      this.#length = start;
      throw error;
    }
    this.#records += 1;
  }

  remove(entity, name) {
    const op = 'remove';
    this.#entity(op, entity);
    const component = this.#component(op, name);
    this.#header(REMOVE, 1, entity);
    this.#push(component.id);
    this.#records += 1;
  }

  set(entity, name, values) {
    const op = 'set';
    this.#entity(op, entity);
    const component = this.#component(op, name);
    if (!isPlainObject(values)) throw new Error(`commands.${op}: '${name}' takes an object of field values, got ${describe(values)}`);
    const fields = [];
    for (const key of Object.keys(values)) {
      if (values[key] === undefined) continue;
      fields.push([this.#field(op, component, key), values[key]]);
    }
    const start = this.#length;
    try {
      for (const [field, value] of fields) {
        const size = VIEW_TYPES[field.type].BYTES_PER_ELEMENT;
        this.#header(SET, 1, entity);
        this.#push(component.id);
        this.#push(field.offset);
        this.#push(size);
        const at = this.#reserve(Math.ceil(size / 4));
        this.#encode(op, component, field, value, at * 4);  // the payload is the field alone
      }
    } catch (error) {
      this.#length = start;
      throw error;
    }
    this.#records += fields.length;
  }

  addPair(entity, name, target, values) {
    const op = 'addPair';
    const relation = this.#pairTerms(op, entity, name, target, false);
    const start = this.#length;
    try {
      this.#header(ADD_PAIR, 0, entity);
      this.#push(relation.id);
      this.#push(target);
      if (values === undefined || values === null) {
        this.#push(0);  // size 0: default data for a new pair, an existing pair's data kept
      } else {
        this.#data(op, relation, values);
      }
    } catch (error) {
      this.#length = start;
      throw error;
    }
    this.#records += 1;
  }

  removePair(entity, name, target) {
    const op = 'removePair';
    const relation = this.#pairTerms(op, entity, name, target, true);
    this.#header(REMOVE_PAIR, 0, entity);
    this.#push(relation.id);
    this.#push(target === '*' ? NULL_ENTITY : target);  // null: every target
    this.#records += 1;
  }

  // A pair call's checks: returns the relation entry.
  #pairTerms(op, entity, name, target, wildcard) {
    this.#entity(op, entity);
    if (typeof name !== 'string') throw new Error(`commands.${op}: a relation name must be a string, got ${describe(name)}`);
    const relation = this.#schema.byName.get(name);
    if (relation === undefined || !relation.relation) {
      const relations = [...this.#schema.byName.values()].filter((c) => c.relation).map((c) => c.name);
      throw new Error(relation === undefined
        ? `commands.${op}: unknown relation '${name}' (defined: ${relations.join(', ') || 'none'})`
        : `commands.${op}: '${name}' is a component, not a relation (relations: ${relations.join(', ')})`);
    }
    if (wildcard && target === '*') return relation;
    if (!Number.isInteger(target) || target < 0 || target >= NULL_ENTITY) {
      throw new Error(`commands.${op}: the target must be an entity handle${wildcard ? " or '*' (any target)" : ''}, got ${describe(target)}`);
    }
    if (relation.acyclic && target === entity) {
      throw new Error(`commands.${op}: an entity cannot be ${name} itself ('${name}' is acyclic: an entity cannot be its own ancestor)`);
    }
    return relation;
  }

  // { byte size, bytes } of a pair's data: the fields given, defaults for the others.
  #data(op, relation, values) {
    if (!isPlainObject(values)) {
      throw new Error(`commands.${op}: '${relation.name}' pair data takes an object of field values, got ${describe(values)}`);
    }
    const keys = Object.keys(values).filter((key) => values[key] !== undefined);
    if (relation.tag) {
      if (keys.length > 0) throw new Error(`commands.${op}: '${relation.name}' is a tag relation and its pairs have no field '${keys[0]}'`);
      this.#push(0);
      return;
    }
    this.#push(relation.size);
    const at = this.#reserve(Math.ceil(relation.size / 4)) * 4;
    for (const field of relation.fields) {
      if (field.type === 'entity') this.#view.setUint32(at + field.offset, NULL_ENTITY, true);
    }
    for (const key of keys) {
      const field = this.#field(op, relation, key);
      this.#encode(op, relation, field, values[key], at + field.offset);
    }
  }

  #entity(op, entity) {
    if (!Number.isInteger(entity) || entity < 0 || entity > NULL_ENTITY) {
      throw new Error(`commands.${op}: ${describe(entity)} is not an entity handle (handles are the numbers spawn() returns)`);
    }
  }

  #component(op, name) {
    if (typeof name !== 'string') throw new Error(`commands.${op}: a component name must be a string, got ${describe(name)}`);
    const component = this.#schema.byName.get(name);
    if (component === undefined) {
      const components = [...this.#schema.byName.values()].filter((c) => !c.relation).map((c) => c.name);
      throw new Error(`commands.${op}: unknown component '${name}' (defined: ${components.join(', ') || 'none'})`);
    }
    if (component.relation) {
      throw new Error(`commands.${op}: '${name}' is a relation, not a component: its pairs go through commands.addPair / commands.removePair`);
    }
    return component;
  }

  #field(op, component, key) {
    const field = component.byField.get(key);
    if (field === undefined) {
      throw new Error(component.tag
        ? `commands.${op}: '${component.name}' is a tag and has no field '${key}'`
        : `commands.${op}: '${component.name}' has no field '${key}' (fields: ${component.fields.map((f) => f.name).join(', ')})`);
    }
    return field;
  }

  // { component id, payload size, payload }: the whole element, defaults where no value is given
  // (or, with `prefab`, the prefab's values where it has the component).
  #value(op, component, values, prefab = NULL_ENTITY) {
    this.#push(component.id);
    if (component.tag) {
      if (isPlainObject(values) && Object.keys(values).length > 0) this.#field(op, component, Object.keys(values)[0]);
      else if (!(values === undefined || values === null || values === true || isPlainObject(values))) {
        throw new Error(`commands.${op}: '${component.name}' is a tag and takes true, got ${describe(values)}`);
      }
      this.#push(0);
      return;
    }
    if (!(values === undefined || values === null || values === true || isPlainObject(values))) {
      throw new Error(`commands.${op}: '${component.name}' takes an object of field values (or true), got ${describe(values)}`);
    }
    this.#push(component.size);
    const at = this.#reserve(Math.ceil(component.size / 4)) * 4;  // zero bytes
    // A prefab's row is read during the wave: only systems whose query asks for prefabs match it.
    const source = prefab === NULL_ENTITY ? 0 : this.#module._ecsia_kernel_element_of(this.#context, component.id, prefab) >>> 0;
    if (source !== 0) {
      new Uint8Array(this.#words.buffer, at, component.size).set(new Uint8Array(this.#heap(), source, component.size));
    } else {
      for (const field of component.fields) {
        if (field.type === 'entity') this.#view.setUint32(at + field.offset, NULL_ENTITY, true);
      }
    }
    if (!isPlainObject(values)) return;
    for (const key of Object.keys(values)) {
      const field = this.#field(op, component, key);
      if (values[key] !== undefined) this.#encode(op, component, field, values[key], at + field.offset);
    }
  }

  // Writes `value` as `field`'s type at byte `where` of the buffer.
  #encode(op, component, field, value, where, view = this.#view) {
    const wrong = (wanted) => new Error(`commands.${op}: field '${component.name}.${field.name}' is ${field.type} and takes ${wanted}, got ${describe(value)}`);
    switch (field.type) {
      case 'f32':
        // NaN is never a value, as in every world call (docs/API.md); Infinity is.
        if (typeof value !== 'number' || value !== value) throw wrong('a number (not NaN)');
        if (Number.isFinite(value) && Math.abs(value) > FLOAT32_MAX) throw wrong('a number within f32 range');
        view.setFloat32(where, value, true);
        return;
      case 'f64':
        if (typeof value !== 'number' || value !== value) throw wrong('a number (not NaN)');
        view.setFloat64(where, value, true);
        return;
      case 'bool':
        if (value === true || value === 1) view.setUint8(where, 1);
        else if (value === false || value === 0) view.setUint8(where, 0);
        else throw wrong('true or false');
        return;
      default: {
        const number = field.type === 'entity' && value === null ? NULL_ENTITY : value;
        const [lo, hi] = INTEGER_RANGES[field.type];
        if (typeof number !== 'number' || !Number.isInteger(number) || number < lo || number > hi) {
          throw wrong(field.type === 'entity' ? 'an entity handle (a number) or null' : `a whole number from ${lo} to ${hi}`);
        }
        switch (field.type) {
          case 'i8': view.setInt8(where, number); return;
          case 'u8': view.setUint8(where, number); return;
          case 'i16': view.setInt16(where, number, true); return;
          case 'u16': view.setUint16(where, number, true); return;
          case 'i32': view.setInt32(where, number, true); return;
          default: view.setUint32(where, number, true);
        }
      }
    }
  }

  #header(op, count, entity) {
    this.#push(op | (count << COUNT_SHIFT));
    this.#push(entity);
  }

  #push(word) {
    const at = this.#reserve(1);
    this.#words[at] = word;
  }

  // Room for `n` more words, zeroed; returns where they start.
  #reserve(n) {
    const at = this.#length;
    if (at + n > this.#words.length) {
      const grown = new Uint32Array(Math.max(this.#words.length * 2, at + n));
      grown.set(this.#words.subarray(0, at));
      this.#words = grown;
      this.#view = new DataView(grown.buffer);
      this.#f32 = new Float32Array(grown.buffer);
    }
    this.#words.fill(0, at, at + n);
    this.#length = at + n;
    return at;
  }
}
