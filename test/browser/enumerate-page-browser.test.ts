/**
 * The calculator page enumerates a rule file without exact() in the browser:
 * the step-form ports' exact values in the page are `muster run FILE
 * --exact`'s, fraction for fraction (145/352 for Infinity WIP 13 against 15),
 * and where enumeration has no answer at the parameters asked (past the
 * page's budget) the page ticks and locks "simulate", then gives the box
 * back when the parameters change to ones it can enumerate.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { formatHash } from '../../src/page/hash.js';
import type { RunResult } from '../../src/result.js';
import { bufferIo } from '../support/io.js';
import { describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-enumerate-page-'));
const appFile = join(folder, 'app.html');
const example = (name: string) => fileURLToPath(new URL(`../../examples/rules/${name}.mjs`, import.meta.url));
// The walk-through's trial without exact(): three squads' dice have about 10^16 paths, one squad's 306,706 (past the
// page's 50,000), and at target 2 every squad arrives in round 1 (36 paths a squad), so one squad enumerates.
const trialForm = join(folder, 'reserves-2d6-trial.mjs');
writeFileSync(
  trialForm,
  `export default {
  id: 'reserves-2d6-trial', title: 'Reserves on 2d6 (trial form, no exact)',
  params: [
    { name: 'squads', type: 'integer', default: 3, min: 1, max: 12, doc: 'squads' },
    { name: 'target', type: 'integer', default: 10, min: 2, max: 16, doc: 'target' },
  ],
  metrics: [{ name: 'all.by.4', probability: true }, { name: 'lost.mean', probability: false }],
  trial(dice, p, out) {
    let lost = 0;
    for (let squad = 0; squad < p.squads; squad++) {
      let arrived = false;
      for (let round = 1; round <= 4 && !arrived; round++) arrived = dice.d(6) + dice.d(6) + round >= p.target;
      if (!arrived) lost++;
    }
    out['all.by.4'] = lost === 0;
    out['lost.mean'] = lost;
  },
};
`,
);
let browser: Browser;

const shownResult = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);
const go = (page: Page, hash: string) =>
  page.evaluate(
    (next) => (window as unknown as { musterApp: { open(hash: string): Promise<void> } }).musterApp.open(next),
    hash,
  );

describeInChromium('the calculator page enumerates rule files without exact()', () => {
  beforeAll(async () => {
    await appCommand(
      { out: appFile, rule: [example('infinity-steps'), example('reserves-steps'), trialForm] },
      bufferIo(),
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the step-form ports: exact in the page, the same values as muster run FILE --exact', async () => {
    const { page, problems, requests } = await offlinePage(browser, { blob: true });
    await page.goto(`file://${appFile}`);
    const cases: Array<[string, string[]]> = [
      ['infinity-steps', ['wipA=13', 'wipB=15']],
      ['infinity-steps', ['wipA=24', 'wipB=8', 'crits=false']],
      ['reserves-steps', ['squads=6', 'chosenRound=2', 'command=3', 'leaderLoss=0.15', 'fallbackCommand=1']],
    ];
    for (const [id, set] of cases) {
      await go(
        page,
        formatHash(
          id,
          set.map((a) => a.split('=') as [string, string]),
        ),
      );
      const shown = await shownResult(page);
      const cli = await runCommand(example(id), { exact: true, set, quiet: true }, bufferIo());
      expect(shown?.method, `${id} ${set.join(' ')}`).toBe('exact');
      expect(shown?.metrics, `${id} ${set.join(' ')}`).toEqual(cli.metrics);
    }
    await go(page, formatHash('infinity-steps', [['wipB', '15']]));
    expect((await shownResult(page))?.metrics['a.wins'].fraction).toBe('145/352');
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it(
    'past the page budget: simulated, the simulate box ticked and locked; enumerable again: exact, the box given ' +
      'back',
    async () => {
      const { page, problems } = await offlinePage(browser, { blob: true });
      await page.goto(`file://${appFile}`);
      await go(
        page,
        formatHash('reserves-2d6-trial', [
          ['squads', '1'],
          ['trials', '20000'],
        ]),
      );
      expect((await shownResult(page))?.method).toBe('simulation');
      expect(await page.isChecked('#sim-on')).toBe(true);
      expect(await page.isDisabled('#sim-on')).toBe(true);
      await go(
        page,
        formatHash('reserves-2d6-trial', [
          ['squads', '1'],
          ['target', '2'],
        ]),
      );
      const shown = await shownResult(page);
      // Target 2: 2d6 + 1 ≥ 2 always, so the squad is in at round 1.
      expect([shown?.method, shown?.metrics['all.by.4'].fraction, shown?.metrics['lost.mean'].fraction]).toEqual([
        'exact',
        '1',
        '0',
      ]);
      expect(await page.isDisabled('#sim-on')).toBe(false);
      expect(await page.isChecked('#sim-on')).toBe(false);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
