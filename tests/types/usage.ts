// A page's use of the JS API, type-checked against web/*.d.ts (never run: e2e/ runs the code).
// Lines under // @ts-expect-error are misuse the declarations must reject.
import { loadEcsia, NULL_ENTITY } from '../../web/ecsia.js';
import type { Chunk, EcsiaError, Entity, ErrorCode, Extract, ExtractedFrame, PlannedSystem, Query, RelationInfo, Scheduler, World, WorldInspection } from '../../web/ecsia.js';
import { builtinsOf, forcePlacement } from '../../web/builtins.js';
import type { Scenario } from '../../web/builtins.js';
// The kernel types come from the package's entry, as a user's editor finds them.
import type { ComponentInfo, Kernel, KernelChunk, KernelCommands, Messages, MessagesByTopic } from '../../web/ecsia.js';
// The netcode module ('ecsia-wasm/netcode').
import { LoopbackTransport, RollbackSession, WebSocketTransport } from '../../web/netcode.js';
import type { DesyncEvent, SessionStats } from '../../web/netcode.js';
// The devtools module ('ecsia-wasm/devtools').
import { attachDevtools } from '../../web/devtools.js';
import type { Devtools } from '../../web/devtools.js';
import { ecsiaKernels } from '../../web/vite.js';
import type { EcsiaKernelsPlugin } from '../../web/vite.js';

// A kernel as a kernel module exports it (loadEcsia({ kernels })).
export const integrate: Kernel = (chunk: KernelChunk, dt: number, commands: KernelCommands) => {
  const p = chunk.columns.position;
  if (p instanceof Float32Array) for (let i = 0; i < chunk.count; i++) p[2 * i] += dt;
  const child: number = commands.spawn({ position: { x: 0, y: 0 }, frozen: true });
  commands.add(child, 'health', { hp: 3 });
  commands.set(child, 'health', { regen: 0.5 });
  commands.remove(chunk.entities[0] ?? child, 'frozen');
  commands.addPair(child, 'Targets', chunk.entities[0] ?? child, { since: 2 });
  commands.addPair(child, 'ChildOf', chunk.entities[0] ?? child);
  commands.removePair(child, 'Targets', '*');
  const instance: number = commands.instantiate(child, { health: { hp: 1 } });
  commands.despawn(instance);
  commands.despawn(child);
  const depth: number = chunk.depth;
  const up = chunk.parent?.worldPos;
  if (up instanceof Float32Array && p instanceof Float32Array && depth > 0) p.set(up);
  const at: number = chunk.lookup('position', child);
  const positions = chunk.lookups?.position;
  const parent: number | null = chunk.targetOf(child, 'ChildOf');
  const many: Int32Array = chunk.lookupAll('position', chunk.entities);
  if (at >= 0 && positions instanceof Float32Array && parent !== null && many.length > 0) positions[at] += 1;
};

