// The devtools panel (web/devtools.js, 'ecsia-wasm/devtools') used as a person would: attached to
// a running world (C++ kernels, a JS kernel, a main-thread JS system, a hierarchy), it shows the
// world, finds entities by query and handle, shows and edits a selected entity's values (bad
// input refused with the world unchanged), follows a pair, despawns, reads the plan, shows a
// lane per worker in its timeline with hoverable bars, pauses and steps frames, lists
// diagnostics, adds User Timing measures, and its screenshot is not blank; detached, a frame
// records nothing and measures nothing.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, test, variants } from './support.js';

// A running world with the panel attached; window.dev holds what the test reads.
async function attach(page, { workers }) {
  await page.evaluate(async (workers) => {
    const { openScenario } = await import('/web/test/kernel_scenario.js');
    const { attachDevtools } = await import('/web/devtools.js');
    const diagnostics = [];
    const { ecsia, world } = await openScenario({ threads: workers, maxEntities: 1 << 15 });
    const scheduler = world.createScheduler({ systems: ['Move', 'Bounce'], workers });
    // A world this small runs its waves inline on the page; the timeline must show the workers.
    if (workers > 0) window.ecsiaTest.forcePlacement(scheduler, 'pool');
    scheduler.addSystem({ name: 'Integrate', kernel: 'integrate', reads: ['velocity'], writes: ['position'], after: ['Bounce'] });
    let failOnce = false;
    scheduler.addSystem({ name: 'Heal', reads: [], writes: ['hp'], run() { if (failOnce) { failOnce = false; throw new Error('heal failed on purpose'); } } });
    const movers = world.spawnMany(20000, { position: { x: 10, y: 10 }, velocity: { dx: 30, dy: 20 } });
    const parent = world.spawn({ hp: { value: 100, regen: 1 } });
    const child = world.spawn({ hp: { value: 50, regen: 0.5 }, flag: {} });
    world.addPair(child, 'ChildOf', parent);
    let running = true;
    const loop = (async () => {
      while (running) {
        await scheduler.update(1 / 60);
        await new Promise((resolve) => setTimeout(resolve, 4));
      }
    })();
    const devtools = attachDevtools({ world, scheduler, container: document.body });
    window.dev = {
      ecsia, world, scheduler, devtools, movers, parent, child, diagnostics,
      failNextHeal: () => { failOnce = true; },
      stop: async () => { running = false; devtools.resume(); await loop; },
    };
  }, workers);
}

const panel = (page) => page.locator('[data-role="devtools"]');

// Paused: the frame running when pause was pressed ends; then nothing moves.
async function framesHeld(page) {
  const frames = () => page.evaluate(() => window.dev.scheduler.frames);
  await expect.poll(async () => {
    const before = await frames();
    await page.waitForTimeout(300);
    return (await frames()) - before;
  }).toBe(0);
}

