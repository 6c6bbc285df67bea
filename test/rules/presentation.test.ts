/**
 * A rule and its presentation, side by side: the registry pairs each
 * built-in with its `<id>.present.ts`, the vocabulary is the one a rule file
 * declares (and is checked strictly there), a rule file's declared charts,
 * card and matrix words are drawn as a built-in's are, and without one the
 * generic card keeps probabilities and means apart and honours the matrix
 * the file declares. Every hint names a rule file by its path.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPresentation } from '../../src/presentation/check.js';
import { registry } from '../../src/rules/index.js';
import { cli, scratchFolder } from '../support/cli.js';
import { HOSTILE } from '../support/hostile.js';

const folder = scratchFolder('presentation');
const root = new URL('../..', import.meta.url).pathname;

/**
 * A d6 roll-off with a bonus for each side, ties rolled again, its exact() by enumerating one roll's 36 pairs;
 * `extra` is spliced into its default export.
 */
function rollOff(name: string, extra = ''): string {
  const path = join(folder, name);
  writeFileSync(
    path,
    `export default {
  id: 'order-bag',
  title: 'Roll-off',
  params: [
    { name: 'bonusA', type: 'integer', default: 0, min: 0, max: 3, doc: "added to A's die" },
    { name: 'bonusB', type: 'integer', default: 0, min: 0, max: 3, doc: "added to B's die" },
  ],
  metrics: [
    { name: 'a.wins', doc: 'A wins', label: 'A wins', probability: true },
    { name: 'b.wins', doc: 'B wins', label: 'B wins', probability: true },
    { name: 'rolls.mean', doc: 'rolls until decided', label: 'rolls', probability: false },
  ],
  trial(dice, p, out) {
    for (let round = 1; ; round++) {
      const a = dice.d(6) + p.bonusA;
      const b = dice.d(6) + p.bonusB;
      if (a !== b) {
        out['a.wins'] = a > b;
        out['b.wins'] = b > a;
        out['rolls.mean'] = round;
        return;
      }
    }
  },
  exact(p) {
    let wins = 0;
    let losses = 0;
    for (let a = 1; a <= 6; a++)
      for (let b = 1; b <= 6; b++) {
        if (a + p.bonusA > b + p.bonusB) wins++;
        else if (a + p.bonusA < b + p.bonusB) losses++;
      }
    const of = (n) => n + '/' + (wins + losses);
    return { 'a.wins': of(wins), 'b.wins': of(losses), 'rolls.mean': of(36) };
  },
  ${extra}
};
`,
  );
  return path;
}

const MATRIX = `matrix: { row: 'bonusA', col: 'bonusB', metrics: ['a.wins'], values: [0, 1, 2, 3] },`;

/** The chart specs embedded in a written page, by their id. */
function specsIn(html: string): Map<string, Record<string, unknown>> {
  const match = /<script type="application\/json" id="[^"]*">([\s\S]*?)<\/script>/.exec(html);
  const specs = new Map<string, Record<string, unknown>>();
  if (!match) return specs;
  const data = JSON.parse(match[1]) as unknown;
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (typeof record.id === 'string' && record.spec) specs.set(record.id, record.spec as Record<string, unknown>);
      Object.values(record).forEach(walk);
    }
  };
  walk(data);
  return specs;
}