export async function usage(): Promise<void> {
  const ecsia = await loadEcsia({ threads: 'auto', onDiagnostic: (message: string) => console.warn(message) });
  const variant: 'threaded' | 'single' = ecsia.variant;
  const registered: readonly string[] = ecsia.systems;
  const started: number = ecsia.startedWorkers;
  // @ts-expect-error the count of started Web Workers is the engine's to say
  ecsia.startedWorkers = 2;
  const own = await loadEcsia({ module: new URL('./dist/boids', import.meta.url) });
  const ownByString = await loadEcsia({ module: './dist/boids', threads: 0 });
  const world: World = ecsia.createWorld({ maxEntities: 200_000 });
  const info = world.defineComponent('health', { hp: 'i32', regen: 'f32', alive: 'bool', target: 'entity' });
  const size: number = info.size;
  const e: Entity = world.spawn({ position: { x: 0, y: 0 }, velocity: { dx: 1, dy: 0 }, health: { hp: 10 }, frozen: true });
  world.add(e, 'health', { hp: 3, target: null });
  world.set(e, 'position', { x: Infinity });
  const hp = world.get(e, 'health').hp;
  const alive: boolean = world.isAlive(e) && world.has(e, 'position');
  const n: number = world.count(['position'], ['velocity']);
  for (const chunk of world.chunks(['position'])) {
    const p = chunk.columns.position;
    const stride: number = chunk.strides.position;
    const x: number = chunk.offsets.position.x;
    if (p instanceof Float32Array && !chunk.stale) p[0 * stride + x] += 1;
    const first: number | undefined = chunk.entities[0];
  }
  const handles: Uint32Array = world.spawnMany(3, {
    position: { x: new Float32Array([1, 2, 3]), y: 0 }, velocity: { dx: [1, 1, 1], dy: 0 }, frozen: true,
  });
  world.despawnMany(handles.subarray(0, 1));
  world.despawnMany([handles[1]!]);
  const moving: Query = world.query({ with: ['position', 'velocity'], without: 'frozen', changed: ['velocity'] });
  for (const chunk of moving) world.markChanged(chunk, 'position');
  const rows: number = moving.count() + moving.chunks().length;
  world.markChanged(e, 'position');
  const off: () => void = world.observe('change', 'position', (entity: Entity) => { world.get(entity, 'position'); });
  off();
  const scheduler: Scheduler = world.createScheduler({ systems: ['Move', 'Bounce'], workers: ecsia.workers });
  scheduler.addSystem({
    name: 'Drift', query: { with: ['position'], changed: ['velocity'] }, writes: ['position'],
    run(w: World, dt: number, chunks: Chunk[]) {
      for (const c of chunks) {
        const p = c.columns.position as Float32Array;
        for (let i = 0; i < c.count; i += 1) p[i * c.strides.position] += dt;
      }
    },
  });
  scheduler.addSystem({
    name: 'Heal', reads: [], writes: ['health'], run(w: World, dt: number) {
      if (w.isAlive(e)) w.set(e, 'health', { hp: Number(w.get(e, 'health').hp) + dt });
    },
  });
  scheduler.addSystem('Attract');
  const withKernels = await loadEcsia({ kernels: new URL('./kernels.js', 'https://example.test/'), threads: 2 });
  const kernelNames: readonly string[] = withKernels.kernels;
  scheduler.addSystem({ name: 'Integrate', kernel: 'integrate', reads: ['velocity'], writes: ['position'],
    query: { with: [], without: ['frozen'], optional: [], changed: [], added: [] }, spawnsPerBatch: 4 });
  scheduler.addSystem({ name: 'Propagate', kernel: 'integrate', reads: ['position'], writes: ['worldPos'],
    cascade: 'ChildOf', parentReads: ['worldPos'] });
  scheduler.addSystem({ name: 'Aim', kernel: 'integrate', reads: ['target'], writes: ['aim'], lookups: ['position'] });
  const builtins = builtinsOf(ecsia);
  builtins.spawnMovers(world, 100, 1, { bare: true });
  builtins.spawnHeavy(world, 10, 2, { group: 3 });
  builtins.addSystem(scheduler, 'Heavy3', { heavySteps: 8 });
  const scenario: Scenario = builtins.setupScenario(scheduler, 1);
  const logHash: string = scenario.observerLogHash();
  forcePlacement(scheduler, 'pool');
  // @ts-expect-error: a placement is one of the executor's names
  forcePlacement(scheduler, 'gpu');
  await scheduler.update(1 / 60);
  const waves: string[][] = scheduler.plan();
  const where: 'inline' | 'pool' | 'shared' = scheduler.lastFrame().waves[0].placement;
  // @ts-expect-error: placement is one of three names
  const nowhere: 'gpu' = scheduler.lastFrame().waves[0].placement;
  const planned: PlannedSystem = scheduler.describePlan()[0][0];
  const kind: 'c++' | 'js' | 'js-kernel' = planned.kind;
  const kernelName: string | null = planned.kernel;
  scheduler.userTiming = true;
  // @ts-expect-error: userTiming is on or off
  scheduler.userTiming = 'on';
  const inspection: WorldInspection = world.inspect();
  const archetypeRows: number = inspection.archetypes[0].rows + inspection.memory.allocatedBytes;
  const names: string[] = world.componentsOf(NULL_ENTITY);
  const pairs: Array<[string, Entity]> = world.pairsOf(NULL_ENTITY);
  const devtools: Devtools = attachDevtools({ world, scheduler, container: document.body, frames: 16, tab: 'timeline' });
  devtools.pause();
  devtools.step();
  devtools.resume();
  devtools.select(NULL_ENTITY);
  const selected: Entity | null = devtools.selected;
  // @ts-expect-error: a section is one of the panel's five
  devtools.show('memory');
  devtools.detach();
  // Without a scheduler: World, Entities and Diagnostics.
  attachDevtools({ world, scheduler: null, tab: 'entities' }).detach();
  world.createScheduler({ userTiming: true });
  const hash: string = world.stateHash();
  const saved: Uint8Array = world.snapshot();
  const reused: Uint8Array = world.snapshot(new Uint8Array(saved.length));
  world.restore(reused);
  // @ts-expect-error snapshot reuses a Uint8Array, not an ArrayBuffer
  world.snapshot(saved.buffer);
  world.restore(saved);
  world.restore(saved.buffer as ArrayBuffer);
  // @ts-expect-error restore takes bytes, not a hash string
  world.restore(hash);
  try {
    world.despawn(e);
  } catch (error) {
    const code: ErrorCode | undefined = (error as EcsiaError).code;
  }
  const none: number = NULL_ENTITY;
  scheduler.dispose();
  world.dispose();

  // ---- misuse the declarations reject

  // @ts-expect-error: an unknown loader option
  await loadEcsia({ thread: 2 });
  // @ts-expect-error: module is a URL prefix, not a number
  await loadEcsia({ module: 3 });
  // @ts-expect-error: the registered systems are read-only
  ecsia.systems.push('Mine');
  if ((await loadEcsia({ debug: true })).debug) console.log('declared access is checked');
  // @ts-expect-error: debug is a boolean
  await loadEcsia({ debug: 'yes' });
  // @ts-expect-error: threads takes 'auto' or a number
  await loadEcsia({ threads: 'many' });
  // @ts-expect-error: a field type that does not exist
  world.defineComponent('bad', { v: 'float' });
  // @ts-expect-error: a string into a numeric field
  world.set(e, 'position', { x: 'abc' });
  // @ts-expect-error: an entity is a number, not a string
  world.get('abc', 'position');
  // @ts-expect-error: an unknown scheduler option
  world.createScheduler({ worker: 2 });
  // @ts-expect-error: the built-in workloads' helpers are not on the Scheduler
  scheduler.spawnMovers(10);
  // @ts-expect-error: nor is the scenario an option
  world.createScheduler({ scenarioSeed: 1 });
  // @ts-expect-error: a built-in setting that does not exist
  builtins.addSystem(scheduler, 'Heavy0', { steps: 3 });
  // @ts-expect-error: a system needs a run function
  scheduler.addSystem({ name: 'NoRun', reads: [] });
  // @ts-expect-error: a kernel system names its kernel with a string
  scheduler.addSystem({ name: 'K', kernel: 3 });
  // @ts-expect-error: kernels is a URL or a string
  await loadEcsia({ kernels: 5 });
  // @ts-expect-error: update takes a number
  await scheduler.update('1/60');
  // @ts-expect-error: chunks are read-only
  world.chunks()[0].count = 3;
  // @ts-expect-error: the raw Embind plumbing is not part of the API
  world.raw;
  // @ts-expect-error: nor is the module
  ecsia.module;
  // @ts-expect-error: an observer event that does not exist
  world.observe('added', 'position', () => {});
  // @ts-expect-error: spawnMany takes numbers or array-likes of numbers per field
  world.spawnMany(2, { position: { x: ['a', 'b'] } });
  // @ts-expect-error: an unknown query term
  world.query({ with: ['position'], where: ['velocity'] });
  // @ts-expect-error: a query term takes names
  world.query({ with: [1] });
  // @ts-expect-error: despawnMany takes handles
  world.despawnMany(['a']);
  // @ts-expect-error: an unknown key in a system spec
  scheduler.addSystem({ name: 'Typo', run() {}, writse: ['position'] });
  const chunkList: Chunk[] = world.chunks('position', ['velocity']);
  const drawn: Extract = scheduler.extract({ components: ['position'], without: ['frozen'] });
  const shown: ExtractedFrame = drawn.latest();
  const xs: number = (shown.columns.position as Float32Array)[shown.offsets.position.x];
  const frameNumber: number = shown.frame + shown.count + shown.entities.length + xs;
  drawn.dispose();
  // Relations: pairs (relation, target) on a subject.
  const targets: RelationInfo = world.defineRelation('Targets', { since: 'u32' }, { exclusive: false, onDeleteTarget: 'remove' });
  const exclusive: boolean = targets.exclusive && world.defineRelation('Likes').tag;
  const enemy: Entity = world.spawn();
  const orc: Entity = world.definePrefab('orc', { health: { hp: 30 } });
  const boss: Entity = world.definePrefab('orcBoss', { health: { hp: 300 } }, { extends: orc });
  const grunt: Entity = world.instantiate(boss, { position: { x: 1, y: 2 } });
  const horde: Uint32Array = world.instantiateMany(world.prefab('orc'), 10, { position: { x: new Float32Array(10), y: 0 } });
  const prefabsToo = world.query({ with: ['health'], prefabs: true }).count() + horde.length + grunt;
  const matchesPrefabs: boolean = world.query({ with: ['health'], prefabs: true }).terms.prefabs;
  world.addPair(e, 'Targets', enemy, { since: 3 });
  world.addPair(e, 'ChildOf', enemy);
  world.setPair(e, 'Targets', enemy, { since: 4 });
  const since = world.getPair(e, 'Targets', enemy).since;
  const paired: boolean = world.hasPair(e, 'Targets', enemy) && world.hasPair(e, 'Targets', '*');
  const parent: Entity | null = world.targetOf(e, 'ChildOf');
  const all: Entity[] = [...world.targetsOf(e, 'Targets'), ...world.subjectsOf('Targets', enemy), ...world.subjectsOf('ChildOf', '*')];
  const children: Query = world.query({ with: ['position'], pairs: [['ChildOf', enemy]], withoutPairs: [['Targets', '*']] });
  const firstTerm: string = children.terms.pairs[0][0];
  const stopPairs = world.observe('add', 'Targets', (subject: Entity, target: Entity) => console.log(subject, target));
  stopPairs();
  world.removePair(e, 'Targets', '*');
  console.log(exclusive, since, paired, parent, all, firstTerm);
  // Topics: messages systems publish and consume.
  const hitTopic: ComponentInfo = world.defineTopic('hit', { target: 'entity', damage: 'f32' });
  world.publish('hit', { target: enemy, damage: 5 });
  scheduler.addSystem({ name: 'Damage', consumes: ['hit'], writes: ['health'], run(w: World, dt: number, chunks: Chunk[], messages: MessagesByTopic) {
    const hits: Messages = messages.hit;
    for (const m of hits) console.log(m.target, m.damage);
    const damage = hits.fields.damage as Float32Array;
    for (let i = 0; i < hits.count; i++) console.log(damage[i], hits.topic, hitTopic.size);
  } });
  scheduler.addSystem({ name: 'Shoot', kernel: 'shoot', publishes: ['hit'], consumes: ['hit'] });
  const shoot: Kernel = (chunk, dt, commands, messages) => {
    commands.publish('hit', { target: chunk.entities[0], damage: messages.hit.count });
    commands.publishMany('hit', chunk.count, { target: chunk.entities, damage: 2 });
  };
  scheduler.removeSystem('Shoot');
  console.log(shoot);
  // @ts-expect-error: publish takes an object of field values
  world.publish('hit', 5);
  // @ts-expect-error: consumes takes topic names
  scheduler.addSystem({ name: 'Bad', consumes: 'hit', run() {} });
  // @ts-expect-error: onDeleteTarget is 'remove' or 'delete'
  world.defineRelation('Bad', {}, { onDeleteTarget: 'cascade' });
  // @ts-expect-error: addPair needs one target, not '*'
  world.addPair(e, 'Targets', '*');
  // @ts-expect-error: a pair term is [relation, target]
  world.query({ pairs: ['ChildOf'] });
  // @ts-expect-error: an extract names its components in a list
  scheduler.extract({ components: 'position' });
  // @ts-expect-error: an extract spec needs components
  scheduler.extract({ with: ['position'] });
  // @ts-expect-error: an extracted frame is read-only
  shown.count = 0;
}

