/**
 * `muster card`: the figures on each rule's card against hand-worked and
 * brute-force values written from the rule texts, the footer, and bad
 * input (one line, exit 2, nothing written). The one-page and no-overlap
 * checks are in test/browser/card-browser.test.ts; one test here prints through the
 * --pdf path itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { layoutCard, planCard, renderCardSheet } from '../../reports/card/layout.js';
import { buildResult } from '../../src/analysis/result-of.js';
import { cardCommand } from '../../src/cli/commands/card.js';
import { main } from '../../src/cli.js';
import type { Rule } from '../../src/contract/types.js';
import { resolveParams } from '../../src/rules/params.js';
import { scratchFolder } from '../support/cli.js';
import { exactResult } from '../support/exact-result.js';
import { echoRule, HOSTILE } from '../support/hostile.js';
import { bufferIo } from '../support/io.js';
import { CHROMIUM, describeInChromium } from '../support/offline-page.js';

const folder = scratchFolder('card');
afterEach(() => {
  process.exitCode = undefined;
  delete process.env.MUSTER_CHROMIUM;
});

interface Cell {
  row: string;
  col: string;
  value: number;
  text: string;
  facet?: string;
}

/** The data of one chart of a written card, by chart id. */
function chartData(file: string, id: string): Cell[] {
  const html = readFileSync(file, 'utf8');
  const json = /<script type="application\/json" id="muster-charts">(.*?)<\/script>/s.exec(html)?.[1];
  const charts = JSON.parse(json ?? '[]') as Array<{ id: string; spec: { data: { values: Cell[] } } }>;
  const chart = charts.find((entry) => entry.id === id);
  if (!chart) throw new Error(`no chart ${id} in ${file}: ${charts.map((entry) => entry.id).join(', ')}`);
  return chart.spec.data.values;
}

async function card(rule: string, args: Record<string, unknown> = {}): Promise<string> {
  const out = join(folder, `${rule}-${Object.keys(args).join('-') || 'defaults'}.html`);
  await cardCommand(rule, { out, quiet: true, ...args }, bufferIo());
  return out;
}

/**
 * Player A's chance to win an Infinity Initiative Roll, by brute force over
 * the 400 pairs of d20 faces, from the Face to Face rules (WIP up to 20): a
 * face above WIP fails; equal to WIP is a critical, beating any other
 * success; otherwise the higher success wins; double failures, double
 * criticals and equal results roll again.
 */
function infinityBruteForce(wipA: number, wipB: number): number {
  const rank = (face: number, wip: number) => (face > wip ? 0 : face === wip ? 1000 : face);
  let aWins = 0;
  let decided = 0;
  for (let a = 1; a <= 20; a++) {
    for (let b = 1; b <= 20; b++) {
      const [ra, rb] = [rank(a, wipA), rank(b, wipB)];
      if (ra === rb) continue; // both fail, both critical, or equal results: roll again
      decided++;
      if (ra > rb) aWins++;
    }
  }
  return aWins / decided;
}