describe('the registry: every built-in is a rule and a presentation beside it', () => {
  it('each entry is <id>.ts with <id>.present.ts, in src/rules/ or its own src/rules/<id>/, and ids are unique', () => {
    const ids = registry.map(({ rule }) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      // A rule of more than two files has a folder of its own (docs/architecture.md, "Adding a built-in rule").
      const folder = existsSync(join(root, 'src/rules', id)) ? join('src/rules', id) : 'src/rules';
      expect(existsSync(join(root, folder, `${id}.ts`)), `${id}.ts`).toBe(true);
      expect(existsSync(join(root, folder, `${id}.present.ts`)), `${id}.present.ts`).toBe(true);
    }
    expect(existsSync(join(root, 'src/rules/fow/fow.present.ts')), 'a rule in its own folder').toBe(true);
  });

  it("each built-in's presentation passes the rule-file check unchanged: the two say the same things", () => {
    for (const { rule, presentation } of registry) {
      const fail = (what: string): never => {
        throw new Error(`${rule.id}: ${what}`);
      };
      expect(checkPresentation(presentation, rule.params, rule.presentation?.matrix, fail)).toEqual(presentation);
    }
  });

  it('reports/ and the page name no rule: no id of a built-in appears there outside a comment', () => {
    const ids = registry.map(({ rule }) => rule.id);
    const files = ['reports', 'src/page'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => join(folder, file)),
    );
    expect(files.some((file) => file.startsWith(join('src', 'page')))).toBe(true);
    const hits: string[] = [];
    for (const file of files) {
      const code = readFileSync(join(root, file), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
      for (const id of ids)
        for (const line of code)
          if (new RegExp(`['"\`]${id}['"\`]|\\b${id}:`).test(line)) hits.push(`${file}: ${line}`);
    }
    expect(hits).toEqual([]);
  });
});

