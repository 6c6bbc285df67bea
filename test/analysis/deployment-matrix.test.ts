import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { Fraction } from '../../src/exact/fraction.js';
import { deployment } from '../../src/rules/deployment/deployment.js';
import { DEPLOYMENT_STRATEGIES } from '../../src/rules/deployment/params.js';
import { resolveParams } from '../../src/rules/params.js';
import { bufferIo } from '../support/io.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('deployment strategy matrix', () => {
  it(
    'is antisymmetric: P(row has initiative against col) + P(col has initiative against row) = 1 exactly, for all ' +
      '16 × 16 pairs',
    () => {
      // 6.3 treats the players alike (lower total, else a fair roll-off), so
      // swapping the strategies swaps the chances; on the diagonal each is ½.
      for (const compare of ['raw', 'modified']) {
        const initiative = (a: string, b: string) =>
          deployment.exact!.values(resolveParams(deployment, [`a=${a}`, `b=${b}`, `compare=${compare}`]))[
            'a.initiative'
          ];
        for (const x of DEPLOYMENT_STRATEGIES) {
          for (const y of DEPLOYMENT_STRATEGIES) {
            const sum = initiative(x, y).add(initiative(y, x));
            expect(sum.equals(Fraction.ONE), `${x} vs ${y}, compare=${compare}: sum ${sum}`).toBe(true);
          }
        }
      }
    },
  );

  it(
    'muster matrix deployment --json writes the 16 × 16 tables of a.initiative, a.noEdge and a.aoc beside the ' +
      'base metrics',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'muster-deployment-'));
      folders.push(folder);
      const file = join(folder, 'matrix.json');
      const io = bufferIo();
      expect(await main(['matrix', 'deployment', '--json', file, '--quiet'], io)).toBe(0);
      const written = JSON.parse(readFileSync(file, 'utf8'));
      expect(written.matrix.row).toBe('a');
      expect(written.matrix.col).toBe('b');
      expect(written.matrix.rows).toEqual([...DEPLOYMENT_STRATEGIES]);
      expect(written.matrix.cols).toEqual([...DEPLOYMENT_STRATEGIES]);
      expect(written.matrix.tables.map((table: { metric: string }) => table.metric)).toEqual([
        'a.initiative',
        'a.noEdge',
        'a.aoc',
      ]);
      // Row forward:1, column standard:1,2,3 is the default question: 11/72 (see deployment-exact.test.ts).
      const row = DEPLOYMENT_STRATEGIES.indexOf('forward:1');
      const col = DEPLOYMENT_STRATEGIES.indexOf('standard:1,2,3');
      expect(written.matrix.tables[0].values[row][col]).toBe(Fraction.of(11, 72).toNumber());
      expect(written.metrics['a.initiative'].exact).toBe(Fraction.of(11, 72).toNumber());
      expect(io.stdout()).toContain('a.initiative (%), rows a, columns b');
    },
  );

  it('--range picks strategies, canonical and without repeats, or a whole family', async () => {
    const io = bufferIo();
    expect(await main(['matrix', 'deployment', '--range', 'forward:1; standard:3,2,1 forward:1', '--quiet'], io)).toBe(
      0,
    );
    // Each of the three tables: a header naming both strategies by their short labels (F1, S123), then two rows.
    const tableRows = io
      .stdout()
      .split('\n')
      .filter((line) => /^(F1|S123) /.test(line));
    expect(tableRows).toHaveLength(6);
    expect(io.stdout()).toMatch(/^a \\ b\s+F1\s+S123$/m);
    expect(deployment.presentation!.matrix!.parseRange!('forward:1; standard:3,2,1 forward:1')).toEqual([
      'forward:1',
      'standard:1,2,3',
    ]);
    expect(deployment.presentation!.matrix!.parseRange!('forward')).toEqual(
      DEPLOYMENT_STRATEGIES.filter((s) => s.startsWith('forward:')),
    );
    expect(deployment.presentation!.matrix!.parseRange!('standard forward')).toEqual([...DEPLOYMENT_STRATEGIES]);
    expect(deployment.presentation!.matrix!.parseRange!('all')).toEqual([...DEPLOYMENT_STRATEGIES]);
  });
});
