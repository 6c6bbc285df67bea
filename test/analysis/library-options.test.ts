/**
 * The library's calls refuse what they cannot use, and what they hand out
 * cannot change what they compute later.
 *
 * Options: a rule reference that is a number, null or an object the library
 * did not make; a `signal` that is not an AbortSignal; an `onProgress` that
 * is not a function threw TypeError, or worse ran; an unknown option
 * (`{ sed: 'x' }`, `{ trails: 100 }`) or `trials: null` was silently
 * ignored (a run of the default million). Each is now a UsageError naming
 * the option, and a misspelling the nearest allowed name.
 *
 * Rules handed out: a rule from loadRule() (a built-in, or a rule file) was
 * the object every later call in the process used, so one caller could wrap
 * its solver (207/352 printed for 145/352) or widen a parameter's `max`
 * (bonusA=50 let through). Every object reachable from it is now frozen:
 * the test tries every assignment, deletion and definition it can reach,
 * then checks the exact values against a brute force written here from the
 * rule text, and that bonusA=50 is still refused.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Rule } from '../../src/contract/types.js';
import * as browser from '../../src/library/browser.js';
import { compare, exact, loadRule, run, sweep, UsageError } from '../../src/library/node.js';
import { scratchFolder } from '../support/cli.js';

const folder = scratchFolder('library-options');

async function expectUsage(call: () => Promise<unknown> | unknown, message: RegExp): Promise<void> {
  let thrown: unknown;
  try {
    await call();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, String(thrown)).toBeInstanceOf(UsageError);
  expect((thrown as Error).message).toMatch(message);
  expect((thrown as Error).message).not.toContain('\n');
}

describe('a call refuses a rule reference the library did not make', () => {
  it('a number, null, undefined, a plain object, a copy of a loaded rule: one UsageError naming rule', async () => {
    const loaded = await loadRule('rolloff');
    const notRules: unknown[] = [5, null, undefined, {}, { id: 'rolloff' }, { ...loaded }, [loaded], () => loaded];
    for (const bad of notRules) {
      const asRule = bad as Rule;
      await expectUsage(() => exact(asRule), /^rule: got /);
      await expectUsage(() => run(asRule, { trials: 1000, threads: 1 }), /^rule: got /);
      await expectUsage(() => sweep(asRule, { vary: { bonusA: [0, 1] }, exact: true }), /^rule: got /);
      await expectUsage(() => compare(asRule, { variants: ['a: bonusA=0', 'b: bonusA=1'] }), /^rule: got /);
    }
    for (const bad of [5, null, undefined, {}]) await expectUsage(() => loadRule(bad as string), /^rule: got /);
    await expectUsage(() => loadRule(5 as unknown as string), /^rule: got a number; allowed: /);
  });

  it('the browser entry: a number or null is refused as a rule, in one line', async () => {
    await expectUsage(() => browser.exact(5 as unknown as string), /default export: got 5/);
    await expectUsage(() => browser.run(null as unknown as string, { trials: 10 }), /default export: got null/);
    await expectUsage(() => browser.getRule(7 as unknown as string), /^rule: got a number; allowed: /);
  });
});

describe('options: unknown names, null, a signal or onProgress of the wrong kind', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'a misspelt seed',
      { sed: 'x' },
      /^sed: not an option of run\(\) \(did you mean [^)]*"seed"[^)]*\); allowed: set, /,
    ],
    ['a misspelt trials', { trails: 100 }, /^trails: not an option of run\(\) \(did you mean "trials"\?\)/],
    ['an unknown option', { colour: 'red' }, /^colour: not an option of run\(\); allowed: /],
    ['trials: null', { trials: null }, /^trials: got null; allowed: a whole number from 1 to /],
    ['seed: null', { seed: null }, /^seed: got null; allowed: text, or leave it out/],
    ['a string as signal', { signal: 'abort' }, /^signal: got a string; allowed: an AbortSignal/],
    ['a look-alike signal', { signal: { aborted: false } }, /^signal: got an object; allowed: an AbortSignal/],
    ['a number as onProgress', { onProgress: 5 }, /^onProgress: got a number; allowed: a function/],
    ['an object as onProgress', { onProgress: {} }, /^onProgress: got an object; allowed: a function/],
  ];
  for (const [name, options, message] of cases) {
    it(`run: ${name}`, async () => {
      await expectUsage(() => run('rolloff', { threads: 1, ...options }), message);
      // The browser entry checks alike (it has no pool or threads).
      await expectUsage(() => browser.run('rolloff', options), message);
    });
  }

  it('exact: only set; sweep and compare: their own names, with the nearest one named', async () => {
    await expectUsage(
      () => exact('rolloff', { sed: 'x' } as never),
      /^sed: not an option of exact\(\) \(did you mean "set"\?\); allowed: set$/,
    );
    await expectUsage(
      () => exact('rolloff', { trials: 10 } as never),
      /^trials: not an option of exact\(\); allowed: set$/,
    );
    await expectUsage(() => browser.exact('rolloff', { set: null } as never), /^set: got null/);
    await expectUsage(
      () => sweep('rolloff', { vary: { bonusA: [0, 1] }, exact: true, bets: 'a.wins' } as never),
      /^bets: not an option of sweep\(\) \(did you mean "best"\?\)/,
    );
    await expectUsage(
      () => sweep('rolloff', { vary: { bonusA: [0, 1] }, exact: 'yes' } as never),
      /^exact: got a string/,
    );
    await expectUsage(() => sweep('rolloff', { vary: null } as never), /^vary: got null/);
    await expectUsage(
      () => compare('rolloff', { variants: ['a: bonusA=0', 'b: bonusA=1'], seedPerVarient: true } as never),
      /^seedPerVarient: not an option of compare\(\) \(did you mean "seedPerVariant"\?\)/,
    );
    await expectUsage(
      () => compare('rolloff', { variants: ['a: bonusA=0', 'b: bonusA=1'], signal: 1 } as never),
      /^signal: got a number/,
    );
    await expectUsage(() => run('rolloff', null as never), /^options: got null; allowed: an object of options/);
    await expectUsage(() => exact('rolloff', 'set' as never), /^options: got string; allowed: /);
  });

  it('a real AbortSignal and a function are taken', async () => {
    const result = await run('rolloff', {
      trials: 1000,
      threads: 1,
      signal: new AbortController().signal,
      onProgress: () => {},
    });
    expect(result.trials).toBe(1000);
  });
});

/**
 * The 2d6 roll-off from its text (Noctvale, Standard Battle Set-Up, step 3:
 * "each player rolls 2d6; the higher result has initiative. Reroll ties."),
 * player A adding `bonus`: the ties roll again, so P(A wins) is A's winning
 * rolls over the rolls that decide, counted over all 6^4 faces.
 */