describe('a rule file declares a presentation: its pages and card look like a built-in’s', () => {
  const declared = `${MATRIX}
  presentation: {
    charts: [
      { kind: 'split', id: 'bag-who', title: 'Who wins at +{bonusA}', caption: 'Ties roll again. {#markers}',
        segmentTitle: 'winner', rows: [{ label: 'roll-off', metric: 'a.wins', sides: ['A (+{bonusA})', 'B'] }] },
      { kind: 'every' },
    ],
    matrix: { row: 'A’s bonus', col: 'B’s bonus', advantage: ['a.wins'] },
    card: { kind: 'matrix', title: 'Bag: who wins', subtitle: 'A’s bonus down the side.', row: 'bonusA',
      col: 'bonusB', axis: { from: 'matrix' },
      heatmaps: [{ metric: 'a.wins', id: 'bag-matrix', title: 'A wins', caption: 'Read across.' }] },
  },`;

  it('run --html draws the declared chart first, with its words filled in', async () => {
    const file = rollOff('declared.mjs', declared);
    const html = join(folder, 'declared-run.html');
    const { status, stderr } = await cli(
      'run',
      file,
      '--set',
      'bonusA=2',
      '--trials',
      '2000',
      '--html',
      html,
      '--quiet',
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('Who wins at +2');
    const specs = specsIn(page);
    expect([...specs.keys()].slice(0, 2)).toEqual(['bag-who', 'order-bag-probabilities']);
    expect(JSON.stringify(specs.get('bag-who'))).toContain('A (+2)');
  });

  it('card draws the declared matrix card over --range, and matrix --html titles the axes in its words', async () => {
    const file = rollOff('declared-card.mjs', declared);
    const out = join(folder, 'declared-card.html');
    expect((await cli('card', file, '--range', '0..2', '--out', out)).status).toBe(0);
    const card = readFileSync(out, 'utf8');
    expect(card).toContain('<h1>Bag: who wins</h1>');
    expect(card).toContain('id="bag-matrix"');
    expect(card).toContain(`muster card ${file} --range 0..2`);
    const matrixHtml = join(folder, 'declared-matrix.html');
    expect((await cli('matrix', file, '--html', matrixHtml, '--quiet')).status).toBe(0);
    expect(readFileSync(matrixHtml, 'utf8')).toContain('A’s bonus down the side');
  });

  it('words a designer typed are data: hostile text in titles, segments and legends is escaped and drawn', async () => {
    // Braces doubled: `{{` is a literal brace in words; a lone `{name}` would have to name a parameter.
    const words = JSON.stringify(HOSTILE.replaceAll('{', '{{'));
    const file = rollOff(
      'hostile.mjs',
      `presentation: {
    charts: [{ kind: 'split', id: 'who', title: ${words}, caption: ${words}, segmentTitle: 'constructor',
      rows: [{ label: ${words}, metric: 'a.wins', sides: [${words}, '__proto__'] }] }],
    card: { kind: 'charts', title: ${words}, subtitle: ${words}, charts: [{ id: 'who', caption: ${words} }],
      tables: [{ id: 't', title: ${words}, columns: [{ head: ${words}, cell: { words: ${words} } }] }] },
  },`,
    );
    const html = join(folder, 'hostile-run.html');
    const svg = join(folder, 'hostile-svg');
    const run = await cli('run', file, '--trials', '2000', '--html', html, '--svg', svg, '--quiet');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readdirSync(svg).sort()).toContain('who.svg');
    const cardFile = join(folder, 'hostile-card.html');
    expect((await cli('card', file, '--out', cardFile)).status).toBe(0);
    for (const page of [readFileSync(html, 'utf8'), readFileSync(cardFile, 'utf8')]) {
      expect(page).not.toContain('<img src=x');
      expect(page).not.toContain('</script><img');
      expect(page).toContain('&lt;img src=x onerror=');
    }
  });

  const refusals: Array<[string, string]> = [
    [`presentation: { chart: [] },`, 'presentation: unknown field "chart"; allowed: charts, card, matrix'],
    [`presentation: { charts: [{ kind: 'pie' }] },`, 'presentation.charts[0].kind: got "pie"; allowed: one of split'],
    [
      `presentation: { charts: [{ kind: 'split', id: '../x', title: 't', caption: 'c', segmentTitle: 's',
        rows: [] }] },`,
      'presentation.charts[0].id: got "../x"; allowed: letters, digits',
    ],
    [
      `presentation: { charts: [{ kind: 'every' }],
        card: { kind: 'charts', title: '{nope}', subtitle: '', charts: [] } },`,
      'presentation.card.title: {nope} is no placeholder; allowed: {parameter} (bonusA, bonusB)',
    ],
    [
      `presentation: { card: { kind: 'matrix', title: 't', subtitle: 's', row: 'bonusA', col: 'bonusA',
        axis: { from: 'integers', param: 'bonusA', most: 4 }, heatmaps: [] } },`,
      'presentation.card: row and col are both bonusA; allowed: two different parameters',
    ],
    [
      `presentation: { card: { kind: 'matrix', title: 't', subtitle: 's', row: 'bonusA', col: 'bonusB',
        axis: { from: 'matrix' }, heatmaps: [{ metric: 'a.wins', id: 'm', title: 't', caption: 'c' }] } },`,
      'presentation.card.axis.from: got "matrix", but the rule declares no matrix',
    ],
    [
      `presentation: { charts: [{ kind: 'bars', id: 'b', title: 't', caption: 'c',
        points: [{ metric: 'a.wins', per: 'squads' }], orientation: 'vertical', categoryTitle: '', valueTitle: '',
        percent: true }] },`,
      'presentation.charts[0].points[0].per: got "squads"; allowed: one of the parameters bonusA, bonusB',
    ],
    [`presentation: { matrix: { row: () => 'x' } },`, 'presentation.matrix.row: got a function; allowed: text'],
  ];
  for (const [extra, expected] of refusals) {
    it(`refuses ${extra.slice(14, 70).replace(/\s+/g, ' ')}… with one line naming the field`, async () => {
      const file = rollOff(`bad-${refusals.findIndex(([e]) => e === extra)}.mjs`, extra);
      const { status, stdout, stderr } = await cli('describe', file);
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toContain(`(rule order-bag): ${expected}`);
      expect(stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe('the generic card of a rule file without a presentation', () => {
  it.each([
    ['with a headline naming them', `headline: ['a.wins', 'b.wins', 'rolls.mean'],`],
    ['with no headline: every metric', ''],
  ])('puts the probabilities on a 0–100%% axis and the mean in a table of its own, %s', async (what, extra) => {
    const file = rollOff(`plain-${extra ? 'headline' : 'none'}.mjs`, extra);
    const out = join(folder, `plain-card-${extra ? 'headline' : 'none'}.html`);
    expect((await cli('card', file, '--out', out)).status, what).toBe(0);
    const card = readFileSync(out, 'utf8');
    const odds = specsIn(card).get('order-bag-headline');
    expect(odds, 'the odds chart').toBeDefined();
    const text = JSON.stringify(odds);
    expect(text).toContain('"domain":[0,1]');
    expect(text).toContain('"format":".0%"');
    expect(text).not.toContain('rolls');
    // 1 ÷ P(a roll decides) = 1 ÷ (30/36) = 1.2 rolls, by hand: six of the 36 pairs tie.
    const means = /<section class="block table" id="order-bag-means">(.*?)<\/section>/.exec(card)?.[1];
    expect(means).toBe(
      '<h2>Expected values</h2><table><thead><tr><th></th><th class="num">expected</th></tr></thead><tbody>' +
        '<tr><td>rolls</td><td class="num">1.20</td></tr></tbody></table><p class="caption">Exact values.</p>',
    );
  });

  it('draws the matrix the file declares, --range through it; without a matrix, --range is refused', async () => {
    const file = rollOff('with-matrix.mjs', MATRIX);
    const out = join(folder, 'with-matrix.html');
    const { status, stderr } = await cli('card', file, '--range', '1..3', '--out', out);
    expect(stderr).toBe(`wrote ${out}\n`);
    expect(status).toBe(0);
    const card = readFileSync(out, 'utf8');
    const heat = specsIn(card).get('order-bag-matrix-bonusA-bonusB') as {
      data: { values: Array<Record<string, unknown>> };
    };
    const cells = heat.data.values.map(({ row, col, value }) => ({ row, col, value }));
    // Rows and columns 1, 2, 3: nine cells. By hand: equal bonuses are even; A at +3 against +1 wins when b − a ≤ 1:
    // 26 of the 32 deciding pairs (36 less the 4 ties at b − a = 2; B wins the 6 with b − a ≥ 3).
    expect(cells).toHaveLength(9);
    expect(cells.find((c) => c.row === '2' && c.col === '2')?.value).toBe(0.5);
    expect(cells.find((c) => c.row === '3' && c.col === '1')?.value).toBe(26 / 32);
    expect(card).toContain(`muster card ${file} --range 1..3`);
    const plain = rollOff('no-matrix.mjs');
    const refused = await cli('card', plain, '--range', '1..3', '--out', join(folder, 'never.html'));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^muster: --range: the order-bag card has no table axis to set/);
    expect(existsSync(join(folder, 'never.html'))).toBe(false);
  });
});

describe('a rule file that reuses a built-in id', () => {
  it("gets its own (generic) card, not the built-in's: its metrics are its own", async () => {
    const out = join(folder, 'reserves-file-card.html');
    const { status } = await cli('card', join(root, 'examples/rules/reserves.mjs'), '--out', out);
    expect(status).toBe(0);
    const card = readFileSync(out, 'utf8');
    expect(card).toContain('<h1>Genesys reserves (rule file)</h1>');
    expect(card).not.toContain('reserves-arrival-by-chosen-round');
  });
});

describe('every hint names a rule file by its path', () => {
  it('describe and the card footer say muster matrix/card with the path (quoted), never the id', async () => {
    const file = rollOff('a bag.mjs', MATRIX);
    const quoted = `'${file}'`;
    const described = await cli('describe', file);
    expect(described.status).toBe(0);
    expect(described.stdout).toContain(`muster matrix ${quoted} tabulates`);
    expect(described.stdout).toContain(`muster run ${quoted} --exact`);
    expect(described.stdout).not.toMatch(/muster [a-z]+ order-bag/);
    const out = join(folder, 'a bag card.html');
    expect((await cli('card', file, '--out', out)).status).toBe(0);
    const footer = /<footer class="card-footer">([^<]*)<\/footer>/.exec(readFileSync(out, 'utf8'))![1];
    expect(footer).toContain(`muster card ${quoted.replaceAll("'", '&#39;')}`);
    expect(footer).not.toMatch(/muster [a-z]+ order-bag/);
  });

  it("run's warning that simulation and exact() disagree names the file to check, quoted, by its path", async () => {
    // exact() claims A wins a third of the time; the dice give a half, far beyond 5 standard errors at 20,000 trials.
    const file = rollOff('wrong exact.mjs');
    writeFileSync(file, readFileSync(file, 'utf8').replace("'a.wins': of(wins)", "'a.wins': '1/3'"));
    const { status, stderr } = await cli('run', file, '--trials', '20000', '--quiet');
    expect(status).toBe(0);
    expect(stderr).toContain(`; muster check '${file}' compares them point by point`);
  });
});
