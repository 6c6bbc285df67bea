/**
 * --metric globs. The oracle is the definition itself, written as a memoised
 * recursion over (pattern position, name position): `*` matches the empty
 * string or one more character, `?` exactly one, anything else itself. The
 * matcher under test replaced a regular expression whose backtracking made
 * `********************z` hang a run for minutes (deaf to Ctrl-C, whose handler
 * is JavaScript) and a 100,000-character glob an internal error.
 */
import { describe, expect, it } from 'vitest';
import { globMatches } from '../../src/analysis/metrics.js';
import { cli } from '../support/cli.js';

function oracle(pattern: string, name: string): boolean {
  const memo = new Map<number, boolean>();
  const match = (p: number, n: number): boolean => {
    const key = p * (name.length + 1) + n;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (p === pattern.length) result = n === name.length;
    else if (pattern[p] === '*') result = match(p + 1, n) || (n < name.length && match(p, n + 1));
    else result = n < name.length && (pattern[p] === '?' || pattern[p] === name[n]) && match(p + 1, n + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

/** A 32-bit LCG (Numerical Recipes constants), for fixed-seed cases without Math.random. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('globMatches', () => {
  it('hand-worked cases', () => {
    expect(globMatches('a.*', 'a.wins')).toBe(true);
    expect(globMatches('*.wins', 'a.wins')).toBe(true);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('', '')).toBe(true);
    expect(globMatches('?', '')).toBe(false);
    expect(globMatches('a*b*c', 'axxbyyc')).toBe(true);
    expect(globMatches('a*b*c', 'axxbyyb')).toBe(false);
    // Regular-expression characters are literal.
    expect(globMatches('a.(b)+', 'a.(b)+')).toBe(true);
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(globMatches('squad.round.?', 'squad.round.10')).toBe(false);
  });

  it('agrees with the recursive definition on 20,000 random cases (seed 22)', () => {
    const random = lcg(22);
    const pick = (alphabet: string, length: number) =>
      Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    let matched = 0;
    for (let index = 0; index < 20_000; index++) {
      const name = pick('ab.', Math.floor(random() * 9));
      const pattern = pick('ab.*?', Math.floor(random() * 8));
      const expected = oracle(pattern, name);
      if (globMatches(pattern, name) !== expected)
        expect({ pattern, name, matches: globMatches(pattern, name) }).toEqual({ pattern, name, matches: expected });
      if (expected) matched++;
    }
    // Both answers occur often enough for the agreement to mean something.
    expect(matched).toBeGreaterThan(1_000);
    expect(matched).toBeLessThan(19_000);
  });

  it('many stars and no match, and a 100,000-character glob, take time linear in the glob', () => {
    const name = 'a'.repeat(100);
    const started = performance.now();
    expect(globMatches(`${'a*'.repeat(50)}b`, name)).toBe(false);
    expect(globMatches(`${'*'.repeat(100_000)}b`, name)).toBe(false);
    expect(globMatches(`${'*a'.repeat(50_000)}`, name)).toBe(false);
    expect(globMatches(`${'*'.repeat(100_000)}a`, name)).toBe(true);
    // Backtracking took minutes on the first of these; the linear match takes well under a millisecond each.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('muster … --metric with a hostile glob', () => {
  it('twenty stars and no match: one line, exit 2, at once', async () => {
    const { status, stdout, stderr } = await cli('run', 'reserves', '--exact', '--metric', '********************z');
    expect({ status, stdout }).toEqual({ status: 2, stdout: '' });
    expect(stderr).toMatch(/^muster: --metric: got "\*{20}z"; allowed: one of the \d+ metrics/);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a 100,000-character glob with escapes: one line, exit 2, its length named rather than its text', async () => {
    const glob = `\u001b]52;c;aGk=\u0007${'*'.repeat(100_000)}`;
    const { status, stderr } = await cli('run', 'infinity', '--exact', '--metric', glob);
    expect(status).toBe(2);
    expect(stderr).toBe(
      `muster: --metric: got a pattern of ${glob.length} characters that matches no metric; allowed: one of ` +
        `a.wins, b.wins, a.crit, b.crit, rolls.mean, rolls.1, or a glob such as a.*\n`,
    );
  });

  it('a glob of many stars that matches still selects', async () => {
    const { status, stdout } = await cli('run', 'infinity', '--exact', '--metric', `${'*'.repeat(1_000)}.wins`);
    expect(status).toBe(0);
    expect(stdout).toMatch(/a\.wins[\s\S]*b\.wins/);
    expect(stdout).not.toContain('a.crit');
  });
});
