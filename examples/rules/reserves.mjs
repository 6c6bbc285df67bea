// reserves.mjs — the Genesys Project reserves rule (designer preview, §6.5), written as a muster rule file.
//
//   "Reserves are brought in on a die roll with a target number of 7+ … roll 1d6 for each unit and add
//    the Game Round to this number." A chosen reserve round adds the highest command on the table to every
//    reserve roll that round; a squad not in after four rounds does not make the battle.
//
// It is muster's built-in `reserves` rule ported to the rule-file contract (docs/custom-rules.md), with the
// same id, parameters and metric names (the built-in also reports atLeast.k.by.r, left out here). It counts
// each trial's outcome rather than writing fifteen metrics ("Counting outcomes" in the docs) and reads a
// squad's dice as the built-in does on streams 2 to 5 (5 the default), so there `muster run
// examples/rules/reserves.mjs` and `muster run reserves` give the same numbers for a seed, metric for metric
// (test/rules/examples-rules.test.ts checks it, and `npm run bench` compares their speed). Imports nothing from muster.

/**
 * Faces 1–6 (7: none) that bring a squad in, round by round (index r for round r), with `bonus` in the chosen round.
 */
function facesNeeded(p, bonus) {
  const needed = [0];
  for (let round = 1; round <= p.rounds; round++) {
    const modifier = round + (round === p.chosenRound ? bonus : 0);
    // Before the first rolling round no die is thrown: 7 is a face no die shows.
    needed.push(round < p.firstRound ? 7 : Math.min(7, Math.max(1, p.target - modifier)));
  }
  return needed;
}

/** Outcomes counted at most (a chunk keeps a count of each): beyond, each trial writes its metrics. */
const OUTCOMES_KEPT = 1 << 18;

/** Dice one draw reads at once, and its bound: four d6, as base-6 digits. */
const GROUP = 4;
const GROUP_BOUND = 6 ** GROUP;

/**
 * What one squad's dice do, for a trial's outcome. The squad rolls one die in each round from
 * firstRound on, until one shows needed[round] or more; its dice come in groups of up to four rounds a
 * draw (v from 0 to 6^k − 1, die i showing 1 + ⌊v / 6^i⌋ mod 6). digits[g · 1296 + v] is what the
 * squad adds to the outcome when group g's dice are v: (squads + 1)^(r − 1) for arriving in round r,
 * (squads + 1)^rounds for being lost (after the last group), or −1 when none of the group's dice
 * brings it in and another group follows.
 */
function arrivalDigits(p, needed) {
  const base = p.squads + 1;
  const groups = Math.ceil((p.rounds - p.firstRound + 1) / GROUP);
  const digits = new Int32Array(groups * GROUP_BOUND);
  const bounds = new Int32Array(groups);
  for (let group = 0; group < groups; group++) {
    const first = p.firstRound + group * GROUP;
    const dice = Math.min(GROUP, p.rounds - first + 1);
    bounds[group] = 6 ** dice;
    for (let v = 0; v < bounds[group]; v++) {
      let digit = group === groups - 1 ? base ** p.rounds : -1;
      for (let die = 0; die < dice; die++) {
        const face = 1 + (Math.floor(v / 6 ** die) % 6);
        if (face >= needed[first + die]) {
          digit = base ** (first + die - 1);
          break;
        }
      }
      digits[group * GROUP_BOUND + v] = digit;
    }
  }
  return { digits, bounds };
}

/** Writes into out the metrics of a trial in which arriving[r] squads arrived in round r. */
function write(arriving, p, out, s) {
  let stillOut = p.squads;
  let arrivedBy = 0;
  let rolled = 0;
  for (let round = 1; round <= p.rounds; round++) {
    if (round >= p.firstRound) rolled += stillOut; // every squad still out rolls a die
    stillOut -= arriving[round];
    arrivedBy += arriving[round];
    out[s.round[round]] = arriving[round] / p.squads;
    out[s.arrivedBy[round]] = arrivedBy;
    out[s.allBy[round]] = stillOut === 0 ? 1 : 0; // numbers, not booleans: see docs/custom-rules.md, "Speed"
  }
  out['squad.never'] = stillOut / p.squads;
  out['lost.mean'] = stillOut;
  out['dice.mean'] = rolled;
}

/** Chance the commander is still on the table in the chosen round. */
const commanderSurvives = (p) => (p.chosenRound <= 1 ? 1 : (1 - p.leaderLoss) ** (p.chosenRound - 1));

