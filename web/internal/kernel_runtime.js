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
// Thread rule: the thread whose engine instance owns the runtime.

const VIEW_TYPES = {
  f32: Float32Array, f64: Float64Array, i8: Int8Array, i16: Int16Array, i32: Int32Array,
  u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, bool: Uint8Array, entity: Uint32Array,
};
const INTEGER_RANGES = {
  i8: [-128, 127], i16: [-32768, 32767], i32: [-2147483648, 2147483647],
  u8: [0, 255], u16: [0, 65535], u32: [0, 4294967295], entity: [0, 4294967295],
};
const FLOAT32_MAX = 3.4028234663852886e38;
const NULL_ENTITY = 0xffffffff;

// Batch descriptor words (wasm/js_kernel.hpp).
const TOKEN = 0, KERNEL = 1, COUNT = 2, ENTITIES = 3, CONTEXT = 4, SCHEMA_SIZE = 5, WORLD = 6, COMPONENTS = 7, HEADER = 8;
// CommandOp (command_buffer.hpp).
const SPAWN = 1, DESPAWN = 2, ADD = 3, REMOVE = 4, SET = 5;

const RAN = 0;
const THREW = 1;

/** The kernels of a module namespace: its exported functions, by export name, sorted. */
export function kernelNames(namespace) {
  return Object.keys(namespace).filter((name) => typeof namespace[name] === 'function').sort();
}

function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string ("${value.length > 40 ? `${value.slice(0, 40)}...` : value}")`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return `a thrown ${describe(error)}${typeof error === 'string' ? '' : `: ${String(error)}`}`;
  } catch {
    return 'a thrown value that cannot be printed';
  }
}

// A component as kernels see it: its view type and layout (like ecsia.js's columnLayout) and
// how its values are encoded into command payloads.
function componentOf(desc) {
  const fields = desc.fields.map(([name, type, offset]) => ({ name, type, offset }));
  const component = { id: desc.id, name: desc.name, size: desc.size, tag: desc.size === 0, fields, byField: new Map() };
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

function parseSchema(json) {
  const parsed = JSON.parse(json);
  const byName = new Map();
  const byId = [];
  for (const desc of parsed.components) {
    const component = componentOf(desc);
    byName.set(component.name, component);
    byId[component.id] = component;
  }
  return { size: byId.length, byName, byId };
}

export class KernelRuntime {
  #module;
  #url;
  #loadError;
  #kernels;          // by kernel id
  #names;
  #systems = [];     // by system token (small, unique numbers): { schema, kernel, declared, strides, offsets }
  #commands;
  #buffer = null;    // the heap buffer #words views
  #words = null;
  #heapBytes = -1;   // the heap's size when #buffer was fetched

  /**
   * @param namespace the kernel module's namespace, or null when it failed to load here
   * @param module the engine instance (its exports are called for spawns and commits)
   * @param url the kernel module's URL (for messages)
   * @param loadError why the module failed to load on this thread, or null
   */
  constructor(namespace, module, url, loadError = null) {
    this.#module = module;
    this.#url = url;
    this.#loadError = loadError;
    this.#names = namespace === null ? [] : kernelNames(namespace);
    this.#kernels = this.#names.map((name) => namespace[name]);
    this.#commands = new CommandEncoder(module);
  }

  /** Kernel names in id order. */
  get names() { return this.#names; }

  /**
   * Called through EM_JS for one batch (`heapBytes`: the heap's size now); returns 0, or 1 with
   * the failure's message handed over. The kernel itself calls no export that can throw, so the
   * wasm stack needs restoring only around the calls that allocate (schema, commit, report).
   */
  run(batch, dt, memory, heapBytes) {
    if (heapBytes !== this.#heapBytes) this.#refresh(memory, heapBytes);
    try {
      this.#run(batch, dt, memory);
      return RAN;
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
        return -2;
      }
      return THREW;
    }
  }

  #run(batch, dt, memory) {
    let words = this.#words;
    let at = batch >>> 2;
    const token = words[at + TOKEN];
    let system = this.#systems[token];
    if (system === undefined || system.schema.size !== words[at + SCHEMA_SIZE]) {
      system = this.#prepare(token, words[at + KERNEL], words[at + WORLD], words[at + COMPONENTS], at, memory, system);
      this.#refresh(memory, -1);  // the schema's text may have grown the heap
      words = this.#words;
    }
    const buffer = this.#buffer;
    const count = words[at + COUNT];
    const columns = {};
    const declared = system.declared;
    at += HEADER;
    for (let i = 0; i < declared.length; i++) {
      const component = declared[i];
      if (component.tag) continue;  // a tag has no column
      const address = words[at + 2 * i + 1];
      columns[component.name] = address === 0 ? undefined
        : component.View === DataView ? new DataView(buffer, address, count * component.stride)
          : new component.View(buffer, address, count * component.stride);
    }
    at -= HEADER;
    const chunk = new KernelChunk(count, buffer, words[at + ENTITIES], columns, system.strides, system.offsets);
    const encoder = this.#commands;
    system.kernel(chunk, dt, encoder.open(words[at + CONTEXT], system.schema));
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
  #prepare(token, kernelId, world, count, at, memory, previous) {
    if (this.#loadError !== null) {
      throw new Error(`the kernel module ${this.#url} failed to load on this thread: ${this.#loadError}`);
    }
    const kernel = this.#kernels[kernelId];
    if (kernel === undefined) throw new Error(`no kernel with id ${kernelId} (the module has ${this.#names.length})`);
    const schema = this.#schema(world, memory);
    let declared = previous?.declared;
    if (declared === undefined) {
      this.#refresh(memory, -1);
      const words = this.#words;
      declared = [];
      for (let i = 0; i < count; i++) declared.push(schema.byId[words[at + HEADER + 2 * i]]);
    }
    const strides = {};
    const offsets = {};
    for (const component of declared) {
      if (component.tag) continue;
      strides[component.name] = component.stride;
      offsets[component.name] = component.offsets;
    }
    const system = { schema, kernel, declared, strides: Object.freeze(strides), offsets: Object.freeze(offsets) };
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

