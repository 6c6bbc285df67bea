// reserves.mjs — the Genesys Project reserves rule (designer preview, §6.5), written as a muster rule file.
//
//   "Reserves are brought in on a die roll with a target number of 7+ … roll 1d6 for each unit and add
//    the Game Round to this number." A chosen reserve round adds the highest command on the table to every
//    reserve roll that round; a squad not in after four rounds does not make the battle.
//
// It is muster's built-in `reserves` rule ported to the rule-file contract (docs/custom-rules.md), with the
// same id, parameters, metric names and dice in the same order, so `muster run examples/rules/reserves.mjs`
// and `muster run reserves` give the same numbers for a seed, metric for metric (the built-in also reports atLeast.k.by.r, left out here) (test/examples-rules.test.ts checks it, and
// `npm run bench` compares their speed). Imports nothing from muster.

/** Faces 1–6 (7: none) that bring a squad in, round by round (index r for round r), with `bonus` in the chosen round. */
function facesNeeded(p, bonus) {
  const needed = [0];
  for (let round = 1; round <= p.rounds; round++) {
    const modifier = round + (round === p.chosenRound ? bonus : 0);
    // Before the first rolling round no die is thrown: 7 is a face no die shows.
    needed.push(round < p.firstRound ? 7 : Math.min(7, Math.max(1, p.target - modifier)));
  }
  return needed;
}

/** Chance the commander is still on the table in the chosen round. */
const commanderSurvives = (p) => (p.chosenRound <= 1 ? 1 : (1 - p.leaderLoss) ** (p.chosenRound - 1));

/** The metrics at parameters p, in the order `muster describe` lists them. */
function metricList(p) {
  const list = [];
  // A squad's chance, measured as the share of a trial's squads: a mean over trials, since squads of one
  // trial share the commander's fate (the built-in rule reads the same share off its tally).
  for (let r = 1; r <= p.rounds; r++) list.push({ name: `squad.round.${r}`, doc: `a given squad arrives in round ${r} (share of squads)`, probability: false });
  list.push({ name: 'squad.never', doc: 'a given squad never arrives and is lost (share of squads)', probability: false });
  for (let r = 1; r <= p.rounds; r++) list.push({ name: `all.by.${r}`, doc: `every squad has arrived by the end of round ${r}`, probability: true });
  list.push({ name: 'lost.mean', doc: 'expected squads lost', probability: false });
  for (let r = 1; r <= p.rounds; r++) list.push({ name: `arrived.by.${r}.mean`, doc: `expected squads on the table by the end of round ${r}`, probability: false });
  list.push({ name: 'dice.mean', doc: 'expected reserve dice rolled over the game', probability: false });
  return list;
}

