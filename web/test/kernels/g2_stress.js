// Allocation-heavy JS kernels of e2e/g2_stress.spec.js: on the workers, every batch's command
// buffer grows well past its first size, spawns go past the batch's reserved handles, and a burst
// frame records tens of megabytes of commands, which grows the wasm heap from a worker.
// Components (the spec defines them): hp { value: i32 }, payload { a, b, c, d: f64 }, young and
// burst (tags).

const payloadOf = (i) => ({ a: i, b: i / 2, c: -i, d: i * 4 });

/** Each parent (not young) spawns 1 to 4 young children and sets its own hp. */
export function churn(chunk, dt, commands) {
  const hp = chunk.columns.hp;
  for (let i = 0; i < chunk.count; i++) {
    const e = chunk.entities[i];
    const children = 1 + (e & 3);
    for (let c = 0; c < children; c++) commands.spawn({ hp: { value: 3 }, payload: payloadOf(c), young: true });
    commands.set(e, 'hp', { value: (hp[i] + children) & 0xffff });
  }
}

/** Young entities count down and despawn at 0. */
export function fade(chunk, dt, commands) {
  const hp = chunk.columns.hp;
  for (let i = 0; i < chunk.count; i++) {
    hp[i] -= 1;
    if (hp[i] <= 0) commands.despawn(chunk.entities[i]);
  }
}

/** Each entity tagged burst spawns 1024 young children: one wave's commands of tens of megabytes. */
export function burst(chunk, dt, commands) {
  for (let i = 0; i < chunk.count; i++) {
    for (let c = 0; c < 1024; c++) commands.spawn({ hp: { value: 2 }, payload: payloadOf(c), young: true });
    commands.remove(chunk.entities[i], 'burst');
  }
}
