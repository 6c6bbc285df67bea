import { renderBook } from '../../../reports/book.js';
import { planCard } from '../../../reports/card/layout.js';
import { checkOutputDir, writeOutputs } from '../../../reports/outputs.js';
import { evaluateBook } from '../../analysis/book.js';
import { interruptedStatus, interruption, withInterrupt } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { terminalLine } from '../../output/terminal.js';
import { buildAppHtml } from '../../page/build.js';
import { rules } from '../../rules/index.js';
import { formatCount } from '../format.js';
import { parseConfidence, parseCount, parseSeed, parseStream, parseThreads } from '../options.js';
import { ProgressBar } from '../progress.js';
import { DEFAULT_SEED, parseTimeout } from './run.js';

interface BookOptions {
  out?: string;
  trials?: string;
  printableTrials?: string;
  seed?: string;
  stream?: string;
  threads?: string;
  confidence?: string;
  timeout?: string;
  quiet?: boolean;
}

/** Runs at the defaults: a million trials gives every probability to about ±0.1 percentage point. */
const BOOK_TRIALS = 1_000_000;
/** Per point of a card that must be simulated (a rule with no exact solution). */
const BOOK_PRINTABLE_TRIALS = 100_000;

/**
 * `muster book`: the report book — every rule at its defaults plus its
 * one-page odds card — as HTML pages in --out (default out/), with a
 * contents page, out/index.html.
 */
export async function bookCommand(options: BookOptions, io: Io): Promise<string> {
  const outDir = checkOutputDir('--out', options.out ?? 'out');
  const settings = {
    outDir,
    seed: parseSeed(options.seed ?? DEFAULT_SEED),
    stream: parseStream(options.stream),
    threads: parseThreads(options.threads),
    confidence: options.confidence === undefined ? 0.95 : parseConfidence(options.confidence),
    trials: options.trials === undefined ? BOOK_TRIALS : parseCount('--trials', options.trials),
    printableTrials:
      options.printableTrials === undefined
        ? BOOK_PRINTABLE_TRIALS
        : parseCount('--printable-trials', options.printableTrials),
    ...(options.timeout === undefined ? {} : { timeout: parseTimeout(options.timeout) }),
  };
  const quiet = options.quiet ?? false;
  const started = performance.now();
  // On a terminal, a bar counting trials with trials/s and ETA; in a log, one line a step.
  const bar = io.errIsTTY && !quiet ? new ProgressBar(io.err, true) : null;
  const onProgress = (message: string) => {
    if (!quiet && bar === null) io.err(`book ${message}\n`);
  };
  const onTrials = (done: number, total: number) => bar?.update(done, total);
  onProgress('the calculator page');
  let appHtml: string | undefined;
  try {
    appHtml = (await buildAppHtml()).html;
  } catch (error) {
    // Ctrl-C signals the whole process group, esbuild's service too, which then fails the build: the book
    // is interrupted (the signal aborts the work below at once), not broken.
    if (interruption() === null) throw error;
  }
  let book;
  try {
    // Computed first, then rendered: the card's design (planCard) says which points each card shows.
    const { runs, partial } = await withInterrupt((signal) =>
      evaluateBook(rules, { ...settings, onProgress, onTrials, signal }, planCard),
    );
    book = renderBook(rules, runs, partial, { ...settings, appHtml });
  } finally {
    bar?.finish();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (book.partial && book.pages.length === 0) {
    io.err('muster: PARTIAL: interrupted before any page was finished; nothing was written\n');
    process.exitCode = interruptedStatus();
    return book.index;
  }
  writeOutputs(book.files, io.out);
  if (book.partial) {
    io.out(
      `PARTIAL: interrupted; wrote the ${book.pages.length} finished of ${rules.length} rule pages: ` +
        `${terminalLine(book.index)} (${seconds} s)\n`,
    );
    process.exitCode = interruptedStatus();
  } else {
    io.out(
      `wrote the report book: ${terminalLine(book.index)} (${book.pages.length} rule pages and the calculator, ` +
        `app.html; ${formatCount(settings.trials)} trials each at the defaults, ${seconds} s)\n`,
    );
  }
  return book.index;
}
