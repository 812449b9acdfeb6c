// G2's measurement on the test page: how live the page's main thread stays while a scheduler runs
// frame after frame. A 4 ms interval timer counts its ticks during each update(), and the
// engine's own record says how long the page's thread was inside the engine in each frame
// (lastFrame().pageUs). A page that blocked on a wave would see no tick during that frame and
// would spend the frame inside the engine; neither needs a wall-clock bound to tell, so a loaded
// machine (which delays timers) cannot make the measurement fail.

/**
 * Runs `await scheduler.update(dt)` back to back for `ms` milliseconds, after letting the task
 * that called it end. Returns { frames, elapsed, ticks, frameTicks, pageMs, updateMs } (times in
 * ms): frameTicks[f] = timer ticks while frame f's update() was pending; pageMs = the frames'
 * lastFrame().pageUs summed; updateMs = the frames' update() wall times summed.
 */
export async function measureResponsiveness(scheduler, { ms = 3000, dt = 1 / 60 } = {}) {
  await new Promise((resolve) => setTimeout(resolve, 0));
  let ticks = 0;
  const timer = setInterval(() => { ticks += 1; }, 4);
  const start = performance.now();
  const frameTicks = [];
  let pageMs = 0;
  let updateMs = 0;
  try {
    while (performance.now() - start < ms) {
      const ticksBefore = ticks;
      const begin = performance.now();
      await scheduler.update(dt);
      updateMs += performance.now() - begin;
      frameTicks.push(ticks - ticksBefore);
      pageMs += scheduler.lastFrame().pageUs / 1000;
    }
  } finally {
    clearInterval(timer);
  }
  return { frames: frameTicks.length, elapsed: performance.now() - start, ticks, frameTicks, pageMs, updateMs };
}
