import type { Browser, Page } from 'playwright-core';

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
export async function offlinePage(browser: Browser, options: { viewport?: { width: number; height: number }; blob?: boolean } = {}): Promise<OfflinePage> {
  const page = await browser.newPage(options.viewport ? { viewport: options.viewport } : {});
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
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
