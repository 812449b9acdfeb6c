// A kernel module given as a data: URL (what Vite's build makes of a small one): it loads when it
// imports nothing; when it imports another module, which a data: URL cannot resolve, loadEcsia
// rejects saying that the module was inlined and what to do, not only the import's own error.
import { expect } from '@playwright/test';
import { expectNoPageErrors, openTestPage, servers, test } from './support.js';

test('a data: URL kernel module loads; one whose imports cannot resolve there is named as inlined', async ({ page }) => {
  const log = await openTestPage(page, servers.isolated);
  const r = await page.evaluate(async () => {
    const asDataUrl = (source) => `data:text/javascript,${encodeURIComponent(source)}`;
    const alone = await window.ecsiaTest.loadEngine({ kernels: asDataUrl('export function k(chunk) {}'), threads: 1 });
    let importing = null;
    try {
      await window.ecsiaTest.loadEngine({ kernels: asDataUrl("import { f } from './helper.js';\nexport function k() { f(); }"), threads: 1 });
    } catch (error) {
      importing = error.message;
    }
    return { kernels: alone.kernels, importing };
  });
  expect(r.kernels).toEqual(['k']);
  expect(r.importing).toContain('loadEcsia: the kernel module data:text/javascript,');
  expect(r.importing).toContain('failed to load');
  expect(r.importing).toContain('reached the page as a data: URL (a bundler inlined it)');
  expect(r.importing).toContain('ecsia-wasm README');
  expectNoPageErrors(log);
});
