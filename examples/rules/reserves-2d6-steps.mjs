// reserves-2d6-steps.mjs — the walk-through's rule in the step form: muster finds its exact values.
export default {
  id: 'reserves-2d6-steps',
  title: 'Reserves on 2d6 (step form)',
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
  // One step is one squad's roll: the round, the squads still to roll in it, and the squads still out.
  start: (p) => ({ round: 1, toRoll: p.squads, out: p.squads }),
  step(s, dice, p) {
    const arrives = dice.d(6) + dice.d(6) + s.round >= p.target;
    const out = arrives ? s.out - 1 : s.out;
    if (s.toRoll > 1) return { round: s.round, toRoll: s.toRoll - 1, out };
    return { round: s.round + 1, toRoll: out, out }; // the round is over: next round, every squad still out rolls
  },
  done: (s) => s.round > 4 || s.out === 0,
  report(s, p, out) {
    out['all.by.4'] = s.out === 0;
    out['lost.mean'] = s.out;
  },
};