/** The chunk a kernel gets; `entities` is made on first use (a view costs ~0.1 µs). */
class KernelChunk {
  #buffer;
  #address;
  #entities = null;
  constructor(count, buffer, address, columns, strides, offsets) {
    this.count = count;
    this.#buffer = buffer;
    this.#address = address;
    this.columns = columns;
    this.strides = strides;
    this.offsets = offsets;
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
}

// Encodes one batch's records at a time into a JS buffer, in CommandBuffer's layout.
class CommandEncoder {
  #module;
  #context = 0;        // the batch's KernelContext; 0 outside a kernel call
  #current = null;     // the batch's Commands object
  #schema = null;
  #words = new Uint32Array(1024);
  #view = new DataView(this.#words.buffer);
  #length = 0;         // words recorded
  #records = 0;

  constructor(module) {
    this.#module = module;
  }

  // A batch begins: returns its Commands object.
  open(context, schema) {
    this.#context = context;
    this.#schema = schema;
    this.#length = 0;
    this.#records = 0;
    this.#current = new Commands(this);
    return this.#current;
  }

  close() {
    this.#context = 0;
    this.#current = null;
    this.#length = 0;
    this.#records = 0;
  }

  /** Whether the running batch recorded anything. */
  get pending() { return this.#records !== 0; }

  // After the kernel returned: copy the records into the batch's CommandBuffer.
  commit(memory) {
    const context = this.#context;
    const length = this.#length;
    const records = this.#records;
    this.close();
    if (records === 0 || context === 0) return;
    const address = this.#module._ecsia_kernel_commit(context, length, records) >>> 0;
    new Uint32Array(memory.buffer, address, length).set(this.#words.subarray(0, length));
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
    const module = this.#module;
    let handle = module._ecsia_kernel_take(this.#context) >>> 0;
    if (handle === NULL_ENTITY) {
      handle = module._ecsia_kernel_pending(this.#context) >>> 0;  // the record keeps the null target
    } else {
      this.#words[start + 1] = handle;
    }
    this.#records += 1;
    return handle;
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
        this.#encode(op, component, field, value, at * 4);
      }
    } catch (error) {
      this.#length = start;
      throw error;
    }
    this.#records += fields.length;
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
      throw new Error(`commands.${op}: unknown component '${name}' (defined: ${[...this.#schema.byName.keys()].join(', ') || 'none'})`);
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

  // { component id, payload size, payload }: the whole element, defaults where no value is given.
  #value(op, component, values) {
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
    for (const field of component.fields) {
      if (field.type === 'entity') this.#view.setUint32(at + field.offset, NULL_ENTITY, true);
    }
    if (!isPlainObject(values)) return;
    for (const key of Object.keys(values)) {
      const field = this.#field(op, component, key);
      if (values[key] !== undefined) this.#encode(op, component, field, values[key], at);
    }
  }

  #encode(op, component, field, value, at) {
    const view = this.#view;
    const where = at + field.offset;
    const wrong = (wanted) => new Error(`commands.${op}: field '${component.name}.${field.name}' is ${field.type} and takes ${wanted}, got ${describe(value)}`);
    switch (field.type) {
      case 'f32':
        if (typeof value !== 'number') throw wrong('a number');
        if (Number.isFinite(value) && Math.abs(value) > FLOAT32_MAX) throw wrong('a number within f32 range');
        view.setFloat32(where, value, true);
        return;
      case 'f64':
        if (typeof value !== 'number') throw wrong('a number');
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
    this.#push(op | (count << 8));
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
    }
    this.#words.fill(0, at, at + n);
    this.#length = at + n;
    return at;
  }
}