for (const { variant, server } of variants) {
  test(`${variant} build: the devtools panel shows, finds, edits and times a running world`, async ({ page }) => {
    test.setTimeout(180_000);
    const log = await openTestPage(page, server);
    const workers = variant === 'threaded' ? 2 : 0;
    await attach(page, { workers });
    const tools = panel(page);
    await expect(tools).toBeVisible();

    // World: the count and the archetypes, as world.inspect() has them.
    await expect(tools.locator('[data-stat="entities"]')).toHaveText('20,002');
    const archetypes = tools.locator('tr.archetype');
    await expect(archetypes.first()).toContainText('position');
    await expect(archetypes.first()).toContainText('velocity');
    await expect(archetypes.first()).toContainText('20,000');
    await expect(tools.locator('tr.archetype', { hasText: '(ChildOf, *)' })).toHaveCount(1);

    // Entities: a query typed in the panel, then a selected entity's live values.
    await tools.locator('[data-tab="entities"]').click();
    await tools.locator('[data-role="find"]').fill('with position velocity without hp');
    await tools.locator('[data-role="find"]').press('Enter');
    await expect(tools.locator('[data-role="status"]')).toHaveText('20,000 matches, the first 200 listed');
    await expect(tools.locator('[data-role="list"] button')).toHaveCount(200);
    const first = await tools.locator('[data-role="list"] button').first().getAttribute('data-entity');
    await tools.locator('[data-role="list"] button').first().click();
    await expect(tools.locator('[data-role="selected"]')).toHaveText(`entity #${first}`);
    // The values are drawn on a canvas behind their inputs; each input says in data-value what
    // the canvas shows, and holds text only while it is being edited.
    const x = tools.locator('[data-field="position.x"]');
    // An f32 field's value is shown as the shortest text that reads back as the same f32.
    const shownValue = async (field) => Math.fround(Number(await field.getAttribute('data-value')));
    await expect(x).toHaveAttribute('data-value', /\d/);
    const before = await shownValue(x);
    await expect.poll(() => shownValue(x), { message: 'the value follows the frames' }).not.toBe(before);
    await expect(x).toHaveValue('');
    const values = tools.locator('canvas.values');
    const drawn = await values.screenshot();
    await expect.poll(async () => Buffer.compare(await values.screenshot(), drawn), { message: 'the canvas redraws the values as they change' }).not.toBe(0);

    // Paused, the value shown is the world's; an edit is world.set's, a bad one changes nothing.
    await tools.locator('[data-action="pause"]').click();
    // The frame running when pause was pressed ends; none starts after it.
    const framesPaused = await page.evaluate(async () => {
      const { scheduler } = window.dev;
      let last;
      do {
        last = scheduler.frames;
        await new Promise((resolve) => setTimeout(resolve, 250));
      } while (scheduler.frames !== last);
      return last;
    });
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => window.dev.scheduler.frames), 'no frame runs while paused').toBe(framesPaused);
    const shown = await page.evaluate((e) => window.dev.world.get(e, 'position').x, Number(first));
    await expect.poll(() => shownValue(x)).toBe(shown);
    await x.focus();
    await expect(x, 'an input being edited holds the value as text').toHaveValue(await x.getAttribute('data-value'));
    expect(Math.fround(Number(await x.inputValue()))).toBe(shown);
    await x.blur();
    const dx = tools.locator('[data-field="velocity.dx"]');
    await dx.fill('-7.5');
    await dx.press('Enter');
    await expect.poll(() => page.evaluate((e) => window.dev.world.get(e, 'velocity').dx, Number(first))).toBe(-7.5);
    await expect(tools.locator('[data-role="error"]')).toHaveText('');
    const hash = await page.evaluate(() => window.dev.world.stateHash());
    await dx.fill('fast');
    await dx.press('Enter');
    await expect(tools.locator('[data-role="error"]')).toContainText('velocity');
    expect(await page.evaluate(() => window.dev.world.stateHash()), 'a refused edit leaves the world unchanged').toBe(hash);
    await expect(dx).toHaveAttribute('data-value', '-7.5');
    await expect(dx).toHaveValue('');
    await dx.fill('0.1');
    await dx.press('Enter');
    await expect(dx, 'an f32 as typed, not as its double (0.10000000149011612)').toHaveAttribute('data-value', '0.1');

    // A pair, followed to its target; then a despawn from the panel.
    const { parent, child } = await page.evaluate(() => ({ parent: window.dev.parent, child: window.dev.child }));
    await tools.locator('[data-role="find"]').fill(`#${child}`);
    await tools.locator('[data-role="find"]').press('Enter');
    await expect(tools.locator('[data-role="selected"]')).toHaveText(`entity #${child}`);
    await expect(tools.locator('[data-component="flag"]')).toContainText('(tag)');
    await expect(tools.locator('[data-field="hp.value"]')).toHaveAttribute('data-value', '50');
    await tools.locator(`[data-pair="ChildOf"] button[data-entity="${parent}"]`).click();
    await expect(tools.locator('[data-role="selected"]')).toHaveText(`entity #${parent}`);
    await tools.locator('[data-role="find"]').fill('pair ChildOf *');
    await tools.locator('[data-role="find"]').press('Enter');
    await expect(tools.locator('[data-role="list"] button')).toHaveText([`#${child}`]);
    await tools.locator('[data-role="find"]').fill('with nosuch');
    await tools.locator('[data-role="find"]').press('Enter');
    await expect(tools.locator('[data-role="status"]')).toContainText("nosuch");
    await tools.locator('[data-role="find"]').fill(`#${first}`);
    await tools.locator('[data-role="find"]').press('Enter');
    await tools.locator('[data-role="despawn"]').click();
    await expect(tools.locator('[data-role="gone"]')).toBeVisible();
    expect(await page.evaluate((e) => window.dev.world.isAlive(e), Number(first))).toBe(false);

    // Step: exactly one frame runs, then the panel holds the next again.
    await tools.locator('[data-action="step"]').click();
    await expect.poll(() => page.evaluate(() => window.dev.scheduler.frames)).toBe(framesPaused + 1);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.dev.scheduler.frames)).toBe(framesPaused + 1);

    // Plan: every system with its kind, thread and access, and where each wave ran.
    await tools.locator('[data-tab="plan"]').click();
    const plan = await page.evaluate(() => window.dev.scheduler.describePlan());
    await expect(tools.locator('.wave')).toHaveCount(plan.length);
    const move = tools.locator('[data-system="Move"]');
    await expect(move).toContainText('C++ kernel');
    await expect(move).toContainText('writes position');
    await expect(tools.locator('[data-system="Integrate"]')).toContainText("JS kernel 'integrate'");
    await expect(tools.locator('[data-system="Heal"]')).toContainText('main thread');
    await expect(tools.locator('[data-role="placement"]').first()).toContainText(/ran (inline|pool|shared), \d+ batch/);
    expect(plan.flat().find((s) => s.name === 'Integrate')).toMatchObject({ kind: 'js-kernel', kernel: 'integrate', thread: 'workers', writes: ['position'] });

    // Timeline: a lane for the page and one per worker; bars of the systems, with numbers on hover.
    await tools.locator('[data-action="resume"]').click();
    await tools.locator('[data-tab="timeline"]').click();
    const lanes = tools.locator('.lane');
    await expect(lanes).toHaveCount(1 + workers);
    await expect(lanes.nth(0)).toHaveAttribute('data-lane', 'page');
    if (workers > 0) await expect(lanes.nth(2)).toHaveAttribute('data-lane', 'worker 1');
    await expect(tools.locator('.frames .frame')).toHaveCount(8);
    await expect(tools.locator('.bar.batch[data-system="Move"]').first()).toBeAttached();
    await expect(tools.locator('.bar.batch[data-system="Integrate"]').first()).toBeAttached();
    await expect(tools.locator('.lane[data-lane="page"] .bar.serial').first()).toBeAttached();
    if (workers > 0) {
      // Pinned to the pool: every batch on a worker's lane, the page waiting and merging.
      await expect.poll(() => tools.locator('.lane[data-lane^="worker"] .bar.batch').count()).toBeGreaterThan(0);
      await expect(tools.locator('.lane[data-lane="page"] .bar.batch')).toHaveCount(0);
      await expect(tools.locator('.lane[data-lane="page"] .bar.wait').first()).toBeAttached();
      await expect(tools.locator('.lane[data-lane="page"] .bar.merge').first()).toBeAttached();
    }
    await tools.locator('[data-action="pause"]').click();
    await framesHeld(page);
    // The widest batch; bars a pixel wide overlap, so the pointer may land on its neighbour: the
    // tooltip then tells that one's numbers (forced: Playwright would wait for no overlap).
    const bars = tools.locator('.bar.batch');
    const widest = await bars.evaluateAll((all) => all.reduce((best, bar, i) => (bar.getBoundingClientRect().width > all[best].getBoundingClientRect().width ? i : best), 0));
    await bars.nth(widest).hover({ force: true });
    const tooltip = page.locator('.ecsia-devtools .tooltip');
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText(/^frame \d+ · (Move|Bounce|Integrate), wave \d+: rows \d+\.\.\d+ \(\d+\)(, \d+ batches)?\n[\d.]+ (µs|ms) → /);
    const image = await tools.screenshot();
    await tools.locator('[data-action="resume"]').click();

    // Diagnostics as they arrive, counted on the tab until it is shown.
    await page.evaluate(() => window.dev.failNextHeal());
    await expect(tools.locator('[data-role="unseen"]')).toHaveText('1');
    await tools.locator('[data-tab="diagnostics"]').click();
    await expect(tools.locator('.diagnostic')).toContainText(['heal failed on purpose']);

    // User Timing: on while attached, so the browser's Performance panel shows frames and waves
    // (the measures are made a few frames at a time, outside the frames); the header's button turns it off.
    const measuresButton = tools.locator('[data-action="measures"]');
    await expect(measuresButton).toHaveAttribute('aria-pressed', 'true');
    expect(await page.evaluate(() => window.dev.scheduler.userTiming)).toBe(true);
    await expect.poll(() => page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name.startsWith('ecsia frame')).length)).toBeGreaterThan(3);
    const measures = await page.evaluate(() => performance.getEntriesByType('measure').map((m) => m.name).filter((n) => n.startsWith('ecsia frame')));
    expect(measures.some((n) => /^ecsia frame \d+$/.test(n))).toBe(true);
    expect(measures.some((n) => /^ecsia frame \d+ wave \d+ \((inline|pool|shared)\)$/.test(n))).toBe(true);
    await measuresButton.click();
    await expect(measuresButton).toHaveAttribute('aria-pressed', 'false');
    const measuresOff = await page.evaluate(async () => {
      const { scheduler } = window.dev;
      performance.clearMeasures();  // turning it off wrote the frames still queued
      const frames = scheduler.frames;
      await new Promise((r) => setTimeout(r, 300));
      return { userTiming: scheduler.userTiming, ran: scheduler.frames > frames, measures: performance.getEntriesByType('measure').length };
    });
    expect(measuresOff).toEqual({ userTiming: false, ran: true, measures: 0 });
    await measuresButton.click();
    await expect(measuresButton).toHaveAttribute('aria-pressed', 'true');

    // The screenshot shows a panel, not a blank box: many colours.
    const colours = await page.evaluate(async (png) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d');
      context.drawImage(bitmap, 0, 0);
      const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const seen = new Set();
      for (let i = 0; i < data.length; i += 4) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return seen.size;
    }, image.toString('base64'));
    expect(colours).toBeGreaterThan(50);

    // Detached: the panel and its hooks are gone, frames record and measure nothing again.
    const after = await page.evaluate(async () => {
      const { devtools, scheduler } = window.dev;
      devtools.detach();
      performance.clearMeasures();
      const frames = scheduler.frames;
      await new Promise((r) => setTimeout(r, 300));
      const out = {
        panels: document.querySelectorAll('.ecsia-devtools').length, recordTimeline: scheduler.recordTimeline, userTiming: scheduler.userTiming,
        batches: scheduler.lastFrame().batches, ran: scheduler.frames - frames, measures: performance.getEntriesByType('measure').length,
      };
      await window.dev.stop();
      return out;
    });
    expect(after).toEqual({ panels: 0, recordTimeline: false, userTiming: false, batches: undefined, ran: expect.any(Number), measures: 0 });
    expect(after.ran).toBeGreaterThan(0);
    expectNoPageErrors(log);
  });
}