export default {
  id: 'reserves',
  title: 'Genesys reserves (rule file)',
  summary: 'Genesys Project reserves as a rule file: when squads arrive, with a chosen reserve round and command bonus',
  source: 'The Genesys Project, designer preview, §6.5 Reserves',
  params: [
    { name: 'squads', type: 'integer', default: 4, min: 1, max: 100, doc: 'squads held in reserve' },
    { name: 'rounds', type: 'integer', default: 4, min: 1, max: 12, doc: 'rounds in which reserves may arrive; a squad not in after the last is lost (the text: four)' },
    { name: 'target', type: 'integer', default: 7, min: 2, max: 20, doc: 'a squad arrives when 1d6 + round (+ bonus) reaches this (the text: 7+)' },
    { name: 'chosenRound', type: 'integer', default: 0, min: 0, max: 12, doc: 'the chosen reserve round, 0 for none; at most rounds' },
    { name: 'command', type: 'integer', default: 2, min: 0, max: 10, doc: 'highest command on the table, added to every reserve roll in the chosen round' },
    { name: 'leaderLoss', type: 'number', default: 0, min: 0, max: 1, doc: 'chance the commander is lost in each round before the chosen round; the bonus needs it alive' },
    { name: 'fallbackCommand', type: 'integer', default: 0, min: 0, max: 10, doc: 'bonus used instead once the commander is lost' },
    { name: 'firstRound', type: 'integer', default: 1, min: 1, max: 12, doc: 'the first round in which reserves roll; the text does not say rolls wait, so 1; at most rounds' },
  ],

  validate(p) {
    if (p.firstRound > p.rounds) return `firstRound: got ${p.firstRound}; allowed: 1 to rounds (${p.rounds})`;
    if (p.chosenRound > p.rounds) return `chosenRound: got ${p.chosenRound}; allowed: 0 (none) to rounds (${p.rounds})`;
    if (p.chosenRound !== 0 && p.chosenRound < p.firstRound) return `chosenRound: got ${p.chosenRound}; allowed: 0 (none) or firstRound (${p.firstRound}) to rounds (${p.rounds})`;
  },

  metrics: metricList,

  // Where the text is silent: the reading each parameter selects, listed by describe and on every page.
  readings(p) {
    return [
      {
        param: 'firstRound',
        text: p.firstRound === 1 ? 'reserves roll from game round 1, reading "each squad rolls separately each round" literally' : `reserves first roll in game round ${p.firstRound}`,
      },
    ];
  },

  // Work that depends only on the parameters, done once per chunk of trials; trial receives it as `s`.
  setup(p) {
    const survives = commanderSurvives(p);
    const order = metricList(p).map((metric) => metric.name);
    const position = (name) => order.indexOf(name);
    const names = (prefix, suffix = '') => Array.from({ length: p.rounds + 1 }, (_, r) => `${prefix}${r}${suffix}`);
    return {
      withCommander: facesNeeded(p, p.command),
      withoutCommander: facesNeeded(p, p.fallbackCommand),
      survives,
      // Only when the commander's fate is uncertain and changes the bonus does a trial roll for it.
      fateMatters: p.chosenRound > 0 && p.command !== p.fallbackCommand && survives !== 1 && survives !== 0,
      // out[k] is the k-th metric: in a loop over rounds, writing by position is much faster than by a
      // computed name (docs/custom-rules.md, "Speed").
      round: names('squad.round.').map(position),
      allBy: names('all.by.').map(position),
      arrivedBy: names('arrived.by.', '.mean').map(position),
    };
  },

  trial(dice, p, out, s) {
    const needed = s.fateMatters && dice.random() >= s.survives ? s.withoutCommander : s.withCommander;
    let stillOut = p.squads;
    let arrivedBy = 0;
    let rolled = 0;
    // Each squad still in reserve rolls its own die each round, until it arrives.
    for (let round = 1; round <= p.rounds; round++) {
      let arriving = 0;
      if (round >= p.firstRound) {
        // stillOut d6, counting those showing needed[round] or more (four to a draw on stream 2).
        arriving = dice.count(stillOut, 6, needed[round]);
        rolled += stillOut;
      }
      stillOut -= arriving;
      arrivedBy += arriving;
      out[s.round[round]] = arriving / p.squads;
      out[s.arrivedBy[round]] = arrivedBy;
      out[s.allBy[round]] = stillOut === 0 ? 1 : 0; // numbers, not booleans: see docs/custom-rules.md, "Speed"
    }
    out['squad.never'] = stillOut / p.squads;
    out['lost.mean'] = stillOut;
    out['dice.mean'] = rolled;
  },

  // Given the commander's fate, squads are independent: each arrives in round r with chance
  // P(still out before r) · (7 − needed[r])/6. Exact in BigInt fractions, returned as 'n/d' strings.
  exact(p) {
    const fates = [];
    const alive = p.chosenRound <= 1 ? one : pow(sub(one, fromDecimal(p.leaderLoss)), p.chosenRound - 1);
    fates.push({ weight: alive, needed: facesNeeded(p, p.command) });
    fates.push({ weight: sub(one, alive), needed: facesNeeded(p, p.fallbackCommand) });
    const result = {};
    const add = (name, value) => (result[name] = add2(result[name] ?? zero, value));
    const squads = [BigInt(p.squads), 1n];
    for (const { weight, needed } of fates) {
      let stillOut = one;
      let diceRolled = zero;
      for (let r = 1; r <= p.rounds; r++) {
        if (r >= p.firstRound) diceRolled = add2(diceRolled, stillOut);
        const arrivesNow = mul(stillOut, [BigInt(7 - needed[r]), 6n]);
        stillOut = sub(stillOut, arrivesNow);
        const inBy = sub(one, stillOut);
        add(`squad.round.${r}`, mul(weight, arrivesNow));
        add(`all.by.${r}`, mul(weight, pow(inBy, p.squads)));
        add(`arrived.by.${r}.mean`, mul(mul(weight, inBy), squads));
      }
      add('squad.never', mul(weight, stillOut));
      add('lost.mean', mul(mul(weight, stillOut), squads));
      add('dice.mean', mul(mul(weight, diceRolled), squads));
    }
    return Object.fromEntries(Object.entries(result).map(([name, [n, d]]) => [name, `${n}/${d}`]));
  },
};

// Fractions as [numerator, denominator] pairs of BigInts, in lowest terms.
const zero = [0n, 1n];
const one = [1n, 1n];
const gcd = (a, b) => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
const reduce = ([n, d]) => {
  const g = gcd(n, d) || 1n;
  return [n / g, d / g];
};
const add2 = (a, b) => reduce([a[0] * b[1] + b[0] * a[1], a[1] * b[1]]);
const sub = (a, b) => reduce([a[0] * b[1] - b[0] * a[1], a[1] * b[1]]);
const mul = (a, b) => reduce([a[0] * b[0], a[1] * b[1]]);
const pow = (a, k) => (k === 0 ? one : mul(a, pow(a, k - 1)));
/** A number parameter as the decimal it was typed as (0.15 is 15/100), as muster's built-in rules read it. */
function fromDecimal(x) {
  const [digits, exponent = '0'] = String(x).split('e');
  const [whole, fraction = ''] = digits.split('.');
  const shift = Number(exponent) - fraction.length;
  const n = BigInt(whole + fraction);
  return shift >= 0 ? reduce([n * 10n ** BigInt(shift), 1n]) : reduce([n, 10n ** BigInt(-shift)]);
}
