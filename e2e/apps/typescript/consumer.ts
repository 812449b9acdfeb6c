// A TypeScript page module using the installed package: it must type-check under --strict with
// the package's own declarations (never run: the other apps run the code). Lines under
// // @ts-expect-error are misuse the declarations must reject.
import { loadEcsia, NULL_ENTITY } from 'ecsia-wasm';
import type { Ecsia, EcsiaError, Entity, Kernel, KernelChunk, KernelCommands, LoadOptions, Scheduler, World } from 'ecsia-wasm';

// A kernel as a kernel module exports it (loadEcsia({ kernels })), typed from the package's entry.
export const integrate: Kernel = (chunk: KernelChunk, dt: number, commands: KernelCommands) => {
  const p = chunk.columns.position;
  const v = chunk.columns.velocity;
  if (p instanceof Float32Array && v instanceof Float32Array) for (let i = 0; i < 2 * chunk.count; i += 1) p[i] += v[i] * dt;
  if (chunk.count === 0) commands.spawn({ position: { x: 0, y: 0 } });
};

export async function start(onDiagnostic: (message: string) => void): Promise<string> {
  const options: LoadOptions = { threads: 'auto', onDiagnostic, kernels: new URL('./kernels.js', import.meta.url) };
  const ecsia: Ecsia = await loadEcsia(options);
  const variant: 'threaded' | 'single' = ecsia.variant;
  const started: number = ecsia.startedWorkers;
  const world: World = ecsia.createWorld({ maxEntities: 100_000 });
  world.defineComponent('position', { x: 'f32', y: 'f32' });
  world.defineComponent('velocity', { dx: 'f32', dy: 'f32' });
  world.defineComponent('health', { hp: 'i32', regen: 'f32' });
  const e: Entity = world.spawn({ position: { x: 0, y: 0 }, velocity: { dx: 1, dy: -1 }, health: { hp: 10 } });
  const scheduler: Scheduler = world.createScheduler();
  scheduler.addSystem({ name: 'Integrate', kernel: 'integrate', reads: ['velocity'], writes: ['position'] });
  await scheduler.update(1 / 60);
  for (const chunk of world.chunks(['position'])) {
    const count: number = chunk.count;
    const first: number | undefined = chunk.entities[0];
    void count;
    void first;
  }
  const none: number = NULL_ENTITY;
  try {
    world.despawn(e);
    world.despawn(e);
  } catch (error) {
    const code = (error as EcsiaError).code;
    if (code === 'StaleEntity') onDiagnostic(`stale, as expected (${none})`);
  }
  scheduler.dispose();
  const hash: string = world.stateHash();
  world.dispose();
  return `${variant} ${ecsia.workers} of ${started} ${hash}`;
}

export async function misuse(): Promise<void> {
  // @ts-expect-error threads is 'auto' or a number
  await loadEcsia({ threads: 'many' });
  // @ts-expect-error an unknown option
  await loadEcsia({ thread: 2 });
  const ecsia = await loadEcsia();
  // @ts-expect-error the variant is read-only
  ecsia.variant = 'single';
  // @ts-expect-error maxEntities is a number
  ecsia.createWorld({ maxEntities: '10' });
}

// The netcode module, from its own entry point ('ecsia-wasm/netcode': its "exports" subpath).
import { LoopbackTransport, RollbackSession } from 'ecsia-wasm/netcode';
import type { SessionStats } from 'ecsia-wasm/netcode';

export async function rollback(world: World, scheduler: Scheduler, players: Entity[]): Promise<number> {
  const [near] = LoopbackTransport.pair({ latencyMs: 80, loss: 0.05, reorder: true });
  const session = new RollbackSession({ world, scheduler, players: 2, localPlayer: 0, inputComponent: 'input', playerEntities: players, transport: near });
  session.setLocalInput({ thrust: 1 });
  await session.advance(1 / 60);
  const stats: SessionStats = session.stats;
  // @ts-expect-error: stats are read-only numbers, not a place to write
  session.stats = stats;
  return stats.rollbacks;
}

// The devtools module, from its own entry point ('ecsia-wasm/devtools').
import { attachDevtools } from 'ecsia-wasm/devtools';
import type { Devtools, DevtoolsSection } from 'ecsia-wasm/devtools';

export function inspect(world: World, scheduler: Scheduler | null): Devtools {
  const tab: DevtoolsSection = scheduler === null ? 'entities' : 'timeline';
  const devtools = attachDevtools({ world, scheduler, container: document.body, tab });
  devtools.select(world.spawn());
  // @ts-expect-error: a section is one of the panel's five
  devtools.show('memory');
  return devtools;
}
