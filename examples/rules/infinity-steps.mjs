// infinity-steps.mjs — the Infinity N4 Initiative Roll, in the step form, with no exact() at all.
//
//   "… both players roll a D20 and compare their results and the one with the higher result (that does
//    not exceed their Lieutenant's WIP Attribute) is the winner of the Initiative Roll."
//   "In the case of a tie, or both players failing, repeat the Initiative Roll."
//   (Infinity N4, Initiative and Deployment: Initiative Roll; criticals from its Face to Face Rolls.)
//
// A roll repeated until someone wins has paths of every length, so it is written as a chain of states:
// one step is one Face to Face roll, and a tie leads back to the state it came from. muster enumerates
// the step's 400 pairs of faces and solves the loop exactly (docs/custom-rules.md, "Exact without writing
// it"); test/rules/enumerate-ports.test.ts checks every value against the built-in `infinity` rule's exact().

/** A critical beats any ordinary result (at most 20). */
const CRITICAL = 100;

/**
 * What a d20 face scores for a Lieutenant of this WIP: 0 a failure, the result for a success, CRITICAL
 * for a critical. With criticals (the Face to Face rules): a roll equal to WIP is a critical; above WIP
 * 20 the excess is added to the die and every result of 20 or more is a critical.
 */
function score(face, wip, crits) {
  if (!crits) return face <= wip ? face : 0;
  const result = face + Math.max(0, wip - 20);
  if (result > wip) return 0;
  return result === wip || result >= 20 ? CRITICAL : result;
}

export default {
  id: 'infinity-steps',
  title: 'Infinity Initiative Roll (step form)',
  summary:
    "Infinity N4 Initiative Roll: face-to-face d20 against each Lieutenant's WIP, repeated on a tie or double failure",
  source: 'Infinity N4, Initiative and Deployment: Initiative Roll; Face to Face Rolls',
  params: [
    { name: 'wipA', type: 'integer', default: 13, min: 1, max: 30, doc: "player A's Lieutenant's WIP" },
    { name: 'wipB', type: 'integer', default: 13, min: 1, max: 30, doc: "player B's Lieutenant's WIP" },
    {
      name: 'crits',
      type: 'boolean',
      default: true,
      doc: 'a roll equal to WIP is a critical and beats any other success (the Face to Face rules)',
    },
  ],
  metrics(p) {
    const list = [
      { name: 'a.wins', doc: 'player A wins the Initiative Roll', probability: true },
      { name: 'b.wins', doc: 'player B wins the Initiative Roll', probability: true },
    ];
    if (p.crits) {
      list.push({ name: 'a.crit', doc: 'player A wins with a critical', probability: true });
      list.push({ name: 'b.crit', doc: 'player B wins with a critical', probability: true });
    }
    list.push({ name: 'rolls.mean', doc: 'expected Face to Face rolls until one decides', probability: false });
    list.push({ name: 'rolls.1', doc: 'the first roll decides', probability: true });
    return list;
  },
  headline: ['a.wins', 'b.wins'],

  // The state: still rolling (and whether this is the first roll), or who won and how.
  start: () => ({ rolling: true, first: true }),
  step(state, dice, p, out) {
    out['rolls.mean'] = 1; // what a step writes adds up: one per roll
    const a = score(dice.d(20), p.wipA, p.crits);
    const b = score(dice.d(20), p.wipB, p.crits);
    if (a === b) return { rolling: true, first: false }; // a tie, or both failed: roll again
    const winner = a > b ? 'a' : 'b';
    return { rolling: false, winner, crit: Math.max(a, b) === CRITICAL, first: state.first };
  },
  done: (state) => !state.rolling,
  report(state, p, out) {
    out['a.wins'] = state.winner === 'a';
    out['b.wins'] = state.winner === 'b';
    if (p.crits) {
      out['a.crit'] = state.winner === 'a' && state.crit;
      out['b.crit'] = state.winner === 'b' && state.crit;
    }
    out['rolls.1'] = state.first;
  },
};