describe('muster card: the figures on the cards', () => {
  it('infinity: every cell of the 8–16 WIP table equals a brute force over d20 faces (criticals on)', async () => {
    const cells = chartData(await card('infinity'), 'infinity-wip-matrix');
    expect(cells).toHaveLength(81);
    for (const cell of cells)
      expect(cell.value, `${cell.row} vs ${cell.col}`).toBeCloseTo(
        infinityBruteForce(Number(cell.row), Number(cell.col)),
        12,
      );
    // The diagonal is even odds by symmetry, exactly; the text of a cell is its value, a percentage in every cell.
    expect(cells.filter((cell) => cell.row === cell.col).map((cell) => cell.value)).toEqual(Array(9).fill(0.5));
    expect(cells.find((cell) => cell.row === '13' && cell.col === '13')?.text).toBe('50.0%');
    expect(cells.filter((cell) => !/^\d+\.\d%$/.test(cell.text))).toEqual([]);
    expect(readFileSync(join(folder, 'infinity-defaults.html'), 'utf8')).toMatch(
      /parameters crits=true · .*exact values/,
    );
  });

  it('infinity --range 18..20: the table follows the range', async () => {
    const cells = chartData(await card('infinity', { range: '18..20' }), 'infinity-wip-matrix');
    expect(new Set(cells.map((cell) => cell.row))).toEqual(new Set(['18', '19', '20']));
    for (const cell of cells)
      expect(cell.value).toBeCloseTo(infinityBruteForce(Number(cell.row), Number(cell.col)), 12);
  });

  it(
    'noctvale: fewer fighters always take the initiative, equal counts are even, and the other side places last ' +
      '(3 groups each)',
    async () => {
      const file = await card('noctvale');
      const initiative = chartData(file, 'noctvale-initiative');
      const last = chartData(file, 'noctvale-places-last');
      expect(initiative).toHaveLength(81);
      for (const cell of initiative) {
        const [a, b] = [Number(cell.row), Number(cell.col)];
        const expected = a < b ? 1 : a > b ? 0 : 0.5;
        expect(cell.value, `${a} vs ${b}`).toBe(expected);
        // Both sides have at least 3 fighters, so 3 groups each: placing alternates from the initiative side, who places
        // first.
        expect(last.find((other) => other.row === cell.row && other.col === cell.col)?.value).toBe(1 - expected);
      }
    },
  );

  it(
    'reserves: with no reserve round a squad is in by round 1 on a 6 (1/6) and by round 2 with 1 − 5/6 · 4/6; one ' +
      'line per chosen round',
    async () => {
      const file = await card('reserves');
      const cells = chartData(file, 'reserves-arrival-table');
      for (const command of ['command 2', 'command 3', 'command 4']) {
        const row = cells.filter((cell) => cell.facet === command && cell.row === 'no reserve round');
        expect(row.find((cell) => cell.col === '1')?.value).toBeCloseTo(1 / 6, 12);
        expect(row.find((cell) => cell.col === '2')?.value).toBeCloseTo(1 - (5 / 6) * (4 / 6), 12);
      }
      // Round 1 chosen with command 2: 1d6 + 1 + 2 ≥ 7 on a 4, 5 or 6.
      expect(
        cells.find((cell) => cell.facet === 'command 2' && cell.row === 'round 1' && cell.col === '1')?.value,
      ).toBeCloseTo(1 / 2, 12);
      // The lines: one per chosen reserve round (none, 1 … 4 at the default 4 rounds), one panel per command level, the
      // same exact odds.
      const lines = chartData(file, 'reserves-arrival-by-chosen-round') as unknown as Array<{
        series: string;
        facet: string;
        label: string;
        exact: number;
      }>;
      expect([...new Set(lines.map((point) => point.series))]).toEqual([
        'no reserve round',
        'round 1',
        'round 2',
        'round 3',
        'round 4',
      ]);
      expect([...new Set(lines.map((point) => point.facet))]).toEqual(['command 2', 'command 3', 'command 4']);
      expect(
        lines.find((point) => point.facet === 'command 2' && point.series === 'round 1' && point.label === '1')?.exact,
      ).toBe(0.5);
    },
  );

  it('deployment --against standard:1,2,3: every answer ranked best first, the mirror match at even odds', async () => {
    const file = await card('deployment', { against: 'standard:1,2,3' });
    const html = readFileSync(file, 'utf8');
    const rows = [
      ...html.matchAll(/<tr><td class="num">(\d+)<\/td><td>([^<]+)<\/td><td class="num">([^<]+)<\/td>/g),
    ].map((match) => ({ rank: Number(match[1]), name: match[2], initiative: match[3] }));
    expect(rows).toHaveLength(16);
    expect(rows.map((row) => row.rank)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    const values = rows.map((row) => (row.initiative === '100%' ? 1 : Number(row.initiative.replace('%', '')) / 100));
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThanOrEqual(values[i - 1]);
    // Same zones, same total: the 1d6 roll-off decides, even odds.
    expect(rows.find((row) => row.name === 'S123 (standard:1,2,3)')?.initiative).toBe('50.0%');
    expect(html).toContain('against standard:1,2,3');
    // The footer ends with the command that makes the card again.
    expect(html).toContain('· muster card deployment --against standard:1,2,3</footer>');
  });

  it(
    'warbands: the highest rating defends and sets up first; the first turn is an even three-way ' + 'roll-off',
    async () => {
      const file = await card('warbands');
      const who = chartData(file, 'warbands-who');
      const share = (row: string, band: string) =>
        who.find(
          (cell) =>
            (cell as unknown as { row: string; segment: string }).row === row &&
            (cell as unknown as { segment: string }).segment.startsWith(band),
        )?.value;
      expect(share('defends', 'warband 1 ')).toBe(1);
      expect(share('sets up first', 'warband 1 ')).toBe(1);
      for (const band of ['warband 1 ', 'warband 2 ', 'warband 3 '])
        expect(share('moves first', band)).toBeCloseTo(1 / 3, 12);
    },
  );

  it('the footer lists the rule’s readings where it declares them, and every text on the sheet is escaped', () => {
    const rule: Rule = {
      ...echoRule,
      presentation: {
        readings: (params) => [{ param: 'label', text: `reading of ${String(params.label).length} characters` }],
      },
    };
    const params = resolveParams(rule);
    const results = planCard(rule, params).map((point) => exactResult(rule, point, ''));
    const sheet = renderCardSheet(layoutCard(rule, params, {}, results));
    expect(sheet).toContain(`readings: label: reading of ${HOSTILE.length} characters`);
    expect(sheet).not.toContain('<img');
    expect(sheet).not.toContain('</script>');
    expect(sheet).toContain('&lt;/script&gt;&lt;img src=x');
  });

  it(
    'a rule with no exact solution: the footer gives the estimate’s trials, seed and interval level instead of ' +
      '"exact"',
    () => {
      const rule: Rule = { ...echoRule, exact: undefined };
      const params = resolveParams(rule);
      const tally = new Float64Array([1000]);
      const results = planCard(rule, params).map((point) =>
        buildResult({
          rule,
          params: point,
          seed: 'card',
          stream: 2,
          threads: 1,
          confidence: 0.95,
          trials: 3000,
          tally,
        }),
      );
      const card = layoutCard(rule, params, {}, results);
      expect(card.footer).toContain('estimates with 95% intervals: 3,000 trials, seed "card"');
      expect(card.footer).not.toContain('exact');
    },
  );
});

describe('the card layout can be bundled for a browser page', () => {
  it(
    'reports/card/layout.ts and everything it imports at run time import nothing but each other (no node:, no ' +
      'packages)',
    () => {
      const root = fileURLToPath(new URL('../../', import.meta.url)).replace(/dist\/$/, '');
      const seen = new Set<string>();
      const outside: string[] = [];
      const pending = ['reports/card/layout.ts'];
      while (pending.length > 0) {
        const file = pending.pop() as string;
        if (seen.has(file)) continue;
        seen.add(file);
        const source = readFileSync(join(root, file), 'utf8');
        for (const match of source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)) {
          if (match[1]) continue; // types vanish at run time
          if (!match[2].startsWith('.')) outside.push(`${file}: ${match[2]}`);
          else pending.push(normalize(join(dirname(file), match[2].replace(/\.js$/, '.ts'))));
        }
      }
      expect(outside).toEqual([]);
      expect(seen.size).toBeGreaterThan(5);
    },
  );
});

