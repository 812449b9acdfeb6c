// kernels.js: each exported function is a kernel, named by its export name
export function integrate(chunk, dt) {
  const p = chunk.columns.position, v = chunk.columns.velocity;  // zero-copy views: this batch's rows
  for (let i = 0; i < chunk.count; i++) { p[2 * i] += v[2 * i] * dt; p[2 * i + 1] += v[2 * i + 1] * dt; }
}

export function split(chunk, dt, commands) {
  const health = chunk.columns.health;                             // { hp: i32, regen: f32 }: a DataView
  const { hp } = chunk.offsets.health;
  for (let i = 0; i < chunk.count; i++) {
    if (health.getInt32(i * chunk.strides.health + hp, true) !== 10) continue;
    const child = commands.spawn({ position: { x: 0, y: 0 }, health: { hp: 5 } });
    commands.set(child, 'health', { regen: 0.5 });                 // a new handle works in the same batch
    commands.addPair(child, 'ChildOf', chunk.entities[i]);          // ...as a pair's subject or target too
    commands.remove(chunk.entities[i], 'health');
  }
}
