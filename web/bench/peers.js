// What a user would pick instead of ecsia for the *move* and *tracked* workloads, and the
// practical limit, all over the same entities (the workload's values, DESIGN.md):
//   jsLoop      a plain JS loop over two Float32Arrays of {x, y} pairs
//   wasmLoop    a plain C++ loop over two float arrays in wasm, scalar or -msimd128 (bench module)
//   bitECS      bitECS 0.4.0 from npm (pinned in package-lock.json), SoA components and query()
// bitECS 0.4 has no `changed` query (its migration guide says: observers or manual dirty flags);
// its *tracked* variant uses the faster of the two, a dirty flag per entity plus a list of dirty
// entities that the drainer walks and clears.
import * as bitecs from '/node_modules/bitecs/dist/core/index.mjs';

export function initialPosition(i) { return [i % 1000, Math.floor(i / 1000)]; }
export function initialVelocity(i) { return [(i % 7) * 0.25 - 0.75, (i % 5) * 0.5 - 1.0]; }

function fillPairs(array, count, value) {
  for (let i = 0; i < count; i += 1) {
    const [a, b] = value(i);
    array[2 * i] = a;
    array[2 * i + 1] = b;
  }
}

export function jsLoop(count, dt) {
  const position = new Float32Array(2 * count);
  const velocity = new Float32Array(2 * count);
  fillPairs(position, count, initialPosition);
  fillPairs(velocity, count, initialVelocity);
  const n = 2 * count;
  return {
    run(frames) {
      for (let f = 0; f < frames; f += 1) {
        for (let i = 0; i < n; i += 1) position[i] += velocity[i] * dt;
      }
    },
  };
}

/** flavour: 'scalar' | 'simd'. */
export function wasmLoop(bench, flavour, count, dt) {
  const base = bench._bench_move_arrays(count);
  if (base === 0) throw new Error(`wasm loop: could not allocate ${count} rows`);
  const heap = new Float32Array(bench.wasmMemory.buffer, base, 4 * count);
  fillPairs(heap.subarray(0, 2 * count), count, initialPosition);
  fillPairs(heap.subarray(2 * count), count, initialVelocity);
  const move = flavour === 'simd' ? bench._bench_move_simd : bench._bench_move_scalar;
  const velocity = base + 8 * count;
  return {
    run(frames) {
      for (let f = 0; f < frames; f += 1) move(base, velocity, count, dt);
    },
    dispose: () => bench._bench_free(base),
  };
}

function bitecsWorld(count) {
  const world = bitecs.createWorld();
  // Entity ids start at 1 in bitECS 0.4: the arrays hold ids 0..count.
  const Position = { x: new Float32Array(count + 1), y: new Float32Array(count + 1) };
  const Velocity = { x: new Float32Array(count + 1), y: new Float32Array(count + 1) };
  for (let i = 0; i < count; i += 1) {
    const eid = bitecs.addEntity(world);
    if (eid > count) throw new Error(`bitECS gave entity id ${eid} for entity ${i} of ${count}`);
    bitecs.addComponent(world, eid, Position);
    bitecs.addComponent(world, eid, Velocity);
    [Position.x[eid], Position.y[eid]] = initialPosition(i);
    [Velocity.x[eid], Velocity.y[eid]] = initialVelocity(i);
  }
  return { world, Position, Velocity };
}

/**
 * What spawnMany is measured against: a fresh bitECS world, then per entity addEntity, two
 * addComponent and the four typed-array writes of the values.
 */
export function bitecsSpawn(count, xs, ys, dxs, dys) {
  const world = bitecs.createWorld();
  const Position = { x: new Float32Array(count + 1), y: new Float32Array(count + 1) };
  const Velocity = { x: new Float32Array(count + 1), y: new Float32Array(count + 1) };
  for (let i = 0; i < count; i += 1) {
    const eid = bitecs.addEntity(world);
    bitecs.addComponent(world, eid, Position);
    bitecs.addComponent(world, eid, Velocity);
    Position.x[eid] = xs[i];
    Position.y[eid] = ys[i];
    Velocity.x[eid] = dxs[i];
    Velocity.y[eid] = dys[i];
  }
  if (bitecs.query(world, [Position, Velocity]).length !== count) throw new Error('bitECS spawn: entities missing');
  return world;
}

/** The idiomatic bitECS 0.4 move system: query(world, [Position, Velocity]) each frame. */
export function bitecsMove(count, dt) {
  const { world, Position, Velocity } = bitecsWorld(count);
  const moveSystem = () => {
    const entities = bitecs.query(world, [Position, Velocity]);
    for (let i = 0; i < entities.length; i += 1) {
      const eid = entities[i];
      Position.x[eid] += Velocity.x[eid] * dt;
      Position.y[eid] += Velocity.y[eid] * dt;
    }
  };
  return {
    run(frames) { for (let f = 0; f < frames; f += 1) moveSystem(); },
  };
}

/** Move that marks what it wrote, and a drainer that sums x over the marked entities. */
export function bitecsTracked(count, dt) {
  const { world, Position, Velocity } = bitecsWorld(count);
  const dirty = new Uint8Array(count + 1);
  const dirtyList = new Uint32Array(count + 1);
  let dirtyCount = 0;
  let sum = 0;
  let drained = 0;
  const moveSystem = () => {
    const entities = bitecs.query(world, [Position, Velocity]);
    for (let i = 0; i < entities.length; i += 1) {
      const eid = entities[i];
      Position.x[eid] += Velocity.x[eid] * dt;
      Position.y[eid] += Velocity.y[eid] * dt;
      if (dirty[eid] === 0) {
        dirty[eid] = 1;
        dirtyList[dirtyCount++] = eid;
      }
    }
  };
  const drainSystem = () => {
    let total = 0;
    for (let i = 0; i < dirtyCount; i += 1) {
      const eid = dirtyList[i];
      total += Position.x[eid];
      dirty[eid] = 0;
    }
    drained += dirtyCount;
    dirtyCount = 0;
    sum += total;
  };
  return {
    run(frames) {
      for (let f = 0; f < frames; f += 1) {
        moveSystem();
        drainSystem();
      }
    },
    /** Rows the drainer has read, and their sum (what a real drainer would use). */
    drained: () => ({ rows: drained, sum }),
  };
}
