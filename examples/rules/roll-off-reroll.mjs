// roll-off-reroll.mjs — a roll-off for the first turn where player A holds one re-roll token.
//
// Each player rolls a die; A adds a bonus. Highest wins. Before the result stands, A (who sees both
// dice) may spend the token once in the game to roll their own die again, and must keep the new roll.
// On a tie both roll again (the token stays spent if it was used), or, by a common variant, the
// defender B wins ties. The question a designer asks: how much is a re-roll token worth, against
// a +1 bonus? (muster compare ./roll-off-reroll.mjs --variant "token: token=true" --variant "+1: token=false,bonusA=1")
//
// exact() solves the two states (token in hand, token spent) as an absorbing Markov chain;
// test/rules/examples-rules.test.ts checks it against brute force over the dice and the simulation within 5σ.

/** Counts over one round, by enumerating the dice: a round from "token in hand" and from "token spent". */
function roundCounts(p) {
  const s = p.sides;
  const spent = { win: 0n, lose: 0n, tie: 0n, all: BigInt(s * s) };
  // From "in hand", every round is counted over s³ equally likely (a, b, a') triples, a' used only after a re-roll.
  const held = { win: 0n, lose: 0n, tieKeep: 0n, tieSpent: 0n, used: 0n, all: BigInt(s * s * s) };
  for (let a = 1; a <= s; a++) {
    for (let b = 1; b <= s; b++) {
      const first = a + p.bonusA;
      if (first > b) spent.win++;
      else if (first < b) spent.lose++;
      else spent.tie++;
      for (let again = 1; again <= s; again++) {
        const reroll = wantsReroll(p, first, b);
        const total = reroll ? again + p.bonusA : first;
        if (reroll) held.used++;
        if (total > b) held.win++;
        else if (total < b) held.lose++;
        else if (reroll) held.tieSpent++;
        else held.tieKeep++;
      }
    }
  }
  return { spent, held };
}

/** A spends the token when behind (or, by policy, also when tied). */
const wantsReroll = (p, totalA, b) => totalA < b || (p.policy === 'behind-or-tied' && totalA === b);

// Fractions as [numerator, denominator] BigInt pairs.
const gcd = (a, b) => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
const frac = (n, d) => {
  const g = gcd(n, d) || 1n;
  return [n / g, d / g];
};
const add = (x, y) => frac(x[0] * y[1] + y[0] * x[1], x[1] * y[1]);
const mul = (x, y) => frac(x[0] * y[0], x[1] * y[1]);
const div = (x, y) => frac(x[0] * y[1], x[1] * y[0]);
const oneMinus = (x) => frac(x[1] - x[0], x[1]);
const text = (x) => `${x[0]}/${x[1]}`;

export default {
  id: 'roll-off-reroll',
  title: 'Roll-off with a re-roll token',
  summary: 'a first-turn roll-off where player A may spend one re-roll token, against a flat bonus',
  source: 'worked example for muster rule files (a common house rule)',
  params: [
    { name: 'sides', type: 'integer', default: 6, min: 2, max: 20, doc: 'sides of the die each player rolls' },
    { name: 'bonusA', type: 'integer', default: 0, min: -5, max: 5, doc: "added to A's roll" },
    { name: 'token', type: 'boolean', default: true, doc: 'A holds one re-roll token' },
    {
      name: 'policy',
      type: 'choice',
      default: 'behind',
      choices: ['behind', 'behind-or-tied'],
      doc: 'when A spends the token: only when behind, or also on a tie',
    },
    {
      name: 'ties',
      type: 'choice',
      default: 'roll-again',
      choices: ['roll-again', 'defender-wins'],
      doc: 'a tie: both roll again, or B (the defender) wins',
    },
  ],
  metrics: [
    { name: 'a.wins', doc: 'A wins the roll-off', label: 'A wins', probability: true },
    { name: 'token.used', doc: 'A spends the token', probability: true },
    { name: 'rolls.mean', doc: 'expected rounds of rolling until the roll-off is decided', probability: false },
  ],
  headline: ['a.wins'],

  trial(dice, p, out) {
    let held = p.token;
    for (let round = 1; ; round++) {
      let a = dice.d(p.sides) + p.bonusA;
      const b = dice.d(p.sides);
      if (held && wantsReroll(p, a, b)) {
        held = false;
        out['token.used'] = 1;
        a = dice.d(p.sides) + p.bonusA;
      }
      if (a !== b || p.ties === 'defender-wins') {
        out['a.wins'] = a > b;
        out['rolls.mean'] = round;
        return;
      }
    }
  },

  exact(p) {
    const { spent, held } = roundCounts(p);
    const of = (n, all) => frac(n, all);
    // Token spent (or never held): a round is decided with chance 1 − tie; A wins w/(w + l) of decided rounds.
    const tieN = p.ties === 'roll-again' ? of(spent.tie, spent.all) : [0n, 1n];
    const winN = p.ties === 'roll-again' ? frac(spent.win, spent.win + spent.lose) : of(spent.win, spent.all);
    const roundsN = div([1n, 1n], oneMinus(tieN));
    if (!p.token) return { 'a.wins': text(winN), 'token.used': '0', 'rolls.mean': text(roundsN) };
    // Token in hand: a tie without a re-roll returns here, a tie after one goes to "spent".
    const again = p.ties === 'roll-again';
    const tieKeep = again ? of(held.tieKeep, held.all) : [0n, 1n];
    const tieSpent = again ? of(held.tieSpent, held.all) : [0n, 1n];
    const stay = oneMinus(tieKeep);
    const win = div(add(of(held.win, held.all), mul(tieSpent, winN)), stay);
    const used = div(of(held.used, held.all), stay);
    const rounds = div(add([1n, 1n], mul(tieSpent, roundsN)), stay);
    return { 'a.wins': text(win), 'token.used': text(used), 'rolls.mean': text(rounds) };
  },
};
