import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planCard } from '../../reports/card/layout.js';
import { evaluateBook } from '../../src/analysis/book.js';
import { bookCommand } from '../../src/cli/commands/book.js';
import { main } from '../../src/cli.js';
import { rules } from '../../src/rules/index.js';
import { scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('book');

/**
 * The headline chart each rule's card must carry: the odds charts players print most (issues 6 and 13). A rule added
 * later pins its own in its tests; here its card must carry some chart.
 */
const CARD_CHART: ReadonlyMap<string, string> = new Map(
  Object.entries({
    reserves: 'reserves-arrival-by-chosen-round',
    deployment: 'deployment-strategy-matrix',
    infinity: 'infinity-wip-matrix',
    fow: 'fow-platoons-on-table',
    warbands: 'warbands-who',
    noctvale: 'noctvale-initiative',
  }),
);

describe('muster book: the report book', () => {
  it('writes a contents page linking one self-contained page and one card per rule, and says where', async () => {
    const out = join(folder, 'book');
    const io = bufferIo();
    const index = await bookCommand({ out, trials: '100000', threads: '1' }, io);
    expect(index).toBe(join(out, 'index.html'));
    expect(io.stdout()).toMatch(
      new RegExp(
        `^wrote the report book: ${join(out, 'index.html').replaceAll('/', '\\/')} \\(${rules.length} rule pages`,
      ),
    );
    expect(io.stderr()).toMatch(/^book \[1\/\d\] reserves: simulating 100,000 trials at the defaults$/m);
    const contents = readFileSync(index, 'utf8');
    // The calculator comes with the book, linked from the contents.
    expect(contents).toContain('href="app.html"');
    expect(readFileSync(join(out, 'app.html'), 'utf8')).toContain('<title>muster calculator</title>');
    for (const rule of rules) {
      expect(contents, rule.id).toContain(`href="${rule.id}.html"`);
      const page = readFileSync(join(out, `${rule.id}.html`), 'utf8');
      expect(page, rule.id).toContain('<script>!function'); // vega inlined, not fetched
      expect(page, rule.id).not.toMatch(/<script[^>]+src=/);
      expect(page, rule.id).toContain('href="index.html"');
      expect(contents, rule.id).toContain(`href="card-${rule.id}.html"`);
      expect(page, rule.id).toContain(`href="card-${rule.id}.html"`);
      const card = readFileSync(join(out, `card-${rule.id}.html`), 'utf8');
      expect(card, rule.id).toContain('<script>!function');
      expect(card, rule.id).toContain(`"id":"${CARD_CHART.get(rule.id) ?? ''}`);
    }
  });

  it('--out naming a file: exit 2, one line, nothing written', async () => {
    const file = join(folder, 'a-file');
    writeFileSync(file, 'keep me');
    const io = bufferIo();
    const status = await main(['book', '--out', file], io);
    expect(status).toBe(2);
    expect(io.stderr()).toMatch(/^muster: --out: .*a-file is a file; allowed: a folder/);
    expect(readFileSync(file, 'utf8')).toBe('keep me');
  });

  it('--out in a folder that does not exist: exit 2', async () => {
    const io = bufferIo();
    const status = await main(['book', '--out', join(folder, 'missing', 'book')], io);
    expect(status).toBe(2);
    expect(io.stderr()).toMatch(/^muster: --out: folder .*missing does not exist/);
    expect(existsSync(join(folder, 'missing'))).toBe(false);
  });

  it(
    'counts the trials it simulates, not steps: every rule at its defaults, and the cards that must be ' + 'simulated',
    async () => {
      const seen: Array<[number, number]> = [];
      // Every built-in rule has an exact card, so the book simulates exactly one run of --trials a rule.
      expect(rules.every((rule) => rule.exact !== undefined)).toBe(true);
      await evaluateBook(
        rules,
        {
          seed: 'book',
          stream: 2,
          confidence: 0.95,
          threads: 1,
          trials: 70_000,
          printableTrials: 1000,
          onTrials: (done, total) => seen.push([done, total]),
        },
        planCard,
      );
      const total = rules.length * 70_000;
      expect(seen.every(([, t]) => t === total)).toBe(true);
      expect(seen.map(([done]) => done)).toEqual([...seen.map(([done]) => done)].sort((a, b) => a - b)); // never goes back
      expect(seen.at(-1)).toEqual([total, total]);
    },
  );
});
