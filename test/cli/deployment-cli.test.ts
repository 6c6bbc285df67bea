import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('deployment-cli');

/**
 * Runs the CLI expecting bad input: exit status 2, nothing on stdout, no JSON file, one stderr line naming the
 * parameter.
 */
async function expectRejected(argv: string[], parameter: string, why: RegExp): Promise<void> {
  const file = join(folder, 'never.json');
  const io = bufferIo();
  expect(await main([...argv, '--json', file], io)).toBe(2);
  expect(io.stdout()).toBe('');
  expect(existsSync(file)).toBe(false);
  const lines = io
    .stderr()
    .split('\n')
    .filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0].startsWith(`muster: ${parameter}: got `)).toBe(true);
  expect(lines[0]).toMatch(why);
  expect(lines[0]).toContain('allowed: ');
}

describe('deployment rejects strategies the rule does not allow', () => {
  const cases: [setting: string, why: RegExp][] = [
    ['a=standard:4,5,6', /none of its zones on the long board edge/], // 6.1: two zones on the long board edge
    ['a=standard:1,4,5', /only one of its zones on the long board edge/],
    ['a=standard:1,1,2', /zone 1 given twice/], // three zones, so three different ones
    ['b=forward:9', /zone 9 is not one of 1–6/], // 6.2: "select one deployment zone 1-6"
    ['b=forward:0', /zone 0 is not one of 1–6/],
    ['a=standard:1,2,7', /zone 7 is not one of 1–6/],
    ['a=sideways:2', /not standard:… or forward:…/],
    ['a=standard:1,2', /exactly three zones/],
    ['a=standard:1,2,3,4', /exactly three zones/],
    ['b=forward:1,2', /exactly one zone/],
    ['b=forward:', /"" is not a number/],
    ['a=standard:1,two,3', /"two" is not a number/],
    ['a=forward:-1', /"-1" is not a number/],
    ['a=', /not standard:… or forward:…/],
    ['a=forward 1', /not standard:… or forward:…/],
  ];
  for (const [setting, why] of cases) {
    it(`--set ${setting}: exit 2 and one line naming ${setting.split('=')[0]}`, async () => {
      await expectRejected(['run', 'deployment', '--exact', '--set', setting], setting.split('=')[0], why);
    });
  }

  it('--set compare=die: exit 2 and one line naming compare', async () => {
    await expectRejected(['run', 'deployment', '--exact', '--set', 'compare=die'], 'compare', /one of raw, modified/);
  });

  it('the same strategy checks guard a simulation and the matrix --range', async () => {
    await expectRejected(
      ['run', 'deployment', '--trials', '1000', '--threads', '1', '--set', 'a=standard:4,5,6'],
      'a',
      /long board edge/,
    );
    await expectRejected(
      ['matrix', 'deployment', '--range', 'forward:1 sideways:2'],
      '--range',
      /"sideways:2" \(not standard:… or forward:…\)/,
    );
    await expectRejected(['matrix', 'deployment', '--range', ' ; '], '--range', /no strategies/);
  });
});
