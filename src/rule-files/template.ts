/**
 * The starting files `muster new-rule NAME` writes: a rule file that runs as
 * written, every field commented, and its vitest test. The contract in full
 * is docs/custom-rules.md.
 */

export function ruleFileTemplate(id: string): string {
  return (
    `// ${id}.mjs — a muster rule file. It imports nothing from muster; muster imports it.
//
//   muster describe ./${id}.mjs      parameters and metrics
//   muster run ./${id}.mjs --exact   exact odds (from exact() below)
//   muster check ./${id}.mjs         exact() against its own dice, enumerated, and its simulation
//   muster run ./${id}.mjs --set dice=3 --html report.html
//   muster sweep ./${id}.mjs --vary target=4..12
//
// The example rule: an ambushing unit arrives when the total of some d6 reaches a target; with a
// command re-roll, every 1 may be rolled again once. Replace it with your rule; docs/custom-rules.md
// in the muster repository describes every field.

export default {
  // Letters, digits and '-'. The id also keys the random streams: keep it when you only change numbers.
  id: '${id}',
  title: 'Ambush: does the unit arrive?',
  summary: 'an ambushing unit arrives on a total of some d6, with an optional re-roll of 1s', // one line, for reports
  source: 'house rule, draft 1', // where the rule text comes from

  // What --set name=value changes. Types: integer and number {min, max}, boolean, choice {choices}.
  params: [
    { name: 'dice', type: 'integer', default: 2, min: 1, max: 6, doc: 'd6 rolled for the ambush' },
    { name: 'target', type: 'integer', default: 7, min: 1, max: 36, doc: 'the unit arrives when the total reaches ` +
    `this' },
    { name: 'rerollOnes', type: 'boolean', default: false, doc: 'a command re-roll: every 1 is rolled again, once' },
  ],

  // What a trial reports. probability: true — the trial writes 0/1 (or false/true), muster gives the
  // chance with a Wilson interval; probability: false — any finite number, muster gives its mean.
  // metrics may also be a function of the params (say, one metric per round).
  metrics: [
    { name: 'arrives', doc: 'the unit arrives', probability: true },
    { name: 'total.mean', doc: 'average total of the dice', probability: false },
  ],

  // One trial. dice.d(sides) is a whole number from 1 to sides, dice.random() uniform in [0, 1), both
  // from muster's seeded streams (never JavaScript's own unseeded random numbers: a seed must give the same numbers
  // everywhere).
  // Write each metric into out; a metric not written in a trial counts 0 for it.
  trial(dice, p, out) {
    let total = 0;
    for (let i = 0; i < p.dice; i++) {
      let face = dice.d(6);
      if (face === 1 && p.rerollOnes) face = dice.d(6);
      total += face;
    }
    out.arrives = total >= p.target;
    out['total.mean'] = total;
  },

  // Optional: every metric exactly, as a number or a fraction string 'n/d' (BigInts, any size).
  // Here by convolution: one die's faces (with the re-roll, a 1 stands only if rolled twice), then the
  // sum of p.dice of them, counted in whole numbers over a common denominator.
  exact(p) {
    const perDie = p.rerollOnes ? 36n : 6n; // ways one die can fall
    const face = [0n, ...Array.from({ length: 6 }, (_, i) => (p.rerollOnes ? (i === 0 ? 1n : 7n) : 1n))];
    let ways = [1n]; // ways[t]: ways to roll a total of t
    for (let i = 0; i < p.dice; i++) {
      const next = Array(ways.length + 6).fill(0n);
      ways.forEach((w, t) => face.forEach((f, k) => (next[t + k] += w * f)));
      ways = next;
    }
    const all = perDie ** BigInt(p.dice);
    let arrive = 0n;
    let totalSum = 0n;
    ways.forEach((w, t) => {
      if (t >= p.target) arrive += w;
      totalSum += w * BigInt(t);
    });
    return { arrives: \`\${arrive}/\${all}\`, 'total.mean': \`\${totalSum}/\${all}\` };
  },
};
`
  );
}