test('paused, the Timeline says which frames it holds and how far behind the newest they are; a step records the next', async ({ page }) => {
  const log = await openTestPage(page, variants[0].server);
  await attach(page, { workers: 2 });
  const tools = panel(page);
  const status = tools.locator('[data-role="timeline-status"]');
  await tools.locator('[data-tab="timeline"]').click();
  await expect(tools.locator('.frames .frame')).toHaveCount(8);
  await expect(status).toHaveText(/^frames \d+–\d+/);
  // Hidden, the Timeline records nothing; frames go on, then are held.
  await tools.locator('[data-tab="world"]').click();
  await expect.poll(() => page.evaluate(() => window.dev.scheduler.frames)).toBeGreaterThan(await page.evaluate(() => window.dev.scheduler.frames) + 20);
  await tools.locator('[data-action="pause"]').click();
  await framesHeld(page);
  await tools.locator('[data-tab="timeline"]').click();
  const latest = await page.evaluate(() => window.dev.scheduler.frames);
  await expect(status).toHaveText(new RegExp(`^frames \\d+–(\\d+), recorded \\d+ frames before frame ${latest} \\(paused there\\): step to record the next ones$`));
  const [, newest] = /–(\d+)/.exec(await status.textContent());
  expect(Number(newest)).toBeLessThan(latest - 20);
  // A step: the frame it lets through is recorded, and it is the newest.
  await tools.locator('[data-action="step"]').click();
  await expect(status).toHaveText(`frames ${latest + 1}`);
  await expect(tools.locator('.frames .frame')).toHaveCount(1);
  await page.evaluate(() => window.dev.stop());
  expectNoPageErrors(log);
});

test('where the page refuses workers from blob: URLs, the Entities section draws its values on the page\'s thread', async ({ page }) => {
  const server = variants[1].server;
  // The single build (no worker at all) under a policy that allows workers from the page's
  // origin only: the canvas's worker is refused, and the same drawing runs on the page.
  await page.route(`${server}/web/test/index.html`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': "worker-src 'self'" } });
  });
  const log = await openTestPage(page, server);
  await attach(page, { workers: 0 });
  const tools = panel(page);
  await page.evaluate(() => window.dev.devtools.select(window.dev.movers[0]));
  const x = tools.locator('[data-field="position.x"]');
  await expect(x).toHaveAttribute('data-value', /\d/);
  const values = tools.locator('canvas.values');
  const drawn = await values.screenshot();
  await expect.poll(async () => Buffer.compare(await values.screenshot(), drawn), { message: 'the canvas redraws the values as they change' }).not.toBe(0);
  // Drawn here, the canvas has a 2D context of the page's own (a transferred one has none).
  expect(await values.evaluate((canvas) => canvas.getContext('2d') !== null)).toBe(true);
  expect(log.console.some((m) => /Content Security Policy/.test(m.text)), 'the worker was refused').toBe(true);
  await page.evaluate(() => window.dev.stop());
  expectNoPageErrors(log);
});

