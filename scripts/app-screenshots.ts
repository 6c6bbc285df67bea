/**
 * Maintenance: regenerates the calculator's screenshots in docs/screenshots/ —
 * the page at desktop and at phone width on the README's question (Infinity,
 * WIP 13 against 15), and the odds card its print button prints (needs
 * pdftoppm from poppler-utils).
 *
 *   npm run screenshots:app
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { buildAppHtml } from '../src/page/build.js';

const QUESTION = '#infinity?wipA=13&wipB=15&crits=true';
const target = join(process.cwd(), 'docs', 'screenshots');
const work = mkdtempSync(join(tmpdir(), 'muster-app-shots-'));
const shown = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
try {
  const file = join(work, 'app.html');
  writeFileSync(file, (await buildAppHtml()).html);
  mkdirSync(target, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });

  const desktop = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await desktop.goto(`file://${file}${QUESTION}`);
  await shown(desktop);
  await desktop.screenshot({ path: join(target, 'app-desktop.png') });
  process.stdout.write('docs/screenshots/app-desktop.png\n');

  // A phone: the answer as a player sees it after changing WIP, and the figures kept at the foot of the screen.
  const phone = await browser.newPage({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  await phone.goto(`file://${file}${QUESTION}`);
  await shown(phone);
  await phone.locator('#answer').scrollIntoViewIfNeeded();
  await phone.screenshot({ path: join(target, 'app-phone.png') });
  process.stdout.write('docs/screenshots/app-phone.png\n');

  // What the print button prints: the odds card for the question shown.
  await desktop.evaluate(() =>
    (globalThis as unknown as { musterApp: { prepareCard(): Promise<boolean> } }).musterApp.prepareCard(),
  );
  const pdf = join(work, 'card.pdf');
  writeFileSync(pdf, await desktop.pdf({ format: 'A4' }));
  await browser.close();
  if (existsSync('/usr/bin/pdftoppm')) {
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '70',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      pdf,
      join(target, 'app-print-a4'),
    ]);
    process.stdout.write('docs/screenshots/app-print-a4.png\n');
  } else {
    process.stdout.write('pdftoppm not found (apt-get install poppler-utils): the printed card was not rendered\n');
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
