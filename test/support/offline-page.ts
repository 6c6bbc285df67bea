import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

/**
 * Debian's Chromium, driven by playwright-core (never a downloaded browser). MUSTER_TEST_CHROMIUM names another
 * binary: a developer's Chromium elsewhere, or a missing one to check the gate below.
 */
export const CHROMIUM = process.env.MUSTER_TEST_CHROMIUM || '/usr/bin/chromium';

/** CI as CI services set it (`true`, `1`, a name); an empty value, `false` or `0` is a developer's shell. */
export function isCi(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * What a browser suite does: run where Chromium is; where it is missing, fail under CI (.ci/run installs it, so a
 * missing browser is a broken machine, not a reason for a green build) and skip, saying why, on a developer's
 * machine.
 */
export function browserGate(chromiumPresent: boolean, ci: string | undefined): 'run' | 'fail' | 'skip' {
  if (chromiumPresent) return 'run';
  return isCi(ci) ? 'fail' : 'skip';
}

const gate = browserGate(existsSync(CHROMIUM), process.env.CI);
const missing = `${CHROMIUM} is missing (apt-get install chromium, or set MUSTER_TEST_CHROMIUM to a Chromium)`;
if (gate === 'skip') console.warn(`browser tests skipped: ${missing}`);

/**
 * `describe` for a suite that needs Chromium. Every browser test goes through it, so none can skip quietly in
 * CI: there the suite is one failing test naming the missing binary, and its own hooks (the launch) never run.
 */
export function describeInChromium(title: string, body: () => void): void {
  if (gate === 'run') describe(title, body);
  else if (gate === 'skip') describe.skip(`${title} (skipped: ${missing})`, body);
  else
    describe(title, () => {
      it('needs Chromium', () => {
        throw new Error(`CI is set and ${missing}: the browser tests must run in CI`);
      });
    });
}

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