export function ruleTestTemplate(id: string): string {
  return (
    `// ${id}.test.mjs — tests for ${id}.mjs. Run: npx vitest run ${id}.test.mjs
//
// Two kinds of test every rule file deserves:
//   1. the trial, driven by dice you choose, against outcomes worked out by hand from the rule text;
//   2. exact() against brute force: the trial itself run on every way the dice can fall.
import { describe, expect, it } from 'vitest';
import rule from './${id}.mjs';

/** Dice that show the given faces in order, counting how many were read. */
function scriptedDice(faces) {
  let next = 0;
  return {
    d(sides) {
      if (next >= faces.length) throw new Error('the trial read more dice than scripted');
      const face = faces[next++];
      if (face < 1 || face > sides) throw new Error(\`face \${face} is not on a d\${sides}\`);
      return face;
    },
    random() {
      throw new Error('this rule reads no uniform numbers');
    },
    get read() {
      return next;
    },
  };
}

/** Parameters: the defaults, with some changed. */
const params = (changes = {}) => ({ ...Object.fromEntries(rule.params.map((p) => [p.name, p.default])), ...changes });

/** One trial on the given faces. */
function trialOn(faces, p) {
  const out = {};
  rule.trial(scriptedDice(faces), p, out);
  return out;
}

describe('${id}: the trial, on chosen dice', () => {
  it('2d6 showing 3 and 4 reach 7: the unit arrives', () => {
    expect(trialOn([3, 4], params({ dice: 2, target: 7 }))).toEqual({ arrives: true, 'total.mean': 7 });
  });
  it('a 1 is rolled again with the re-roll, and stands without it', () => {
    expect(trialOn([1, 6, 5], params({ dice: 2, target: 11, rerollOnes: true }))).toEqual({ arrives: true, ` +
    `'total.mean': 11 });
    expect(trialOn([1, 6], params({ dice: 2, target: 11, rerollOnes: false }))).toEqual({ arrives: false, ` +
    `'total.mean': 7 });
  });
});

/**
 * Every metric exactly, by brute force: the trial runs on every sequence of \`length\` d6 faces (each
 * with chance 6^-length; faces the trial does not read change nothing), and each metric is averaged.
 */
function bruteForce(p, length) {
  const sums = Object.create(null); // no prototype: a metric may be named 'constructor' or 'toString'
  const faces = Array(length).fill(1);
  let sequences = 0n;
  for (;;) {
    const out = trialOn(faces, p);
    for (const [name, value] of Object.entries(out)) sums[name] = (sums[name] ?? 0n) + BigInt(Number(value));
    sequences++;
    let i = 0;
    while (i < length && faces[i] === 6) faces[i++] = 1;
    if (i === length) break;
    faces[i]++;
  }
  return Object.fromEntries(Object.entries(sums).map(([name, sum]) => [name, reduce(sum, sequences)]));
}

const gcd = (a, b) => (b === 0n ? a : gcd(b, a % b));
const reduce = (n, d) => {
  const g = gcd(n < 0n ? -n : n, d) || 1n;
  return \`\${n / g}/\${d / g}\`;
};
const lowest = (text) => {
  const [n, d = '1'] = String(text).split('/');
  return reduce(BigInt(n), BigInt(d));
};

describe('${id}: exact() against brute force over the dice', () => {
  for (const changes of [{ dice: 1, target: 4 }, { dice: 2, target: 7 }, { dice: 2, target: 9, rerollOnes: true }, ` +
    `{ dice: 3, target: 12 }]) {
    it(\`at \${JSON.stringify(changes)}\`, () => {
      const p = params(changes);
      const length = p.dice * (p.rerollOnes ? 2 : 1); // the most dice one trial can read
      const expected = bruteForce(p, length);
      const exact = Object.fromEntries(Object.entries(rule.exact(p)).map(([name, value]) => [name, lowest(value)]));
      expect(exact).toEqual(expected);
    });
  }
});
`
  );
}