test('attachDevtools refuses bad options, one panel per scheduler, a paused update() ends when its scheduler is disposed, and a disposed world takes its panel', async ({ page }) => {
  const log = await openTestPage(page, variants[0].server);
  const r = await page.evaluate(async () => {
    const { attachDevtools } = await import('/web/devtools.js');
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 1, onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 1000 });
    const scheduler = world.createScheduler({ systems: ['Move'] });
    const errors = [];
    const attempt = (options) => { try { attachDevtools(options); errors.push(null); } catch (e) { errors.push(e.message); } };
    attempt({ world, scheduler, frames: 0 });
    attempt({ world, scheduler, tab: 'nope' });
    attempt({ world, scheduler, colour: 'red' });
    attempt({ world: {}, scheduler });
    attempt({ world, scheduler, container: 'body' });
    // A node that holds no children, refused before anything changes (the attach below works).
    attempt({ world, scheduler, container: document.createTextNode('x') });
    const timingAfterRefusals = scheduler.userTiming;
    const devtools = attachDevtools({ world, scheduler });
    attempt({ world, scheduler });
    devtools.pause();
    const frames = scheduler.frames;
    const update = scheduler.update(0.1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const held = scheduler.frames === frames;
    scheduler.dispose();
    await update;
    // User Timing without a panel: the scheduler's option. The measures are made after the frame,
    // a few frames at a time, outside update() (within 250 ms), with the frames' times; turning
    // them off makes what is queued.
    performance.clearMeasures();
    const timed = world.createScheduler({ systems: ['Move'], userTiming: true });
    const before = performance.now();
    await timed.update(0.1);
    const ended = performance.now();
    const names = () => performance.getEntriesByType('measure').map((m) => m.name);
    const queued = names().length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    const measures = names();
    const [frameMeasure] = performance.getEntriesByName('ecsia frame 1');
    const placed = frameMeasure.startTime >= before && frameMeasure.startTime + frameMeasure.duration <= ended;
    await timed.update(0.1);
    timed.userTiming = false;
    const flushed = names().slice(2);
    await timed.update(0.1);
    const after = names().length;
    // Many frames: each gets its measures, whether made by the timer or when 64 were queued.
    timed.userTiming = true;
    const firstTimed = timed.frames + 1;
    for (let f = 0; f < 70; f += 1) await timed.update(0.1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const unmeasured = [];
    for (let frame = firstTimed; frame < firstTimed + 70; frame += 1) {
      if (performance.getEntriesByName(`ecsia frame ${frame}`).length !== 1) unmeasured.push(frame);
    }
    timed.dispose();
    // A failed frame has nothing in the engine's queue and is named after the last frame
    // completed; the frames after it keep their own numbers and waves (the queue's logic alone,
    // over a queue made here).
    const { UserTiming } = await import('/web/internal/user_timing.js');
    const queue = new Float64Array([7, 1, 0, 0, 0, 100, 8, 2, 0, 0, 0, 50, 1, 2, 60, 90]);  // frame 7: one wave; frame 8: two
    const timing = new UserTiming(() => queue, (error) => { throw error; });
    performance.clearMeasures();
    const t0 = performance.now();
    timing.add(t0, t0 + 1, false);
    timing.add(t0 + 2, t0 + 3, true, 7);
    timing.add(t0 + 4, t0 + 5, false);
    timing.flush();
    const failure = performance.getEntriesByType('measure').map((m) => [m.name, Math.round((m.startTime - t0) * 1000), Math.round(m.duration * 1000)]);
    try { world.createScheduler({ userTiming: 1 }); } catch (e) { errors.push(e.message); }
    // lastFrame() names the batches of a system added past the JS API (the test module's helper).
    const { builtinsOf } = await import('/web/builtins.js');
    world.spawnMany(100, { position: {}, velocity: {} });
    const named = world.createScheduler({ systems: ['Move'] });
    named.recordTimeline = true;
    await named.update(0.1);
    named.lastFrame();
    builtinsOf(ecsia).addSystem(named, 'Bounce');
    await named.update(0.1);
    const batchSystems = [...new Set(named.lastFrame().batches.map((b) => b.system))];
    named.dispose();
    // A panel over a world that is disposed (which disposes its scheduler first) goes with it.
    const other = ecsia.createWorld({ maxEntities: 100 });
    const otherScheduler = other.createScheduler({ systems: ['Move'] });
    try { attachDevtools({ world, scheduler: otherScheduler }); } catch (e) { errors.push(e.message); }
    const doomed = attachDevtools({ world: other, scheduler: otherScheduler, tab: 'timeline' });
    await otherScheduler.update(0.1);
    other.dispose();
    const doomedGone = { detached: doomed.detached, schedulerDisposed: otherScheduler.disposed, panels: document.querySelectorAll('.ecsia-devtools').length };
    // Without a scheduler: World, Entities and Diagnostics; asking for Plan or Timeline first is
    // refused before any panel is made.
    attempt({ world, tab: 'timeline' });
    const gone = ecsia.createWorld({ maxEntities: 10 });
    const goneScheduler = gone.createScheduler();
    goneScheduler.dispose();
    attempt({ world: gone, scheduler: goneScheduler });
    gone.dispose();
    attempt({ world: gone });
    const refusedLeft = document.querySelectorAll('.ecsia-devtools').length;
    const bare = attachDevtools({ world, scheduler: null, tab: 'entities' });
    const bareTabs = [...bare.element.shadowRoot.querySelectorAll('[role="tab"]')].map((tab) => tab.dataset.tab);
    const someone = world.spawn({ position: { x: 3, y: 4 } });
    bare.select(someone);
    // Not a handle: refused by name, the selection kept.
    const badSelects = ['abc', -1, 1.5, undefined, {}].map((bad) => { try { bare.select(bad); return 'accepted'; } catch (e) { return e.message; } });
    const keptSelection = bare.selected === someone;
    const bareSelected = bare.element.shadowRoot.querySelector('[data-role="selected"]')?.textContent;
    // No frames: the values are drawn again a few times a second all the same.
    const shownX = () => bare.element.shadowRoot.querySelector('[data-field="position.x"]')?.dataset.value;
    await new Promise((resolve) => setTimeout(resolve, 400));
    const bareValue = [shownX()];
    world.set(someone, 'position', { x: 7 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    bareValue.push(shownX());
    bare.detach();
    // Without a scheduler, the panel goes with its world.
    const lone = ecsia.createWorld({ maxEntities: 10 });
    const loneTools = attachDevtools({ world: lone });
    lone.dispose();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const withoutScheduler = { refusedLeft, badSelects, keptSelection, bareTabs, bareSelected, bareValue, bareDetached: bare.detached, loneDetached: loneTools.detached };
    const out = { timingAfterRefusals, errors, held, detached: devtools.detached, panels: document.querySelectorAll('.ecsia-devtools').length, queued, measures, placed, flushed, after, unmeasured, failure, doomedGone, batchSystems, withoutScheduler, someone };
    world.dispose();
    return out;
  });
  expect(r.errors[0]).toContain('options.frames must be a whole number from 1 to 120');
  expect(r.errors[1]).toContain('options.tab must be one of world, entities, plan, timeline, diagnostics');
  expect(r.errors[2]).toContain("unknown option 'colour'");
  expect(r.errors[3]).toContain('not an ecsia world');
  expect(r.errors[4]).toContain('options.container must be a DOM element');
  expect(r.errors[5]).toBe('attachDevtools: options.container must be a DOM element (default document.body), got a Text');
  expect(r.timingAfterRefusals).toBe(false);
  expect(r.errors[6]).toContain('already has devtools attached');
  expect(r.errors[7]).toContain('options.userTiming must be true or false');
  expect(r.errors[8]).toContain('options.scheduler runs another world than options.world');
  expect(r.errors[9]).toContain("options.tab 'timeline' needs options.scheduler");
  expect(r.errors[10]).toBe('attachDevtools: options.scheduler was disposed');
  expect(r.errors[11]).toBe('attachDevtools: options.world was disposed');
  expect(r.withoutScheduler).toEqual({ refusedLeft: 0,
    badSelects: ['a string ("abc")', 'number -1', 'number 1.5', 'undefined', 'an object'].map((what) => `devtools.select: ${what} is not an entity handle; the selection is unchanged`),
    keptSelection: true, bareTabs: ['world', 'entities', 'diagnostics'], bareSelected: `entity #${r.someone}`, bareValue: ['3', '7'], bareDetached: true, loneDetached: true });
  expect(r.batchSystems).toEqual(['Move', 'Bounce']);
  expect(r.doomedGone).toEqual({ detached: true, schedulerDisposed: true, panels: 0 });
  expect(r).toMatchObject({ held: true, detached: true, panels: 0 });
  expect(r.queued).toBe(0);
  expect(r.measures).toEqual(['ecsia frame 1', 'ecsia frame 1 wave 0 (inline)']);
  expect(r.placed).toBe(true);
  expect(r.flushed).toEqual(['ecsia frame 2', 'ecsia frame 2 wave 0 (inline)']);
  expect(r.after).toBe(4);
  expect(r.unmeasured).toEqual([]);
  expect(r.failure).toEqual([
    ['ecsia frame 7', 0, 1000], ['ecsia frame 7 wave 0 (inline)', 0, 100],
    ['ecsia frame 7 (failed)', 2000, 1000],
    ['ecsia frame 8', 4000, 1000], ['ecsia frame 8 wave 0 (inline)', 4000, 50], ['ecsia frame 8 wave 1 (shared)', 4060, 30],
  ]);
  expectNoPageErrors(log);
});

test('an attached panel costs only what it shows: User Timing unless turned off, an unchanged World is not rebuilt, the Timeline records windows of consecutive frames', async ({ page }) => {
  const log = await openTestPage(page, variants[0].server);
  const r = await page.evaluate(async () => {
    const { attachDevtools } = await import('/web/devtools.js');
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 1, onDiagnostic: () => {} });
    const world = ecsia.createWorld({ maxEntities: 5000 });
    world.spawnMany(1000, { position: {}, velocity: { dx: 1, dy: 1 } });
    // 16 batches of a few µs a frame: bars too narrow to see, which the Timeline draws as one.
    const scheduler = world.createScheduler({ systems: ['Move'], batchRows: 64 });
    const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    // Frames, each followed by the page's rendering, for at least `ms`.
    const run = async (ms) => {
      const end = performance.now() + ms;
      while (performance.now() < end) {
        await scheduler.update(1 / 60);
        await nextPaint();
      }
    };
    const errors = [];
    try { attachDevtools({ world, scheduler, userTiming: 'yes' }); } catch (e) { errors.push(e.message); }
    // By default the measures are on while attached; detach puts the setting back (and writes the
    // measures still queued).
    performance.clearMeasures();
    const timedPanel = attachDevtools({ world, scheduler });
    await scheduler.update(1 / 60);
    const timed = { on: scheduler.userTiming };
    timedPanel.detach();
    timed.measures = performance.getEntriesByType('measure').filter((m) => m.name.startsWith('ecsia frame')).length;
    timed.after = scheduler.userTiming;
    performance.clearMeasures();
    const devtools = attachDevtools({ world, scheduler, userTiming: false, frames: 4 });
    const section = (name) => devtools.element.shadowRoot.querySelector(`[data-section="${name}"]`);
    await run(600);
    const untimed = { userTiming: scheduler.userTiming, measures: performance.getEntriesByType('measure').length };
    // The measures button follows the scheduler's setting when the page changes it.
    const measuresButton = devtools.element.shadowRoot.querySelector('[data-action="measures"]');
    scheduler.userTiming = true;
    await run(400);
    untimed.buttonFollows = measuresButton.getAttribute('aria-pressed');
    scheduler.userTiming = false;
    // World: the same nodes while nothing it shows changes; redrawn once something does.
    const table = section('world').querySelector('table');
    await run(600);
    const kept = section('world').querySelector('table') === table;
    world.spawn({ position: {} });
    await run(600);
    const redrawn = { replaced: section('world').querySelector('table') !== table, entities: section('world').querySelector('[data-stat="entities"]').textContent };
    // Timeline: a window records `frames` consecutive frames, is drawn, and recording stops
    // until the next redraw is due.
    devtools.show('timeline');
    const recording = scheduler.recordTimeline;
    await nextPaint();
    await nextPaint();
    const emptyShown = section('timeline').textContent;
    const windows = [];
    let stopped = 0;
    const end = performance.now() + 5000;  // windows open once a second
    while (performance.now() < end && windows.length < 2) {
      await scheduler.update(1 / 60);
      await nextPaint();
      if (!scheduler.recordTimeline) stopped += 1;
      const shown = [...section('timeline').querySelectorAll('.frames .frame')].map((f) => Number(f.getAttribute('data-frame')));
      if (shown.length > 0 && shown.join() !== windows.at(-1)?.join()) windows.push(shown);
    }
    const newest = windows.at(-1)?.at(-1);
    const moveBars = [...section('timeline').querySelectorAll('.bar.batch[data-system="Move"]')]
      .map((bar) => bar.getAttribute('data-tip')).filter((tip) => tip.startsWith(`frame ${newest} ·`));
    const rowsShown = moveBars.reduce((sum, tip) => sum + Number(/ \((\d+)\)/.exec(tip)[1]), 0);
    const batches = scheduler.lastFrame().waves[0].batches;
    // The button turns the measures on and off; the page's own setting shows on it, collapsed
    // too; detach puts back what the scheduler had before the panel came (off), not the last.
    const toggled = [];
    measuresButton.click();
    toggled.push(scheduler.userTiming, measuresButton.getAttribute('aria-pressed'));
    measuresButton.click();
    toggled.push(scheduler.userTiming, measuresButton.getAttribute('aria-pressed'));
    devtools.element.shadowRoot.querySelector('[data-action="collapse"]').click();
    scheduler.userTiming = true;
    await scheduler.update(1 / 60);
    toggled.push(measuresButton.getAttribute('aria-pressed'));
    devtools.show('world');
    devtools.show('timeline');  // a window opens: recording on
    devtools.detach();
    devtools.resume();  // a detached panel's calls touch the scheduler no more
    const restored = { recordTimeline: scheduler.recordTimeline, userTiming: scheduler.userTiming };
    world.dispose();
    return { errors, timed, untimed, kept, redrawn, recording, emptyShown, windows, stopped, toggled, restored, moveBars, rowsShown, batches };
  });
  expect(r.errors[0]).toContain('options.userTiming must be true or false, got a string');
  expect(r.timed).toEqual({ on: true, measures: 2, after: false });
  expect(r.untimed).toEqual({ userTiming: false, measures: 0, buttonFollows: 'true' });
  expect(r.kept).toBe(true);
  expect(r.redrawn).toEqual({ replaced: true, entities: '1,001' });
  expect(r.recording).toBe(true);
  expect(r.emptyShown).toContain('no frame recorded yet');
  expect(r.windows.length).toBe(2);
  for (const shown of r.windows) {
    expect(shown.length).toBe(4);
    expect(shown.map((n) => n - shown[0])).toEqual([0, 1, 2, 3]);
  }
  expect(r.windows[1][0]).toBeGreaterThan(r.windows[0][3]);
  expect(r.stopped).toBeGreaterThan(0);
  expect(r.batches).toBe(16);
  expect(r.moveBars.length).toBeLessThan(16);
  expect(r.moveBars.some((tip) => /, \d+ batches\n/.test(tip))).toBe(true);
  expect(r.rowsShown).toBe(1000);
  expect(r.toggled).toEqual([true, 'true', false, 'false', 'true']);
  expect(r.restored).toEqual({ recordTimeline: false, userTiming: false });
  expectNoPageErrors(log);
});

