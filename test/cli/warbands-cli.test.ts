/**
 * warbands input handling: every malformed or impossible `warbands` /
 * `allies` / `defender` value is one line on stderr naming the parameter and
 * exit status 2, with nothing written; well-formed values are canonicalised.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { getRule } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { scratchFolder } from '../support/cli.js';

const scratch = scratchFolder('warbands');

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const status = await main(argv, {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    errIsTTY: false,
  });
  return { status, out, err };
}

const nine = Array.from({ length: 9 }, () => '100:5').join(',');

describe('warbands: bad input is refused with one line naming the parameter', () => {
  const cases: [what: string, sets: string[], parameter: string][] = [
    ['not a list of rating:models', ['warbands=abc'], 'warbands'],
    ['only one warband', ['warbands=150:10'], 'warbands'],
    ['nine warbands', [`warbands=${nine}`], 'warbands'],
    ['an empty entry', ['warbands=150:10,,140:9'], 'warbands'],
    ['a trailing comma', ['warbands=150:10,140:9,'], 'warbands'],
    ['a fractional rating', ['warbands=150.5:10,140:9'], 'warbands'],
    ['a negative rating', ['warbands=-5:10,140:9'], 'warbands'],
    ['a rating in exponent notation', ['warbands=1e3:10,140:9'], 'warbands'],
    ['a rating above 10000', ['warbands=10001:10,140:9'], 'warbands'],
    ['no models', ['warbands=150:0,140:9'], 'warbands'],
    ['more than 200 models', ['warbands=150:201,140:9'], 'warbands'],
    ['a missing model count', ['warbands=150:,140:9'], 'warbands'],
    ['a third field', ['warbands=150:10:2,140:9'], 'warbands'],
    ['an ally index beyond the warbands', ['warbands=150:10,140:9,120:8', 'allies=2+4'], 'allies'],
    ['an ally index of zero', ['allies=0+1'], 'allies'],
    ['a warband in two alliances', ['warbands=150:10,140:9,120:8,100:7', 'allies=1+2,2+3'], 'allies'],
    ['an alliance of one', ['allies=2'], 'allies'],
    ['a warband allied with itself', ['allies=2+2'], 'allies'],
    ['a non-numeric ally', ['allies=a+b'], 'allies'],
    ['a dangling +', ['allies=1+'], 'allies'],
    ['every warband in one alliance', ['warbands=150:10,140:9,120:8', 'allies=1+2+3'], 'allies'],
    ['a defender flag that is not a boolean', ['defender=maybe'], 'defender'],
  ];
  for (const [what, sets, parameter] of cases) {
    it(`${what}: ${sets.join(' ')}`, async () => {
      const json = join(scratch, 'result.json');
      const { status, out, err } = await run([
        'run',
        'warbands',
        ...sets.flatMap((s) => ['--set', s]),
        '--exact',
        '--json',
        json,
      ]);
      expect(status).toBe(2);
      expect(out).toBe('');
      expect(err.endsWith('\n')).toBe(true);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
      expect(err.startsWith(`muster: ${parameter}: `)).toBe(true);
      expect(existsSync(json)).toBe(false);
    });
  }
});

describe('warbands: well-formed input', () => {
  it('spacing, leading zeros and alliance order are canonicalised', () => {
    const params = resolveParams(getRule('warbands'), ['warbands= 150:10 , 007:3,120:08 ', 'allies=3 + 1']);
    expect(params.warbands).toBe('150:10,7:3,120:8');
    expect(params.allies).toBe('1+3');
  });

  it('the defaults solve exactly with exit status 0', async () => {
    const { status, out } = await run(['run', 'warbands', '--exact', '--all']);
    expect(status).toBe(0);
    expect(out).toContain('w1.defender');
    expect(out).toContain('dice.defender.mean');
  });
});
