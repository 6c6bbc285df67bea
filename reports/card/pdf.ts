/**
 * Printing a card to PDF through the system's Chromium, spawned directly
 * (no browser download, no runtime dependency): headless, no header or
 * footer of its own, the paper size taken from the card's @page rule, and a
 * virtual-time budget so vega has drawn every chart before the page prints.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../../src/errors.js';

/** Debian's Chromium; MUSTER_CHROMIUM names another. */
export function chromiumPath(): string {
  return process.env.MUSTER_CHROMIUM || '/usr/bin/chromium';
}

/** Checks, before any work, that Chromium can be run; a UsageError naming --pdf otherwise. */
export function checkChromium(): string {
  const path = chromiumPath();
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new UsageError(`--pdf: Chromium not found at ${path}; allowed: install it (apt-get install chromium), set MUSTER_CHROMIUM to its path, or leave out --pdf`);
  }
  return path;
}

/** Prints an HTML page (as a string) and returns the PDF's bytes. */
export async function printToPdf(html: string, chromium = checkChromium()): Promise<Buffer> {
  const work = mkdtempSync(join(tmpdir(), 'muster-card-'));
  try {
    const page = join(work, 'card.html');
    const pdf = join(work, 'card.pdf');
    writeFileSync(page, html);
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${join(work, 'profile')}`,
      '--no-pdf-header-footer',
      '--virtual-time-budget=15000',
      `--print-to-pdf=${pdf}`,
      pathToFileURL(page).href,
    ];
    await new Promise<void>((resolve, reject) => {
      execFile(chromium, args, { timeout: 120_000 }, (error, _stdout, stderr) => {
        if (error) reject(new UsageError(`--pdf: Chromium could not print the card (${String(stderr || error.message).trim().split('\n').pop()}); allowed: a working Chromium at ${chromium}`));
        else resolve();
      });
    });
    return readFileSync(pdf);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
