import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('reports-cli');

describe('muster run --html --svg --csv', () => {
  it('seed "reports": writes the HTML report, one SVG per chart and the metrics CSV', async () => {
    const html = join(folder, 'run.html');
    const svg = join(folder, 'svg');
    const csv = join(folder, 'run.csv');
    const { status, stderr } = await cli(
      'run',
      'reserves',
      '--set',
      'chosenRound=2',
      '--trials',
      '1e5',
      '--seed',
      'reports',
      '--threads',
      '1',
      '--html',
      html,
      '--svg',
      svg,
      '--csv',
      csv,
    );
    expect(status).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/);
    expect(readdirSync(svg).sort()).toEqual([
      'reserves-arrival-by-round.svg',
      // Each distribution metric's panels (its bars, at least, at most) in one SVG.
      'reserves-distribution-arrived.by.1.mean.svg',
      'reserves-distribution-arrived.by.2.mean.svg',
      'reserves-distribution-arrived.by.3.mean.svg',
      'reserves-distribution-arrived.by.4.mean.svg',
      'reserves-distribution-last.arrival.svg',
      'reserves-exact-check.svg',
      'reserves-on-table-by-round.svg',
    ]);
    for (const file of readdirSync(svg))
      expect(readFileSync(join(svg, file), 'utf8')).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*role-mark/);
    expect(readFileSync(csv, 'utf8')).toMatch(
      /^metric,kind,estimate,lo,hi,exact,confidence,meaning,value,at_least,at_least_exact,at_most,at_most_exact\r\nsquad\.round\.1,probability,/,
    );
    expect(stderr).toContain(`wrote ${html}`);
  });

  it('run --exact --html: a report of exact values alone', async () => {
    const html = join(folder, 'exact.html');
    const { status } = await cli('run', 'infinity', '--exact', '--html', html);
    expect(status).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('exact values, computed in rational arithmetic (no simulation)');
  });

  const bad: Array<[string, string[], RegExp]> = [
    [
      '--html in a missing folder',
      ['--html', join(folder, 'missing', 'r.html')],
      /^muster: --html: folder .*missing does not exist/,
    ],
    [
      '--csv naming a folder',
      ['--csv', folder],
      /^muster: --csv: .* is not a regular file \(a folder\); allowed: a new or existing regular file/,
    ],
    [
      '--svg naming a file',
      ['--svg', join(folder, 'plain-file')],
      /^muster: --svg: .*plain-file is a file; allowed: a folder/,
    ],
    [
      '--svg inside a missing folder',
      ['--svg', join(folder, 'missing', 'svg')],
      /^muster: --svg: folder .*missing does not exist/,
    ],
  ];
  for (const [what, argv, message] of bad) {
    it(`${what}: exit 2 before any work, one line, and not even the --json file is written`, async () => {
      writeFileSync(join(folder, 'plain-file'), 'x');
      const json = join(folder, `${what.replace(/\W+/g, '-')}.json`);
      const { status, stderr, stdout } = await cli('run', 'reserves', '--trials', '1e5', '--json', json, ...argv);
      expect(status).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stdout).toBe('');
      expect(existsSync(json)).toBe(false);
    });
  }
});
