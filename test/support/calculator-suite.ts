/**
 * The hooks of a browser suite that opens the calculator: the page (`muster app`) written and Chromium launched
 * before the suite's tests, the browser closed and the suite's scratch folder removed after them.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { bufferIo } from './io.js';
import { launchChromium } from './offline-page.js';

/**
 * Call in a describeInChromium body (so a suite skipped for want of Chromium launches nothing): the calculator is
 * written to `appFile` and Chromium handed to `launched` before the tests; after them the browser is closed and
 * `folder` removed.
 */
export function calculatorInChromium(folder: string, appFile: string, launched: (browser: Browser) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    await appCommand({ out: appFile }, bufferIo());
    browser = await launchChromium();
    launched(browser);
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });
}
