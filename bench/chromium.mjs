// The benchmarks' browser: Debian's headless Chromium through Playwright (never a downloaded
// one), with the flags that keep background work from running beside the measurements.
import { chromium } from '@playwright/test';

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
}
