/**
 * Printing a card to PDF through the system's Chromium, spawned directly
 * (no browser download, no runtime dependency): headless, no header or
 * footer of its own, the paper size taken from the card's @page rule, and a
 * virtual-time budget so vega has drawn every chart before the page prints.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { badValue, UsageError } from '../../src/errors.js';

/** Debian's Chromium; MUSTER_CHROMIUM names another. */
function chromiumPath(): string {
  return process.env.MUSTER_CHROMIUM || '/usr/bin/chromium';
}

/** Seconds Chromium may take to start and print a card before it is killed (MUSTER_PDF_TIMEOUT overrides). */
const DEFAULT_PDF_TIMEOUT = 60;

/** MUSTER_PDF_TIMEOUT in seconds (a decimal greater than 0, at most 3600), or the default. */
export function pdfTimeoutSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.MUSTER_PDF_TIMEOUT;
  if (raw === undefined || raw === '') return DEFAULT_PDF_TIMEOUT;
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds > 0 && seconds <= 3600)) {
    const allowed =
      `seconds Chromium may take to print a card, greater than 0 and at most 3600 (default ` +
      `${DEFAULT_PDF_TIMEOUT})`;
    throw badValue('MUSTER_PDF_TIMEOUT', raw, allowed);
  }
  return seconds;
}

export interface Chromium {
  path: string;
  /** Seconds before a Chromium that has not finished is killed. */
  timeoutSeconds: number;
}

/** Checks, before any work, that Chromium can be run and MUSTER_PDF_TIMEOUT is valid; a UsageError otherwise. */
export function checkChromium(): Chromium {
  const path = chromiumPath();
  const timeoutSeconds = pdfTimeoutSeconds();
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new UsageError(
      `--pdf: Chromium not found at ${path}; allowed: install it (apt-get install chromium), set MUSTER_CHROMIUM ` +
        `to its path, or leave out --pdf`,
    );
  }
  return { path, timeoutSeconds };
}

/**
 * Prints an HTML page (as a string) and returns the PDF's bytes. Chromium
 * runs in a process group of its own, so that a hung one, and every helper
 * process it started, can be killed at once: when it has not finished within
 * `timeoutSeconds`, or when `signal` aborts (Ctrl-C; in its own group
 * Chromium no longer hears the terminal's). Its exit, not the close of its
 * output, ends the wait: a helper left holding stderr cannot keep muster
 * waiting either.
 */
export async function printToPdf(
  html: string,
  chromium: Chromium = checkChromium(),
  signal?: AbortSignal,
): Promise<Buffer> {
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
    await runChromium(chromium, args, signal);
    if (!existsSync(pdf))
      throw new UsageError(
        `--pdf: Chromium at ${chromium.path} exited without printing the card; allowed: a working Chromium ` +
          `(MUSTER_CHROMIUM)`,
      );
    return readFileSync(pdf);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function runChromium(
  { path, timeoutSeconds }: Chromium,
  args: readonly string[],
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new PdfInterrupted());
      return;
    }
    const child = spawn(path, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      // The last line says why it failed; keep only the tail of a chatty browser.
      stderr = (stderr + chunk).slice(-4096);
    });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // A helper process must not outlive the wait, nor a pipe it holds keep muster running.
      child.stderr.destroy();
      killGroup();
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => settle(new PdfInterrupted());
    const tooLong = () =>
      new UsageError(
        `--pdf: Chromium at ${path} did not print the card within ${timeoutSeconds} s and was stopped; ` +
          'allowed: a working Chromium (MUSTER_CHROMIUM), or a longer MUSTER_PDF_TIMEOUT in seconds for a slow machine',
      );
    const timer = setTimeout(() => settle(tooLong()), timeoutSeconds * 1000);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      settle(
        new UsageError(
          `--pdf: Chromium at ${path} could not be started (${error.message}); allowed: a working Chromium ` +
            `(MUSTER_CHROMIUM)`,
        ),
      );
    });
    child.on('exit', (code, killedBy) => {
      if (code === 0) {
        settle();
        return;
      }
      // The exit can be heard before the last of stderr is read: wait for the
      // pipe's end, but no longer than a moment, as a helper may still hold it.
      const fail = () => {
        const last = stderr.trim().split('\n').pop() || (killedBy ? `killed by ${killedBy}` : `exit status ${code}`);
        settle(
          new UsageError(`--pdf: Chromium could not print the card (${last}); allowed: a working Chromium at ${path}`),
        );
      };
      if (child.stderr.readableEnded) fail();
      else {
        const grace = setTimeout(fail, 500);
        child.stderr.once('end', () => {
          clearTimeout(grace);
          fail();
        });
      }
    });
  });
}

/** Ctrl-C (or SIGTERM) while Chromium printed: it is stopped, and the card command writes nothing. */
export class PdfInterrupted extends Error {
  override readonly name = 'PdfInterrupted';
  constructor() {
    super('interrupted while Chromium printed the card');
  }
}
