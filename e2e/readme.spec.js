// The README's and the guide's JS examples run as printed: each ```js block of README.md and
// docs/GUIDE.md is served as a module in
// web/ (where its `import ... from './ecsia.js'` resolves, as on a page that copied web/) and
// imported by the test page; it must finish without an error, a page error or a console error.
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test } from './support.js';

// The README's first example, then the guide's in order: one sequence, so the indices below hold.
const readme = ['../README.md', '../docs/GUIDE.md'].map((file) => readFileSync(new URL(file, import.meta.url), 'utf8')).join('\n');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
// A block that opens with `// name.js: ...` is a module the others import by that name (next to
// them in web/, as on a page that copied web/), e.g. the kernel module of loadEcsia({ kernels }).
const modules = Object.fromEntries(blocks.map((code) => [/^\/\/ ([\w.-]+\.js):/.exec(code)?.[1], code]).filter(([name]) => name));

test('the README has JS examples', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(2);
});

blocks.forEach((code, index) => {
  test(`README JS example ${index + 1} runs as printed`, async ({ page }) => {
    const log = await openTestPage(page, servers.isolated);
    for (const [name, body] of Object.entries(modules)) {
      await page.route(`${servers.isolated}/web/${name}`, (route) => route.fulfill({
        status: 200, contentType: 'text/javascript', headers: { 'Cross-Origin-Resource-Policy': 'same-origin' }, body,
      }));
    }
    await page.route(`${servers.isolated}/web/readme-example-${index}.mjs`, (route) => route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      headers: { 'Cross-Origin-Resource-Policy': 'same-origin' },
      body: code,
    }));
    const outcome = await page.evaluate(async (url) => {
      try {
        await import(url);
        return 'ok';
      } catch (error) {
        return `threw: ${error instanceof Error ? `${error.message}\n${error.stack}` : String(error)}`;
      }
    }, `/web/readme-example-${index}.mjs`);
    expect(outcome).toBe('ok');
    expectNoPageErrors(log);
    expect(log.console.filter((m) => m.type === 'error')).toEqual([]);
    expect(log.console.filter((m) => m.type === 'warning')).toEqual([]);
    const printed = log.console.filter((m) => m.type === 'log').map((m) => m.text);
    if (index === 0) {
      expect(printed.some((t) => /^plan \[\["Move".*state hash [0-9a-f]{16}$/.test(t))).toBe(true);
    }
    if (code.includes("defineRelation('Targets'")) {
      // The relations example, line by line.
      expect(printed).toEqual(['since 4', 'parent is ship true', 'targets 2', 'aimed at enemy 1 1', 'idle children 0',
        'target lost true', 'target lost false', 'turret alive false rock alive true']);
    }
    if (code.includes("definePrefab('orc'")) {
      // The prefabs example: the chain's values under the overrides, the IsA pair, and the
      // prefabs a query skips unless asked.
      expect(printed).toEqual(['boss hp 300 regen 0.5', 'is a boss true true', 'instances 10001 with prefabs 10003']);
    }
    if (code.includes('attachDevtools(')) {
      // The devtools example: the world and the plan as the panel shows them.
      expect(printed).toEqual(['position+velocity: 1', 'Fly (js, main thread)', 'position, velocity pairs 0']);
    }
    if (code.includes("defineTopic('hit'")) {
      // The topics example: every hit landed, and the plan says why Damage runs after Shoot.
      expect(printed).toEqual(['boss hp 7500', 'true']);
    }
    if (code.includes('new RollbackSession(')) {
      // The netcode example: the two peers end in the same state, after rolling back.
      expect(printed).toEqual(['same state true rolled back true']);
    }
    if (code.includes("'rows moved'")) {
      expect(printed).toContain('9999 rows moved');
      expect(printed.filter((t) => t.startsWith('velocity changed'))).toHaveLength(1);
    }
    if (code.includes('world.restore(')) {
      // The rollback example: the restore puts frame 14 back, the late input changes frame 20,
      // and frame 20's own snapshot restores it unchanged.
      expect(printed).toEqual(['back at frame 14: true', 'frame 20 with the input differs: true', 'frame 20 again: true']);
    }
    if (code.includes('scheduler.extract(')) {
      // The extract example: frames in order, never a half-written one, ending at frame 4.
      const frames = printed.filter((t) => t.startsWith('frame ')).map((t) => Number(/^frame (\d+):/.exec(t)[1]));
      expect(frames).toHaveLength(4);
      expect(frames[0]).toBeLessThanOrEqual(1);
      expect([...frames].sort((a, b) => a - b)).toEqual(frames);
      expect(printed.at(-1)).toBe('frame 4: 50000 positions, the first at 502.00, 498.67');
    }
  });
});
