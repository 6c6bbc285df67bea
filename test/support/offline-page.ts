import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core (never a downloaded browser). */
export const CHROMIUM = '/usr/bin/chromium';
// On a developer's machine without Chromium the browser tests are skipped with a warning; under CI
// (.ci/run installs Chromium) they always run, so a missing browser fails the build instead of hiding.
export const haveChromium = existsSync(CHROMIUM) || process.env.CI === 'true';
if (!haveChromium) console.warn(`browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

/** Headless Chromium with nothing of its own reaching the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Pages in a PDF that Chromium printed. */
export const countPdfPages = (pdf: Buffer): number =>
  (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;

export interface OfflinePage {
  page: Page;
  /** Console errors and warnings, and uncaught page errors. */
  problems: string[];
  /** Every request that tried to leave the machine (each was aborted). */
  requests: string[];
}

/**
 * A new page with the network blocked: only file: URLs (and blob:, for the
 * calculator's workers, with `blob`) load; every other request is aborted
 * and recorded, and console errors and warnings are collected.
 */
export async function offlinePage(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; blob?: boolean } = {},
): Promise<OfflinePage> {
  const page = await browser.newPage(options.viewport ? { viewport: options.viewport } : {});
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || (options.blob && url.startsWith('blob:'))) return route.continue();
    requests.push(url);
    return route.abort();
  });
  return { page, problems, requests };
}