function rolloffByHand(bonus: number): string {
  let aWins = 0;
  let decides = 0;
  for (let a1 = 1; a1 <= 6; a1++)
    for (let a2 = 1; a2 <= 6; a2++)
      for (let b1 = 1; b1 <= 6; b1++)
        for (let b2 = 1; b2 <= 6; b2++) {
          const [a, b] = [a1 + a2 + bonus, b1 + b2];
          if (a !== b) decides++;
          if (a > b) aWins++;
        }
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  const divisor = gcd(aWins, decides);
  return `${aWins / divisor}/${decides / divisor}`;
}

/**
 * Tries every change a caller can make to everything reachable from `root`:
 * assigning each own property (a function wrapped, a number widened, an
 * object swapped), deleting it, defining a new one, pushing onto an array,
 * changing a prototype. Returns how many were tried; each must throw.
 */
function tryEveryChange(root: object): number {
  const seen = new Set<object>();
  const pending: object[] = [root];
  let tried = 0;
  const mustThrow = (change: () => unknown, what: string) => {
    tried++;
    expect(change, what).toThrow(TypeError);
  };
  while (pending.length > 0) {
    const object = pending.pop() as object;
    if (seen.has(object)) continue;
    seen.add(object);
    const target = object as Record<PropertyKey, unknown>;
    for (const key of Reflect.ownKeys(object)) {
      const value = target[key];
      const at = `${String(key)} of ${typeof object}`;
      const poison =
        typeof value === 'function'
          ? (...args: unknown[]) => (value as Function)(...args)
          : typeof value === 'number'
            ? value + 99
            : { poisoned: true };
      mustThrow(() => {
        target[key] = poison;
      }, `assign ${at}`);
      mustThrow(() => delete target[key], `delete ${at}`);
      if (value !== null && (typeof value === 'object' || typeof value === 'function')) pending.push(value as object);
    }
    mustThrow(() => {
      target.poisonedField = 1;
    }, 'add a field');
    mustThrow(() => Object.defineProperty(object, 'exact', { value: () => ({}) }), 'define exact');
    mustThrow(() => Object.setPrototypeOf(object, { poisoned: true }), 'change the prototype');
    if (Array.isArray(object)) mustThrow(() => object.push({ poisoned: true }), 'push');
  }
  return tried;
}

