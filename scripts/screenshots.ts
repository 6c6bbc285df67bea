/**
 * Maintenance: regenerates the README's screenshots in docs/screenshots/ —
 * one PNG per chart type, taken from real reports and cards in headless
 * Chromium, and printed cards on A4 and Letter (needs pdftoppm from
 * poppler-utils).
 *
 *   npm run screenshots
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { bookCommand } from '../src/cli/commands/book.js';
import { cardCommand } from '../src/cli/commands/card.js';
import { compareCommand } from '../src/cli/commands/compare.js';
import { sweepCommand } from '../src/cli/commands/sweep.js';
import type { Io } from '../src/output/io.js';

const silent: Io = { out: () => undefined, err: () => undefined, errIsTTY: false };

/** Chart section id in a page → screenshot file name. */
const SHOTS: Array<{ page: string; chart: string; file: string }> = [
  { page: 'book/card-infinity.html', chart: 'infinity-wip-matrix', file: 'infinity-wip-matrix.png' },
  {
    page: 'book/card-reserves.html',
    chart: 'reserves-arrival-by-chosen-round',
    file: 'reserves-arrival-by-chosen-round.png',
  },
  { page: 'book/card-reserves.html', chart: 'reserves-arrival-table', file: 'reserves-arrival-table.png' },
  { page: 'book/reserves.html', chart: 'reserves-arrival-by-round', file: 'reserves-arrival-by-round.png' },
  { page: 'book/reserves.html', chart: 'reserves-exact-check', file: 'reserves-exact-check.png' },
  { page: 'book/card-deployment.html', chart: 'deployment-strategy-matrix', file: 'deployment-strategy-matrix.png' },
  { page: 'book/card-noctvale.html', chart: 'noctvale-initiative', file: 'noctvale-initiative-table.png' },
  { page: 'book/deployment.html', chart: 'deployment-zones', file: 'deployment-zones.png' },
  { page: 'book/fow.html', chart: 'fow-platoons-on-table', file: 'fow-platoons-on-table.png' },
  { page: 'book/warbands.html', chart: 'warbands-who', file: 'warbands-who.png' },
  { page: 'book/noctvale.html', chart: 'noctvale-who', file: 'noctvale-who.png' },
  { page: 'sweep.html', chart: 'sweep-all.by.4', file: 'sweep-heatmap.png' },
  { page: 'compare.html', chart: 'compare-differences', file: 'compare-differences.png' },
];

const target = join(process.cwd(), 'docs', 'screenshots');
const work = mkdtempSync(join(tmpdir(), 'muster-shots-'));
try {
  await bookCommand({ out: join(work, 'book'), quiet: true }, silent);
  await sweepCommand(
    'reserves',
    {
      vary: ['chosenRound=0..4', 'command=2..4'],
      exact: true,
      metric: ['all.by.4'],
      html: join(work, 'sweep.html'),
      quiet: true,
    },
    silent,
  );
  await compareCommand(
    'deployment',
    {
      variant: ['forward 1: a=forward:1', 'forward 4: a=forward:4', 'standard 1,2,4: a=standard:1,2,4'],
      html: join(work, 'compare.html'),
      quiet: true,
    },
    silent,
  );

  mkdirSync(target, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 }, deviceScaleFactor: 1.5 });
  for (const shot of SHOTS) {
    await page.goto(`file://${join(work, shot.page)}`);
    await page.evaluate(() =>
      (globalThis as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => true),
    );
    await page.locator(`section[id="${shot.chart}"]`).screenshot({ path: join(target, shot.file) });
    process.stdout.write(`docs/screenshots/${shot.file}\n`);
  }
  // Printed cards: Infinity's on A4, reserves' on Letter, each one sheet.
  await cardCommand('reserves', { out: join(work, 'card-reserves-letter.html'), paper: 'letter', quiet: true }, silent);
  const printed: Array<{ html: string; name: string }> = [
    { html: join(work, 'book', 'card-infinity.html'), name: 'print-card-infinity-a4' },
    { html: join(work, 'card-reserves-letter.html'), name: 'print-card-reserves-letter' },
  ];
  for (const { html, name } of printed) {
    await page.goto(`file://${html}`);
    await page.evaluate(() =>
      (globalThis as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => true),
    );
    const pdf = join(work, `${name}.pdf`);
    writeFileSync(pdf, await page.pdf({ preferCSSPageSize: true }));
    if (existsSync('/usr/bin/pdftoppm')) {
      execFileSync('pdftoppm', ['-png', '-r', '72', '-singlefile', pdf, join(target, name)]);
      process.stdout.write(`docs/screenshots/${name}.png\n`);
    }
  }
  await browser.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