for (const { variant, server } of variants) {
  test(`${variant} build: world.inspect, componentsOf, pairsOf and describePlan agree with a model over random operations`, async ({ page }) => {
    const log = await openTestPage(page, server);
    const r = await page.evaluate(async () => {
      const { rng } = await import('/web/test/rng.js');
      const ecsia = await window.ecsiaTest.loadEcsia({ threads: 1, onDiagnostic: () => {} });
      const world = ecsia.createWorld({ maxEntities: 4096 });
      const COMPONENTS = ['a', 'b', 'c', 'tag'];
      world.defineComponent('a', { x: 'f32' });
      world.defineComponent('b', { n: 'i32', ok: 'bool' });
      world.defineComponent('c', { who: 'entity' });
      world.defineComponent('tag', {});
      world.defineRelation('Likes');
      const random = rng(29);
      const model = new Map();  // entity -> { components: Set, pairs: [[relation, target]] }
      const alive = () => [...model.keys()];
      const pick = () => alive()[random(model.size)];
      const mismatches = [];
      const index = (handle) => handle & 0x3fffff;  // targets come in entity index order (22 index bits)
      for (let step = 0; step < 1500; ++step) {
        const op = random(8);
        if (op <= 1 || model.size < 2) {
          const values = {};
          for (const name of COMPONENTS) if (random(2)) values[name] = {};
          model.set(world.spawn(values), { components: new Set(Object.keys(values)), pairs: [] });
        } else if (op === 2) {
          const e = pick();
          const name = COMPONENTS[random(4)];
          world.add(e, name, {});
          model.get(e).components.add(name);
        } else if (op === 3) {
          const e = pick();
          const name = COMPONENTS[random(4)];
          if (model.get(e).components.has(name)) { world.remove(e, name); model.get(e).components.delete(name); }
        } else if (op === 4) {
          const [e, t] = [pick(), pick()];
          const relation = random(2) ? 'Likes' : 'ChildOf';
          const pairs = model.get(e).pairs;
          if (e === t || pairs.some(([r, to]) => r === relation && to === t)) continue;
          // ChildOf is exclusive and acyclic: one parent, never an ancestor of itself.
          if (relation === 'ChildOf') {
            let up = t;
            let cycle = false;
            while (up !== undefined) { if (up === e) { cycle = true; break; } up = model.get(up)?.pairs.find(([r]) => r === 'ChildOf')?.[1]; }
            if (cycle) continue;
            const at = pairs.findIndex(([r]) => r === 'ChildOf');
            if (at >= 0) pairs.splice(at, 1);
          }
          world.addPair(e, relation, t);
          pairs.push([relation, t]);
        } else if (op === 5) {
          const e = pick();
          const pairs = model.get(e).pairs;
          if (pairs.length === 0) continue;
          const [relation, t] = pairs.splice(random(pairs.length), 1)[0];
          world.removePair(e, relation, t);
        } else {
          // A despawn: ChildOf's children go with their parent (onDeleteTarget 'delete'); pairs
          // of other relations to it are removed.
          const gone = [pick()];
          for (let i = 0; i < gone.length; ++i) {
            for (const [e, { pairs }] of model) if (pairs.some(([r, to]) => r === 'ChildOf' && to === gone[i]) && !gone.includes(e)) gone.push(e);
          }
          world.despawn(gone[0]);
          for (const e of gone) model.delete(e);
          for (const { pairs } of model.values()) for (let i = pairs.length - 1; i >= 0; --i) if (gone.includes(pairs[i][1])) pairs.splice(i, 1);
        }
        if (step % 100 !== 99) continue;
        // The model's entities, their signatures and the archetypes they make.
        const archetypes = new Map();
        for (const [e, { components, pairs }] of model) {
          const names = COMPONENTS.filter((n) => components.has(n));
          const relations = ['ChildOf', 'Likes'].filter((rel) => pairs.some(([r]) => r === rel));
          const expectedPairs = ['ChildOf', 'Likes'].flatMap((rel) => pairs.filter(([r]) => r === rel).map(([, t]) => t).sort((x, y) => index(x) - index(y)).map((t) => [rel, t]));
          if (JSON.stringify(world.componentsOf(e)) !== JSON.stringify(names)) mismatches.push(['componentsOf', step, e, world.componentsOf(e), names]);
          if (JSON.stringify(world.pairsOf(e)) !== JSON.stringify(expectedPairs)) mismatches.push(['pairsOf', step, e, world.pairsOf(e), expectedPairs]);
          const key = JSON.stringify([names, relations]);
          archetypes.set(key, (archetypes.get(key) ?? 0) + 1);
        }
        const inspected = world.inspect();
        const got = new Map(inspected.archetypes.map((a) => [JSON.stringify([a.components, a.relations]), a.rows]));
        if (inspected.entities !== model.size) mismatches.push(['entities', step, inspected.entities, model.size]);
        if (JSON.stringify([...got].sort()) !== JSON.stringify([...archetypes].sort())) mismatches.push(['archetypes', step, [...got], [...archetypes]]);
        if (inspected.archetypes.some((a) => !(a.bytes >= a.rows * 4))) mismatches.push(['bytes', step]);
      }
      const dead = world.spawn({});
      world.despawn(dead);
      const errors = [];
      for (const call of [() => world.componentsOf(dead), () => world.pairsOf(dead), () => world.componentsOf(-1), () => world.inspect(1)]) {
        try { call(); errors.push(null); } catch (e) { errors.push(e.code ?? e.message); }
      }
      // describePlan: the waves of plan(), with what each system declared.
      const scheduler = world.createScheduler({ systems: ['Move'] });
      scheduler.addSystem({ name: 'Watch', reads: ['a'], writes: ['b'], after: ['Move'], run() {} });
      await scheduler.update(0.1);
      const described = scheduler.describePlan();
      const memory = world.inspect().memory;
      const out = { mismatches, errors, plan: scheduler.plan(), described, memory };
      world.dispose();
      return out;
    });
    expect(r.mismatches).toEqual([]);
    expect(r.errors).toEqual(['StaleEntity', 'StaleEntity', expect.stringContaining('world.componentsOf'), 'world.inspect: takes at most 0 arguments, got 1']);
    expect(r.described.map((wave) => wave.map((s) => s.name))).toEqual(r.plan);
    expect(r.described.flat().find((s) => s.name === 'Move')).toMatchObject({ kind: 'c++', kernel: null, thread: 'workers', writes: ['position'], reads: ['velocity'] });
    expect(r.described.flat().find((s) => s.name === 'Watch')).toMatchObject({ kind: 'js', thread: 'main', reads: ['a'], writes: ['b'], after: 'Move', why: expect.stringContaining('Move') });
    expect(r.memory.heapBytes).toBeGreaterThanOrEqual(r.memory.allocatedBytes);
    expect(r.memory.allocatedBytes).toBeGreaterThan(r.memory.tableBytes);
    expectNoPageErrors(log);
  });
}

