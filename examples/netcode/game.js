// A two-player game for rollback netcode: each player steers a ship (thrust, turn) and fires
// shots; a shot that comes within 20 units of the other ship scores a hit. Dust drifts around
// the arena. Both players' inputs change the outcome, so a wrong prediction shows: the session
// must roll back. Deterministic: the same inputs give the same state hash on every peer, thread
// count and build. Used by the demo page (./index.html), e2e/netcode.spec.js and
// e2e/netcode_session.spec.js.

export const DT = 1 / 60;
const TURN_RATE = 3;      // radians per second at turn = 1
const THRUST = 240;       // units per second per second at thrust = 1
const SHOT_SPEED = 420;
const SHOT_FRAMES = 90;
const COOLDOWN_FRAMES = 12;
const HIT_RADIUS = 20;

function lcg(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * The world and its systems. `ecsia` must have loaded ./kernels.js (loadEcsia({ kernels })).
 * Returns { world, scheduler, ships: [entity of player 0, entity of player 1] }.
 */
export function createGame(ecsia, { workers, dust = 2000 } = {}) {
  const world = ecsia.createWorld({ maxEntities: 16_384 });
  world.defineComponent('position', { x: 'f32', y: 'f32' });
  world.defineComponent('velocity', { dx: 'f32', dy: 'f32' });
  world.defineComponent('input', { thrust: 'f32', turn: 'f32', fire: 'u8' });
  world.defineComponent('ship', { angle: 'f32', cooldown: 'u16', hits: 'u32' });
  world.defineComponent('shot', { ttl: 'u16', owner: 'u8' });
  const random = lcg(11);
  world.spawnMany(dust, {
    position: { x: Array.from({ length: dust }, () => random() * 1000), y: Array.from({ length: dust }, () => random() * 1000) },
    velocity: { dx: Array.from({ length: dust }, () => (random() - 0.5) * 60), dy: Array.from({ length: dust }, () => (random() - 0.5) * 60) },
  });
  const ships = [
    world.spawn({ position: { x: 250, y: 500 }, velocity: {}, input: {}, ship: { angle: 0 } }),
    world.spawn({ position: { x: 750, y: 500 }, velocity: {}, input: {}, ship: { angle: Math.PI } }),
  ];
  const scheduler = world.createScheduler(workers === undefined ? {} : { workers });
  scheduler.addSystem({
    name: 'Steer', reads: ['input'], writes: ['ship', 'velocity', 'position'],
    run(w, dt) {
      ships.forEach((entity, player) => {
        const input = w.get(entity, 'input');
        const ship = w.get(entity, 'ship');
        const v = w.get(entity, 'velocity');
        const angle = Math.fround(ship.angle + input.turn * TURN_RATE * dt);
        const cos = Math.fround(Math.cos(angle));
        const sin = Math.fround(Math.sin(angle));
        w.set(entity, 'velocity', { dx: v.dx * 0.99 + cos * input.thrust * THRUST * dt, dy: v.dy * 0.99 + sin * input.thrust * THRUST * dt });
        let cooldown = Math.max(0, ship.cooldown - 1);
        if (input.fire && cooldown === 0) {
          const { x, y } = w.get(entity, 'position');
          w.spawn({ position: { x, y }, velocity: { dx: cos * SHOT_SPEED, dy: sin * SHOT_SPEED }, shot: { ttl: SHOT_FRAMES, owner: player } });
          cooldown = COOLDOWN_FRAMES;
        }
        w.set(entity, 'ship', { angle, cooldown });
      });
    },
  });
  scheduler.addSystem({ name: 'Move', kernel: 'integrate', reads: ['velocity'], writes: ['position'], after: ['Steer'] });
  scheduler.addSystem({ name: 'Wrap', kernel: 'wrap', writes: ['position'], after: ['Move'] });
  const shots = world.query({ with: ['shot', 'position'] });
  scheduler.addSystem({
    name: 'Hits', reads: ['position'], writes: ['shot', 'ship'], after: ['Wrap'],
    run(w) {
      const spent = [];
      const targets = ships.map((entity) => w.get(entity, 'position'));
      for (const chunk of shots.chunks()) {
        const { entities } = chunk;
        for (let i = 0; i < chunk.count; i += 1) {
          const shot = w.get(entities[i], 'shot');
          const { x, y } = w.get(entities[i], 'position');
          const target = 1 - shot.owner;
          const hit = Math.hypot(x - targets[target].x, y - targets[target].y) < HIT_RADIUS;
          if (hit) w.set(ships[shot.owner], 'ship', { hits: w.get(ships[shot.owner], 'ship').hits + 1 });
          if (hit || shot.ttl <= 1) spent.push(entities[i]);
          else w.set(entities[i], 'shot', { ttl: shot.ttl - 1 });
        }
      }
      if (spent.length > 0) w.despawnMany(spent);
    },
  });
  return { world, scheduler, ships };
}

/** A scripted player for tests and the demo's idle side: changes its input every 7 to 40 frames. */
export function scriptedInput(player, frame) {
  const random = lcg(1000 * player + Math.floor(frame / (7 + 11 * player)) * 7919);
  random();
  return { thrust: random() < 0.6 ? 1 : 0, turn: Math.round(random() * 2 - 1), fire: random() < 0.3 ? 1 : 0 };
}
