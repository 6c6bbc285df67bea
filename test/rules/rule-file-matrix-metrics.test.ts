/**
 * A rule file's `matrix.metrics` naming a metric the rule does not have: one line naming the file and the name,
 * exit 2, nothing written, from every command that reads it. With a fixed list of metrics the file is refused as it
 * loads; with metrics(params) the name is checked where the matrix is planned (`matrix`, and `card`, whose matrix
 * card used to fail inside its layout with an internal error and a stack).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('matrix-metrics');

/** A lane guessing game (A through an open lane on 2+, a guarded one on 5+), its matrix naming `a.thru`. */
function lanes(name: string, metricsAsFunction: boolean): string {
  const list = `[
    { name: 'a.through', probability: true, doc: 'A gets through' },
    { name: 'roll.mean', probability: false, doc: 'the d6 rolled' },
  ]`;
  const path = join(folder, name);
  writeFileSync(
    path,
    `export default {
  id: 'lanes',
  title: 'Flank or centre',
  params: [
    { name: 'a', type: 'choice', choices: ['left', 'right'], default: 'left', doc: 'lane A takes' },
    { name: 'b', type: 'choice', choices: ['left', 'right'], default: 'left', doc: 'lane B guards' },
  ],
  metrics: ${metricsAsFunction ? `(p) => ${list}` : list},
  matrix: { row: 'a', col: 'b', metrics: ['a.thru'], values: ['left', 'right'] },
  trial(dice, p, out) {
    const r = dice.d(6);
    out['a.through'] = r >= (p.a === p.b ? 5 : 2);
    out['roll.mean'] = r;
  },
};
`,
  );
  return path;
}

async function expectOneLine(argv: string[], message: RegExp, written: string): Promise<void> {
  const { status, stdout, stderr } = await cli(...argv);
  expect(stderr).toMatch(message);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/internal error|\n\s+at /);
  expect(status).toBe(2);
  expect(stdout).toBe('');
  expect(existsSync(written)).toBe(false);
}

describe('matrix.metrics naming no metric of the rule', () => {
  it.each([['run'], ['describe'], ['matrix'], ['card']])(
    'a fixed list of metrics: %s refuses the file',
    async (command) => {
      const path = lanes(`fixed-${command}.mjs`, false);
      const out = join(folder, `fixed-${command}.html`);
      const argv =
        command === 'card'
          ? ['card', path, '--out', out]
          : [command, path, ...(command === 'run' ? ['--trials', '1000', '--html', out] : [])];
      await expectOneLine(
        argv,
        /^muster: \S*fixed-\w+\.mjs \(rule lanes\): matrix\.metrics: got "a\.thru", which is not a metric; allowed: a\.through, roll\.mean\n$/,
        out,
      );
    },
  );

  it.each([['matrix'], ['card']])('metrics(params): %s refuses the name where it plans the matrix', async (command) => {
    const path = lanes(`function-${command}.mjs`, true);
    const out = join(folder, `function-${command}.html`);
    await expectOneLine(
      command === 'card' ? ['card', path, '--out', out] : ['matrix', path, '--html', out],
      /^muster: \S*function-\w+\.mjs \(rule lanes\): matrix\.metrics: got "a\.thru", which is not a metric at these parameters; allowed: a\.through, roll\.mean\n$/,
      out,
    );
  });
});