// The Timeline's record of frames (web/internal/devtools_timeline.js) reuses the buffers of the
// frames it drops; against a model that keeps a fresh copy of each: random frames (records of
// random lengths, failed frames, gaps that start it afresh, clears), and the scheduler's record
// overwritten after every call, as the engine does with its next frame.
test('the Timeline keeps exactly the newest consecutive frames, each with its own record, while it reuses their buffers', async ({ page }) => {
  const log = await openTestPage(page, variants[0].server);
  const mismatches = await page.evaluate(async () => {
    const { TimelineRecord } = await import('/web/internal/devtools_timeline.js');
    const { decodeFrame } = await import('/web/internal/frame_record.js');
    const C = await import('/web/internal/constants.js');
    let seed = 7;
    const random = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
    const names = ['A', 'B', 'C'];
    const source = new Float64Array(4096);  // the engine's record buffer, rewritten every frame
    const makeRecord = (frame) => {
      const waves = 1 + random(3), batches = random(40), workers = random(3);
      const length = C.FRAME_RECORD_HEADER + waves * C.FRAME_RECORD_WAVE + batches * C.FRAME_RECORD_BATCH + workers * C.FRAME_RECORD_WORKER;
      source.set([waves, batches, workers, 1, frame, names.length]);
      for (let i = C.FRAME_RECORD_HEADER; i < length; i++) source[i] = random(1000);
      for (let b = 0; b < batches; b++) source[C.FRAME_RECORD_HEADER + waves * C.FRAME_RECORD_WAVE + b * C.FRAME_RECORD_BATCH + 1] = random(names.length);
      return source.subarray(0, length);
    };
    const out = [];
    for (const capacity of [1, 3, 8]) {
      const timeline = new TimelineRecord(capacity);
      let model = [];
      let number = 10;
      for (let step = 0; step < 400; step++) {
        const roll = random(20);
        if (roll === 0) { timeline.clear(); model = []; continue; }
        number += roll === 1 ? 3 : 1;  // a gap: the timeline starts afresh
        const failed = roll === 2;
        const record = failed ? null : makeRecord(number);
        const frame = { frame: failed ? number - 1 : number, startMs: step, endMs: step + 0.5, failed, pageUs: random(100), record, names };
        if (failed) number -= 1;
        timeline.record(frame);
        const newest = model.at(-1)?.frame;
        if (newest !== undefined && (frame.frame > newest + 1 || frame.frame < newest)) model = [];
        model.push({ ...frame, record: record === null ? null : record.slice() });
        if (model.length > capacity) model.shift();
        source.fill(-1);  // the engine's next frame
        const expected = model.map(({ frame: n, startMs, endMs, failed: f, pageUs, record: r }) => {
          const { waves, batches = [], busyNs } = r === null ? { waves: [], busyNs: [] } : decodeFrame(r, names, pageUs);
          return { number: n, waves, batches, workers: busyNs.length, pageUs, updateUs: (endMs - startMs) * 1000, failed: f };
        });
        const got = timeline.frames;
        if (JSON.stringify(got) !== JSON.stringify(expected)) out.push({ capacity, step, got: got.length, expected: expected.length });
        if (timeline.empty !== (model.length === 0)) out.push({ capacity, step, empty: timeline.empty });
      }
    }
    return out;
  });
  expect(mismatches).toEqual([]);
  expectNoPageErrors(log);
});

