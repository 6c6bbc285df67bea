/**
 * The hooks of a browser suite: Chromium launched (after the calculator page, `muster app`, is written, for a suite
 * that opens it) before the suite's tests, the browser closed and the suite's scratch folder removed after them.
 * Call them in a describeInChromium body, so a suite skipped for want of Chromium launches nothing.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { bufferIo } from './io.js';
import { launchChromium } from './offline-page.js';

/** Chromium handed to `launched` before the tests (after `before`, when given); after them closed, `folder` removed. */
export function chromiumForSuite(
  folder: string,
  launched: (browser: Browser) => void,
  before?: () => Promise<unknown>,
): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    await before?.();
    browser = await launchChromium();
    launched(browser);
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });
}

/** As chromiumForSuite, the calculator written to `appFile` first. */
export function calculatorInChromium(folder: string, appFile: string, launched: (browser: Browser) => void): void {
  chromiumForSuite(folder, launched, () => appCommand({ out: appFile }, bufferIo()));
}