describe('what the library hands out cannot change what it computes later', () => {
  it('a built-in from loadRule: every change throws; exact values as by hand; bonusA=50 still refused', async () => {
    const rule = await loadRule('rolloff');
    expect(tryEveryChange(rule)).toBeGreaterThan(100);
    for (const bonus of [0, 1, -2]) {
      const byHand = rolloffByHand(bonus);
      // By the object, by a fresh load, and by id: each the value worked by hand.
      for (const ref of [rule, await loadRule('rolloff'), 'rolloff'])
        expect((await exact(ref, { set: { bonusA: bonus } })).metrics['a.wins'].fraction).toBe(byHand);
    }
    // The brute force itself: with no bonus the two players are alike, so each wins half.
    expect(rolloffByHand(0)).toBe('1/2');
    await expectUsage(() => exact(rule, { set: { bonusA: 50 } }), /bonusA/);
    await expectUsage(() => exact('rolloff', { set: { bonusA: 50 } }), /bonusA/);
    await expectUsage(() => run(rule, { set: { bonusA: 50 }, trials: 1000, threads: 1 }), /bonusA/);
  });

  it('a rule file from loadRule: every change throws; exact as by hand; n=50 still refused', async () => {
    const file = join(folder, 'two-dice.mjs');
    writeFileSync(
      file,
      [
        'export default {',
        "  id: 'two-dice', title: 'Two dice reach 8',",
        "  params: [{ name: 'n', type: 'integer', default: 8, min: 2, max: 12, doc: 'the target' }],",
        "  metrics: [{ name: 'reach', probability: true, doc: 'the two dice total n or more' }],",
        '  trial(dice, p, out) { out.reach = dice.d(6) + dice.d(6) >= p.n; },',
        "  presentation: { charts: [{ kind: 'every' }] },",
        '};',
        '',
      ].join('\n'),
    );
    const rule = await loadRule(file);
    expect(tryEveryChange(rule)).toBeGreaterThan(50);
    // By hand: of the 36 rolls of 2d6, 15 total 8 or more (5 + 4 + 3 + 2 + 1), 6 total 10 or more.
    expect((await exact(rule)).metrics.reach.fraction).toBe('5/12');
    expect((await exact(file, { set: { n: 10 } })).metrics.reach.fraction).toBe('1/6');
    await expectUsage(() => exact(rule, { set: { n: 50 } }), /\bn\b/);
    // The browser's rule from a default export is frozen alike.
    const spec = (await import(file)).default;
    const made = browser.ruleFile(spec, 'two-dice');
    expect(tryEveryChange(made)).toBeGreaterThan(50);
    expect((await browser.exact(made)).metrics.reach.fraction).toBe('5/12');
  });

  it('every built-in rule and its presentation are frozen through and through, with no typed array reachable', () => {
    for (const id of ['reserves', 'deployment', 'infinity', 'noctvale', 'warbands', 'fow', 'rolloff']) {
      const rule = browser.getRule(id);
      const pending: unknown[] = [rule];
      const seen = new Set<unknown>();
      while (pending.length > 0) {
        const item = pending.pop();
        if (item === null || (typeof item !== 'object' && typeof item !== 'function') || seen.has(item)) continue;
        seen.add(item);
        expect(ArrayBuffer.isView(item), id).toBe(false);
        expect(Object.isFrozen(item), id).toBe(true);
        for (const key of Reflect.ownKeys(item as object))
          pending.push(Object.getOwnPropertyDescriptor(item, key)?.value);
      }
    }
  });
});
