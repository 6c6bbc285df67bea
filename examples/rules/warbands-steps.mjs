// warbands-steps.mjs — Mordheim setup (community rules, setup chapter), in the step form, with no exact().
//
//   "the defender is the player whose warband has the highest rating. If more than one warband have the
//    same highest rating, the defender will be the one among them whose warband includes the most models.
//    If there is still a tie, roll a dice to determine who gets to be the defender."
//   "The warband with the lowest warband rating is considered the 'underdog' if the difference of their
//    compared with all other opposing warbands in the scenario is greater than 50."
//   "… that warband [the defender] is set up first. Remaining warbands to setup are determined by the
//    players rolling a D6, with the highest roll set up next … For ties, additional rolls should be
//    performed with the highest result of the additional rolls going first of the tied results."
//   "Each player rolls a D6. The player with the highest roll gets the first turn. … For ties, additional
//    rolls should be performed until a single player has the highest dice roll."
//
// Every roll-off repeats on a tie, so one step is one throw of the dice of those still tied, and a throw
// that settles nothing leads back to the state it came from. Readings as the built-in `warbands` rule
// takes them (without alliances): "roll a dice" for the defender is a roll-off among the tied; a tied
// setup group keeps its place and re-rolls among itself; a lone warband left to set up rolls nothing.
// Two to four warbands, in seating order. test/rules/enumerate-ports.test.ts checks every value against the
// built-in's exact().

const MOST = 4;

/** The warbands, as rating and models, in seating order. */
const warbandsOf = (p) =>
  Array.from({ length: p.count }, (_, i) => ({ rating: p[`rating${i + 1}`], models: p[`models${i + 1}`] }));

/** Highest rating, then most models: those tied on both roll for defender. */
function candidates(warbands) {
  const key = (w) => w.rating * 1000 + w.models;
  const best = Math.max(...warbands.map(key));
  return warbands.map((w, i) => i).filter((i) => key(warbands[i]) === best);
}

/** The next phase once one is settled: setup order, then first turn, then nothing left to roll. */
function next(state, p) {
  if (state.phase === 'defender' && state.tied.length === 1) {
    const defender = state.tied[0];
    const rollers = warbandsOf(p)
      .map((_, i) => i)
      .filter((i) => i !== defender);
    return next({ phase: 'setup', defender, groups: [rollers] }, p);
  }
  if (state.phase === 'setup' && state.groups.every((group) => group.length === 1)) {
    return next(
      { phase: 'first', defender: state.defender, order: state.groups.flat(), tied: warbandsOf(p).map((_, i) => i) },
      p,
    );
  }
  if (state.phase === 'first' && state.tied.length === 1)
    return { phase: 'over', defender: state.defender, order: state.order, first: state.tied[0] };
  return state;
}

/** Each of `who` rolls a d6: the warbands grouped by their roll, highest first. */
function throwDice(who, dice) {
  const rolls = who.map((warband) => ({ warband, roll: dice.d(6) }));
  const groups = [];
  for (let face = 6; face >= 1; face--) {
    const group = rolls.filter((r) => r.roll === face).map((r) => r.warband);
    if (group.length > 0) groups.push(group);
  }
  return groups;
}

export default {
  id: 'warbands-steps',
  title: 'Mordheim defenders, underdogs and turn order (step form)',
  summary:
    'Mordheim setup: who defends, who is the underdog, setup order and who plays first, with the dice the ' +
    'roll-offs take',
  source: 'Mordheim community rules, setup: Attackers and Defenders, Underdogs, Deployment, Order of Play',
  params: [
    { name: 'count', type: 'integer', default: 3, min: 2, max: MOST, doc: 'warbands in the game' },
    ...[152, 148, 120, 100].flatMap((rating, i) => [
      {
        name: `rating${i + 1}`,
        type: 'integer',
        default: rating,
        min: 0,
        max: 10000,
        doc: `warband ${i + 1}'s rating (seating order)`,
      },
      {
        name: `models${i + 1}`,
        type: 'integer',
        default: [9, 11, 8, 8][i],
        min: 1,
        max: 200,
        doc: `models in warband ${i + 1}`,
      },
    ]),
    { name: 'defender', type: 'boolean', default: true, doc: 'the scenario has a defender, who sets up first' },
  ],
  metrics(p) {
    const list = [];
    for (let i = 1; i <= p.count; i++) {
      list.push({ name: `w${i}.defender`, doc: `warband ${i} is the defender`, probability: true });
      list.push({ name: `w${i}.underdog`, doc: `warband ${i} is the underdog`, probability: true });
      for (let k = 1; k <= p.count; k++)
        list.push({ name: `w${i}.setup.${k}`, doc: `warband ${i} sets up in place ${k}`, probability: true });
      list.push({ name: `w${i}.first`, doc: `warband ${i} takes the first turn`, probability: true });
    }
    list.push({ name: 'dice.setup.mean', doc: 'expected D6 thrown to settle the setup order', probability: false });
    list.push({ name: 'dice.first.mean', doc: 'expected D6 thrown to settle the first turn', probability: false });
    list.push({
      name: 'dice.defender.mean',
      doc: 'expected D6 thrown to break a tie for defender',
      probability: false,
    });
    return list;
  },

  start(p) {
    const everyone = warbandsOf(p).map((_, i) => i);
    return next(
      p.defender
        ? { phase: 'defender', tied: candidates(warbandsOf(p)) }
        : { phase: 'setup', defender: -1, groups: [everyone] },
      p,
    );
  },

  step(state, dice, p, out) {
    if (state.phase === 'defender') {
      const groups = throwDice(state.tied, dice);
      out['dice.defender.mean'] = state.tied.length;
      return next({ phase: 'defender', tied: groups[0] }, p); // only those tied for highest roll again
    }
    if (state.phase === 'setup') {
      // The first group still tied rolls; its members split by their rolls, in place.
      const at = state.groups.findIndex((group) => group.length > 1);
      out['dice.setup.mean'] = state.groups[at].length;
      const groups = [
        ...state.groups.slice(0, at),
        ...throwDice(state.groups[at], dice),
        ...state.groups.slice(at + 1),
      ];
      return next({ ...state, groups }, p);
    }
    const groups = throwDice(state.tied, dice);
    out['dice.first.mean'] = state.tied.length;
    return next({ ...state, tied: groups[0] }, p);
  },

  done: (state) => state.phase === 'over',

  report(state, p, out) {
    const warbands = warbandsOf(p);
    const lowest = Math.min(...warbands.map((w) => w.rating));
    const places = state.defender >= 0 ? [state.defender, ...state.order] : state.order;
    warbands.forEach((w, i) => {
      out[`w${i + 1}.defender`] = state.defender === i;
      // No alliances here: the lowest-rated warband, when more than 50 below every other.
      out[`w${i + 1}.underdog`] =
        w.rating === lowest && warbands.every((other, j) => j === i || other.rating - w.rating > 50);
      out[`w${i + 1}.setup.${places.indexOf(i) + 1}`] = true;
      out[`w${i + 1}.first`] = state.first === i;
    });
  },
};
