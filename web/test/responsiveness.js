// G2's measurement on the test page: how live the page's main thread stays while a scheduler runs
// frame after frame. A 4 ms interval timer records the longest gap between its ticks, and a
// PerformanceObserver the long tasks (> 50 ms) the browser saw.

/**
 * Runs `await scheduler.update(dt)` back to back for `ms` milliseconds, after letting the task
 * that called it end. Returns { frames, elapsed, maxGap, ticks, longTasks } (times in ms).
 */
export async function measureResponsiveness(scheduler, { ms = 3000, dt = 1 / 60 } = {}) {
  await new Promise((resolve) => setTimeout(resolve, 0));
  const longTasks = [];
  const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)));
  observer.observe({ type: 'longtask' });
  let last = performance.now();
  let maxGap = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    ticks += 1;
  }, 4);
  const start = performance.now();
  let frames = 0;
  try {
    while (performance.now() - start < ms) {
      await scheduler.update(dt);
      frames += 1;
    }
  } finally {
    clearInterval(timer);
    observer.disconnect();
  }
  return { frames, elapsed: performance.now() - start, maxGap, ticks, longTasks };
}