// f32Text: the text an f32 field's value is shown as, and typed back as, reads back as the same
// f32 for every bit pattern tried, and is the shortest that does.
test('an f32 value is shown as the shortest text that reads back as it', async () => {
  const { f32Text } = await import('../web/internal/devtools_entities.js');
  const f32 = new Float32Array(1);
  const bits = new Uint32Array(f32.buffer);
  let seed = 5;
  const wrong = [];
  for (let i = 0; i < 20_000; i += 1) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    bits[0] = seed;
    const value = f32[0];
    const text = f32Text(value);
    if (Number.isNaN(value) ? text !== 'NaN' : Math.fround(Number(text)) !== value) wrong.push([value, text]);
    // Shortest: no decimal of one significant digit fewer, near the value, reads back as it.
    const digits = text.replace(/e.*$/, '').replace(/[-.]/g, '').replace(/^0+/, '').length;
    if (Number.isFinite(value) && !Number.isInteger(value) && digits > 1) {
      const [mantissa, exponent] = value.toExponential(digits - 2).split('e');
      const nearest = Number(mantissa.replace('.', ''));
      for (const candidate of [nearest - 2, nearest - 1, nearest, nearest + 1, nearest + 2]) {
        if (Math.fround(Number(`${candidate}e${Number(exponent) - (digits - 2)}`)) === value) wrong.push([value, text, 'not shortest']);
      }
    }
  }
  expect(wrong).toEqual([]);
  // Powers of two, where the nearest decimal of the shortest length can miss and the one above
  // it reads back; -0 keeps its sign.
  expect([0.1, 123.45678, -7.5, 0.3, 1e30, 16777217, -0, 2 ** 87, 2 ** -96, 2 ** 90].map((v) => f32Text(Math.fround(v))))
    .toEqual(['0.1', '123.45678', '-7.5', '0.3', '1e+30', '16777216', '-0', '1.5474251e+26', '1.2621775e-29', '1.2379401e+27']);
});

