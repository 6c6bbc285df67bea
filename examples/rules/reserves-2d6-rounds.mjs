// reserves-2d6-rounds.mjs — the walk-through's rule in the step form, one step a round: every squad still out
// rolls its 2d6 at once, as one count, so a step is one branch per number of squads that arrive (squads + 1 of
// them) rather than 36 a squad. Its values are reserves-2d6-steps.mjs's, fraction for fraction; it reaches
// hundreds of squads where the per-squad steps stop at a few dozen (docs/custom-rules.md, "Which form").
export default {
  id: 'reserves-2d6-rounds',
  title: 'Reserves on 2d6 (a round a step)',
  summary: 'each squad in reserve arrives on 2d6 + round ≥ target; a squad not in after the last round is lost',
  source: 'our house rules, draft 3, §4 Reserves',
  params: [
    { name: 'squads', type: 'integer', default: 3, min: 1, max: 300, doc: 'squads held in reserve' },
    {
      name: 'rounds',
      type: 'integer',
      default: 4,
      min: 1,
      max: 12,
      doc: 'rounds in which reserves may arrive (the draft: four)',
    },
    {
      name: 'target',
      type: 'integer',
      default: 10,
      min: 2,
      max: 16,
      doc: 'a squad arrives when 2d6 + round reaches this',
    },
  ],
  metrics: (p) => [
    {
      name: `all.by.${p.rounds}`,
      doc: `every squad has arrived by the end of round ${p.rounds}`,
      probability: true,
    },
    { name: 'lost.mean', doc: 'expected squads lost', probability: false },
  ],
  // One step is one round: the round about to be rolled and the squads still out.
  start: (p) => ({ round: 1, out: p.squads }),
  step(s, dice, p) {
    const arrived = dice.count(s.out, '2d6', p.target - s.round); // 2d6 + round ≥ target, for each squad still out
    return { round: s.round + 1, out: s.out - arrived };
  },
  done: (s, p) => s.round > p.rounds || s.out === 0,
  report(s, p, out) {
    out[0] = s.out === 0 ? 1 : 0;
    out[1] = s.out;
  },
};
