// reserves-2d6.mjs — reserves arrive on 2d6 + round instead of 1d6 + round
export default {
  id: 'reserves-2d6',
  title: 'Reserves on 2d6',
  summary: 'each squad in reserve arrives on 2d6 + round ≥ target; four rounds, then it is lost',
  source: 'our house rules, draft 3, §4 Reserves',
  params: [
    { name: 'squads', type: 'integer', default: 3, min: 1, max: 12, doc: 'squads held in reserve' },
    {
      name: 'target',
      type: 'integer',
      default: 10,
      min: 2,
      max: 16,
      doc: 'a squad arrives when 2d6 + round reaches this',
    },
  ],
  metrics: [
    { name: 'all.by.4', doc: 'every squad has arrived by the end of round 4', probability: true },
    { name: 'lost.mean', doc: 'expected squads lost', probability: false },
  ],
  trial(dice, p, out) {
    let lost = 0;
    for (let squad = 0; squad < p.squads; squad++) {
      let arrived = false;
      for (let round = 1; round <= 4 && !arrived; round++) arrived = dice.d(6) + dice.d(6) + round >= p.target;
      if (!arrived) lost++;
    }
    out['all.by.4'] = lost === 0;
    out['lost.mean'] = lost;
  },
  exact(p) {
    // One squad misses round r when 2d6 + r < target: count those of the 36 ways two dice fall.
    let miss = 1n;
    let all = 1n;
    for (let round = 1; round <= 4; round++) {
      let ways = 0n;
      for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) if (a + b + round < p.target) ways++;
      miss *= ways;
      all *= 36n;
    }
    const squads = BigInt(p.squads);
    return {
      'all.by.4': `${(all - miss) ** squads}/${all ** squads}`, // every squad independently in
      'lost.mean': `${squads * miss}/${all}`, // squads × P(a squad is lost)
    };
  },
};