// The Entities section redraws only the values that changed since its last draw: after any
// sequence of draws (values that change or not, cells left empty while edited, a new layout) the
// canvas must hold exactly the pixels of one whole draw of the last texts.
test('the values canvas, redrawn cell by cell, equals a whole draw of the same values', async ({ page }) => {
  const log = await openTestPage(page, variants[0].server);
  const mismatches = await page.evaluate(async () => {
    const { paintValues } = await import('/web/internal/devtools_values.js');
    let seed = 11;
    const random = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
    const texts = ['0', '-1.5', '123.456787109375', 'null', 'true', '-0.0000019073486328125', 'NaN', '42', '0.10000000149011612 and more'];
    // Cells in whole CSS pixels at a scale of 1, or in fractions of one at 1.5 (a layout's
    // getBoundingClientRect times a devicePixelRatio); texts long enough to be cut at the edge.
    const layoutOf = (count) => {
      const scale = random(2) === 0 ? 1 : 1.5;
      const cells = Array.from({ length: count }, (_, i) => (scale === 1
        ? [4 + (i % 2) * 90, 4 + (i >> 1) * 18, 80, 16]
        : [2.3 + (i % 2) * 60.7, 2.6 + (i >> 1) * 12.9, 55.2, 11.4]));
      return { width: 200 / scale, height: 100 / scale, scale, font: '12px monospace', color: '#224', cells };
    };
    const incremental = new OffscreenCanvas(200, 100).getContext('2d', { willReadFrequently: true });
    const whole = new OffscreenCanvas(200, 100).getContext('2d', { willReadFrequently: true });
    const out = [];
    let layout = layoutOf(6);
    let drawn = [];
    let last = [];
    for (let step = 0; step < 300; step += 1) {
      if (random(25) === 0) {  // a new layout: the canvas is resized (cleared) and drawn whole
        layout = layoutOf(2 + random(7));
        incremental.canvas.width = 200;
        drawn = [];
        last = [];
      }
      const next = layout.cells.map((_, i) => {
        const roll = random(10);
        if (roll < 5 && last[i] !== undefined) return last[i];  // unchanged
        return roll === 5 ? null : texts[random(texts.length)];
      });
      paintValues(incremental, layout, next, drawn);
      drawn = next;
      last = next;
      whole.clearRect(0, 0, 200, 100);
      paintValues(whole, layout, next, []);
      const a = incremental.getImageData(0, 0, 200, 100).data;
      const b = whole.getImageData(0, 0, 200, 100).data;
      const differing = a.findIndex((value, i) => value !== b[i]);
      if (differing !== -1) out.push({ step, pixel: differing >> 2, texts: next });
    }
    return out;
  });
  expect(mismatches).toEqual([]);
  expectNoPageErrors(log);
});

// The panel draws from an interval while frames run, and World redraws at most 4 times a second:
// when the page stops calling update() (a pause menu of its own, updates only on input), the
// frames' last state must still be drawn, not the one of up to 250 ms before.
test('when frames stop, the World section shows the last frame\'s world', async ({ page }) => {
  const log = await openTestPage(page, variants[0].server);
  const counts = await page.evaluate(async () => {
    const { attachDevtools } = await import('/web/devtools.js');
    const ecsia = await window.ecsiaTest.loadEcsia({ threads: 1 });
    const world = ecsia.createWorld({ maxEntities: 4096 });
    const scheduler = world.createScheduler({ systems: [] });
    const devtools = attachDevtools({ world, scheduler, tab: 'world' });
    const shownCount = () => Number(devtools.element.shadowRoot.querySelector('[data-stat="entities"]')?.textContent.replace(/,/g, '') ?? -1);
    const frame = async () => {
      world.spawn({});
      await scheduler.update(1 / 60);
      await new Promise((resolve) => setTimeout(resolve, 2));
    };
    // Frames until a redraw has just shown a new count (at least 300 ms and 20 frames in: a
    // loaded machine runs fewer frames in 300 ms), then a few more, well within the 250 ms before
    // the next redraw would be due: they are what must be drawn.
    const started = performance.now();
    let last = shownCount();
    for (let frames = 1; ; frames += 1) {
      await frame();
      const now = shownCount();
      if (now !== last && performance.now() - started > 300 && frames >= 20) break;
      last = now;
    }
    for (let i = 0; i < 5; i++) await frame();
    await new Promise((resolve) => setTimeout(resolve, 400));  // the interval's idle ticks
    const result = { shown: shownCount(), alive: world.inspect().entities };
    devtools.detach();
    world.dispose();
    return result;
  });
  expect(counts.alive).toBeGreaterThan(20);
  expect(counts.shown).toBe(counts.alive);
  expectNoPageErrors(log);
});