// The netcode module: two sessions over an in-page link; a third over a relay.

export async function playNetcode(world: World, scheduler: Scheduler, ships: Entity[]) {
  const [near, far] = LoopbackTransport.pair({ latencyMs: 80, jitterMs: 30, loss: 0.05, reorder: true, seed: 1 });
  const session = new RollbackSession({
    world, scheduler, players: 2, localPlayer: 0, inputComponent: 'input', playerEntities: ships,
    inputDelay: 2, maxRollback: 8, hashEvery: 30, transport: near,
  });
  const stop = session.on('desync', ({ frame, local, remote }: DesyncEvent) => console.log(frame, local, remote));
  session.on('stall', ({ waitingFor }) => console.log(waitingFor.length));
  session.setLocalInput({ thrust: 1, fire: 0 });
  const ran: boolean = await session.advance(1 / 60);
  await session.poll();
  const stats: SessionStats = session.stats;
  console.log(ran, stats.rollbacks + stats.framesResimulated + stats.confirmedFrame, far.connected);
  far.disconnect();
  far.reconnect();
  const relayed = new WebSocketTransport('ws://127.0.0.1:9400/room/1', { reconnectMs: 250 });
  console.log(relayed.drops);
  stop();
  session.close();
  // @ts-expect-error: an unknown event
  session.on('lag', () => {});
  // @ts-expect-error: advance takes the frame's dt
  await session.advance();
  // @ts-expect-error: playerEntities is required
  new RollbackSession({ world, scheduler, players: 2, localPlayer: 0, inputComponent: 'input', transport: near });
}

// The Vite plugin: an object for a Vite config's plugins.
export const vitePlugins: { name: string }[] = [ecsiaKernels()];
const plugin: EcsiaKernelsPlugin = ecsiaKernels();
console.log(plugin.name === 'ecsia-kernels', plugin.enforce);
// @ts-expect-error: the plugin takes no options
ecsiaKernels({ include: 'kernels.js' });
