// A TypeScript page module using the installed package: it must type-check under --strict with
// the package's own declarations (never run: the other apps run the code). Lines under
// // @ts-expect-error are misuse the declarations must reject.
import { loadEcsia, NULL_ENTITY } from 'ecsia-wasm';
import type { Ecsia, EcsiaError, Entity, LoadOptions, Scheduler, World } from 'ecsia-wasm';

export async function start(onDiagnostic: (message: string) => void): Promise<string> {
  const options: LoadOptions = { threads: 'auto', onDiagnostic };
  const ecsia: Ecsia = await loadEcsia(options);
  const variant: 'threaded' | 'single' = ecsia.variant;
  const world: World = ecsia.createWorld({ maxEntities: 100_000 });
  world.defineComponent('health', { hp: 'i32', regen: 'f32' });
  const e: Entity = world.spawn({ position: { x: 0, y: 0 }, velocity: { dx: 1, dy: -1 }, health: { hp: 10 } });
  const scheduler: Scheduler = world.createScheduler({ systems: ['Move', 'Bounce'] });
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
  return `${variant} ${ecsia.workers} ${hash}`;
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
