// deployment-gamble.mjs — infiltrators gamble on deploying forward.
//
// Before deployment each infiltrating unit rolls a d6: on `forwardOn`+ it deploys forward; on
// `disasterOn` or less the opponent places it (a disaster); otherwise it deploys normally. The player
// has one command re-roll for the whole deployment, spent on the first unit whose roll the policy
// names (a disaster, or any roll short of forward); the second roll stands. If `initiativeLoss` or
// more units end in disaster, the opponent chooses who takes the first turn.
//
// The designer's questions: how many units can I risk before the opponent takes the initiative, and
// is the re-roll better saved for disasters? exact() is a dynamic programme over the units;
// test/rules/examples-rules.test.ts checks it against the trial run on every way the dice can fall.

const outcomeOf = (p, face) => (face >= p.forwardOn ? 'forward' : face <= p.disasterOn ? 'disaster' : 'normal');
const rerollFor = (p, outcome) =>
  p.reroll === 'disasters' ? outcome === 'disaster' : p.reroll === 'failures' ? outcome !== 'forward' : false;

// Fractions as [numerator, denominator] BigInt pairs.
const gcd = (a, b) => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
const frac = (n, d) => {
  const g = gcd(n, d) || 1n;
  return [n / g, d / g];
};

export default {
  id: 'deployment-gamble',
  title: 'Infiltrators: the deployment gamble',
  summary: 'units gamble on deploying forward; disasters are placed by the opponent and may cost the initiative',
  source: 'worked example for muster rule files',
  params: [
    { name: 'units', type: 'integer', default: 3, min: 1, max: 8, doc: 'infiltrating units that roll' },
    { name: 'forwardOn', type: 'integer', default: 4, min: 2, max: 6, doc: 'a unit deploys forward on this or more' },
    {
      name: 'disasterOn',
      type: 'integer',
      default: 1,
      min: 0,
      max: 4,
      doc: 'the opponent places a unit that rolls this or less (0: never)',
    },
    {
      name: 'reroll',
      type: 'choice',
      default: 'disasters',
      choices: ['none', 'disasters', 'failures'],
      doc: 'the one command re-roll: not used, or spent on the first disaster, or on the first roll short of forward',
    },
    {
      name: 'initiativeLoss',
      type: 'integer',
      default: 2,
      min: 1,
      max: 8,
      doc: 'this many disasters or more give the opponent the choice of first turn',
    },
  ],
  validate(p) {
    if (p.disasterOn >= p.forwardOn)
      return `disasterOn: got ${p.disasterOn}; allowed: less than forwardOn (${p.forwardOn})`;
  },
  metrics: [
    { name: 'all.forward', doc: 'every unit deploys forward', probability: true },
    { name: 'any.disaster', doc: 'at least one unit is placed by the opponent', probability: true },
    { name: 'opponent.first', doc: 'enough disasters that the opponent chooses who goes first', probability: true },
    { name: 'reroll.used', doc: 'the command re-roll is spent', probability: true },
    { name: 'forward.mean', doc: 'expected units deployed forward', probability: false },
  ],
  headline: ['all.forward', 'opponent.first'],

  trial(dice, p, out) {
    let forward = 0;
    let disasters = 0;
    let rerollLeft = p.reroll !== 'none';
    for (let unit = 0; unit < p.units; unit++) {
      let outcome = outcomeOf(p, dice.d(6));
      if (rerollLeft && rerollFor(p, outcome)) {
        rerollLeft = false;
        out['reroll.used'] = true;
        outcome = outcomeOf(p, dice.d(6));
      }
      if (outcome === 'forward') forward++;
      else if (outcome === 'disaster') disasters++;
    }
    out['all.forward'] = forward === p.units;
    out['any.disaster'] = disasters > 0;
    out['opponent.first'] = disasters >= p.initiativeLoss;
    out['forward.mean'] = forward;
  },

  // Over units one by one, the chance of each (forward, disasters, re-roll still held) so far, counted in
  // whole numbers of 6^(units + 1) equally likely sequences of faces.
  exact(p) {
    const faces = [1, 2, 3, 4, 5, 6].map((face) => outcomeOf(p, face));
    let states = new Map([[`0,0,${p.reroll !== 'none'}`, 1n]]);
    let scale = 1n;
    for (let unit = 0; unit < p.units; unit++) {
      const next = new Map();
      const put = (key, ways) => next.set(key, (next.get(key) ?? 0n) + ways);
      for (const [key, ways] of states) {
        const [forward, disasters, held] = key.split(',');
        for (const first of faces) {
          // Each state's ways are spread over 36 (first, second) pairs; the second is read only after a re-roll.
          for (const second of faces) {
            const reroll = held === 'true' && rerollFor(p, first);
            const outcome = reroll ? second : first;
            const forwardAfter = +forward + (outcome === 'forward');
            const disastersAfter = +disasters + (outcome === 'disaster');
            put(`${forwardAfter},${disastersAfter},${held === 'true' && !reroll}`, ways);
          }
        }
      }
      states = next;
      scale *= 36n;
    }
    const sums = { 'all.forward': 0n, 'any.disaster': 0n, 'opponent.first': 0n, 'reroll.used': 0n, 'forward.mean': 0n };
    for (const [key, ways] of states) {
      const [forward, disasters, held] = key.split(',');
      if (+forward === p.units) sums['all.forward'] += ways;
      if (+disasters > 0) sums['any.disaster'] += ways;
      if (+disasters >= p.initiativeLoss) sums['opponent.first'] += ways;
      if (p.reroll !== 'none' && held === 'false') sums['reroll.used'] += ways;
      sums['forward.mean'] += ways * BigInt(forward);
    }
    return Object.fromEntries(
      Object.entries(sums).map(([name, ways]) => {
        const [n, d] = frac(ways, scale);
        return [name, `${n}/${d}`];
      }),
    );
  },
};
