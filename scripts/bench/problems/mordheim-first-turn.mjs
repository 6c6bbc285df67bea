// mordheim-first-turn.mjs — the bench's Mordheim problem, as icepool's side of it solves it: the first-turn
// roll-off alone (Mordheim community rules, setup: Order of Play).
//
//   "Each player rolls a D6. The player with the highest roll gets the first turn. … For ties, additional
//    rolls should be performed until a single player has the highest dice roll."
//
// One step is one throw of the dice of those tied for highest; a throw that settles nothing leads back to a
// state of as many or fewer tied. examples/rules/warbands-steps.mjs plays the whole setup (defender, setup
// order, first turn: three roll-offs) and is the file a user reads; this one is the same procedure as the
// icepool program it is timed against, so the two sides do the same work.

export default {
  id: 'mordheim-first-turn',
  title: 'Mordheim first-turn roll-off',
  summary: 'each warband rolls a D6, the highest goes first; those tied for highest roll again',
  source: 'Mordheim community rules, setup: Order of Play',
  params: [{ name: 'count', type: 'integer', default: 3, min: 2, max: 6, doc: 'warbands rolling' }],
  metrics: [{ name: 'dice.first.mean', doc: 'expected D6 thrown to settle the first turn', probability: false }],
  start: (p) => ({ tied: p.count }),
  step(state, dice, _p, out) {
    let best = 0;
    let atBest = 0;
    for (let i = 0; i < state.tied; i++) {
      const roll = dice.d(6);
      if (roll > best) {
        best = roll;
        atBest = 1;
      } else if (roll === best) atBest++;
    }
    out['dice.first.mean'] = state.tied; // what a step writes adds up: the dice of each throw
    return { tied: atBest };
  },
  done: (state) => state.tied === 1,
  report() {},
};