/** The metrics at parameters p, in the order `muster describe` lists them. */
function metricList(p) {
  const list = [];
  // A squad's chance, measured as the share of a trial's squads: a mean over trials, since squads of one
  // trial share the commander's fate (the built-in rule reads the same share off its tally).
  for (let r = 1; r <= p.rounds; r++)
    list.push({
      name: `squad.round.${r}`,
      doc: `a given squad arrives in round ${r} (share of squads)`,
      probability: false,
    });
  list.push({
    name: 'squad.never',
    doc: 'a given squad never arrives and is lost (share of squads)',
    probability: false,
  });
  for (let r = 1; r <= p.rounds; r++)
    list.push({ name: `all.by.${r}`, doc: `every squad has arrived by the end of round ${r}`, probability: true });
  list.push({ name: 'lost.mean', doc: 'expected squads lost', probability: false });
  for (let r = 1; r <= p.rounds; r++)
    list.push({
      name: `arrived.by.${r}.mean`,
      doc: `expected squads on the table by the end of round ${r}`,
      probability: false,
    });
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
    {
      name: 'rounds',
      type: 'integer',
      default: 4,
      min: 1,
      max: 12,
      doc: 'rounds in which reserves may arrive; a squad not in after the last is lost (the text: four)',
    },
    {
      name: 'target',
      type: 'integer',
      default: 7,
      min: 2,
      max: 20,
      doc: 'a squad arrives when 1d6 + round (+ bonus) reaches this (the text: 7+)',
    },
    {
      name: 'chosenRound',
      type: 'integer',
      default: 0,
      min: 0,
      max: 12,
      doc: 'the chosen reserve round, 0 for none; at most rounds',
    },
    {
      name: 'command',
      type: 'integer',
      default: 2,
      min: 0,
      max: 10,
      doc: 'highest command on the table, added to every reserve roll in the chosen round',
    },
    {
      name: 'leaderLoss',
      type: 'number',
      default: 0,
      min: 0,
      max: 1,
      doc: 'chance the commander is lost in each round before the chosen round; the bonus needs it alive',
    },
    {
      name: 'fallbackCommand',
      type: 'integer',
      default: 0,
      min: 0,
      max: 10,
      doc: 'bonus used instead once the commander is lost',
    },
    {
      name: 'firstRound',
      type: 'integer',
      default: 1,
      min: 1,
      max: 12,
      doc: 'the first round in which reserves roll; the text does not say rolls wait, so 1; at most rounds',
    },
  ],

  validate(p) {
    if (p.firstRound > p.rounds) return `firstRound: got ${p.firstRound}; allowed: 1 to rounds (${p.rounds})`;
    if (p.chosenRound > p.rounds) return `chosenRound: got ${p.chosenRound}; allowed: 0 (none) to rounds (${p.rounds})`;
    if (p.chosenRound !== 0 && p.chosenRound < p.firstRound)
      return (
        `chosenRound: got ${p.chosenRound}; allowed: 0 (none) or firstRound (${p.firstRound}) to rounds ` +
        `(${p.rounds})`
      );
  },

  metrics: metricList,

  // Where the text is silent: the reading each parameter selects, listed by describe and on every page.
  readings(p) {
    return [
      {
        param: 'firstRound',
        text:
          p.firstRound === 1
            ? 'reserves roll from game round 1, reading "each squad rolls separately each round" literally'
            : `reserves first roll in game round ${p.firstRound}`,
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
      // A trial's outcome: how many squads arrived in each round and how many were lost, as the digits of
      // one number in base squads + 1 (round r's arrivals times (squads + 1)^(r − 1), the lost times
      // (squads + 1)^rounds). Counting those instead of writing fifteen metrics a trial is what makes the
      // port fast (docs/custom-rules.md, "Speed"); past OUTCOMES_KEPT outcomes it writes them after all.
      base: p.squads + 1,
      outcomes: (p.squads + 1) ** (p.rounds + 1) <= OUTCOMES_KEPT ? (p.squads + 1) ** (p.rounds + 1) : 0,
      arriving: new Int32Array(p.rounds + 1),
      // What a squad's dice do, read off at once: see arrivalDigits.
      withDigits: arrivalDigits(p, facesNeeded(p, p.command)),
      withoutDigits: arrivalDigits(p, facesNeeded(p, p.fallbackCommand)),
    };
  },

  // How many outcomes a trial can end in (0: none counted, every trial writes its metrics into out).
  outcomes: (p, s) => s.outcomes,

  trial(dice, p, out, s) {
    const lost = s.fateMatters && dice.random() >= s.survives;
    if (s.outcomes > 0) {
      // Each squad rolls its dice for every round at once, four to a draw (dice.below(6 ** 4) is four d6
      // as base-6 digits), and a table says which digit of the outcome it adds: the round it arrives in.
      const { digits, bounds } = lost ? s.withoutDigits : s.withDigits;
      let outcome = 0;
      for (let squad = 0; squad < p.squads; squad++) {
        for (let group = 0; ; group++) {
          const digit = digits[group * GROUP_BOUND + dice.below(bounds[group])];
          if (digit >= 0) {
            outcome += digit;
            break;
          }
        }
      }
      return outcome;
    }
    // Too many outcomes to count (many squads and rounds): the trial writes its metrics. Each squad still
    // in reserve rolls its own die each round, until it arrives.
    const needed = lost ? s.withoutCommander : s.withCommander;
    let stillOut = p.squads;
    for (let round = 1; round <= p.rounds; round++) {
      // stillOut d6, counting those showing needed[round] or more (four to a draw on streams 2 to 5).
      const arriving = round >= p.firstRound ? dice.count(stillOut, 6, needed[round]) : 0;
      stillOut -= arriving;
      s.arriving[round] = arriving; // scratch for write(), overwritten every trial
    }
    write(s.arriving, p, out, s);
  },

  // What one outcome reports: every metric, as a trial ending that way would write it.
  read(outcome, p, out, s) {
    for (let round = 1; round <= p.rounds; round++) {
      s.arriving[round] = outcome % s.base;
      outcome = (outcome - s.arriving[round]) / s.base;
    }
    write(s.arriving, p, out, s);
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