describe('muster card: bad input', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['no --out', ['card', 'infinity'], /^muster: --out: missing; allowed: /],
    [
      '--range on a card with no table axis',
      ['card', 'fow', '--range', '1..3'],
      /^muster: --range: the fow card has no table axis to set; allowed: /,
    ],
    [
      '--range out of bounds',
      ['card', 'noctvale', '--range', '0..5'],
      /^muster: --range: got "0\.\.5"; allowed: a\.\.b or a,b,c: integers from 1 to 60/,
    ],
    [
      '--against on a card without one',
      ['card', 'infinity', '--against', 'x'],
      /^muster: --against: the infinity card has no opponent strategy to fix; allowed: /,
    ],
    [
      '--against not a deployment',
      ['card', 'deployment', '--against', 'forward:9'],
      /^muster: --against: got "forward:9"; allowed: standard:/,
    ],
    ['--paper a5', ['card', 'infinity', '--paper', 'a5'], /^muster: --paper: got "a5"; allowed: a4 or letter\n$/],
    ['an unknown parameter', ['card', 'infinity', '--set', 'wipC=3'], /^muster: /],
    [
      '--trials for an exact card',
      ['card', 'infinity', '--trials', '1e6'],
      /^muster: --trials: infinity's card is exact; allowed: leave it out/,
    ],
    [
      '--pdf the same file as --out',
      ['card', 'infinity', '--pdf', 'SAME'],
      /^muster: --pdf: .* is the same file as --out/,
    ],
  ];
  for (const [what, argv, message] of cases) {
    it(`${what}: one line, exit 2, nothing written`, async () => {
      const out = join(folder, `bad-${what.replace(/\W+/g, '-')}.html`);
      const io = bufferIo();
      const status = await main(
        [
          ...argv.map((word) => (word === 'SAME' ? out : word)),
          ...(argv.includes('--out') || what === 'no --out' ? [] : ['--out', out]),
        ],
        io,
      );
      expect(status).toBe(2);
      expect(io.stderr()).toMatch(message);
      expect(io.stderr().trim().split('\n')).toHaveLength(1);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('--pdf with no Chromium: one line saying so, exit 2, neither file written', async () => {
    process.env.MUSTER_CHROMIUM = join(folder, 'no-chromium-here');
    const out = join(folder, 'nochrome.html');
    const pdf = join(folder, 'nochrome.pdf');
    const io = bufferIo();
    const status = await main(['card', 'infinity', '--out', out, '--pdf', pdf], io);
    expect(status).toBe(2);
    expect(io.stderr()).toMatch(
      /^muster: --pdf: Chromium not found at .*no-chromium-here; allowed: install it \(apt-get install chromium\)/,
    );
    expect(io.stderr().trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(pdf)).toBe(false);
  });
});

describeInChromium('muster card --pdf through Chromium', () => {
  beforeEach(() => {
    process.env.MUSTER_CHROMIUM = CHROMIUM;
  });
  it('prints the Noctvale card on Letter to a one-page PDF of Letter size', async () => {
    const out = join(folder, 'noctvale-letter.html');
    const pdf = join(folder, 'noctvale-letter.pdf');
    const io = bufferIo();
    const status = await main(['card', 'noctvale', '--paper', 'letter', '--out', out, '--pdf', pdf], io);
    expect(status).toBe(0);
    const bytes = readFileSync(pdf).toString('latin1');
    expect(bytes.startsWith('%PDF-')).toBe(true);
    expect((bytes.match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBe(1);
    // Letter is 612 × 792 points.
    expect(bytes).toMatch(/\/MediaBox\s*\[\s*0\s+0\s+612\s+792\s*\]/);
    expect(io.stderr()).toBe(`wrote ${out}\nwrote ${pdf}\n`);
  });
});
